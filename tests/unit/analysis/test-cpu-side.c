// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU side join (cpu-side.h): the cpu-side fixture (6.1's GPU formats,
 * 6.18's sched, syscalls and irq) split by hand-worked numbers; the ioctl
 * names per family and driver; and what a file can make it hold: threads
 * past the table, ioctl numbers past a thread's rows and the rows' budget.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../fixture/fixture.h"
#include "../unit.h"
#include "analysis/cpu-side.h"
#include "decode/gpu-ioctl.h"

#define US	1000ULL

static const struct cpu_ioctl_row *row(const struct cpu_thread *t, uint64_t cmd)
{
	int i;

	for (i = 0; i < t->nr_rows; i++)
		if (t->rows[i]->cmd == cmd)
			return t->rows[i];
	return NULL;
}

static const struct cpu_thread *thread_of(const struct cpu_side *c, int pid)
{
	int i;

	for (i = 0; i < c->nr_threads; i++)
		if (c->threads[i]->pid == pid)
			return c->threads[i];
	CU_FAIL_FATAL("no such thread");
	return NULL;
}

static void test_the_cpu_side_fixture(void)
{
	struct gt_error err = { 0 };
	const struct cpu_ioctl_row *r;
	const struct cpu_thread *t;
	const struct cpu_side *c;
	struct analysis a;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("cpu-side", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	c = cpu_side_of(&a);
	CU_ASSERT_EQUAL(c->ioctls, 3);
	CU_ASSERT_EQUAL(c->jobs_queued, 1);
	CU_ASSERT_TRUE(c->scheduling && c->interrupts);
	CU_ASSERT_EQUAL(c->driver, GPU_IOCTL_DRIVER_AMDGPU);
	CU_ASSERT_EQUAL_FATAL(c->nr_threads, 2);
	t = c->threads[0];
	CU_ASSERT_EQUAL(t->pid, 5000);
	CU_ASSERT_EQUAL_FATAL(t->nr_rows, 2);

	r = row(t, 0xc0186444);		/* AMDGPU_CS: 160 us, every state */
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->dur.count, 1);
	CU_ASSERT_EQUAL(r->dur.sum, 160 * US);
	CU_ASSERT_EQUAL(r->split.on_cpu_ns, 55 * US);
	CU_ASSERT_EQUAL(r->split.runnable_ns, 40 * US);
	CU_ASSERT_EQUAL(r->split.sleeping_ns, 60 * US);
	CU_ASSERT_EQUAL(r->split.blocked_ns, 60 * US);
	CU_ASSERT_EQUAL(r->split.irq_ns, 5 * US);
	CU_ASSERT_EQUAL(cpu_split_total(&r->split), r->dur.sum);
	CU_ASSERT_EQUAL_FATAL(r->nr_behind, 1);
	CU_ASSERT_EQUAL(r->behind[0].pid, 6000);
	CU_ASSERT_STRING_EQUAL(r->behind[0].comm, "rival");
	CU_ASSERT_EQUAL(r->behind[0].ns, 30 * US);
	CU_ASSERT_EQUAL(r->waking_ns, 10 * US);

	r = row(t, 0xc02064c3);		/* SYNCOBJ_WAIT: asleep (S) on the GPU */
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->dur.sum, 150 * US);
	CU_ASSERT_EQUAL(r->split.on_cpu_ns, 10 * US);
	CU_ASSERT_EQUAL(r->split.sleeping_ns, 135 * US);
	CU_ASSERT_EQUAL(r->split.blocked_ns, 0);
	CU_ASSERT_EQUAL(r->split.runnable_ns, 5 * US);
	CU_ASSERT_EQUAL(cpu_split_total(&r->split), r->dur.sum);

	/* inside the wait ioctl, the CPU waited 142 us on the job's fence */
	CU_ASSERT_EQUAL(t->waits.count, 1);
	CU_ASSERT_EQUAL(t->waits.ns, 142 * US);
	CU_ASSERT_TRUE(t->waits.longest_ctx == 100 && t->waits.longest_seqno == 1);
	CU_ASSERT_STRING_EQUAL(t->waits.longest_timeline, "gfx_0.0.0");
	CU_ASSERT_EQUAL(t->waits.unended, 0);
	CU_ASSERT_EQUAL(c->fence_waits, 1);

	/* the job queued 70 us after the ioctl's enter */
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->to_queued);
	CU_ASSERT_EQUAL(t->to_queued->count, 1);
	CU_ASSERT_EQUAL(t->to_queued->sum, 70 * US);
	CU_ASSERT_EQUAL(t->queued_split.on_cpu_ns, 35 * US);
	CU_ASSERT_EQUAL(t->queued_split.runnable_ns, 30 * US);
	CU_ASSERT_EQUAL(t->queued_split.irq_ns, 5 * US);
	CU_ASSERT_EQUAL(cpu_split_total(&t->queued_split), 70 * US);

	t = c->threads[1];		/* a KFD ioctl with no switch: on CPU throughout */
	CU_ASSERT_EQUAL(t->pid, 5001);
	r = row(t, 0xc0604b02);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->split.on_cpu_ns, 20 * US);
	CU_ASSERT_EQUAL(cpu_split_total(&r->split), 20 * US);
	CU_ASSERT_PTR_NULL(t->to_queued);
	analysis_close(&a);
	unlink(path);
}

