// SPDX-License-Identifier: GPL-2.0
/*
 * Enforce isolation's owner switches (owner-switch.h): the isolation
 * fixture (real 7.3 formats) joined by hand-worked numbers, and the edges a
 * file can hold: a switch no job claims, more workers than are followed,
 * more switches than are kept, a cleaner shader after no switch, a 6.16
 * dependency named by pointer.
 */
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../unit.h"
#include "analysis/owner-switch-private.h"
#include "analysis/timeline.h"

#define US	1000ULL
#define T0	1000000000ULL
#define RIVAL	0xffff888120000000ULL
#define LLAMA	0xffff888130000000ULL

static const struct ring_stats *ring(const struct analysis *a, const char *name)
{
	int i;

	for (i = 0; i < timeline_of(a)->nr_rings; i++)
		if (!strcmp(timeline_of(a)->rings[i]->name, name))
			return timeline_of(a)->rings[i];
	return NULL;
}

static void test_the_isolation_fixture(void)
{
	struct gt_error err = { 0 };
	struct kept_jobs k = { 0 };
	const struct owner_switches *s;
	const struct owner_switch *sw;
	const struct ring_stats *gfx, *comp;
	const struct job *j;
	struct analysis a;
	char path[64];
	uint64_t wait;

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("isolation", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, &(struct analysis_hooks){ .on_job = kept_job, .ctx = &k },
					    &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	s = &timeline_of(&a)->switches;
	CU_ASSERT_EQUAL(s->seen, 4);
	CU_ASSERT_EQUAL(s->dropped, 0);
	CU_ASSERT_EQUAL(s->cleaner_runs, 4);
	CU_ASSERT_EQUAL(s->cleaner_alone, 0);
	CU_ASSERT_EQUAL_FATAL(s->nr, 4);
	CU_ASSERT_EQUAL(owner_switches_owner_pid(s, RIVAL), 6000);
	CU_ASSERT_EQUAL(owner_switches_owner_pid(s, LLAMA), 5000);
	CU_ASSERT_EQUAL(owner_switches_owner_pid(s, OWNER_NONE), 0);

	sw = &s->list[0];		/* kernel -> rival for R1, nothing to wait for */
	CU_ASSERT_EQUAL(sw->prev, OWNER_NONE);
	CU_ASSERT_EQUAL(sw->next, RIVAL);
	CU_ASSERT_TRUE(sw->has_fence && sw->ctx == 300 && sw->seqno == 1 && sw->pid == 6000);
	CU_ASSERT_EQUAL(sw->t_run - sw->ts, 1 * US);
	CU_ASSERT_FALSE(sw->waited);
	CU_ASSERT_TRUE(sw->cleaner && sw->cleaner_seqno == 41);

	sw = &s->list[1];		/* rival -> llama: L1 waits for R1 on its own ring */
	CU_ASSERT_TRUE(sw->ctx == 100 && sw->seqno == 1 && sw->workload);
	CU_ASSERT_EQUAL(sw->ts, T0 + 12 * US);
	CU_ASSERT_EQUAL(sw->t_run - sw->ts, 290 * US);
	CU_ASSERT_TRUE(sw->waited && sw->wait_ctx == 300 && sw->wait_seqno == 1);
	CU_ASSERT_EQUAL(sw->wait_pid, 6000);
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(timeline_of(&a), sw->wait_ring), "gfx_0.0.0");

	sw = &s->list[2];		/* llama -> rival on the compute ring's worker */
	CU_ASSERT_EQUAL(sw->worker, 302);
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(timeline_of(&a), sw->ring), "comp_1.0.0");
	CU_ASSERT_EQUAL(sw->t_run - sw->ts, 99 * US);
	CU_ASSERT_TRUE(sw->cleaner && sw->cleaner_seqno == 7);

	sw = &s->list[3];		/* L2 waits 100 us for the rival's compute job */
	CU_ASSERT_EQUAL(sw->t_run - sw->ts, 100 * US);
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(timeline_of(&a), sw->wait_ring), "comp_1.0.0");
	CU_ASSERT_EQUAL(sw->wait_pid, 6000);

	gfx = ring(&a, "gfx_0.0.0");
	comp = ring(&a, "comp_1.0.0");
	CU_ASSERT_FATAL(gfx && comp);
	CU_ASSERT_EQUAL(gfx->switches, 3);
	CU_ASSERT_EQUAL(gfx->switch_wait_jobs, 2);	/* the workload's L1 and L2 */
	CU_ASSERT_EQUAL(gfx->switch_wait_ns, 390 * US);
	CU_ASSERT_EQUAL(gfx->cleaner_shaders, 3);
	/* L2's wait was behind no job of its own ring: only the switch names it */
	CU_ASSERT_EQUAL(gfx->behind_ns, 290 * US);
	CU_ASSERT_EQUAL(comp->switches, 1);
	CU_ASSERT_EQUAL(comp->switch_wait_jobs, 0);	/* the rival's, not summarised */

	CU_ASSERT_EQUAL_FATAL(k.nr, 5);
	j = kept_by_ctx(&k, 100, 2);
	CU_ASSERT_FATAL(j != NULL);
	CU_ASSERT_TRUE(j->flags & JOB_OWNER_SWITCH);
	CU_ASSERT_TRUE(job_switch_wait(j, &wait) && wait == 100 * US);
	CU_ASSERT_EQUAL(j->behind.ns, 0);
	j = kept_by_ctx(&k, 100, 3);	/* same owner as the last: no switch */
	CU_ASSERT_FATAL(j != NULL);
	CU_ASSERT_FALSE(j->flags & JOB_OWNER_SWITCH);
	CU_ASSERT_FALSE(job_switch_wait(j, &wait));
	kept_jobs_free(&k);
	analysis_close(&a);
	unlink(path);
}

