// SPDX-License-Identifier: GPL-2.0
/*
 * record --preset nvidia's probe events and Xids, written with the formats the lab's stand-in
 * for nvidia.ko printed on 7.3 and 6.1 (tests/fixtures/formats/linux-VERSION/gpu_trace_nv_4242),
 * read back into the NVIDIA view. The calls are the scenario's (tests/fixture/
 * scenarios-nvidia.c); every number below is worked out from its times.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../unit.h"
#include "analysis/nvidia-calls.h"

#define US_NS(x)	((uint64_t)(x) * 1000 + 1000000000ULL)

struct run {
	struct analysis a;
	char path[64];
};

static struct nvidia_calls *calls(struct run *r, const char *scenario)
{
	struct gt_error err = { 0 };

	memset(r, 0, sizeof(*r));
	if (scenario_tmpfile(scenario, r->path, sizeof(r->path)) ||
	    analysis_open(&r->a, r->path, NULL, &err) || analysis_run(&r->a, &err))
		return NULL;
	return nvidia_calls_of(&r->a);
}

static void done(struct run *r)
{
	analysis_close(&r->a);
	unlink(r->path);
}

static struct nv_call_row *row(struct nvidia_calls *n, int pid, uint32_t escape, uint32_t cmd)
{
	int i;

	for (i = 0; i < n->nr_rows; i++)
		if (n->rows[i].pid == pid && n->rows[i].escape == escape && n->rows[i].ctl_cmd == cmd)
			return &n->rows[i];
	return NULL;
}

static struct nv_irq *line(struct nvidia_calls *n, int irq)
{
	int i;

	for (i = 0; i < n->nr_irqs; i++)
		if (n->irqs[i].irq == irq)
			return &n->irqs[i];
	return NULL;
}

/* what both kernels agree on */
static void check_common(struct nvidia_calls *n)
{
	struct nv_call_row *r;
	struct nv_irq *l;

	CU_ASSERT_TRUE(n->probes);
	CU_ASSERT_TRUE(n->commands);
	CU_ASSERT_EQUAL(n->nr_rows, 7);
	CU_ASSERT_EQUAL(n->unmatched, 1);		/* 5002's return at 5 us */
	r = row(n, 5000, 0x2a, 0x20800102);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_TRUE(r->has_cmd);
	CU_ASSERT_EQUAL(r->ns.count, 4);
	CU_ASSERT_EQUAL(r->ns.sum, 15300000);
	CU_ASSERT_EQUAL(r->ns.max, 9000000);
	CU_ASSERT_EQUAL(latency_stats_percentile(&r->ns, 50), 2100000);
	/* the other thread's calls of the same command are its own row */
	r = row(n, 5001, 0x2a, 0x20800102);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->ns.count, 2);
	CU_ASSERT_EQUAL(r->ns.sum, 2000000);
	/* the transfer is counted as the control it carries */
	r = row(n, 5000, 0x2a, 0x00800201);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->ns.count, 1);
	CU_ASSERT_EQUAL(r->ns.max, 300000);
	CU_ASSERT_PTR_NULL(row(n, 5000, 0xd3, 0));
	r = row(n, 5000, 0x5a, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_FALSE(r->has_cmd);
	CU_ASSERT_EQUAL(r->failed, 1);
	CU_ASSERT_EQUAL(row(n, 5000, 0x2b, 0)->ns.count, 2);
	CU_ASSERT_EQUAL(row(n, 5000, 200, 0)->ns.sum, 5000);

	CU_ASSERT_EQUAL_FATAL(n->nr_slowest, NV_SLOWEST);
	CU_ASSERT_EQUAL(n->slowest[0].ns, 9000000);
	CU_ASSERT_EQUAL(n->slowest[0].ts, US_NS(7600));
	CU_ASSERT_EQUAL(n->slowest[1].ns, 2200000);
	CU_ASSERT_EQUAL(n->slowest[NV_SLOWEST - 1].ns, 100000);

	CU_ASSERT_EQUAL_FATAL(n->nr_procs, 2);
	CU_ASSERT_EQUAL(n->procs[0].pid, 5000);
	CU_ASSERT_EQUAL(n->procs[0].ioctls, 10);
	CU_ASSERT_EQUAL(n->procs[0].ioctl_ns, 16115000);
	CU_ASSERT_EQUAL(n->procs[0].opens, 1);
	CU_ASSERT_EQUAL(n->procs[0].closes, 1);
	CU_ASSERT_EQUAL(n->procs[0].mmaps, 2);
	CU_ASSERT_EQUAL(n->procs[0].mmap_failed, 1);
	CU_ASSERT_EQUAL(n->procs[0].mmap_bytes, 65536);

	CU_ASSERT_EQUAL_FATAL(n->nr_irqs, 2);
	l = line(n, 77);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_EQUAL(l->isrs, 4);
	CU_ASSERT_EQUAL(l->unhandled, 1);
	CU_ASSERT_EQUAL(l->bhs, 3);
	CU_ASSERT_EQUAL(l->first, US_NS(20000));
	CU_ASSERT_EQUAL(l->last, US_NS(22000));
	/* the first bottom half serves the two ISRs before it: measured from the first */
	CU_ASSERT_EQUAL(l->to_bh_ns.count, 3);
	CU_ASSERT_EQUAL(l->to_bh_ns.max, 600000);
	CU_ASSERT_EQUAL(l->to_bh_ns.min, 500000);
	CU_ASSERT_EQUAL(l->isr_ns.count, 4);
	CU_ASSERT_EQUAL(l->isr_ns.max, 8000);
	l = line(n, 78);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	/* nvidia_isr_msix around nvidia_isr: one interrupt, one bottom half */
	CU_ASSERT_EQUAL(l->isrs, 1);
	CU_ASSERT_EQUAL(l->msix, 1);
	CU_ASSERT_EQUAL(l->bhs, 1);
	CU_ASSERT_EQUAL(l->bh_ns.count, 1);
	CU_ASSERT_EQUAL(l->bh_ns.max, 30000);
	CU_ASSERT_EQUAL(l->to_bh_ns.max, 399000);

	CU_ASSERT_EQUAL_FATAL(n->nr_uvm, 2);
	CU_ASSERT_TRUE(n->uvm[0].replayable);
	CU_ASSERT_EQUAL(n->uvm[0].gpu, 0xffff888104a2c000ULL);
	CU_ASSERT_EQUAL(n->uvm[0].ns.count, 3);
	CU_ASSERT_EQUAL(n->uvm[0].ns.sum, 1200000);
	CU_ASSERT_FALSE(n->uvm[1].replayable);
	CU_ASSERT_EQUAL(n->uvm[1].ns.max, 150000);

	CU_ASSERT_EQUAL_FATAL(n->nr_xids, 2);
	CU_ASSERT_EQUAL(n->xids[0].code, 13);
	CU_ASSERT_STRING_EQUAL(n->xids[0].dev, "0000:c1:00.0");
	CU_ASSERT_STRING_EQUAL(n->xids[1].msg, "GPU has fallen off the bus.");
	CU_ASSERT_EQUAL(n->xids[1].ts, US_NS(27000));
	CU_ASSERT_TRUE(nvidia_calls_any(n));
}