/* GPU-bound at half the active time waiting, CPU-bound under a tenth with jobs, mixed between */
/* cpu-side-busy: woken on a CPU rival keeps busy, the wait is behind rival, not "after a wakeup" */
static void test_runnable_behind_a_busy_cpu(void)
{
	struct gt_error err = { 0 };
	const struct cpu_ioctl_row *r;
	const struct cpu_side *c;
	struct analysis a;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("cpu-side-busy", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	c = cpu_side_of(&a);
	CU_ASSERT_EQUAL_FATAL(c->nr_threads, 1);
	r = row(c->threads[0], 0xc02064c3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->dur.sum, 100 * US);
	CU_ASSERT_EQUAL(r->split.on_cpu_ns, 30 * US);
	CU_ASSERT_EQUAL(r->split.sleeping_ns, 30 * US);
	CU_ASSERT_EQUAL(r->split.runnable_ns, 40 * US);
	CU_ASSERT_EQUAL(r->waking_ns, 0);
	CU_ASSERT_EQUAL_FATAL(r->nr_behind, 1);
	CU_ASSERT_EQUAL(r->behind[0].pid, 6000);
	CU_ASSERT_STRING_EQUAL(r->behind[0].comm, "rival");
	CU_ASSERT_EQUAL(r->behind[0].ns, 40 * US);
	analysis_close(&a);
	unlink(path);
}

/*
 * cpu-side-unended: an ioctl entered and not left by the file's last record is in
 * no count, duration or split, and is counted apart with how long it had been inside
 */
static void test_ioctls_with_no_end_in_the_file(void)
{
	struct gt_error err = { 0 };
	const struct cpu_ioctl_row *r;
	const struct cpu_side *c;
	struct analysis a;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("cpu-side-unended", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	c = cpu_side_of(&a);
	CU_ASSERT_EQUAL(c->ioctls, 5);
	CU_ASSERT_EQUAL_FATAL(c->nr_threads, 3);

	r = row(thread_of(c, 5000), 0xc0186444);	/* left: 20 us */
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->dur.count, 1);
	CU_ASSERT_EQUAL(r->dur.sum, 20 * US);
	CU_ASSERT_EQUAL(r->unended, 0);
	CU_ASSERT_TRUE(cpu_ioctl_row_shown(r));

	r = row(thread_of(c, 5000), 0xc02064c3);	/* asleep inside from 40 to the end at 200 */
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->dur.count, 0);
	CU_ASSERT_EQUAL(cpu_split_total(&r->split), 0);
	CU_ASSERT_EQUAL(r->unended, 1);
	CU_ASSERT_EQUAL(r->unended_ns, 160 * US);
	CU_ASSERT_TRUE(cpu_ioctl_row_shown(r));

	r = row(thread_of(c, 5001), 0xc0186444);	/* one left (10 us), one 80 us inside */
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->dur.count, 1);
	CU_ASSERT_EQUAL(r->dur.sum, 10 * US);
	CU_ASSERT_EQUAL(cpu_split_total(&r->split), 10 * US);
	CU_ASSERT_EQUAL(r->unended, 1);
	CU_ASSERT_EQUAL(r->unended_ns, 80 * US);
	CU_ASSERT_EQUAL(thread_of(c, 5001)->waits.count, 0);
	CU_ASSERT_EQUAL(thread_of(c, 5001)->waits.unended, 1);
	/* its preemption inside the unended one is in no row either */
	CU_ASSERT_EQUAL(r->nr_behind, 0);
	CU_ASSERT_EQUAL(r->behind_other_ns + r->waking_ns, 0);

	/* entered before events were lost: its exit may be among them, not said */
	r = row(thread_of(c, 5002), 0xc0186444);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->dur.count + r->unended, 0);
	CU_ASSERT_FALSE(cpu_ioctl_row_shown(r));
	analysis_close(&a);
	unlink(path);
}

