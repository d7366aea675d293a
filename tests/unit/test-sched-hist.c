// SPDX-License-Identifier: GPL-2.0
/*
 * top --in-kernel's reading of the kernel's histograms: lines as the lab's
 * 6.1 and 7.3 guests printed them, parsed; the per-ring counts (7.3's exec
 * by fence context, mapped to its ring); log2 quantiles; the interval and
 * since-start rows; and the triggers each kernel gets, in the order made.
 */
#include <stdint.h>
#include <string.h>

#include "../../lib/analysis/kernel-stats.h"
#include "../../lib/capture/kernel-join.h"
#include "../../lib/decode/hist-text.h"
#include "../../lib/decode/sched-hist.h"
#include "unit.h"

/* the lab's 7.3 guest, 128 jobs (its wait histogram also holds the ring,ctx one) */
static const char waits_73[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=ring,wait_us.log2:vals=hitcount:sort=hitcount:size=2048 [active]\n"
	"#\n"
	"\n"
	"{ ring: gt_ring1                                          , wait_us: ~ 2^10 } hitcount:          3\n"
	"{ ring: gt_ring0                                          , wait_us: ~ 2^10 } hitcount:          4\n"
	"{ ring: gt_ring0                                          , wait_us: ~ 2^14 } hitcount:          7\n"
	"{ ring: gt_ring0                                          , wait_us: ~ 2^11 } hitcount:          9\n"
	"{ ring: gt_ring1                                          , wait_us: ~ 2^11 } hitcount:         11\n"
	"{ ring: gt_ring1                                          , wait_us: ~ 2^12 } hitcount:         12\n"
	"{ ring: gt_ring1                                          , wait_us: ~ 2^13 } hitcount:         16\n"
	"{ ring: gt_ring0                                          , wait_us: ~ 2^12 } hitcount:         21\n"
	"{ ring: gt_ring0                                          , wait_us: ~ 2^13 } hitcount:         45\n"
	"\n"
	"Totals:\n"
	"    Hits: 128\n"
	"    Entries: 9\n"
	"    Dropped: 0\n"
	"\n"
	"\n"
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=ring,ctx:vals=hitcount:sort=hitcount:size=2048 [active]\n"
	"#\n"
	"\n"
	"{ ring: gt_ring0                                          , ctx:          9 } hitcount:         21\n"
	"{ ring: gt_ring0                                          , ctx:         16 } hitcount:         21\n"
	"{ ring: gt_ring1                                          , ctx:         11 } hitcount:         21\n"
	"{ ring: gt_ring1                                          , ctx:         18 } hitcount:         21\n"
	"{ ring: gt_ring0                                          , ctx:         14 } hitcount:         22\n"
	"{ ring: gt_ring0                                          , ctx:          7 } hitcount:         22\n"
	"\n"
	"Totals:\n"
	"    Hits: 128\n"
	"    Entries: 6\n"
	"    Dropped: 0\n";

static const char execs_73[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=ctx,exec_us.log2:vals=hitcount:sort=hitcount:size=2048 [active]\n"
	"#\n"
	"\n"
	"{ ctx:         11, exec_us: ~ 2^11 } hitcount:          1\n"
	"{ ctx:          9, exec_us: ~ 2^10 } hitcount:          1\n"
	"{ ctx:          9, exec_us: ~ 2^9  } hitcount:          1\n"
	"{ ctx:          9, exec_us: ~ 2^6  } hitcount:          1\n"
	"{ ctx:         14, exec_us: ~ 2^6  } hitcount:          1\n"
	"{ ctx:          7, exec_us: ~ 2^10 } hitcount:          2\n"
	"{ ctx:         11, exec_us: ~ 2^6  } hitcount:          2\n"
	"{ ctx:          7, exec_us: ~ 2^9  } hitcount:          2\n"
	"{ ctx:         11, exec_us: ~ 2^8  } hitcount:          5\n"
	"{ ctx:         11, exec_us: ~ 2^7  } hitcount:          6\n"
	"{ ctx:         11, exec_us: ~ 2^9  } hitcount:          7\n"
	"{ ctx:          9, exec_us: ~ 2^7  } hitcount:          7\n"
	"{ ctx:          7, exec_us: ~ 2^8  } hitcount:          8\n"
	"{ ctx:         16, exec_us: ~ 2^8  } hitcount:          8\n"
	"{ ctx:         14, exec_us: ~ 2^8  } hitcount:          9\n"
	"{ ctx:         18, exec_us: ~ 2^7  } hitcount:          9\n"
	"{ ctx:          7, exec_us: ~ 2^7  } hitcount:         10\n"
	"{ ctx:          9, exec_us: ~ 2^8  } hitcount:         11\n"
	"{ ctx:         14, exec_us: ~ 2^7  } hitcount:         12\n"
	"{ ctx:         18, exec_us: ~ 2^8  } hitcount:         12\n"
	"{ ctx:         16, exec_us: ~ 2^7  } hitcount:         13\n"
	"\n"
	"Totals:\n"
	"    Hits: 128\n"
	"    Entries: 21\n"
	"    Dropped: 0\n";

/* the queued instance's histogram: the keyed table is in the other instance */
static const char queued_73[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=name:vals=hitcount:sort=hitcount:size=2048 [active]\n"
	"#\n"
	"\n"
	"{ name: gt_ring1                                           } hitcount:         63\n"
	"{ name: gt_ring0                                           } hitcount:        129\n"
	"\n"
	"Totals:\n"
	"    Hits: 192\n"
	"    Entries: 2\n"
	"    Dropped: 0\n";

/* the lab's 6.1 guest: the ring comes with the done, by the run event's name */
static const char execs_61[] =
	"{ ring: gt_ring1                                          , exec_us: ~ 2^6  } hitcount:          1\n"
	"{ ring: gt_ring0                                          , exec_us: ~ 2^11 } hitcount:          1\n"
	"{ ring: gt_ring1                                          , exec_us: ~ 2^7  } hitcount:         16\n"
	"{ ring: gt_ring0                                          , exec_us: ~ 2^8  } hitcount:         59\n";

static void test_hist_lines(void)
{
	struct hist_line l;
	struct hist_totals t;
	const char *s;

	s = "{ ring: gt_ring0                                          , wait_us: ~ 2^14 } hitcount:          7";
	CU_ASSERT_TRUE(hist_line_parse(s, strlen(s), &l));
	CU_ASSERT_EQUAL(l.nr_keys, 2);
	CU_ASSERT_STRING_EQUAL(l.key[0].field, "ring");
	CU_ASSERT_STRING_EQUAL(l.key[0].str, "gt_ring0");
	CU_ASSERT_TRUE(l.key[1].log2);
	CU_ASSERT_EQUAL(l.key[1].num, 14);
	CU_ASSERT_EQUAL(l.hitcount, 7);
	s = "{ ctx:         11, exec_us: ~ 2^9  } hitcount:          7";
	CU_ASSERT_TRUE(hist_line_parse(s, strlen(s), &l));
	CU_ASSERT_FALSE(l.key[0].is_str);
	CU_ASSERT_EQUAL(l.key[0].num, 11);
	CU_ASSERT_EQUAL(l.key[1].num, 9);
	s = "{ name: gt_ring1                                           } hitcount:         63";
	CU_ASSERT_TRUE(hist_line_parse(s, strlen(s), &l));
	CU_ASSERT_EQUAL(l.nr_keys, 1);
	CU_ASSERT_STRING_EQUAL(l.key[0].str, "gt_ring1");
	/* a ring named with a comma of its own */
	s = "{ ring: gfx_0.0.0, me 1      , wait_us: ~ 2^3  } hitcount:          2";
	CU_ASSERT_TRUE(hist_line_parse(s, strlen(s), &l));
	CU_ASSERT_STRING_EQUAL(l.key[0].str, "gfx_0.0.0, me 1");
	CU_ASSERT_EQUAL(l.key[1].num, 3);
	/* not buckets */
	CU_ASSERT_FALSE(hist_line_parse("# event histogram", 17, &l));
	CU_ASSERT_FALSE(hist_line_parse("    Hits: 128", 13, &l));
	s = "{ ring: x , wait_us: ~ 2^99 } hitcount: 1";
	CU_ASSERT_FALSE(hist_line_parse(s, strlen(s), &l));
	s = "{ ring: x , wait_us: ~ 2^3 } hitcount: ";
	CU_ASSERT_FALSE(hist_line_parse(s, strlen(s), &l));
	s = "{ ring: x , wait_us: ~ 2^3 ";
	CU_ASSERT_FALSE(hist_line_parse(s, strlen(s), &l));
	CU_ASSERT_TRUE(hist_totals_parse(queued_73, &t));
	CU_ASSERT_EQUAL(t.hits, 192);
	CU_ASSERT_EQUAL(t.entries, 2);
	CU_ASSERT_EQUAL(t.dropped, 0);
	CU_ASSERT_FALSE(hist_totals_parse("# nothing\n", &t));
}

static int ring(struct sched_hist *h, const char *name)
{
	int i;

	for (i = 0; i < h->nr_rings; i++)
		if (!strcmp(h->rings[i].name, name))
			return i;
	return -1;
}

static struct sched_hist h73;

static void read_73(struct sched_hist *h)
{
	memset(h, 0, sizeof(*h));
	sched_hist_add_queued(h, queued_73, strlen(queued_73));
	sched_hist_add_waits(h, waits_73, strlen(waits_73));
	sched_hist_add_contexts(h, waits_73, strlen(waits_73));
	sched_hist_add_execs(h, execs_73, strlen(execs_73));
}

static void test_sched_hist_rings(void)
{
	static struct sched_hist h61;
	int r0, r1;

	read_73(&h73);
	r0 = ring(&h73, "gt_ring0");
	r1 = ring(&h73, "gt_ring1");
	CU_ASSERT_FATAL(r0 >= 0 && r1 >= 0 && h73.nr_rings == 2);
	CU_ASSERT_EQUAL(h73.rings[r0].queued, 129);
	CU_ASSERT_EQUAL(h73.rings[r1].queued, 63);
	/* 86 run on ring 0, 42 on ring 1: the 128 the join saw */
	CU_ASSERT_EQUAL(sched_hist_sum(h73.rings[r0].wait, HIST_LOG2_MAX), 86);
	CU_ASSERT_EQUAL(sched_hist_sum(h73.rings[r1].wait, HIST_LOG2_MAX), 42);
	CU_ASSERT_EQUAL(h73.nr_contexts, 6);
	/* contexts 7, 9, 14, 16 are ring 0's: 86 done; 11 and 18 ring 1's: 42 */
	CU_ASSERT_EQUAL(sched_hist_sum(h73.rings[r0].exec, HIST_LOG2_MAX), 86);
	CU_ASSERT_EQUAL(sched_hist_sum(h73.rings[r1].exec, HIST_LOG2_MAX), 42);
	CU_ASSERT_EQUAL(h73.rings[r1].exec[11], 1);
	CU_ASSERT_EQUAL(h73.left_out, 0);

	/* an exec by a context no wait named is left out, and counted so */
	memset(&h61, 0, sizeof(h61));
	sched_hist_add_execs(&h61, execs_73, strlen(execs_73));
	CU_ASSERT_EQUAL(h61.left_out, 128);
	memset(&h61, 0, sizeof(h61));
	sched_hist_add_execs(&h61, execs_61, strlen(execs_61));
	CU_ASSERT_EQUAL(h61.nr_rings, 2);
	CU_ASSERT_EQUAL(sched_hist_sum(h61.rings[ring(&h61, "gt_ring0")].exec, HIST_LOG2_MAX), 60);
}

static void test_log2_quantiles(void)
{
	uint64_t b[HIST_LOG2_MAX] = { 0 };

	CU_ASSERT_EQUAL(hist_log2_quantile(b, HIST_LOG2_MAX, 0.5), 0);
	b[3] = 50;	/* values up to 8 */
	b[10] = 49;
	b[14] = 1;
	CU_ASSERT_EQUAL(hist_log2_quantile(b, HIST_LOG2_MAX, 0.5), 8);
	CU_ASSERT_EQUAL(hist_log2_quantile(b, HIST_LOG2_MAX, 0.51), 1024);
	CU_ASSERT_EQUAL(hist_log2_quantile(b, HIST_LOG2_MAX, 0.99), 1024);
	CU_ASSERT_EQUAL(hist_log2_quantile(b, HIST_LOG2_MAX, 1.0), 16384);
}

static void test_kernel_stats_intervals(void)
{
	static struct kernel_stats k;
	static struct sched_hist now;
	static struct kernel_snapshot s;
	const struct kernel_ring_row *r0;

	memset(&k, 0, sizeof(k));
	read_73(&now);
	kernel_stats_tick(&k, &now, 2.0, LIVE_SORT_NAME, &s);
	CU_ASSERT_EQUAL_FATAL(s.nr_rows, 2);
	r0 = &s.rows[0];
	CU_ASSERT_STRING_EQUAL(r0->name, "gt_ring0");
	CU_ASSERT_DOUBLE_EQUAL(r0->jobs_per_s, 43.0, 1e-9);
	CU_ASSERT_EQUAL(r0->total_jobs, 86);
	CU_ASSERT_EQUAL(r0->total_queued, 129);
	CU_ASSERT_EQUAL(r0->in_flight, 129 - 86);
	CU_ASSERT_EQUAL(r0->on_hw, 0);
	/* ring 0's waits: 4 to 2^10, 9 to 2^11, 21 to 2^12, 45 to 2^13, 7 to 2^14 */
	CU_ASSERT_EQUAL(r0->queue_to_run_p50, 8192 * 1000ULL);
	CU_ASSERT_EQUAL(r0->queue_to_run_p99, 16384 * 1000ULL);

	/* 10 more on ring 0, all quick: the interval sees only them, the totals all */
	now.rings[ring(&now, "gt_ring0")].wait[2] += 10;
	now.rings[ring(&now, "gt_ring0")].exec[3] += 10;
	now.rings[ring(&now, "gt_ring0")].queued += 10;
	kernel_stats_tick(&k, &now, 1.0, LIVE_SORT_JOBS, &s);
	CU_ASSERT_STRING_EQUAL(s.rows[0].name, "gt_ring0");
	CU_ASSERT_DOUBLE_EQUAL(s.rows[0].jobs_per_s, 10.0, 1e-9);
	CU_ASSERT_EQUAL(s.rows[0].queue_to_run_p99, 4000);
	CU_ASSERT_EQUAL(s.rows[0].exec_p50, 8000);
	CU_ASSERT_EQUAL(s.rows[0].total_jobs, 96);
	CU_ASSERT_DOUBLE_EQUAL(s.rows[1].jobs_per_s, 0.0, 1e-9);
	CU_ASSERT_EQUAL(s.rows[1].exec_p50, 0);

	/* a reset: since-start begins again; renewal losses leave the jobs in flight */
	kernel_stats_reset(&k, &now);
	now.rings[ring(&now, "gt_ring0")].lost_queued = 129 + 10 - 96;
	kernel_stats_tick(&k, &now, 1.0, LIVE_SORT_NAME, &s);
	CU_ASSERT_EQUAL(s.rows[0].total_jobs, 0);
	CU_ASSERT_EQUAL(s.rows[0].in_flight, 0);
	CU_ASSERT_EQUAL(s.unjoined, 43);
}

static void test_kernel_join_steps(void)
{
	struct kernel_join_step st[KERNEL_JOIN_STEPS];
	int n;

	CU_ASSERT_EQUAL(kernel_join_steps(KERNEL_JOIN_NONE, 42, 0, st), 0);
	n = kernel_join_steps(KERNEL_JOIN_FENCE, 42, 0, st);
	CU_ASSERT_EQUAL_FATAL(n, 8);
	CU_ASSERT_STRING_EQUAL(st[0].spec, "gpu_trace_42_wait char ring[]; u64 wait_us");
	CU_ASSERT_STRING_EQUAL(st[1].spec, "gpu_trace_42_exec char ring[]; u64 exec_us");
	CU_ASSERT_STRING_EQUAL(st[2].file, "events/gpu_scheduler/drm_sched_job/trigger");
	CU_ASSERT_STRING_EQUAL(st[2].spec, "hist:keys=fence:gt_q0=common_timestamp.usecs:size=32768");
	CU_ASSERT_STRING_EQUAL(st[3].spec,
			       "hist:keys=fence:gt_r0=common_timestamp.usecs:gt_w0=common_timestamp.usecs-$gt_q0:size=32768:onmatch(gpu_scheduler.drm_sched_job).trace(gpu_trace_42_wait,name,$gt_w0)");
	CU_ASSERT_STRING_EQUAL(st[4].file, "events/gpu_scheduler/drm_sched_process_job/trigger");
	CU_ASSERT_STRING_EQUAL(st[4].spec,
			       "hist:keys=fence:gt_x0=common_timestamp.usecs-$gt_r0:size=32768:onmatch(gpu_scheduler.drm_run_job).trace(gpu_trace_42_exec,gpu_scheduler.drm_run_job.name,$gt_x0)");
	CU_ASSERT_STRING_EQUAL(st[5].file, "events/synthetic/gpu_trace_42_wait/trigger");
	CU_ASSERT_STRING_EQUAL(st[6].spec, "hist:keys=ring,exec_us.log2:size=2048");
	CU_ASSERT_STRING_EQUAL(st[7].spec, "hist:keys=name:size=128");
	n = kernel_join_steps(KERNEL_JOIN_SEQNO, 7, 1, st);
	CU_ASSERT_EQUAL_FATAL(n, 9);
	CU_ASSERT_STRING_EQUAL(st[0].spec, "gpu_trace_7_wait char ring[]; u64 ctx; u64 wait_us");
	CU_ASSERT_STRING_EQUAL(st[1].spec, "gpu_trace_7_exec u64 ctx; u64 exec_us");
	CU_ASSERT_STRING_EQUAL(st[3].spec,
			       "hist:keys=fence_context,fence_seqno:gt_r1=common_timestamp.usecs:gt_w1=common_timestamp.usecs-$gt_q1:size=32768:onmatch(gpu_scheduler.drm_sched_job_queue).trace(gpu_trace_7_wait,name,fence_context,$gt_w1)");
	CU_ASSERT_STRING_EQUAL(st[4].spec,
			       "hist:keys=fence_context,fence_seqno:gt_x1=common_timestamp.usecs-$gt_r1:size=32768:onmatch(gpu_scheduler.drm_sched_job_run).trace(gpu_trace_7_exec,fence_context,$gt_x1)");
	CU_ASSERT_STRING_EQUAL(st[6].spec, "hist:keys=ring,ctx:size=4096");
	CU_ASSERT_STRING_EQUAL(st[7].spec, "hist:keys=ctx,exec_us.log2:size=32768");
	CU_ASSERT_STRING_EQUAL(st[8].file, "events/gpu_scheduler/drm_sched_job_queue/trigger");
}

void suite_sched_hist(void)
{
	CU_pSuite s = CU_add_suite("sched-hist", NULL, NULL);

	CU_add_test(s, "hist lines and totals as the kernel prints them", test_hist_lines);
	CU_add_test(s, "per-ring counts, 7.3's by fence context", test_sched_hist_rings);
	CU_add_test(s, "log2 quantiles: the bucket's upper bound", test_log2_quantiles);
	CU_add_test(s, "interval and since-start rows", test_kernel_stats_intervals);
	CU_add_test(s, "the triggers each kernel gets, in order", test_kernel_join_steps);
}
