// SPDX-License-Identifier: GPL-2.0
/*
 * The recorded workload's pid tree (lib/analysis/workload-tree.c) and what the
 * timeline makes of it: whose jobs are the workload's, and whose jobs each
 * waited behind on its ring. Numbers worked out by hand in the "competing"
 * scenario's comment (tests/fixture/scenarios.c), microseconds.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../../lib/analysis/workload-tree-private.h"
#include "../../fixture/scenarios.h"
#include "../unit.h"
#include "analysis/timeline.h"
#include "analysis/workload-tree.h"

#define US_NS(x)	((uint64_t)(x) * 1000)

static void test_marker_parsing(void)
{
	struct workload_tree w;

	memset(&w, 0, sizeof(w));
	CU_ASSERT_FALSE(workload_tree_add_marker(&w, "some other print"));
	CU_ASSERT_FALSE(w.known);
	CU_ASSERT_TRUE(workload_tree_add_marker(&w, "gpu-trace workload: pids=10,11,12 comm=app"));
	CU_ASSERT_TRUE(w.known);
	CU_ASSERT_EQUAL(w.nr_tasks, 3);
	CU_ASSERT_TRUE(workload_tree_has(&w, 11));
	CU_ASSERT_FALSE(workload_tree_has(&w, 13));
	CU_ASSERT_STRING_EQUAL(w.comm, "app");
	/* a second line of a long -P list, and garbage that names nobody */
	CU_ASSERT_TRUE(workload_tree_add_marker(&w, "gpu-trace workload: pids=13"));
	CU_ASSERT_TRUE(workload_tree_has(&w, 13));
	CU_ASSERT_TRUE(workload_tree_add_marker(&w, "gpu-trace workload: pids=,x,-4"));
	CU_ASSERT_EQUAL(w.nr_tasks, 4);
	workload_tree_free(&w);
}

struct jobs {
	struct job list[16];
	int nr;
};

static void keep(const struct job *j, void *ctx)
{
	struct jobs *k = ctx;

	if (k->nr < 16)
		k->list[k->nr++] = *j;
}

static const struct job *by_seqno(const struct jobs *k, uint64_t seqno)
{
	int i;

	for (i = 0; i < k->nr; i++)
		if (k->list[i].has_fence && k->list[i].seqno == seqno)
			return &k->list[i];
	return NULL;
}

static int analyse(const char *scenario, struct analysis *a, struct jobs *k,
		   const struct timeline_filter *filter, char *path)
{
	const char *root = getenv("GT_FIXTURES");
	char formats[512];
	struct gt_error err = { 0 };
	struct analysis_hooks hooks = { .on_job = keep, .ctx = k };
	int fd;

	memset(k, 0, sizeof(*k));
	if (filter)
		hooks.filter = *filter;
	snprintf(formats, sizeof(formats), "%s/formats", root ? root : "tests/fixtures");
	strcpy(path, "/tmp/gt-unit-workload-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	if (scenario_write(scenario_find(scenario), formats, path, &err) ||
	    analysis_open(a, path, &hooks, &err))
		return -1;
	return analysis_run(a, &err);
}