/* cpu-side-virtio: of two commands queued in RESOURCE_CREATE only the fenced one is a job */
static void test_virtio_fenced_commands_are_the_jobs(void)
{
	struct gt_error err = { 0 };
	const struct cpu_thread *t;
	const struct cpu_side *c;
	struct analysis a;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("cpu-side-virtio", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	c = cpu_side_of(&a);
	CU_ASSERT_EQUAL_FATAL(c->nr_threads, 1);
	t = c->threads[0];
	CU_ASSERT_EQUAL(c->jobs_queued, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->to_queued);
	CU_ASSERT_EQUAL(t->to_queued->count, 1);
	CU_ASSERT_EQUAL(t->to_queued->sum, 10 * US);
	CU_ASSERT_PTR_NOT_NULL(row(t, 0xc0386444));
	analysis_close(&a);
	unlink(path);
}

static void test_verdicts(void)
{
	struct latency_stats q = { 0 };
	struct cpu_ioctl_row row = { .nr_behind = 2 };
	struct cpu_thread t = {
		.first_ns = 1000, .last_ns = 11000, .rows = { &row }, .nr_rows = 1,
	};
	struct cpu_verdict v;

	row.behind[0] = (struct cpu_behind){ .pid = 812, .comm = "rival", .ns = 300 };
	row.behind[1] = (struct cpu_behind){ .pid = 900, .comm = "other", .ns = 700 };
	/* nothing queued, nothing waited for: no verdict */
	cpu_side_verdict(&t, false, &v);
	CU_ASSERT_EQUAL(v.kind, CPU_VERDICT_NONE);
	CU_ASSERT_PTR_NULL(cpu_verdict_name(v.kind));
	t.waits.count = 1;
	t.waits.ns = 5000;
	cpu_side_verdict(&t, false, &v);
	CU_ASSERT_EQUAL(v.kind, CPU_VERDICT_GPU_BOUND);
	CU_ASSERT_EQUAL(v.span_ns, 10000);
	CU_ASSERT_STRING_EQUAL(cpu_verdict_name(v.kind), "GPU-bound");
	t.waits.ns = 4999;
	cpu_side_verdict(&t, false, &v);
	CU_ASSERT_EQUAL(v.kind, CPU_VERDICT_MIXED);
	/* under a tenth waiting and no job queued: mixed, not CPU-bound */
	t.waits.ns = 999;
	cpu_side_verdict(&t, false, &v);
	CU_ASSERT_EQUAL(v.kind, CPU_VERDICT_MIXED);
	latency_stats_add(&q, 3000);
	latency_stats_add(&q, 1000);
	latency_stats_add(&q, 2000);
	t.to_queued = &q;
	t.queued_split.runnable_ns = 2500;
	cpu_side_verdict(&t, false, &v);
	CU_ASSERT_EQUAL(v.kind, CPU_VERDICT_CPU_BOUND);
	CU_ASSERT_EQUAL(v.jobs, 3);
	CU_ASSERT_EQUAL(v.to_queued_ns, 6000);
	CU_ASSERT_EQUAL(v.to_queued_p50_ns, 2000);
	CU_ASSERT_EQUAL(v.runnable_ns, 2500);
	/* the thread that took the CPU longest over its rows */
	CU_ASSERT_EQUAL(v.behind.pid, 900);
	CU_ASSERT_EQUAL(v.behind.ns, 700);
	t.waits.ns = 1000;
	cpu_side_verdict(&t, false, &v);
	CU_ASSERT_EQUAL(v.kind, CPU_VERDICT_MIXED);
	/* with its scheduling, idle is neither side: 1000 of CPU and 1000 waiting of 10000 */
	t.cpu_from = 500;
	t.cpu_to = 1500;
	cpu_side_verdict(&t, true, &v);
	CU_ASSERT_EQUAL(v.active_ns, 2000);
	CU_ASSERT_EQUAL(v.kind, CPU_VERDICT_GPU_BOUND);
	t.waits.ns = 100;
	cpu_side_verdict(&t, true, &v);
	CU_ASSERT_EQUAL(v.kind, CPU_VERDICT_CPU_BOUND);
	/* one call: no span */
	t.last_ns = t.first_ns;
	cpu_side_verdict(&t, false, &v);
	CU_ASSERT_EQUAL(v.kind, CPU_VERDICT_NONE);
	latency_stats_free(&q);
}

static void test_ioctl_names(void)
{
	char buf[48];

	CU_ASSERT_TRUE(gpu_ioctl_is_gpu(0xc0186444));
	CU_ASSERT_TRUE(gpu_ioctl_is_gpu(0xc0604b02));
	CU_ASSERT_TRUE(gpu_ioctl_is_gpu(0xc020462a));
	CU_ASSERT_FALSE(gpu_ioctl_is_gpu(0x5401));	/* TCGETS */
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc0186444, GPU_IOCTL_DRIVER_AMDGPU, buf, sizeof(buf)),
			       "AMDGPU_CS");
	/* a driver's own number without the driver: a number */
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc0186444, GPU_IOCTL_DRIVER_UNKNOWN, buf, sizeof(buf)),
			       "DRM driver ioctl 0x44");
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc0406469, GPU_IOCTL_DRIVER_I915, buf, sizeof(buf)),
			       "I915_GEM_EXECBUFFER2");
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0x40386449, GPU_IOCTL_DRIVER_XE, buf, sizeof(buf)),
			       "XE_EXEC");
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc0206442, GPU_IOCTL_DRIVER_VIRTIO, buf, sizeof(buf)),
			       "VIRTGPU_EXECBUFFER");
	/* the core's numbers are every driver's */
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc02064c3, GPU_IOCTL_DRIVER_I915, buf, sizeof(buf)),
			       "DRM_IOCTL_SYNCOBJ_WAIT");
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc04064ff, GPU_IOCTL_DRIVER_AMDGPU, buf, sizeof(buf)),
			       "DRM ioctl 0xff");
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc0604b02, 0, buf, sizeof(buf)), "AMDKFD_IOC_CREATE_QUEUE");
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc0044b7f, 0, buf, sizeof(buf)), "KFD ioctl 0x7f");
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc020462a, 0, buf, sizeof(buf)), "NV_ESC_RM_CONTROL");
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0xc0044601, 0, buf, sizeof(buf)), "NVIDIA ioctl 0x01");
	CU_ASSERT_STRING_EQUAL(gpu_ioctl_name(0x5401, 0, buf, sizeof(buf)), "ioctl 0x5401");
}

