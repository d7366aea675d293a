// SPDX-License-Identifier: GPL-2.0
/*
 * Each scenario of tests/fixture/scenarios.c is written with the real
 * kernel formats, read back through libtracecmd and joined; the numbers
 * below are worked out by hand from the scenario's comment (microseconds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../fixture/scenarios.h"
#include "../unit.h"
#include "analysis/kfd-queues.h"
#include "analysis/timeline.h"

#define US_NS(x)	((uint64_t)(x) * 1000)
#define MAX_JOBS	16

struct run {
	struct analysis a;
	struct job jobs[MAX_JOBS];
	int nr_jobs;
	char path[64];
};

static void keep_job(const struct job *j, void *ctx)
{
	struct run *r = ctx;

	if (r->nr_jobs < MAX_JOBS)
		r->jobs[r->nr_jobs++] = *j;
}

static int analyse(struct run *r, const char *scenario)
{
	struct gt_error err = { 0 };

	memset(r, 0, sizeof(*r));
	if (scenario_tmpfile(scenario, r->path, sizeof(r->path)) ||
	    analysis_open(&r->a, r->path, &(struct analysis_hooks){
				  .on_job = keep_job, .ctx = r }, &err))
		return -1;
	return analysis_run(&r->a, &err);
}

static void done(struct run *r)
{
	analysis_close(&r->a);
	unlink(r->path);
}

static struct ring_stats *ring(struct run *r, const char *name)
{
	int i;

	for (i = 0; i < timeline_of(&r->a)->nr_rings; i++)
		if (!strcmp(timeline_of(&r->a)->rings[i]->name, name))
			return timeline_of(&r->a)->rings[i];
	return NULL;
}

static const struct job *job_on_ring(struct run *r, const char *ring, uint64_t id)
{
	int i;

	for (i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].has_id && r->jobs[i].id == id &&
		    (!ring || !strcmp(timeline_ring_name(timeline_of(&r->a), r->jobs[i].ring), ring)))
			return &r->jobs[i];
	return NULL;
}

static const struct job *job_by_id(struct run *r, uint64_t id)
{
	return job_on_ring(r, NULL, id);
}

static const struct job *job_by_fence(struct run *r, uint64_t ctx, uint64_t seqno)
{
	int i;

	for (i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].has_fence && r->jobs[i].ctx == ctx && r->jobs[i].seqno == seqno)
			return &r->jobs[i];
	return NULL;
}

#define EXPECT_LAT(j, l, us) do {					\
		CU_ASSERT_TRUE((j)->has_lat[l]);			\
		CU_ASSERT_EQUAL((j)->lat[l], US_NS(us));		\
	} while (0)

static void test_two_rings(void)
{
	struct run r;
	const struct job *j;
	struct ring_stats *gfx, *sdma;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "two-rings"), 0);
	CU_ASSERT_EQUAL(r.nr_jobs, 3);
	j = job_on_ring(&r, "gfx_0.0.0", 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	EXPECT_LAT(j, LAT_SUBMIT_TO_QUEUE, 10);
	EXPECT_LAT(j, LAT_QUEUE_TO_RUN, 10);
	EXPECT_LAT(j, LAT_DEP_WAIT, 0);
	EXPECT_LAT(j, LAT_RUN_TO_HW, 0);
	EXPECT_LAT(j, LAT_EXEC, 500);
	EXPECT_LAT(j, LAT_TOTAL, 520);
	CU_ASSERT_EQUAL(j->pid, 4242);
	/* job 2 ran at 230 but the ring was busy with job 1 until 620 */
	j = job_by_id(&r, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	EXPECT_LAT(j, LAT_QUEUE_TO_RUN, 20);
	EXPECT_LAT(j, LAT_RUN_TO_HW, 390);
	EXPECT_LAT(j, LAT_EXEC, 300);
	EXPECT_LAT(j, LAT_TOTAL, 720);
	CU_ASSERT_EQUAL(j->t_hw_start, 1000000000ULL + US_NS(620));
	/* sdma0's job 1 is another job than gfx's job 1 */
	j = job_on_ring(&r, "sdma0", 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	EXPECT_LAT(j, LAT_EXEC, 100);
	EXPECT_LAT(j, LAT_TOTAL, 110);

	gfx = ring(&r, "gfx_0.0.0");
	sdma = ring(&r, "sdma0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gfx);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sdma);
	CU_ASSERT_EQUAL(gfx->jobs, 2);
	CU_ASSERT_EQUAL(sdma->jobs, 1);
	CU_ASSERT_EQUAL(gfx->busy_ns, US_NS(800));
	CU_ASSERT_EQUAL(gfx->max_in_flight, 2);
	CU_ASSERT_EQUAL(latency_stats_percentile(&gfx->lat[LAT_EXEC], 50), US_NS(300));
	CU_ASSERT_EQUAL(latency_stats_percentile(&gfx->lat[LAT_EXEC], 99), US_NS(500));
	CU_ASSERT_EQUAL(latency_stats_avg(&gfx->lat[LAT_TOTAL]), US_NS(620));
	CU_ASSERT_EQUAL(timeline_of(&r.a)->orphans, 0);
	CU_ASSERT_EQUAL(analysis_totals(&r.a)->first_ts, 1000000000ULL + US_NS(100));
	CU_ASSERT_EQUAL(analysis_totals(&r.a)->last_ts, 1000000000ULL + US_NS(920));
	CU_ASSERT_EQUAL_FATAL(timeline_of(&r.a)->nr_procs, 1);
	CU_ASSERT_EQUAL(timeline_of(&r.a)->procs[0]->key, 4242);
	CU_ASSERT_EQUAL(timeline_of(&r.a)->procs[0]->jobs, 3);
	CU_ASSERT_EQUAL(latency_stats_percentile(&timeline_of(&r.a)->procs[0]->total, 50), US_NS(520));
	CU_ASSERT_STRING_EQUAL(analysis_comm(&r.a, 4242), "hipapp");
	done(&r);
}

static void test_dependencies_across_rings(void)
{
	struct run r;
	const struct job *a, *b, *c;
	struct ring_stats *sdma;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "deps"), 0);
	CU_ASSERT_EQUAL(r.nr_jobs, 3);
	a = job_by_fence(&r, 100, 1);
	b = job_by_fence(&r, 200, 1);
	c = job_by_fence(&r, 200, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	EXPECT_LAT(a, LAT_EXEC, 490);
	EXPECT_LAT(a, LAT_DEP_WAIT, 0);
	/* B waited from its queue at 20 until A signalled at 500 */
	EXPECT_LAT(b, LAT_DEP_WAIT, 480);
	EXPECT_LAT(b, LAT_QUEUE_TO_RUN, 490);
	EXPECT_LAT(b, LAT_EXEC, 90);
	EXPECT_LAT(b, LAT_TOTAL, 580);
	CU_ASSERT_EQUAL(b->nr_deps, 1);
	CU_ASSERT_EQUAL(b->nr_waits, 1);
	/* add_dep and unschedulable name the same fence: listed once */
	CU_ASSERT_EQUAL_FATAL(b->nr_dep_fences, 1);
	CU_ASSERT_EQUAL(b->dep_fences[0].ctx, 100);
	CU_ASSERT_EQUAL(b->dep_fences[0].seqno, 1);
	CU_ASSERT_EQUAL(a->nr_dep_fences, 0);
	/* C's dependency had already signalled: no wait, only the ring */
	EXPECT_LAT(c, LAT_DEP_WAIT, 0);
	EXPECT_LAT(c, LAT_QUEUE_TO_RUN, 50);
	EXPECT_LAT(c, LAT_EXEC, 100);
	CU_ASSERT_EQUAL(c->nr_waits, 0);
	CU_ASSERT_TRUE(b->has_client_id);
	CU_ASSERT_EQUAL(b->client_id, 9);
	sdma = ring(&r, "sdma0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sdma);
	CU_ASSERT_EQUAL(sdma->waits, 1);
	CU_ASSERT_EQUAL(sdma->jobs, 2);
	CU_ASSERT_EQUAL(timeline_of(&r.a)->nr_clients, 2);
	done(&r);
}

static void test_pipelined(void)
{
	static const uint64_t run_to_hw[] = { 0, 99, 198, 297 };
	static const uint64_t total[] = { 105, 204, 303, 402 };
	struct run r;
	struct ring_stats *gfx;
	int i;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "pipelined"), 0);
	CU_ASSERT_EQUAL_FATAL(r.nr_jobs, 4);
	for (i = 0; i < 4; i++) {
		const struct job *j = job_by_fence(&r, 100, (uint64_t)i + 1);

		CU_ASSERT_PTR_NOT_NULL_FATAL(j);
		EXPECT_LAT(j, LAT_QUEUE_TO_RUN, 5);
		EXPECT_LAT(j, LAT_RUN_TO_HW, run_to_hw[i]);
		EXPECT_LAT(j, LAT_EXEC, 100);
		EXPECT_LAT(j, LAT_TOTAL, total[i]);
	}
	gfx = ring(&r, "gfx_0.0.0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gfx);
	CU_ASSERT_EQUAL(gfx->max_in_flight, 4);
	CU_ASSERT_EQUAL(gfx->busy_ns, US_NS(400));
	done(&r);
}

static void test_fence_pointer_reuse(void)
{
	struct run r;
	const struct job *j;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "pointer-reuse"), 0);
	CU_ASSERT_EQUAL(r.nr_jobs, 2);
	j = job_by_id(&r, 11);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	EXPECT_LAT(j, LAT_TOTAL, 49);
	j = job_by_id(&r, 12);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	EXPECT_LAT(j, LAT_EXEC, 100);
	EXPECT_LAT(j, LAT_TOTAL, 110);
	CU_ASSERT_FALSE(j->flags & JOB_UNFINISHED);
	CU_ASSERT_EQUAL(timeline_of(&r.a)->orphans, 0);
	done(&r);
}