static void test_competing_clients(void)
{
	struct analysis a;
	struct jobs k;
	char path[64];
	const struct job *j;
	const struct ring_stats *r;

	CU_ASSERT_EQUAL_FATAL(analyse("competing", &a, &k, NULL, path), 0);
	CU_ASSERT_TRUE(workload_tree_of(&a)->known);
	CU_ASSERT_STRING_EQUAL(workload_tree_of(&a)->comm, "llama");
	CU_ASSERT_EQUAL(workload_tree_of(&a)->nr_tasks, 2);
	CU_ASSERT_EQUAL(k.nr, 7);
	/* W1: forked child's job behind all three rival jobs */
	j = by_seqno(&k, 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_TRUE(j->flags & JOB_WORKLOAD);
	CU_ASSERT_EQUAL(j->t_hw_start, US_NS(310) + 1000000000ULL);
	CU_ASSERT_EQUAL(j->behind.ns, US_NS(290));
	CU_ASSERT_EQUAL(j->behind.jobs, 3);
	CU_ASSERT_EQUAL(j->behind.procs, 1);
	j = by_seqno(&k, 5);
	CU_ASSERT_TRUE(j && (j->flags & JOB_WORKLOAD) && j->behind.ns == 0 && j->behind.jobs == 0);
	/* the rival's R4 waited 70 us behind W2, a job of another pid */
	j = by_seqno(&k, 6);
	CU_ASSERT_TRUE(j && !(j->flags & JOB_WORKLOAD));
	CU_ASSERT_TRUE(j && j->behind.ns == US_NS(70) && j->behind.jobs == 1);
	/* rival jobs behind rival jobs: the same process, nothing to blame */
	j = by_seqno(&k, 2);
	CU_ASSERT_TRUE(j && j->behind.ns == 0 && j->behind.jobs == 0);
	/* pid 5002 exited; the same number later is someone else */
	j = by_seqno(&k, 7);
	CU_ASSERT_TRUE(j && !(j->flags & JOB_WORKLOAD));
	r = timeline_of(&a)->rings[0];
	CU_ASSERT_EQUAL(r->workload_jobs, 2);
	CU_ASSERT_EQUAL(r->behind_ns, US_NS(290));
	CU_ASSERT_EQUAL(r->behind_jobs, 3);
	CU_ASSERT_EQUAL(r->nr_behind_pids, 1);
	CU_ASSERT_EQUAL(r->behind_pids[0], 6000);
	analysis_close(&a);
	unlink(path);
}

static void test_workload_only_filter(void)
{
	struct timeline_filter f = { .workload_only = true };
	struct analysis a;
	struct jobs k;
	char path[64];
	int i;

	CU_ASSERT_EQUAL_FATAL(analyse("competing", &a, &k, &f, path), 0);
	CU_ASSERT_EQUAL(k.nr, 2);
	for (i = 0; i < k.nr; i++)
		CU_ASSERT_TRUE(k.list[i].flags & JOB_WORKLOAD);
	CU_ASSERT_EQUAL(timeline_of(&a)->filtered_out, 5);
	/* the wait behind the rival is still seen: history keeps every job */
	CU_ASSERT_EQUAL(timeline_of(&a)->rings[0]->behind_ns, US_NS(290));
	analysis_close(&a);
	unlink(path);
}

/* Without a marker (-a or trace-cmd files) every job is summed, by pid. */
static void test_no_workload_named(void)
{
	struct analysis a;
	struct jobs k;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(analyse("deps", &a, &k, NULL, path), 0);
	CU_ASSERT_FALSE(workload_tree_of(&a)->known);
	CU_ASSERT_EQUAL(k.nr, 3);
	CU_ASSERT_FALSE(k.list[0].flags & JOB_WORKLOAD);
	analysis_close(&a);
	unlink(path);
}

/* virtio-gpu: emit -> cmd_queue (fence_id) -> signaled, in fence mode or not */
static void test_virtio_commands_are_jobs(void)
{
	struct analysis a;
	struct jobs k;
	char path[64];
	const struct job *j;

	CU_ASSERT_EQUAL_FATAL(analyse("virtio", &a, &k, NULL, path), 0);
	CU_ASSERT_EQUAL_FATAL(k.nr, 2);
	j = by_seqno(&k, 7);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_FALSE(j->flags & JOB_UNFINISHED);
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(timeline_of(&a), j->ring), "controlq");
	CU_ASSERT_EQUAL(j->pid, 600);
	CU_ASSERT_EQUAL(j->lat[LAT_SUBMIT_TO_QUEUE], US_NS(2));
	CU_ASSERT_EQUAL(j->lat[LAT_EXEC], US_NS(65));
	CU_ASSERT_EQUAL(j->lat[LAT_TOTAL], US_NS(67));
	j = by_seqno(&k, 8);
	CU_ASSERT_TRUE(j && j->lat[LAT_TOTAL] == US_NS(52));
	CU_ASSERT_EQUAL(timeline_of(&a)->orphans, 0);
	analysis_close(&a);
	unlink(path);
}

void suite_workload_tree(void)
{
	CU_pSuite s = CU_add_suite("workload-tree", NULL, NULL);

	CU_add_test(s, "marker lines name the workload's pids", test_marker_parsing);
	CU_add_test(s, "a rival's jobs the workload waited behind", test_competing_clients);
	CU_add_test(s, "--workload-only keeps the workload's jobs", test_workload_only_filter);
	CU_add_test(s, "no marker: no job is the workload's", test_no_workload_named);
	CU_add_test(s, "virtio-gpu commands joined on fence_id", test_virtio_commands_are_jobs);
}
