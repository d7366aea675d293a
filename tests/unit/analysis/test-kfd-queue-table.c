// SPDX-License-Identifier: GPL-2.0
/*
 * record --kfd-args's probe events, written with the formats 7.3 and 6.1
 * printed in the lab (tests/fixtures/formats/linux-VERSION/gpu_trace_4242), read
 * back and turned into the queue view. The values are the scenario's
 * (tests/fixture/scenarios.c, kfd-probes).
 */
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../unit.h"
#include "analysis/kfd-queue-table.h"

#define US_NS(x)	((uint64_t)(x) * 1000 + 1000000000ULL)

struct run {
	struct analysis a;
	char path[64];
};

static const struct kfd_queue_table *table(struct run *r, const char *scenario)
{
	struct gt_error err = { 0 };

	memset(r, 0, sizeof(*r));
	if (scenario_tmpfile(scenario, r->path, sizeof(r->path)) ||
	    analysis_open(&r->a, r->path, NULL, &err) || analysis_run(&r->a, &err))
		return NULL;
	return kfd_queue_table_of(&r->a);
}

static void done(struct run *r)
{
	analysis_close(&r->a);
	unlink(r->path);
}

/* What both kernels agree on: the values passed, answers, lifetimes. */
static void check_common(const struct kfd_queue_table *t)
{
	const struct kfd_queue *q = t->queues;

	CU_ASSERT_TRUE(t->probes);
	CU_ASSERT_EQUAL_FATAL(t->nr_queues, 3);
	CU_ASSERT_EQUAL(q[0].pid, 4242);
	CU_ASSERT_EQUAL(q[0].gpu_id, 0x9a1c);
	CU_ASSERT_EQUAL(q[0].type, 2);
	CU_ASSERT_STRING_EQUAL(kfd_queue_type_name(q[0].type), "compute-aql");
	CU_ASSERT_EQUAL(q[0].priority, 7);
	CU_ASSERT_EQUAL(q[0].ring, 0x7f1000000000ULL);
	CU_ASSERT_EQUAL(q[0].ring_size, 65536);
	CU_ASSERT_EQUAL(q[0].wptr, 0x7f1000010000ULL);
	CU_ASSERT_EQUAL(q[0].ctx_save_size, 0x2a0000);
	CU_ASSERT_TRUE(q[0].has_result);
	CU_ASSERT_EQUAL(q[0].result, 0);
	CU_ASSERT_EQUAL(q[0].created, US_NS(100));
	CU_ASSERT_EQUAL(q[0].create_ns, 30000);
	CU_ASSERT_TRUE(q[0].has_id);
	CU_ASSERT_EQUAL(q[0].queue_id, 0);
	CU_ASSERT_TRUE(q[0].destroyed);
	CU_ASSERT_EQUAL(q[0].destroyed_at, US_NS(1720));
	CU_ASSERT_EQUAL(q[0].evictions, 1);
	CU_ASSERT_EQUAL(q[0].restores, 1);
	CU_ASSERT_EQUAL(q[0].evicted_ns, 1040000);

	/* a failed create: its answer, no id, never live */
	CU_ASSERT_EQUAL(q[1].gpu_id, 0x1234);
	CU_ASSERT_EQUAL(q[1].result, -22);
	CU_ASSERT_FALSE(q[1].has_id);
	CU_ASSERT_FALSE(q[1].destroyed);
	CU_ASSERT_EQUAL(q[1].evictions, 0);

	/* sdma, updated, live at the end */
	CU_ASSERT_STRING_EQUAL(kfd_queue_type_name(q[2].type), "sdma");
	CU_ASSERT_TRUE(q[2].has_id);
	CU_ASSERT_EQUAL(q[2].queue_id, 1);
	CU_ASSERT_EQUAL(q[2].updates, 1);
	CU_ASSERT_EQUAL(q[2].priority, 9);
	CU_ASSERT_EQUAL(q[2].ring, 0x7f5000000000ULL);
	CU_ASSERT_EQUAL(q[2].ring_size, 32768);
	CU_ASSERT_FALSE(q[2].destroyed);
	CU_ASSERT_EQUAL(q[2].evictions, 1);

	/* update 1 ok, destroy 0 ok, destroy 7 (no such queue) EINVAL */
	CU_ASSERT_EQUAL_FATAL(t->nr_calls, 3);
	CU_ASSERT_EQUAL(t->calls[0].kind, KP_UPDATE);
	CU_ASSERT_TRUE(t->calls[0].matched);
	CU_ASSERT_EQUAL(t->calls[1].kind, KP_DESTROY);
	CU_ASSERT_EQUAL(t->calls[1].ret, 0);
	CU_ASSERT_EQUAL(t->calls[1].ns, 20000);
	CU_ASSERT_EQUAL(t->calls[2].queue_id, 7);
	CU_ASSERT_EQUAL(t->calls[2].ret, -22);
	CU_ASSERT_FALSE(t->calls[2].matched);
	CU_ASSERT_EQUAL(t->failed_destroys, 1);
	CU_ASSERT_EQUAL(t->unknown_destroys, 0);

	/* the kworker's eviction of both live queues (not the failed one) */
	CU_ASSERT_EQUAL_FATAL(t->nr_evicts, 1);
	CU_ASSERT_EQUAL(t->evicts[0].pid, 4242);
	CU_ASSERT_EQUAL(t->evicts[0].tid, 77);
	CU_ASSERT_STRING_EQUAL(kfd_trigger_name(t->evicts[0].trigger), "ttm");
	CU_ASSERT_EQUAL(t->evicts[0].nr_queues, 2);
	CU_ASSERT_EQUAL(t->evicts[0].evict_ns, 20000);
	CU_ASSERT_TRUE(t->evicts[0].restored);
	CU_ASSERT_EQUAL(t->evicts[0].restore_ns, 40000);
}