static void test_unfinished_job(void)
{
	struct run r;
	const struct job *j;
	struct ring_stats *gfx;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "unfinished"), 0);
	CU_ASSERT_EQUAL(r.nr_jobs, 2);
	j = job_by_id(&r, 22);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_TRUE(j->flags & JOB_UNFINISHED);
	EXPECT_LAT(j, LAT_QUEUE_TO_RUN, 10);
	/* never invented: no exec, no total */
	CU_ASSERT_FALSE(j->has_lat[LAT_EXEC]);
	CU_ASSERT_FALSE(j->has_lat[LAT_TOTAL]);
	gfx = ring(&r, "gfx_0.0.0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gfx);
	CU_ASSERT_EQUAL(gfx->jobs, 1);
	CU_ASSERT_EQUAL(gfx->unfinished, 1);
	CU_ASSERT_EQUAL(gfx->lat[LAT_EXEC].count, 1);
	CU_ASSERT_EQUAL(gfx->lat[LAT_QUEUE_TO_RUN].count, 2);
	CU_ASSERT_EQUAL(gfx->in_flight, 0);
	done(&r);
}

static void test_lost_events_window(void)
{
	struct run r;
	const struct job *j;
	struct ring_stats *gfx;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "lost-window"), 0);
	CU_ASSERT_EQUAL(analysis_totals(&r.a)->missed, 40);
	CU_ASSERT_EQUAL(timeline_of(&r.a)->lost_windows, 1);
	j = job_by_id(&r, 31);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_TRUE(j->flags & JOB_LOST);
	j = job_by_id(&r, 32);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_FALSE(j->flags & JOB_LOST);
	EXPECT_LAT(j, LAT_TOTAL, 100);
	gfx = ring(&r, "gfx_0.0.0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gfx);
	CU_ASSERT_EQUAL(gfx->jobs, 2);
	CU_ASSERT_EQUAL(gfx->lost, 1);
	/* the touched job is shown but not counted in the statistics */
	CU_ASSERT_EQUAL(gfx->lat[LAT_TOTAL].count, 1);
	done(&r);
}

static void test_amdgpu_triple(void)
{
	struct run r;
	const struct job *j;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "amdgpu-triple"), 0);
	CU_ASSERT_FALSE(timeline_of(&r.a)->fence_mode);
	CU_ASSERT_EQUAL_FATAL(r.nr_jobs, 1);
	j = &r.jobs[0];
	CU_ASSERT_EQUAL(j->id, 41);
	CU_ASSERT_TRUE(j->flags & JOB_DONE_FENCE);
	EXPECT_LAT(j, LAT_EXEC, 200);
	EXPECT_LAT(j, LAT_TOTAL, 230);
	CU_ASSERT_FALSE(j->has_lat[LAT_QUEUE_TO_RUN]);
	CU_ASSERT_EQUAL(j->pid, 4242);
	done(&r);
}

static void test_kfd_queue_graph(void)
{
	static const char *const create_steps[] = {
		"allocate_doorbell", "allocate_mqd", "init_mqd", "map_queues_cpsch",
		"create_queue_cpsch", "pqm_create_queue"
	};
	static const uint64_t create_us[] = { 2, 10, 3, 40, 60, 70 };
	struct run r;
	struct kfd_op *op;
	int i;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "kfd-graph"), 0);
	CU_ASSERT_TRUE(kfd_queues_of(&r.a)->graph);
	CU_ASSERT_EQUAL_FATAL(kfd_queues_of(&r.a)->nr_ops, 2);
	op = &kfd_queues_of(&r.a)->ops[0];
	CU_ASSERT_EQUAL(op->type, KFD_OP_CREATE);
	CU_ASSERT_EQUAL(op->pid, 4242);
	CU_ASSERT_TRUE(op->has_duration);
	CU_ASSERT_EQUAL(op->duration, US_NS(80));
	CU_ASSERT_EQUAL_FATAL(op->nr_steps, 6);
	for (i = 0; i < 6; i++) {
		CU_ASSERT_STRING_EQUAL(op->steps[i].func, create_steps[i]);
		CU_ASSERT_EQUAL(op->steps[i].duration, US_NS(create_us[i]));
	}
	op = &kfd_queues_of(&r.a)->ops[1];
	CU_ASSERT_EQUAL(op->type, KFD_OP_DESTROY);
	CU_ASSERT_EQUAL(op->duration, US_NS(30));
	CU_ASSERT_EQUAL(op->nr_steps, 3);
	done(&r);
}