static struct gpu_event ev(enum gpu_event_kind kind, uint64_t ts, int pid)
{
	struct gpu_event e = { .kind = kind, .ts = ts, .pid = pid };

	return e;
}

static struct gpu_event isolation(uint64_t ts, int worker, uint64_t prev, uint64_t next)
{
	struct gpu_event e = ev(GEV_ISOLATION, ts, worker);

	e.name = "amdgpu_isolation";
	e.owner_prev = prev;
	e.owner_next = next;
	return e;
}

/* a <= 6.16 scheduler job: id on a ring, finished fence by pointer */
static struct gpu_event sched(enum gpu_event_kind kind, uint64_t ts, int pid, uint64_t id,
			      uint64_t ptr)
{
	struct gpu_event e = ev(kind, ts, pid);

	e.has_id = true;
	e.id = id;
	e.fence_ptr = ptr;
	strcpy(e.ring, "gfx");
	return e;
}

static void test_switch_edges(void)
{
	struct timeline t;
	struct gpu_event e;
	struct kept_jobs k = { 0 };
	int i;

	CU_ASSERT_EQUAL_FATAL(timeline_init(&t, false), 0);
	t.on_job = kept_job;
	t.job_ctx = &k;
	/* job 1 (fence 0xa) runs; job 2's switch, then its wait names 0xa by pointer */
	e = sched(GEV_QUEUE, 10, 500, 1, 0xa);
	timeline_add_event(&t, &e);
	e = sched(GEV_RUN, 11, 300, 1, 0xa);
	timeline_add_event(&t, &e);
	e = sched(GEV_QUEUE, 12, 600, 2, 0xb);
	timeline_add_event(&t, &e);
	e = isolation(13, 300, 1, 2);
	timeline_add_event(&t, &e);
	/* another worker's events do not claim worker 300's switch */
	e = ev(GEV_CLEANER_SHADER, 14, 301);
	strcpy(e.ring, "gfx");
	timeline_add_event(&t, &e);
	CU_ASSERT_EQUAL(t.switches.live->nr_pending, 1);
	CU_ASSERT_EQUAL(t.switches.cleaner_alone, 1);	/* job 1 ran after no switch */
	e = sched(GEV_DEP_WAIT, 15, 300, 2, 0xb);
	e.has_dep = true;
	e.dep_ptr = 0xa;
	timeline_add_event(&t, &e);
	CU_ASSERT_EQUAL(t.switches.live->nr_pending, 0);
	CU_ASSERT_TRUE(t.switches.list[0].waited && t.switches.list[0].wait_pid == 500);
	CU_ASSERT_EQUAL(t.switches.list[0].pid, 600);

	/* a switch no job claims is replaced by the same worker's next */
	e = isolation(20, 300, 2, 3);
	timeline_add_event(&t, &e);
	e = isolation(21, 300, 3, 4);
	timeline_add_event(&t, &e);
	CU_ASSERT_EQUAL(t.switches.live->nr_pending, 1);
	CU_ASSERT_EQUAL(t.switches.live->pending[0].ts, 21);
	CU_ASSERT_EQUAL(t.switches.list[1].ring, -1);	/* kept, with no job */

	/* more workers than followed: the oldest pending is given up */
	for (i = 0; i < OWNER_SWITCH_WORKERS + 4; i++) {
		e = isolation(30 + (uint64_t)i, 1000 + i, 4, 5);
		timeline_add_event(&t, &e);
	}
	CU_ASSERT_EQUAL(t.switches.live->nr_pending, OWNER_SWITCH_WORKERS);
	CU_ASSERT_EQUAL(t.switches.live->pending[0].worker, 1004);

	/* more switches than kept: counted, not listed; a job still learns its wait */
	for (i = 0; t.switches.nr < OWNER_SWITCH_MAX; i++) {
		e = isolation(100 + (uint64_t)i, 2000, 5, 6);
		timeline_add_event(&t, &e);
	}
	e = isolation(100000, 300, 6, 7);
	timeline_add_event(&t, &e);
	CU_ASSERT_EQUAL(t.switches.dropped, 1);
	e = sched(GEV_RUN, 100010, 300, 2, 0xb);
	timeline_add_event(&t, &e);
	e = sched(GEV_DONE, 100020, 0, 2, 0xb);
	timeline_add_event(&t, &e);
	CU_ASSERT_EQUAL(t.switches.nr, OWNER_SWITCH_MAX);
	timeline_finish(&t);
	CU_ASSERT_EQUAL_FATAL(k.nr, 2);
	/* job 2 (done first) took the first switch (at 13); the later one does not move it */
	CU_ASSERT_EQUAL(k.list[0].id, 2);
	CU_ASSERT_TRUE(k.list[0].flags & JOB_OWNER_SWITCH);
	CU_ASSERT_EQUAL(k.list[0].t_switch, 13);
	CU_ASSERT_FALSE(k.list[1].flags & JOB_OWNER_SWITCH);
	CU_ASSERT_EQUAL(t.switches.list[0].t_run, 100010);
	kept_jobs_free(&k);
	timeline_free(&t);
}

void suite_owner_switches(void)
{
	CU_pSuite s = CU_add_suite("owner switches", NULL, NULL);

	CU_add_test(s, "the isolation fixture: switches, waits, whose work, cleaner shader",
		    test_the_isolation_fixture);
	CU_add_test(s, "unclaimed, evicted and unkept switches; a dependency by pointer",
		    test_switch_edges);
}