static void test_nvidia_7_3(void)
{
	struct run r;
	struct nvidia_calls *n = calls(&r, "nvidia");
	struct nv_call_row *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	check_common(n);
	CU_ASSERT_TRUE(n->statuses);
	c = row(n, 5000, 0x2a, 0x20801801);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->statuses, 1);
	CU_ASSERT_EQUAL(c->rm_errors, 1);
	CU_ASSERT_EQUAL(row(n, 5000, 0x2a, 0x20800102)->rm_errors, 0);
	CU_ASSERT_EQUAL(row(n, 5000, 0x2a, 0x20800102)->statuses, 4);
	/* the transfer's status is read from the parameters it carries */
	CU_ASSERT_EQUAL(row(n, 5000, 0x2a, 0x00800201)->statuses, 1);
	CU_ASSERT_EQUAL(row(n, 5000, 0x2a, 0x00800201)->rm_errors, 0);
	/* no status for what is not an RM control */
	CU_ASSERT_EQUAL(row(n, 5000, 0x2b, 0)->statuses, 0);
	CU_ASSERT_TRUE(n->slowest[NV_SLOWEST - 1].has_status);
	CU_ASSERT_EQUAL(n->slowest[NV_SLOWEST - 1].status, 0x1f);
	done(&r);
}