static void test_kfd_queue_function_order(void)
{
	static const char *const steps[] = {
		"pqm_create_queue", "create_queue_cpsch", "allocate_doorbell",
		"allocate_mqd", "init_mqd", "map_queues_cpsch"
	};
	struct run r;
	struct kfd_op *op;
	int i;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "kfd-function"), 0);
	CU_ASSERT_FALSE(kfd_queues_of(&r.a)->graph);
	CU_ASSERT_EQUAL_FATAL(kfd_queues_of(&r.a)->nr_ops, 1);
	op = &kfd_queues_of(&r.a)->ops[0];
	CU_ASSERT_EQUAL(op->type, KFD_OP_CREATE);
	CU_ASSERT_FALSE(op->has_duration);
	CU_ASSERT_EQUAL_FATAL(op->nr_steps, 6);
	for (i = 0; i < 6; i++) {
		CU_ASSERT_STRING_EQUAL(op->steps[i].func, steps[i]);
		CU_ASSERT_FALSE(op->steps[i].has_duration);
	}
	done(&r);
}

void suite_timeline(void)
{
	CU_pSuite s = CU_add_suite("timeline", NULL, NULL);

	CU_add_test(s, "two rings, in order, busy ring", test_two_rings);
	CU_add_test(s, "dependencies across rings (6.17+)", test_dependencies_across_rings);
	CU_add_test(s, "pipelined jobs on one ring", test_pipelined);
	CU_add_test(s, "fence pointer reused after free", test_fence_pointer_reuse);
	CU_add_test(s, "unfinished job", test_unfinished_job);
	CU_add_test(s, "lost-events window", test_lost_events_window);
	CU_add_test(s, "amdgpu ioctl -> ring -> fence", test_amdgpu_triple);
	CU_add_test(s, "KFD create/destroy under function_graph", test_kfd_queue_graph);
	CU_add_test(s, "KFD create under the function tracer", test_kfd_queue_function_order);
}

/* Found by the fuzzer: a record whose key fields are absent made a job nothing could find. */
static void test_job_without_keys_is_not_kept(void)
{
	struct timeline t;
	struct gpu_event ev = { .kind = GEV_QUEUE, .ts = 100, .pid = 1 };

	CU_ASSERT_EQUAL_FATAL(timeline_init(&t, false), 0);
	timeline_add_event(&t, &ev);
	ev.kind = GEV_RUN;
	timeline_add_event(&t, &ev);
	CU_ASSERT_EQUAL(t.jobs_in_flight, 0);
	CU_ASSERT_EQUAL(t.orphans, 2);
	timeline_finish(&t);
	timeline_free(&t);
}

/*
 * A file that names more rings than any GPU has (each ring holds 50 KB of
 * statistics): past TIMELINE_MAX_RINGS the jobs of the rest share one ring.
 */
static void test_ring_names_capped(void)
{
	struct timeline t;
	struct gpu_event ev = { .kind = GEV_QUEUE, .ts = 100, .pid = 1, .has_fence = true };
	int i, extra = 77;

	CU_ASSERT_EQUAL_FATAL(timeline_init(&t, false), 0);
	for (i = 0; i < TIMELINE_MAX_RINGS + extra; i++) {
		snprintf(ev.ring, sizeof(ev.ring), "ring%d", i);
		ev.ctx = 1000 + (uint64_t)i;
		ev.seqno = 1;
		ev.ts++;
		timeline_add_event(&t, &ev);
	}
	CU_ASSERT_EQUAL(t.nr_rings, TIMELINE_MAX_RINGS);
	CU_ASSERT_STRING_EQUAL(t.rings[TIMELINE_MAX_RINGS - 2]->name, "ring1022");
	CU_ASSERT_STRING_EQUAL(t.rings[TIMELINE_MAX_RINGS - 1]->name, TIMELINE_MORE_RINGS);
	/* ring1023 .. the last: their jobs on the shared ring */
	CU_ASSERT(t.rings_capped);
	CU_ASSERT_EQUAL(t.rings[TIMELINE_MAX_RINGS - 1]->in_flight, extra + 1);
	/* a ring named before the cap is still its own */
	snprintf(ev.ring, sizeof(ev.ring), "ring5");
	ev.ctx = 1005;
	ev.seqno = 2;
	timeline_add_event(&t, &ev);
	CU_ASSERT_EQUAL(t.rings[5]->in_flight, 2);
	timeline_finish(&t);
	timeline_free(&t);
}

struct made_order {
	uint64_t ctx[64];
	int nr;
};

static void note_unfinished(const struct job *j, void *ctx)
{
	struct made_order *o = ctx;

	if ((j->flags & JOB_UNFINISHED) && o->nr < 64)
		o->ctx[o->nr++] = j->ctx;
}

/*
 * Jobs still in flight at the end with the same first time are handed out in
 * the order they were made, not in their addresses' (which the allocator, and
 * the spares jobs are taken from, decide: here the 64 jobs made last take
 * the retired ones' memory in reverse)
 */
static void test_unfinished_in_the_order_made(void)
{
	struct gpu_event ev = { .ts = 100, .pid = 1, .has_fence = true, .seqno = 1, .ring = "gfx" };
	struct made_order o = { .nr = 0 };
	struct timeline t;
	int i;

	CU_ASSERT_EQUAL_FATAL(timeline_init(&t, false), 0);
	t.on_job = note_unfinished;
	t.job_ctx = &o;
	for (i = 0; i < 64; i++) {
		ev.ctx = 1 + (uint64_t)i;
		ev.kind = GEV_QUEUE;
		ev.ts++;
		timeline_add_event(&t, &ev);
	}
	for (i = 0; i < 64; i++) {
		ev.ctx = 1 + (uint64_t)i;
		ev.kind = GEV_DONE;
		ev.ts++;
		timeline_add_event(&t, &ev);
	}
	ev.kind = GEV_QUEUE;
	ev.ts = 1000;
	for (i = 0; i < 64; i++) {
		ev.ctx = 101 + (uint64_t)i;
		timeline_add_event(&t, &ev);
	}
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 64);
	for (i = 0; i < 64; i++)
		CU_ASSERT_EQUAL(o.ctx[i], 101 + (uint64_t)i);
	timeline_free(&t);
}

struct jobs_out {
	struct job jobs[4];
	int nr;
};

static void note_job(const struct job *j, void *ctx)
{
	struct jobs_out *o = ctx;

	if (o->nr < 4)
		o->jobs[o->nr++] = *j;
}

/* a timeline whose jobs go to @o */
static int start(struct timeline *t, struct jobs_out *o)
{
	o->nr = 0;
	if (timeline_init(t, false))
		return -1;
	t->on_job = note_job;
	t->job_ctx = o;
	return 0;
}

/* @ev as a @kind event at @ts */
static void add(struct timeline *t, struct gpu_event *ev, enum gpu_event_kind kind, uint64_t ts)
{
	ev->kind = kind;
	ev->ts = ts;
	timeline_add_event(t, ev);
}

/*
 * From trace-cmd's own lossy recording on 6.1 (the kernel lab's tc-lost):
 * job 5 of gfx runs and its done is lost; the ring's scheduler is made
 * again and numbers a new job 5 (another fence). The new job's queue, run
 * and done are its own, not the first job's: the first is handed out
 * unfinished when the second is queued, and the ring's depth never dips.
 */