/*
 * A hostile workload's file: a thread with 140 ioctl numbers, then 1100
 * threads with one ioctl each. The tables stop where they say.
 */
static void test_what_a_file_can_make_it_hold(void)
{
	struct gt_error err = { 0 };
	const struct cpu_side *c;
	const struct cpu_thread *t;
	struct fixture *f;
	struct analysis a;
	char path[64] = "/tmp/gt-unit-cpu-side-XXXXXX", formats[512];
	const char *root = getenv("GT_FIXTURES");
	unsigned long long ts = 1000;
	int fd, i, ret = 0;

	snprintf(formats, sizeof(formats), "%s/formats/linux-6.1", root ? root : "tests/fixtures");
	f = fixture_new(formats, 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (i = 0; i < 140; i++) {
		ret |= fixture_add(f, 0, ts++, 9000, "syscalls/sys_enter_ioctl",
				   (struct fv[]){ FV("cmd", 0xc0006400ULL | (unsigned int)i), FV_END });
		ret |= fixture_add(f, 0, ts++, 9000, "syscalls/sys_exit_ioctl",
				   (struct fv[]){ FV("ret", 0), FV_END });
	}
	for (i = 0; i < 1100; i++) {
		ret |= fixture_add(f, 0, ts++, 10000 + i, "syscalls/sys_enter_ioctl",
				   (struct fv[]){ FV("cmd", 0xc0186444ULL), FV_END });
		ret |= fixture_add(f, 0, ts++, 10000 + i, "syscalls/sys_exit_ioctl",
				   (struct fv[]){ FV("ret", 0), FV_END });
	}
	CU_ASSERT_EQUAL_FATAL(ret, 0);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(fixture_write(f, path, &err), 0);
	fixture_free(f);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	c = cpu_side_of(&a);
	CU_ASSERT_EQUAL(c->ioctls, 1240);
	CU_ASSERT_EQUAL(c->nr_threads, CPU_SIDE_MAX_THREADS);
	CU_ASSERT_EQUAL(c->untracked, 1100 + 1 - CPU_SIDE_MAX_THREADS);
	/* thread 9000: its rows, then every other number in its "other" row */
	t = c->threads[0];
	CU_ASSERT_EQUAL(t->pid, 9000);
	CU_ASSERT_EQUAL(t->nr_rows, CPU_SIDE_ROWS_PER_THREAD);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->other);
	CU_ASSERT_EQUAL(t->other->dur.count, 140 - CPU_SIDE_ROWS_PER_THREAD);
	/* then a row for each thread until the budget is spent: none after */
	CU_ASSERT_EQUAL(c->threads[CPU_SIDE_MAX_ROWS - CPU_SIDE_ROWS_PER_THREAD - 1]->nr_rows, 1);
	t = c->threads[CPU_SIDE_MAX_ROWS - CPU_SIDE_ROWS_PER_THREAD];
	CU_ASSERT_EQUAL(t->nr_rows, 0);
	CU_ASSERT_PTR_NULL(t->other);
	CU_ASSERT_EQUAL(c->untracked_rows, 140 - CPU_SIDE_ROWS_PER_THREAD +
		       CPU_SIDE_MAX_THREADS - (CPU_SIDE_MAX_ROWS - CPU_SIDE_ROWS_PER_THREAD));
	analysis_close(&a);
	unlink(path);
}

void suite_cpu_side(void)
{
	CU_pSuite s = CU_add_suite("cpu side", NULL, NULL);

	CU_add_test(s, "the cpu-side fixture: ioctls split by state, ioctl -> queued", test_the_cpu_side_fixture);
	CU_add_test(s, "woken on a busy CPU: runnable behind the thread that held it",
		    test_runnable_behind_a_busy_cpu);
	CU_add_test(s, "virtio-gpu: only fenced commands are jobs queued in an ioctl",
		    test_virtio_fenced_commands_are_the_jobs);
	CU_add_test(s, "ioctls with no end in the file: counted apart, with how long inside",
		    test_ioctls_with_no_end_in_the_file);
	CU_add_test(s, "ioctl names by family and driver", test_ioctl_names);
	CU_add_test(s, "verdicts: GPU-bound, CPU-bound, mixed", test_verdicts);
	CU_add_test(s, "threads and rows past the tables", test_what_a_file_can_make_it_hold);
}