static void test_nvidia_6_1(void)
{
	struct run r;
	struct nvidia_calls *n = calls(&r, "nvidia-6.1");
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	check_common(n);
	CU_ASSERT_FALSE(n->statuses);
	for (i = 0; i < n->nr_rows; i++)
		CU_ASSERT_EQUAL(n->rows[i].statuses, 0);
	CU_ASSERT_FALSE(n->slowest[0].has_status);
	done(&r);
}

/* lines and fault buffers past what the view keeps: counted, not dropped silently */
static void test_nvidia_many_lines(void)
{
	struct run r;
	struct nvidia_calls *n = calls(&r, "nvidia-many-lines");

	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT_EQUAL(n->nr_irqs, NV_MAX_IRQS);
	CU_ASSERT_EQUAL(n->more_isrs, 70 - NV_MAX_IRQS);
	CU_ASSERT_EQUAL(n->irqs[NV_MAX_IRQS - 1].irq, 100 + NV_MAX_IRQS - 1);
	CU_ASSERT_EQUAL(n->nr_uvm, NV_MAX_UVM);
	CU_ASSERT_EQUAL(n->more_uvm_passes, 20 - NV_MAX_UVM);
	done(&r);
}

/* a file of another driver: nothing, and no formats taken */
static void test_no_nvidia(void)
{
	struct run r;
	struct nvidia_calls *n = calls(&r, "kfd-probes");

	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT_FALSE(n->probes);
	CU_ASSERT_EQUAL(n->nr_formats, 0);
	CU_ASSERT_FALSE(nvidia_calls_any(n));
	done(&r);
}

static void test_names(void)
{
	CU_ASSERT_STRING_EQUAL(nv_escape_name(0x2a), "RM_CONTROL");
	CU_ASSERT_STRING_EQUAL(nv_escape_name(211), "IOCTL_XFER_CMD");
	CU_ASSERT_PTR_NULL(nv_escape_name(0x5a));
	CU_ASSERT_EQUAL(nv_probe_group_pid("gpu_trace_nv_4242"), 4242);
	CU_ASSERT_EQUAL(nv_probe_group_pid("gpu_trace_4242"), 0);
	CU_ASSERT_EQUAL(nv_probe_group_pid("gpu_trace_nv_"), 0);
	CU_ASSERT_EQUAL(nv_probe_group_pid("gpu_trace_nv_12x"), 0);
	CU_ASSERT_EQUAL(nv_probe_kind_of("ioctl_ret"), NVP_IOCTL_RET);
	CU_ASSERT_EQUAL(nv_probe_kind_of("nvidia_dev_xid"), NVP_NR);
	/* a return's kind follows its entry's: the analysis pairs them so */
	for (int k = 0; k < NVP_NR; k += 2) {
		char ret[64];

		snprintf(ret, sizeof(ret), "%s_ret", nv_probe_event((enum nv_probe_kind)k));
		CU_ASSERT_EQUAL(nv_probe_kind_of(ret), k + 1);
	}
}

void suite_nvidia_calls(void)
{
	CU_pSuite s = CU_add_suite("nvidia calls", NULL, NULL);

	CU_add_test(s, "7.3: calls, statuses, interrupts, UVM, Xids", test_nvidia_7_3);
	CU_add_test(s, "6.1: the same without RM statuses", test_nvidia_6_1);
	CU_add_test(s, "interrupt lines and fault buffers past the view's: counted as more",
		    test_nvidia_many_lines);
	CU_add_test(s, "a file without NVIDIA events", test_no_nvidia);
	CU_add_test(s, "escape names, group names, probe kinds", test_names);
}