static void test_id_again_after_a_lost_done(void)
{
	struct gpu_event ev = { .pid = 1, .has_id = true, .id = 5, .ring = "gfx" };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	ev.fence_ptr = 0xa000;
	add(&t, &ev, GEV_QUEUE, 100);
	add(&t, &ev, GEV_RUN, 110);
	ev.fence_ptr = 0xb000;
	add(&t, &ev, GEV_QUEUE, 200);
	CU_ASSERT_EQUAL_FATAL(o.nr, 1);
	CU_ASSERT_EQUAL(t.rings[0]->in_flight, 1);
	add(&t, &ev, GEV_RUN, 210);
	add(&t, &ev, GEV_DONE, 300);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 2);
	CU_ASSERT(o.jobs[0].flags & JOB_UNFINISHED);
	CU_ASSERT_EQUAL(o.jobs[0].t_queue, 100);
	CU_ASSERT_EQUAL(o.jobs[0].t_run, 110);
	CU_ASSERT_EQUAL(o.jobs[0].t_done, 0);
	CU_ASSERT_FALSE(o.jobs[1].flags & JOB_UNFINISHED);
	CU_ASSERT_EQUAL(o.jobs[1].t_queue, 200);
	CU_ASSERT_EQUAL(o.jobs[1].t_run, 210);
	CU_ASSERT_EQUAL(o.jobs[1].t_done, 300);
	CU_ASSERT_EQUAL(o.jobs[1].fence_ptr, 0xb000);
	CU_ASSERT_EQUAL(t.rings[0]->in_flight, 0);
	CU_ASSERT_EQUAL(t.rings[0]->unfinished, 1);
	timeline_free(&t);
}

/*
 * The same file: job 8 ran and its done was lost; its fence's memory is freed
 * and comes back as job 9's. Job 9's queue finds job 8 by the address, but
 * its id is another: job 9 is a job of its own.
 */
static void test_fence_address_again_after_a_lost_done(void)
{
	struct gpu_event ev = { .pid = 1, .has_id = true, .id = 8, .ring = "gfx", .fence_ptr = 0xa000 };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &ev, GEV_QUEUE, 100);
	add(&t, &ev, GEV_RUN, 110);
	ev.id = 9;
	add(&t, &ev, GEV_QUEUE, 200);
	add(&t, &ev, GEV_RUN, 210);
	add(&t, &ev, GEV_DONE, 300);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 2);
	CU_ASSERT(o.jobs[0].id == 8 && (o.jobs[0].flags & JOB_UNFINISHED) && !o.jobs[0].t_done);
	CU_ASSERT(o.jobs[1].id == 9 && o.jobs[1].t_queue == 200 && o.jobs[1].t_run == 210 &&
		  o.jobs[1].t_done == 300);
	CU_ASSERT_EQUAL(t.rings[0]->in_flight, 0);
	timeline_free(&t);
}

/*
 * A job's run stamped before its queue (the scheduler's thread on another
 * CPU, trace-cmd's local clock): its own fence finds it, one job.
 */
static void test_run_stamped_before_its_queue(void)
{
	struct gpu_event ev = { .pid = 1, .has_id = true, .id = 7, .ring = "gfx", .fence_ptr = 0xa000 };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &ev, GEV_RUN, 100);
	add(&t, &ev, GEV_QUEUE, 101);
	add(&t, &ev, GEV_DONE, 200);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 1);
	CU_ASSERT_FALSE(o.jobs[0].flags & JOB_UNFINISHED);
	CU_ASSERT_EQUAL(o.jobs[0].t_run, 100);
	CU_ASSERT_EQUAL(o.jobs[0].t_done, 200);
	timeline_free(&t);
}

/*
 * Before 5.15 the scheduler's events hold a pointer where the ring's name
 * would be: job 1 of one ring and job 1 of another, in flight together,
 * are two jobs, each with its own run and done (the id is no key there).
 */
static void test_same_id_on_two_unnamed_rings(void)
{
	struct gpu_event ev = { .pid = 1, .has_id = true, .id = 1 };
	struct jobs_out o;
	struct timeline t;
	int i;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	ev.fence_ptr = 0xa000;
	add(&t, &ev, GEV_QUEUE, 100);
	add(&t, &ev, GEV_RUN, 110);
	ev.fence_ptr = 0xb000;
	add(&t, &ev, GEV_QUEUE, 120);
	add(&t, &ev, GEV_RUN, 130);
	ev.fence_ptr = 0xa000;
	add(&t, &ev, GEV_DONE, 200);
	ev.fence_ptr = 0xb000;
	add(&t, &ev, GEV_DONE, 210);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 2);
	for (i = 0; i < 2; i++) {
		CU_ASSERT_FALSE(o.jobs[i].flags & JOB_UNFINISHED);
		CU_ASSERT_EQUAL(o.jobs[i].t_queue, o.jobs[i].fence_ptr == 0xa000 ? 100 : 120);
		CU_ASSERT_EQUAL(o.jobs[i].t_run, o.jobs[i].fence_ptr == 0xa000 ? 110 : 130);
		CU_ASSERT_EQUAL(o.jobs[i].t_done, o.jobs[i].fence_ptr == 0xa000 ? 200 : 210);
		/* still shown with its id */
		CU_ASSERT(o.jobs[i].has_id && o.jobs[i].id == 1);
	}
	timeline_free(&t);
}

/*
 * 5.10 (Debian 11): amdgpu_cs_ioctl names the ring and the id,
 * the scheduler's drm_sched_job that follows it in the same thread has the
 * id and a fence address but no ring name, and the ioctl's fence field holds
 * whatever was in the buffer. The queue is the thread's last submit's; a
 * queue of another thread, or of another id, is not.
 */
static void test_unnamed_queue_joins_its_threads_submit(void)
{
	struct gpu_event sub = { .pid = 7, .has_id = true, .id = 1, .ring = "gfx",
				 .has_fence = true, .ctx = 50, .seqno = 1 };
	struct gpu_event q = { .pid = 7, .has_id = true, .id = 1, .fence_ptr = 0xa000 };
	struct gpu_event done = { .fence_ptr = 0xa000 };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &sub, GEV_SUBMIT, 100);
	add(&t, &q, GEV_QUEUE, 110);
	add(&t, &q, GEV_RUN, 120);
	add(&t, &done, GEV_DONE, 200);
	/* sdma's job 1, by the same thread: its id is gfx's, its ring is not */
	strcpy(sub.ring, "sdma0");
	sub.ctx = 60;
	add(&t, &sub, GEV_SUBMIT, 300);
	/* another thread's queue of id 1 is not this submit's */
	q.pid = 8;
	q.fence_ptr = 0xb000;
	add(&t, &q, GEV_QUEUE, 305);
	q.pid = 7;
	q.id = 2;
	q.fence_ptr = 0xc000;
	add(&t, &q, GEV_QUEUE, 310);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 4);
	/* the first job whole, on its submit's ring */
	CU_ASSERT_EQUAL(o.jobs[0].t_submit, 100);
	CU_ASSERT_EQUAL(o.jobs[0].t_queue, 110);
	CU_ASSERT_EQUAL(o.jobs[0].t_done, 200);
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(&t, o.jobs[0].ring), "gfx");
	CU_ASSERT_FALSE(o.jobs[0].flags & JOB_UNFINISHED);
	/* the sdma submit stays alone: neither queue was its */
	for (int i = 1; i < 4; i++)
		CU_ASSERT(!o.jobs[i].t_submit || !o.jobs[i].t_queue);
	timeline_free(&t);
}

/*
 * Events lost between a submit and the next queue of its thread: the queue
 * may be another job's (5.10: another ring's, whose ids count alike), so it
 * starts its own; and a job whose done was lost, found by the fence address
 * that the next job's queue reuses, is handed out unfinished at that queue.
 */
