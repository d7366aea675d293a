// SPDX-License-Identifier: GPL-2.0
/*
 * gpu-trace top's numbers (lib/analysis/live-stats.c) over the shared join, on the
 * "competing" scenario (tests/fixture/scenarios.c): seven jobs on gfx_0.0.0,
 * rival 6000 four, llama 5002 two (one a reused pid), llama 5000 one;
 * queue->run 5,5,5 (rival), 5 (W1), 5 (W2), 70 (R4), 5 (X) microseconds.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/live-stats.h"
#include "../../../lib/analysis/analysis-private.h"
#include "../../fixture/scenarios.h"
#include "../unit.h"
#include "analysis/timeline.h"

static const struct live_group_row *group(const struct live_snapshot *s, uint64_t pid)
{
	int i;

	for (i = 0; i < s->nr_procs; i++)
		if (s->procs[i].key == pid)
			return &s->procs[i];
	return NULL;
}

static void test_intervals_and_totals(void)
{
	const char *root = getenv("GT_FIXTURES");
	struct live_stats ls = { 0 };
	struct live_snapshot s;
	struct gt_error err = { 0 };
	struct analysis a;
	char formats[512], path[] = "/tmp/gt-unit-live-XXXXXX";
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	snprintf(formats, sizeof(formats), "%s/formats", root ? root : "tests/fixtures");
	CU_ASSERT_EQUAL_FATAL(scenario_write(scenario_find("competing"), formats, path, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, &(struct analysis_hooks){
				   .on_job = live_stats_on_job, .ctx = &ls }, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);

	/* everything in one 2-second interval */
	CU_ASSERT_EQUAL_FATAL(live_stats_tick(&ls, timeline_of(&a), 2.0, 0, LIVE_SORT_JOBS, &s), 0);
	CU_ASSERT_EQUAL_FATAL(s.nr_rings, 1);
	CU_ASSERT_STRING_EQUAL(s.rings[0].name, "gfx_0.0.0");
	CU_ASSERT_DOUBLE_EQUAL(s.rings[0].jobs_per_s, 3.5, 1e-9);
	CU_ASSERT_EQUAL(s.rings[0].total_jobs, 7);
	CU_ASSERT_EQUAL(s.rings[0].in_flight, 0);
	CU_ASSERT_EQUAL(s.rings[0].on_hw, 0);
	CU_ASSERT_EQUAL(s.rings[0].queue_to_run_p50, 5000);
	CU_ASSERT_EQUAL(s.rings[0].queue_to_run_p99, 70000);
	/* busy: [10,410], [425,600] and [705,800] us of the ring, over 2 s */
	CU_ASSERT_DOUBLE_EQUAL(s.rings[0].busy_pct, 100.0 * 670e-6 / 2.0, 1e-9);
	CU_ASSERT_EQUAL(s.nr_procs, 3);
	/* sorted by jobs/s: the rival first */
	CU_ASSERT_EQUAL(s.procs[0].key, 6000);
	CU_ASSERT_DOUBLE_EQUAL(s.procs[0].jobs_per_s, 2.0, 1e-9);
	CU_ASSERT_EQUAL(s.procs[0].avg_wait_ns, (5000 * 3 + 70000) / 4);
	CU_ASSERT_TRUE(group(&s, 5002) && group(&s, 5002)->total_jobs == 2);
	CU_ASSERT_EQUAL(s.nr_clients, 1);
	live_snapshot_free(&s);

	/* the next interval saw nothing new; since the start still does */
	CU_ASSERT_EQUAL_FATAL(live_stats_tick(&ls, timeline_of(&a), 1.0, 40, LIVE_SORT_NAME, &s), 0);
	CU_ASSERT_EQUAL(s.rings[0].jobs_per_s, 0);
	CU_ASSERT_EQUAL(s.rings[0].busy_pct, 0);
	CU_ASSERT_EQUAL(s.rings[0].total_jobs, 7);
	CU_ASSERT_EQUAL(s.rings[0].total_queue_to_run_p99, 70000);
	CU_ASSERT_EQUAL(s.lost, 40);
	CU_ASSERT_EQUAL(group(&s, 6000)->jobs_per_s, 0);
	live_snapshot_free(&s);

	/* a process without jobs for LIVE_GROUP_IDLE_S leaves the table */
	CU_ASSERT_EQUAL_FATAL(live_stats_tick(&ls, timeline_of(&a), LIVE_GROUP_IDLE_S - 1.5, 40,
					      LIVE_SORT_NAME, &s), 0);
	CU_ASSERT_EQUAL(s.nr_procs, 3);
	live_snapshot_free(&s);
	CU_ASSERT_EQUAL_FATAL(live_stats_tick(&ls, timeline_of(&a), 0.5, 40, LIVE_SORT_NAME, &s), 0);
	CU_ASSERT_EQUAL(s.nr_procs, 0);
	CU_ASSERT_EQUAL(s.nr_clients, 0);
	CU_ASSERT_EQUAL(ls.procs.used, 0);
	CU_ASSERT_EQUAL(s.rings[0].total_jobs, 7);
	live_snapshot_free(&s);

	/* r: since the start is now */
	live_stats_reset(&ls, timeline_of(&a));
	CU_ASSERT_EQUAL_FATAL(live_stats_tick(&ls, timeline_of(&a), 1.0, 45, LIVE_SORT_JOBS, &s), 0);
	CU_ASSERT_EQUAL(s.rings[0].total_jobs, 0);
	CU_ASSERT_EQUAL(s.lost, 5);
	CU_ASSERT_EQUAL(s.nr_procs, 0);
	live_snapshot_free(&s);

	live_stats_free(&ls);
	analysis_close(&a);

	/* top's join keeps no per-process summary: it would grow with every pid */
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, &(struct analysis_hooks){
				   .on_job = live_stats_on_job, .ctx = &ls, .no_groups = true },
					    &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	CU_ASSERT_EQUAL(timeline_of(&a)->nr_procs, 0);
	CU_ASSERT_EQUAL(timeline_of(&a)->nr_clients, 0);
	CU_ASSERT_EQUAL(timeline_of(&a)->rings[0]->jobs, 7);
	CU_ASSERT_EQUAL(ls.procs.used, 3);
	live_stats_free(&ls);
	analysis_close(&a);
	unlink(path);
}

void suite_live_stats(void)
{
	CU_pSuite s = CU_add_suite("live-stats", NULL, NULL);

	CU_add_test(s, "intervals, since the start, reset", test_intervals_and_totals);
}