static void test_retprobe_7_3(void)
{
	struct run r;
	const struct kfd_queue_table *t = table(&r, "kfd-probes");

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	check_common(t);
	CU_ASSERT_EQUAL(t->queues[0].id_from, KFD_FROM_RETPROBE);
	CU_ASSERT_TRUE(t->queues[0].has_doorbell);
	CU_ASSERT_EQUAL(t->queues[0].doorbell_offset, 0xd000000000000800ULL);
	CU_ASSERT_FALSE(t->queues[1].has_doorbell);
	CU_ASSERT_STRING_EQUAL(t->queues[1].reason, "");
	done(&r);
}

static void test_pr_debug_6_1(void)
{
	struct run r;
	const struct kfd_queue_table *t = table(&r, "kfd-probes-6.1");

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	check_common(t);
	CU_ASSERT_EQUAL(t->queues[2].id_from, KFD_FROM_PR_DEBUG);
	CU_ASSERT_FALSE(t->queues[0].has_doorbell);
	CU_ASSERT_STRING_EQUAL(t->queues[1].reason, "amdgpu: Could not find gpu id 0x1234");
	CU_ASSERT_STRING_EQUAL(t->queues[0].reason, "");
	done(&r);
}

static void test_names(void)
{
	char buf[32];

	CU_ASSERT_STRING_EQUAL(kfd_errno_name(-22, buf, sizeof(buf)), "EINVAL");
	CU_ASSERT_STRING_EQUAL(kfd_errno_name(-4095, buf, sizeof(buf)), "error -4095");
	CU_ASSERT_PTR_NULL(kfd_queue_type_name(99));
	CU_ASSERT_STRING_EQUAL(kfd_trigger_name(99), "unknown");
}

/* A file without the probes: nothing taken, nothing claimed. */
static void test_no_probes(void)
{
	struct run r;
	const struct kfd_queue_table *t = table(&r, "hip-kfd");

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_FALSE(t->probes);
	CU_ASSERT_EQUAL(t->nr_queues, 0);
	CU_ASSERT_EQUAL(t->records, 0);
	done(&r);
}

void suite_kfd_queue_table(void)
{
	CU_pSuite s = CU_add_suite("kfd queue table", NULL, NULL);

	CU_add_test(s, "7.3: ids and doorbells from the return probe", test_retprobe_7_3);
	CU_add_test(s, "6.1: ids and reasons from pr_debug lines", test_pr_debug_6_1);
	CU_add_test(s, "type, trigger and errno names", test_names);
	CU_add_test(s, "a file without probes", test_no_probes);
}