static void test_lost_events_end_a_submits_wait(void)
{
	struct gpu_event sub = { .pid = 7, .has_id = true, .id = 5, .ring = "gfx",
				 .has_fence = true, .ctx = 50, .seqno = 5 };
	struct gpu_event q = { .pid = 7, .has_id = true, .id = 5, .ring_ptr = 0xa0, .fence_ptr = 0xa000 };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &sub, GEV_SUBMIT, 100);
	timeline_lost_events(&t, 150);
	add(&t, &q, GEV_QUEUE, 200);
	add(&t, &q, GEV_RUN, 210);
	/* its done lost: the next job on that ring reuses the fence's address */
	sub.id = 6;
	sub.seqno = 6;
	add(&t, &sub, GEV_SUBMIT, 300);
	q.id = 6;
	add(&t, &q, GEV_QUEUE, 310);
	CU_ASSERT_EQUAL(t.jobs_in_flight, 2);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 3);
	/* the lost submit's job and the job that lost its done: unfinished, apart */
	CU_ASSERT_EQUAL(o.jobs[0].t_queue, 200);
	CU_ASSERT_FALSE(o.jobs[0].t_submit);
	CU_ASSERT(o.jobs[0].flags & JOB_UNFINISHED);
	timeline_free(&t);
}

/*
 * On 5.10 a scheduler without amdgpu's events (v3d, etnaviv, panfrost)
 * names its rings only by their names' addresses: two addresses are two
 * rings, in the order first seen, and an id with its address finds its job
 * (drm_sched_job_wait_dep carries no fence of the job's own).
 */
static void test_ring_addresses_are_rings(void)
{
	struct gpu_event a = { .pid = 7, .has_id = true, .id = 1, .ring_ptr = 0xa0, .fence_ptr = 0xf1 };
	struct gpu_event b = { .pid = 7, .has_id = true, .id = 1, .ring_ptr = 0xb0, .fence_ptr = 0xf2 };
	struct gpu_event wait = { .pid = 9, .has_id = true, .id = 1, .ring_ptr = 0xb0, .has_dep = true,
				  .dep_ctx = 3, .dep_seqno = 4 };
	struct jobs_out o;
	struct timeline t;
	int i;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &a, GEV_QUEUE, 100);
	add(&t, &b, GEV_QUEUE, 105);
	add(&t, &wait, GEV_DEP_WAIT, 106);
	add(&t, &a, GEV_RUN, 110);
	add(&t, &b, GEV_RUN, 111);
	add(&t, &(struct gpu_event){ .fence_ptr = 0xf1 }, GEV_DONE, 200);
	add(&t, &(struct gpu_event){ .fence_ptr = 0xf2 }, GEV_DONE, 210);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 2);
	CU_ASSERT_EQUAL(t.nr_rings, 2);
	for (i = 0; i < 2; i++) {
		bool is_b = o.jobs[i].fence_ptr == 0xf2;

		CU_ASSERT_STRING_EQUAL(timeline_ring_name(&t, o.jobs[i].ring),
				       is_b ? "(unnamed 2)" : "(unnamed 1)");
		CU_ASSERT_EQUAL(o.jobs[i].nr_waits, is_b ? 1 : 0);
		/* each ring runs its own: nothing waited behind the other ring's job */
		CU_ASSERT_EQUAL(o.jobs[i].t_hw_start, o.jobs[i].t_run);
	}
	timeline_free(&t);
}

/*
 * A kernel job (no ioctl) queued on a ring known by its address: amdgpu's
 * run, right after the scheduler's in the same thread, names the ring, and
 * the ring takes the name, its first job with it.
 */
static void test_ring_address_named_by_amdgpus_run(void)
{
	struct gpu_event q = { .pid = 77, .has_id = true, .id = 1, .ring_ptr = 0xa0, .fence_ptr = 0xf1 };
	struct gpu_event run = { .pid = 300, .has_id = true, .id = 1, .ring_ptr = 0xa0, .fence_ptr = 0xf1 };
	struct gpu_event amd = { .pid = 300, .has_id = true, .id = 1, .ring = "sdma0",
				 .has_fence = true, .ctx = 60, .seqno = 1 };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &q, GEV_QUEUE, 100);
	add(&t, &run, GEV_RUN, 105);
	add(&t, &amd, GEV_AMDGPU_RUN, 105);
	/* the job's second key, its fence context:seqno, from amdgpu's run */
	add(&t, &(struct gpu_event){ .has_fence = true, .ctx = 60, .seqno = 1 }, GEV_DONE, 150);
	/* the next job's queue: named by its address now */
	q.id = 2;
	q.fence_ptr = 0xf2;
	add(&t, &q, GEV_QUEUE, 200);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 2);
	CU_ASSERT_EQUAL(t.nr_rings, 1);
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(&t, o.jobs[0].ring), "sdma0");
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(&t, o.jobs[1].ring), "sdma0");
	CU_ASSERT_EQUAL(o.jobs[0].t_done, 150);
	CU_ASSERT_FALSE(o.jobs[0].flags & JOB_UNFINISHED);
	timeline_free(&t);
}

/*
 * Two GPUs on 5.10, each with an sdma0 (two addresses, one name), their
 * kernel jobs 1 in flight at once: the second address keeps a ring of its
 * own, so that neither job takes the other's id, and amdgpu's run names its
 * own job's fence (80:1), not the first GPU's job 1's; and a ring whose first
 * job was handed out under its stand-in name keeps that name (what the
 * outputs showed is not taken back).
 */
static void test_ring_address_keeps_its_ring(void)
{
	struct gpu_event qa = { .pid = 77, .has_id = true, .id = 1, .ring_ptr = 0xa0, .fence_ptr = 0xf1 };
	struct gpu_event qb = { .pid = 78, .has_id = true, .id = 1, .ring_ptr = 0xb0, .fence_ptr = 0xf2 };
	struct gpu_event amd = { .pid = 300, .has_id = true, .id = 1, .ring = "sdma0",
				 .has_fence = true, .ctx = 60, .seqno = 1 };
	struct jobs_out o;
	struct timeline t;
	int i;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &qa, GEV_QUEUE, 100);
	add(&t, &qb, GEV_QUEUE, 101);
	qa.pid = 300;
	add(&t, &qa, GEV_RUN, 105);
	add(&t, &amd, GEV_AMDGPU_RUN, 105);
	qb.pid = 301;
	add(&t, &qb, GEV_RUN, 106);
	amd.pid = 301;
	amd.ctx = 80;
	add(&t, &amd, GEV_AMDGPU_RUN, 106);
	add(&t, &(struct gpu_event){ .fence_ptr = 0xf1 }, GEV_DONE, 150);
	add(&t, &(struct gpu_event){ .fence_ptr = 0xf2 }, GEV_DONE, 160);
	/* a third address: its first job done before amdgpu names the ring */
	add(&t, &(struct gpu_event){ .pid = 79, .has_id = true, .id = 1, .ring_ptr = 0xc0,
				     .fence_ptr = 0xf3 }, GEV_QUEUE, 200);
	add(&t, &(struct gpu_event){ .fence_ptr = 0xf3 }, GEV_DONE, 210);
	add(&t, &(struct gpu_event){ .pid = 302, .has_id = true, .id = 2, .ring_ptr = 0xc0,
				     .fence_ptr = 0xf4 }, GEV_RUN, 220);
	add(&t, &(struct gpu_event){ .pid = 302, .has_id = true, .id = 2, .ring = "gfx" },
	    GEV_AMDGPU_RUN, 220);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 4);
	for (i = 0; i < 4; i++) {
		const char *ring = timeline_ring_name(&t, o.jobs[i].ring);

		if (o.jobs[i].fence_ptr == 0xf1 || o.jobs[i].fence_ptr == 0xf2) {
			CU_ASSERT_STRING_EQUAL(ring, o.jobs[i].fence_ptr == 0xf1 ? "sdma0" : "(unnamed 2)");
			CU_ASSERT_EQUAL(o.jobs[i].t_done, o.jobs[i].fence_ptr == 0xf1 ? 150 : 160);
			CU_ASSERT_FALSE(o.jobs[i].flags & JOB_UNFINISHED);
			CU_ASSERT_EQUAL(o.jobs[i].ctx, o.jobs[i].fence_ptr == 0xf1 ? 60 : 80);
		} else {
			CU_ASSERT_STRING_EQUAL(ring, "(unnamed 3)");
		}
	}
	timeline_free(&t);
}

/*
 * amdgpu's run of a job the trace has no other event of (its queue before
 * the recording began, its scheduler's run lost): no job, and no ring made
 * for a name that nothing else used, on any device.
 */
static void test_amdgpus_run_alone_makes_no_ring(void)
{
	struct gpu_event amd = { .pid = 300, .has_id = true, .id = 9, .ring = "gfx",
				 .has_fence = true, .ctx = 60, .seqno = 9 };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &amd, GEV_AMDGPU_RUN, 100);
	strcpy(amd.dev, "0000:03:00.0");
	amd.id = 10;
	add(&t, &amd, GEV_AMDGPU_RUN, 110);
	/* a ring that jobs use: its unknown job makes no second ring of the name either */
	add(&t, &(struct gpu_event){ .has_id = true, .id = 1, .ring = "sdma0", .fence_ptr = 0xf1,
				     .has_fence = true, .ctx = 70, .seqno = 1 }, GEV_QUEUE, 120);
	amd.id = 11;
	strcpy(amd.ring, "sdma0");
	add(&t, &amd, GEV_AMDGPU_RUN, 130);
	timeline_finish(&t);
	CU_ASSERT_EQUAL(o.nr, 1);
	CU_ASSERT_EQUAL(t.nr_rings, 1);
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(&t, 0), "sdma0");
	timeline_free(&t);
}

/*
 * Two GPUs on 6.1, sdma0 on both: GPU A's kernel job 5 (a kworker's queue,
 * no ioctl, so no fence context:seqno), and GPU B's job 5 of an ioctl: A's
 * queue before B's submit, between B's submit and queue, or after both. The
 * submit is not A's job's, nor is A's queue B's job's.
 */
static void test_kernel_job_and_another_gpus_submit(void)
{
	static const char *const orders[] = { "Kbq", "bKq", "bqK" };
	unsigned int k;
	int i;

	for (k = 0; k < 3; k++) {
		struct gpu_event ka = { .pid = 99, .has_id = true, .id = 5, .ring = "sdma0", .fence_ptr = 0xa0 };
		struct gpu_event sb = { .pid = 20, .has_id = true, .id = 5, .ring = "sdma0",
					.has_fence = true, .ctx = 70, .seqno = 5 };
		struct gpu_event qb = { .pid = 20, .has_id = true, .id = 5, .ring = "sdma0", .fence_ptr = 0xb0 };
		struct gpu_event *ev[128] = { ['K'] = &ka, ['b'] = &sb, ['q'] = &qb };
		const char *c;
		struct jobs_out o;
		struct timeline t;

		CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
		for (c = orders[k]; *c; c++)
			add(&t, ev[(int)*c], *c == 'b' ? GEV_SUBMIT : GEV_QUEUE, 100 + (uint64_t)(c - orders[k]));
		CU_ASSERT_EQUAL(o.nr, 0);
		ka.pid = qb.pid = 300;
		add(&t, &ka, GEV_RUN, 110);
		add(&t, &qb, GEV_RUN, 111);
		add(&t, &(struct gpu_event){ .fence_ptr = 0xa0 }, GEV_DONE, 150);
		add(&t, &(struct gpu_event){ .fence_ptr = 0xb0 }, GEV_DONE, 160);
		timeline_finish(&t);
		CU_ASSERT_EQUAL_FATAL(o.nr, 2);
		for (i = 0; i < 2; i++) {
			bool b = o.jobs[i].fence_ptr == 0xb0;

			CU_ASSERT_FALSE(o.jobs[i].flags & JOB_UNFINISHED);
			CU_ASSERT_EQUAL(o.jobs[i].pid, b ? 20 : 99);
			CU_ASSERT_EQUAL(o.jobs[i].t_submit, b ? 100 + (uint64_t)(strchr(orders[k], 'b') - orders[k]) : 0);
			CU_ASSERT_EQUAL(o.jobs[i].has_fence, b);
			CU_ASSERT_EQUAL(o.jobs[i].t_run, b ? 111 : 110);
		}
		timeline_free(&t);
	}
}

/*
 * Two GPUs on 6.1, gfx_0.0.0 on both, each one's job 5: every interleaving
 * of the two jobs' events (submit a/b, queue A/B, run x/y with amdgpu's run
 * after it, done X/Y), GPU A's job from an ioctl or a kworker's kernel job
 * (no submit), or both run by one kworker. Each comes out whole, with its
 * own times and fence.
 */
struct two_gpus {
	struct gpu_event s[2], q[2], r[2], ar[2];
	bool kernel[2];		/* GPU x's job queued with no ioctl (no submit) */
	int bad;
};

static uint64_t at(const char *order, char c)
{
	return 100 + (uint64_t)(strchr(order, c) - order);
}

static void two_gpus_check(struct two_gpus *g, const char *order)
{
	struct jobs_out o;
	struct timeline t;
	const char *c;
	int i;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	for (c = order; *c; c++) {
		int x = !!strchr("bByY", *c);
		uint64_t ts = at(order, *c);

		if (*c == 'a' || *c == 'b') {
			add(&t, &g->s[x], GEV_SUBMIT, ts);
		} else if (*c == 'A' || *c == 'B') {
			add(&t, &g->q[x], GEV_QUEUE, ts);
		} else if (*c == 'x' || *c == 'y') {
			add(&t, &g->r[x], GEV_RUN, ts);
			add(&t, &g->ar[x], GEV_AMDGPU_RUN, ts);
		} else {
			add(&t, &(struct gpu_event){ .fence_ptr = g->q[x].fence_ptr }, GEV_DONE, ts);
		}
	}
	timeline_finish(&t);
	g->bad += o.nr != 2;
	for (i = 0; i < o.nr && i < 2; i++) {
		const struct job *j = &o.jobs[i];
		bool b = j->fence_ptr == 0xb0;

		g->bad += (j->flags & JOB_UNFINISHED) || j->pid != g->q[b].pid ||
			  j->t_submit != (g->kernel[b] ? 0 : at(order, b ? 'b' : 'a')) ||
			  j->t_queue != at(order, b ? 'B' : 'A') || j->t_run != at(order, b ? 'y' : 'x') ||
			  j->t_done != at(order, b ? 'Y' : 'X') ||
			  j->ctx != g->ar[b].ctx;
	}
	timeline_free(&t);
}

static void two_gpus_orders(struct two_gpus *g, const char *a, const char *b, char *order, int n)
{
	if (!*a && !*b) {
		order[n] = '\0';
		two_gpus_check(g, order);
		return;
	}
	if (*a) {
		order[n] = *a;
		two_gpus_orders(g, a + 1, b, order, n + 1);
	}
	if (*b) {
		order[n] = *b;
		two_gpus_orders(g, a, b + 1, order, n + 1);
	}
}

static void test_two_gpus_every_order(void)
{
	struct two_gpus g = {
		.s = { { .pid = 10, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .has_fence = true,
			 .ctx = 50, .seqno = 5 },
		       { .pid = 20, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .has_fence = true,
			 .ctx = 70, .seqno = 5 } },
		.q = { { .pid = 10, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .fence_ptr = 0xa0 },
		       { .pid = 20, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .fence_ptr = 0xb0 } },
		.r = { { .pid = 300, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .fence_ptr = 0xa0 },
		       { .pid = 301, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .fence_ptr = 0xb0 } },
		.ar = { { .pid = 300, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .has_fence = true,
			  .ctx = 50, .seqno = 5 },
			{ .pid = 301, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .has_fence = true,
			  .ctx = 70, .seqno = 5 } },
	};
	char order[16];

	two_gpus_orders(&g, "aAxX", "bByY", order, 0);
	CU_ASSERT_EQUAL(g.bad, 0);
	/* GPU A's job a kworker's kernel job */
	g.kernel[0] = true;
	g.q[0].pid = 99;
	two_gpus_orders(&g, "AxX", "bByY", order, 0);
	CU_ASSERT_EQUAL(g.bad, 0);
	/* both GPUs' jobs run by one kworker (the scheduler's work items share a pool) */
	g.kernel[0] = false;
	g.q[0].pid = 10;
	g.r[1].pid = g.ar[1].pid = 300;
	two_gpus_orders(&g, "aAxX", "bByY", order, 0);
	CU_ASSERT_EQUAL(g.bad, 0);
	/*
	 * neither from an ioctl: each GPU's job queued by the thread that made
	 * it (a rank's page-table update on its own GPU, a kworker's move)
	 */
	g.kernel[0] = g.kernel[1] = true;
	g.q[0].pid = 99;
	g.q[1].pid = 98;
	two_gpus_orders(&g, "AxX", "ByY", order, 0);
	CU_ASSERT_EQUAL(g.bad, 0);
	/* A's run stamped before its queue (another CPU's clock): B's job is not its */
	g.r[1].pid = g.ar[1].pid = 301;
	two_gpus_orders(&g, "xAX", "ByY", order, 0);
	CU_ASSERT_EQUAL(g.bad, 0);
}

/*
 * Job 5 runs (its queue and its done lost); its fence's address comes back
 * for job 6, whose run is stamped before its queue. Job 6's run is its own,
 * not job 5's again: job 5 ends there, unfinished.
 */
static void test_run_of_a_fence_address_come_back(void)
{
	struct gpu_event ev = { .pid = 300, .has_id = true, .id = 5, .ring = "gfx", .fence_ptr = 0xa0 };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &ev, GEV_RUN, 100);
	ev.id = 6;
	add(&t, &ev, GEV_RUN, 300);
	CU_ASSERT_EQUAL_FATAL(o.nr, 1);
	CU_ASSERT(o.jobs[0].flags & JOB_UNFINISHED);
	CU_ASSERT_EQUAL(o.jobs[0].id, 5);
	ev.pid = 8;
	add(&t, &ev, GEV_QUEUE, 301);
	add(&t, &(struct gpu_event){ .fence_ptr = 0xa0 }, GEV_DONE, 320);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 2);
	CU_ASSERT_EQUAL(o.jobs[1].id, 6);
	CU_ASSERT_EQUAL(o.jobs[1].t_run, 300);
	CU_ASSERT_EQUAL(o.jobs[1].t_queue, 301);
	CU_ASSERT_EQUAL(o.jobs[1].t_done, 320);
	CU_ASSERT_FALSE(o.jobs[1].flags & JOB_UNFINISHED);
	timeline_free(&t);
}

/*
 * A ring first named without a device (an ioctl's), then by two devices'
 * queues with ids: the first device's queue gives it its device, the
 * second's makes a ring of its own (the id lookup keeps no ring that
 * skips that).
 */
static void test_id_lookup_gives_a_ring_its_device(void)
{
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &(struct gpu_event){ .pid = 10, .has_id = true, .id = 6, .ring = "sdma0",
				     .has_fence = true, .ctx = 50, .seqno = 6 }, GEV_SUBMIT, 100);
	add(&t, &(struct gpu_event){ .pid = 20, .has_id = true, .id = 7, .ring = "sdma0",
				     .dev = "0000:03:00.0", .fence_ptr = 0xa0 }, GEV_QUEUE, 110);
	add(&t, &(struct gpu_event){ .pid = 30, .has_id = true, .id = 8, .ring = "sdma0",
				     .dev = "0000:c3:00.0", .fence_ptr = 0xb0 }, GEV_QUEUE, 120);
	CU_ASSERT_EQUAL_FATAL(t.nr_rings, 2);
	CU_ASSERT_STRING_EQUAL(t.rings[0]->dev, "0000:03:00.0");
	CU_ASSERT_STRING_EQUAL(t.rings[1]->dev, "0000:c3:00.0");
	timeline_finish(&t);
	timeline_free(&t);
}

/*
 * A kworker that runs another driver's scheduler job too (xe's rcs0 job 5,
 * no amdgpu run after it), then amdgpu's gfx job 5: amdgpu's run is the
 * gfx run's, just before it, not the other driver's earlier one.
 */
static void test_amdgpus_run_after_another_drivers_run(void)
{
	struct gpu_event xe = { .pid = 50, .has_id = true, .id = 5, .ring = "rcs0", .fence_ptr = 0xc0 };
	struct gpu_event gfx = { .pid = 10, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .fence_ptr = 0xa0 };
	struct gpu_event ar = { .pid = 300, .has_id = true, .id = 5, .ring = "gfx_0.0.0",
				.has_fence = true, .ctx = 50, .seqno = 5 };
	struct jobs_out o;
	struct timeline t;
	int i;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &xe, GEV_QUEUE, 100);
	xe.pid = 300;
	add(&t, &xe, GEV_RUN, 110);
	add(&t, &gfx, GEV_QUEUE, 120);
	gfx.pid = 300;
	add(&t, &gfx, GEV_RUN, 130);
	add(&t, &ar, GEV_AMDGPU_RUN, 130);
	add(&t, &(struct gpu_event){ .fence_ptr = 0xa0 }, GEV_DONE, 150);
	add(&t, &(struct gpu_event){ .fence_ptr = 0xc0 }, GEV_DONE, 160);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 2);
	for (i = 0; i < 2; i++) {
		bool is_gfx = o.jobs[i].fence_ptr == 0xa0;

		CU_ASSERT_FALSE(o.jobs[i].flags & JOB_UNFINISHED);
		CU_ASSERT_EQUAL(o.jobs[i].has_fence, is_gfx);
		CU_ASSERT_EQUAL(o.jobs[i].ctx, is_gfx ? 50 : 0);
		CU_ASSERT_EQUAL(o.jobs[i].t_run, is_gfx ? 130 : 110);
	}
	timeline_free(&t);
}

/*
 * Two GPUs on 6.1: GPU A's job 5 lost its done, and its fence's address
 * comes back for GPU B's job 5 (one slab for all GPUs). A's job ends,
 * unfinished, at B's queue: one job in flight, not two.
 */
static void test_fence_address_again_on_another_gpu(void)
{
	struct gpu_event sa = { .pid = 10, .has_id = true, .id = 5, .ring = "gfx_0.0.0",
				.has_fence = true, .ctx = 50, .seqno = 5 };
	struct gpu_event sb = { .pid = 20, .has_id = true, .id = 5, .ring = "gfx_0.0.0",
				.has_fence = true, .ctx = 70, .seqno = 5 };
	struct gpu_event qa = { .pid = 10, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .fence_ptr = 0xa0 };
	struct gpu_event qb = { .pid = 20, .has_id = true, .id = 5, .ring = "gfx_0.0.0", .fence_ptr = 0xa0 };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &sa, GEV_SUBMIT, 100);
	add(&t, &qa, GEV_QUEUE, 101);
	qa.pid = 300;
	add(&t, &qa, GEV_RUN, 110);
	add(&t, &sb, GEV_SUBMIT, 200);
	add(&t, &qb, GEV_QUEUE, 201);
	CU_ASSERT_EQUAL(t.jobs_in_flight, 1);
	CU_ASSERT_EQUAL_FATAL(o.nr, 1);
	CU_ASSERT(o.jobs[0].flags & JOB_UNFINISHED);
	CU_ASSERT_EQUAL(o.jobs[0].ctx, 50);
	qb.pid = 300;
	add(&t, &qb, GEV_RUN, 210);
	add(&t, &(struct gpu_event){ .fence_ptr = 0xa0 }, GEV_DONE, 250);
	CU_ASSERT_EQUAL(t.jobs_in_flight, 0);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 2);
	CU_ASSERT_EQUAL(o.jobs[1].ctx, 70);
	CU_ASSERT_EQUAL(o.jobs[1].t_submit, 200);
	CU_ASSERT_EQUAL(o.jobs[1].t_done, 250);
	timeline_free(&t);
}

/*
 * One GPU, 6.1, with ioctls: job 5 runs and its done is lost; the entity's
 * next submit has job 5 again (the scheduler made again). The first is
 * handed out unfinished at that submit: one job in flight after, not two.
 */
static void test_id_again_after_a_lost_done_with_submits(void)
{
	struct gpu_event s = { .pid = 1, .has_id = true, .id = 5, .ring = "gfx",
			       .has_fence = true, .ctx = 50, .seqno = 1 };
	struct gpu_event ev = { .pid = 1, .has_id = true, .id = 5, .ring = "gfx", .fence_ptr = 0xa000 };
	struct jobs_out o;
	struct timeline t;

	CU_ASSERT_EQUAL_FATAL(start(&t, &o), 0);
	add(&t, &s, GEV_SUBMIT, 99);
	add(&t, &ev, GEV_QUEUE, 100);
	add(&t, &ev, GEV_RUN, 110);
	s.seqno = 2;
	add(&t, &s, GEV_SUBMIT, 199);
	CU_ASSERT_EQUAL(o.nr, 1);
	ev.fence_ptr = 0xb000;
	add(&t, &ev, GEV_QUEUE, 200);
	CU_ASSERT_EQUAL_FATAL(o.nr, 1);
	CU_ASSERT(o.jobs[0].flags & JOB_UNFINISHED);
	CU_ASSERT_EQUAL(o.jobs[0].t_submit, 99);
	CU_ASSERT_EQUAL(t.rings[0]->in_flight, 1);
	add(&t, &ev, GEV_RUN, 210);
	add(&t, &ev, GEV_DONE, 300);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(o.nr, 2);
	CU_ASSERT_EQUAL(o.jobs[1].t_submit, 199);
	CU_ASSERT_EQUAL(o.jobs[1].t_done, 300);
	CU_ASSERT_FALSE(o.jobs[1].flags & JOB_UNFINISHED);
	timeline_free(&t);
}

void suite_timeline_fuzz(void)
{
	CU_pSuite s = CU_add_suite("timeline-fuzz-regressions", NULL, NULL);

	CU_add_test(s, "a job without keys is not kept", test_job_without_keys_is_not_kept);
	CU_add_test(s, "ring names past the cap share one ring", test_ring_names_capped);
	CU_add_test(s, "jobs unfinished at one time: in the order made", test_unfinished_in_the_order_made);
	CU_add_test(s, "a job id again after a lost done is another job", test_id_again_after_a_lost_done);
	CU_add_test(s, "a fence address again after a lost done is another job",
		    test_fence_address_again_after_a_lost_done);
	CU_add_test(s, "a run stamped before its queue is the same job", test_run_stamped_before_its_queue);
	CU_add_test(s, "one id on two unnamed rings is two jobs", test_same_id_on_two_unnamed_rings);
	CU_add_test(s, "a queue with no ring name joins its thread's submit",
		    test_unnamed_queue_joins_its_threads_submit);
	CU_add_test(s, "lost events end a submit's wait", test_lost_events_end_a_submits_wait);
	CU_add_test(s, "ring addresses are rings of their own", test_ring_addresses_are_rings);
	CU_add_test(s, "a ring address named by amdgpu's run", test_ring_address_named_by_amdgpus_run);
	CU_add_test(s, "a ring address keeps its ring: another GPU's name, a job shown",
		    test_ring_address_keeps_its_ring);
	CU_add_test(s, "amdgpu's run alone makes no ring", test_amdgpus_run_alone_makes_no_ring);
	CU_add_test(s, "two GPUs: a kernel job and another GPU's submit of its id",
		    test_kernel_job_and_another_gpus_submit);
	CU_add_test(s, "a job id again after a lost done, with submits",
		    test_id_again_after_a_lost_done_with_submits);
	CU_add_test(s, "two GPUs: every order of two jobs' events", test_two_gpus_every_order);
	CU_add_test(s, "amdgpu's run after another driver's run on its thread",
		    test_amdgpus_run_after_another_drivers_run);
	CU_add_test(s, "an id lookup gives a ring its device", test_id_lookup_gives_a_ring_its_device);
	CU_add_test(s, "a run of a fence address come back is another job's",
		    test_run_of_a_fence_address_come_back);
	CU_add_test(s, "two GPUs: a fence's address again on the other", test_fence_address_again_on_another_gpu);
}

/* Time going backwards across CPUs: never a negative or wrapped latency. */
static void test_clock_skew(void)
{
	struct run r;
	const struct job *j;
	int i, l;

	CU_ASSERT_EQUAL_FATAL(analyse(&r, "clock-skew"), 0);
	for (i = 0; i < r.nr_jobs; i++)
		for (l = 0; l < LAT_NR; l++)
			if (r.jobs[i].has_lat[l])
				CU_ASSERT(r.jobs[i].lat[l] < US_NS(1000));
	j = job_by_fence(&r, 300, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	EXPECT_LAT(j, LAT_EXEC, 90);
	/* job 1's done came "before" its run: no exec invented for it */
	j = job_by_fence(&r, 300, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_FALSE(j->has_lat[LAT_EXEC]);
	done(&r);
}

void suite_timeline_skew(void)
{
	CU_pSuite s = CU_add_suite("timeline-clock-skew", NULL, NULL);

	CU_add_test(s, "done stamped before run on another CPU", test_clock_skew);
}
