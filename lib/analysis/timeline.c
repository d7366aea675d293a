// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline.h"
#include "analysis/timeline-stats.h"
#include "analysis/timeline-private.h"
#include "analysis/analysis.h"
#include "util/sanitizer.h"

#define SIGNALS_KEPT	65536	/* recent fence signals, for dependency waits */
#define LOW32		0xffffffffULL

/* dma_fence events carry 32-bit context and seqno: join on those bits. */
static uint64_t fence_key(uint64_t ctx, uint64_t seqno)
{
	return keymap_pair(ctx & LOW32, seqno & LOW32);
}

int timeline_init(struct timeline *t, bool fence_mode)
{
	memset(t, 0, sizeof(*t));
	t->ix = calloc(1, sizeof(*t->ix));
	if (!t->ix)
		return -ENOMEM;
	fence_signals_init(&t->ix->signals, SIGNALS_KEPT);
	t->fence_mode = fence_mode;
	return 0;
}

/* Signal times of recent fences: logged now, looked up when a job asks (fence-signals.h). */
static void remember_signal(struct timeline *t, uint64_t ctx, uint64_t seqno, uint64_t ts)
{
	fence_signals_put(&t->ix->signals, ctx, seqno, ts);
}

bool timeline_fence_signal(const struct timeline *t, uint64_t ctx, uint64_t seqno, uint64_t *ts)
{
	return fence_signals_get(&t->ix->signals, ctx, seqno, ts);
}

/*
 * Up to 5.1x (5.10; 6.1 has the string) the scheduler's events name their
 * ring by its name's address (gpu_event.ring_ptr): each address is a ring of
 * its own, "(unnamed 1)", "(unnamed 2)"... in the order first seen (an
 * address changes with every boot, and compare matches rings by name), until
 * amdgpu's events name it (learn_ring_ptr). At most MAX_RING_PTRS addresses
 * are kept apart (a kernel has a few dozen rings a GPU); past them they share
 * "(unnamed)".
 */
#define MAX_RING_PTRS 1024
#define STAND_IN "(unnamed "

/* A ring known only by its name's address */
static bool ring_stand_in(const struct timeline *t, int ring)
{
	return ring >= 0 && ring < t->nr_rings &&
	       !strncmp(t->rings[ring]->name, STAND_IN, sizeof(STAND_IN) - 1);
}

bool timeline_ring_stand_in(const struct timeline *t, int ring)
{
	return t->ix->stand_ins && ring_stand_in(t, ring);
}

/* @ev names its ring: by name, or by its name's address */
static bool ring_named(const struct gpu_event *ev)
{
	return ev->ring[0] || ev->ring_ptr;
}

static int ring_of_ptr(struct timeline *t, const struct gpu_event *ev)
{
	uintptr_t at = (uintptr_t)keymap_get(&t->ix->ring_by_ptr, ev->ring_ptr);
	char name[GEV_STR_LEN];
	int ring;

	if (at)
		return (int)at - 1;
	if (t->ix->ring_by_ptr.used >= MAX_RING_PTRS)
		return timeline_ring_index_dev(t, ev->dev, "");
	snprintf(name, sizeof(name), STAND_IN "%u)", ++t->ix->stand_ins);
	ring = timeline_ring_index_dev(t, ev->dev, name);
	if (ring >= 0 && !keymap_put(&t->ix->ring_by_ptr, ev->ring_ptr, (void *)(uintptr_t)(ring + 1)))
		t->rings[ring]->name_ptr = ev->ring_ptr;
	return ring;
}

/* The ring @ev names, looked up once per event (see timeline_index.event_ring). */
static int event_ring(struct timeline *t, const struct gpu_event *ev)
{
	int ring;

	if (t->ix->event_ring.ev == ev)
		return t->ix->event_ring.ring;
	if (!ev->ring[0] && ev->ring_ptr)
		ring = ring_of_ptr(t, ev);
	else
		ring = timeline_ring_index_dev(t, ev->dev, ev->ring);
	if (ring >= 0) {	/* out of memory: asked again, as before */
		t->ix->event_ring.ring = ring;
		t->ix->event_ring.ev = ev;
	}
	return ring;
}

/*
 * The scheduler numbers jobs per scheduler (sched->job_id_count), so job 1
 * exists once on every ring: an id names a job only with its ring.
 */
static uint64_t id_key(struct timeline *t, const struct gpu_event *ev)
{
	return keymap_pair((uint64_t)event_ring(t, ev) + 1, ev->id);
}

/*
 * The ring @ev names is one a job may be keyed on: one already made (or the
 * one that holds the rest, past the caps). A lookup makes no ring: an event
 * of a job the trace has nothing else of (its queue before the recording)
 * would leave an empty one in every output, or take a stand-in's number.
 * The ring found is event_ring()'s answer for @ev: kept, not looked up again.
 */
static bool ring_made(struct timeline *t, const struct gpu_event *ev)
{
	int ring;

	if (t->ix->event_ring.ev == ev)
		return true;
	if (!ev->ring[0]) {
		uintptr_t at = (uintptr_t)keymap_get(&t->ix->ring_by_ptr, ev->ring_ptr);

		ring = (int)at - 1;
		if (!at)
			return t->ix->ring_by_ptr.used >= MAX_RING_PTRS;
	} else {
		ring = timeline_ring_find_dev(t, ev->dev, ev->ring);
		if (ring < 0)
			return t->rings_capped;
		/* a ring without a device takes @ev's: event_ring() gives it */
		if (ev->dev[0] && !t->rings[ring]->dev[0])
			return true;
	}
	t->ix->event_ring.ring = ring;
	t->ix->event_ring.ev = ev;
	return true;
}

/*
 * The exact keys first: a fence's context:seqno, then its address (unique
 * while the job lives). An id is exact only with its ring: its name, or up
 * to 5.1x, where the scheduler's events hold a pointer instead, the name's
 * address (ring_named()).
 */
static struct job *find_job(struct timeline *t, const struct gpu_event *ev)
{
	struct job *j = NULL;

	if (ev->has_fence)
		j = keymap_get(&t->ix->by_fence, fence_key(ev->ctx, ev->seqno));
	if (!j && ev->fence_ptr)
		j = keymap_get(&t->ix->by_ptr, ev->fence_ptr);
	if (!j && ev->has_id && ring_named(ev) && ring_made(t, ev))
		j = keymap_get(&t->ix->by_id, id_key(t, ev));
	return j;
}

static void retire(struct timeline *t, struct job *j);

/*
 * Up to 5.1x the scheduler's events name their ring by a pointer, so their
 * job id is no key, and from 4.11 amdgpu_cs_ioctl never sets the fence
 * address it declares: nothing in the two records joins an ioctl to its
 * queue. Up to 6.16 the ring's name is no key either where two GPUs have
 * rings of one name (gfx_0.0.0), whose schedulers count ids alike: each
 * one's job 5 may be in flight at once. The thread joins them. The kernel
 * traces the two back to back in the submitting thread (amdgpu_cs_submit(),
 * then drm_sched_entity_push_job()), so each thread's last submit waits for
 * that thread's next queue that holds no fence context:seqno (6.17+'s do),
 * kept by the key of its fence's context:seqno, never a pointer to a job
 * that may be gone (a submit without one, 4.9's, sets the fence address its
 * queue holds: that joins them). At most SUBMITS_WAITING threads: past them
 * (a file of many short-lived submitters) the waits start over.
 */
#define SUBMITS_WAITING 4096

static uint64_t thread_key(int pid)
{
	return (uint64_t)(uint32_t)pid + 1;
}

static void submit_waits(struct timeline *t, const struct job *j, int pid)
{
	struct keymap *m = &t->ix->submit_waits;

	if (!j->has_fence)
		return;
	if (m->used >= SUBMITS_WAITING && !keymap_get(m, thread_key(pid)))
		keymap_free(m);
	keymap_put(m, thread_key(pid), (void *)(uintptr_t)fence_key(j->ctx, j->seqno));
}

/*
 * amdgpu names the ring whose name is at @ptr: @name (the ring @named, or
 * -1). An address seen first here stands for the named ring, unless another
 * address does (another GPU's ring of that name: it gets one of its own). A
 * ring known so far by the address alone takes the name in place, its jobs
 * in flight with it, while no other ring has the name and none of its jobs
 * has been handed out (the outputs have not shown the stand-in); else it
 * keeps its stand-in name: a name is never taken back from what was shown,
 * and two rings are never merged. The ring the address stands for; -1 if
 * none yet.
 */
static int learn_ring_ptr(struct timeline *t, uint64_t ptr, const char *name, int named)
{
	uintptr_t at = ptr ? (uintptr_t)keymap_get(&t->ix->ring_by_ptr, ptr) : 0;
	int ring = (int)at - 1;

	if (!ptr)
		return -1;
	if (at) {
		if (ring_stand_in(t, ring) && !t->rings[ring]->handed_out &&
		    timeline_ring_find(t, name) < 0)
			timeline_ring_rename(t, ring, name);
		return ring;
	}
	if (named < 0)
		named = timeline_ring_find(t, name);
	if (named < 0 || (t->rings[named]->name_ptr && t->rings[named]->name_ptr != ptr) ||
	    t->ix->ring_by_ptr.used >= MAX_RING_PTRS ||
	    keymap_put(&t->ix->ring_by_ptr, ptr, (void *)(uintptr_t)(named + 1)))
		return -1;
	t->rings[named]->name_ptr = ptr;
	return named;
}

/*
 * A scheduler's run (drm_run_job) waits for amdgpu_sched_run_job, which the
 * same thread traces right after it for the same job. A ring known by its
 * address alone (5.10) learns its name from it: kernel jobs (page table
 * updates, buffer moves) have no ioctl to learn it from. And the job is the
 * run's, by its fence's address: up to 6.16 another GPU's ring of the same
 * name has jobs of the same id, which the ring's name and the id would find
 * instead. The last few runs are kept, in a fixed table.
 */
static void run_waits(struct timeline *t, const struct gpu_event *ev)
{
	struct timeline_index *ix = t->ix;
	unsigned int n = sizeof(ix->run_waits) / sizeof(ix->run_waits[0]), i;
	bool by_ptr = !ev->ring[0];

	if (!ev->fence_ptr || !ev->has_id ||
	    (by_ptr && (!ev->ring_ptr || !ring_stand_in(t, event_ring(t, ev)))))
		return;
	/*
	 * one a thread: its earlier run is not the one just before (another
	 * driver's, with no amdgpu run after it, on a kworker amdgpu shares)
	 */
	for (i = 0; i < n; i++)
		if (ix->run_waits[i].fence_ptr && ix->run_waits[i].pid == ev->pid)
			ix->run_waits[i].fence_ptr = 0;
	ix->run_waits[ix->run_wait_next++ % n] = (struct run_wait){
		.ring_ptr = by_ptr ? ev->ring_ptr : 0, .fence_ptr = ev->fence_ptr, .id = ev->id,
		.ts = ev->ts, .pid = ev->pid };
}

/* amdgpu's run @ev of its thread's run just before: that run's job; a ring's name learnt */
static struct job *run_named(struct timeline *t, const struct gpu_event *ev)
{
	struct timeline_index *ix = t->ix;
	unsigned int n = sizeof(ix->run_waits) / sizeof(ix->run_waits[0]), i;
	struct run_wait *w = NULL;
	struct job *j;

	if (!ev->has_id || !ev->ring[0])
		return NULL;
	for (i = 0; i < n && !w; i++)
		if (ix->run_waits[i].fence_ptr && ix->run_waits[i].pid == ev->pid &&
		    ix->run_waits[i].id == ev->id)
			w = &ix->run_waits[i];
	if (!w)
		return NULL;
	if (w->ring_ptr)
		learn_ring_ptr(t, w->ring_ptr, ev->ring, -1);
	j = keymap_get(&ix->by_ptr, w->fence_ptr);
	w->ring_ptr = 0;
	w->fence_ptr = 0;
	/*
	 * the run's job, whatever its ring is called now: amdgpu's keys (context:seqno)
	 * are its, not those of another GPU's job of the ring's name and the same id
	 */
	return j && j->t_run == w->ts ? j : NULL;
}

/* The job of @ev's thread's last submit, when @ev is a queue that can be its; NULL if none */
static struct job *submitted_job(struct timeline *t, const struct gpu_event *ev)
{
	void *key = keymap_get(&t->ix->submit_waits, thread_key(ev->pid));
	struct job *j;

	if (!key)
		return NULL;
	/* the thread's next queue is its submit's or, that one lost, a later job's */
	keymap_del(&t->ix->submit_waits, thread_key(ev->pid));
	j = keymap_get(&t->ix->by_fence, (uint64_t)(uintptr_t)key);
	if (!j || !j->t_submit || j->t_queue || j->t_run || j->pid != ev->pid)
		return NULL;
	if (ev->has_id && j->has_id && ev->id != j->id)
		return NULL;
	/* a queue that names its ring: the submit's, by name (not another GPU's of the name: unknown) */
	if (ev->ring[0] && timeline_ring_find_dev(t, ev->dev, ev->ring) != j->ring)
		return NULL;
	learn_ring_ptr(t, ev->ring_ptr, timeline_ring_name(t, j->ring), j->ring);
	return j;
}

/* Some key of the job still finds it (timeline_finish reaches jobs by their keys) */
static bool reachable(const struct timeline *t, const struct job *j)
{
	return (j->id_keyed && keymap_get(&t->ix->by_id, j->id_key) == j) ||
	       (j->has_fence && keymap_get(&t->ix->by_fence, fence_key(j->ctx, j->seqno)) == j) ||
	       (j->fence_ptr && keymap_get(&t->ix->by_ptr, j->fence_ptr) == j) ||
	       (j->virtio_fence_id && keymap_get(&t->ix->by_virtio, j->virtio_fence_id) == j);
}

/*
 * The key is j's from now on (the newest wins: a freed fence's address, a
 * job id of a ring whose name the record lacks). A job it took the key from
 * that no key finds any more is handed out now, unfinished, rather than
 * lost and leaked.
 */
static void put_key(struct timeline *t, struct keymap *m, uint64_t key, struct job *j)
{
	struct job *was = keymap_get(m, key);

	keymap_put(m, key, j);
	if (was && was != j && !reachable(t, was)) {
		was->flags |= JOB_UNFINISHED;
		retire(t, was);
	}
}

static void index_job(struct timeline *t, struct job *j, const struct gpu_event *ev)
{
	if (ev->has_id && !j->has_id) {
		j->has_id = true;
		j->id = ev->id;
	}
	/* not an id without its ring (its name, or its name's address): every ring's numbers from 1 */
	if (ev->has_id && ring_named(ev) && !j->id_keyed && ev->id == j->id) {
		j->id_keyed = true;
		j->id_key = id_key(t, ev);
		put_key(t, &t->ix->by_id, j->id_key, j);
	}
	if (ev->has_fence && !j->has_fence) {
		j->has_fence = true;
		j->ctx = ev->ctx;
		j->seqno = ev->seqno;
		put_key(t, &t->ix->by_fence, fence_key(j->ctx, j->seqno), j);
	}
	/* a freed fence's address comes back for a later job: the newest wins */
	if (ev->fence_ptr && j->fence_ptr != ev->fence_ptr) {
		/* no stale key may point at the job once it is freed */
		if (j->fence_ptr && keymap_get(&t->ix->by_ptr, j->fence_ptr) == j)
			keymap_del(&t->ix->by_ptr, j->fence_ptr);
		j->fence_ptr = ev->fence_ptr;
		put_key(t, &t->ix->by_ptr, j->fence_ptr, j);
	}
	if (ev->has_client_id) {
		j->has_client_id = true;
		j->client_id = ev->client_id;
	}
}

static void set_submitter(struct timeline *t, struct job *j, int pid)
{
	j->pid = pid;
	if (t->workload && workload_tree_has(t->workload, pid))
		j->flags |= JOB_WORKLOAD;
	else
		j->flags &= ~JOB_WORKLOAD;
}

/* What a spare job's memory holds until it is one again. */
struct job_spare {
	struct job_spare *next;
};

/*
 * None under ASan: a spare is handed out again at once, so a job read after
 * job_free() would read the next job, not be reported as freed memory is
 */
#ifdef GT_ASAN
#define JOB_SPARES 0
#else
#define JOB_SPARES 1024
#endif

static struct job *job_alloc(struct timeline *t)
{
	struct job_spare *s = t->ix->spares;

	if (!s)
		return calloc(1, sizeof(struct job));
	t->ix->spares = s->next;
	t->ix->nr_spares--;
	return memset(s, 0, sizeof(struct job));
}

static void job_free(struct timeline *t, struct job *j)
{
	struct job_spare *s = (struct job_spare *)j;

	if (t->ix->nr_spares == JOB_SPARES) {
		free(j);
		return;
	}
	s->next = t->ix->spares;
	t->ix->spares = s;
	t->ix->nr_spares++;
}

static struct job *new_job(struct timeline *t, const struct gpu_event *ev)
{
	struct job *j = job_alloc(t);

	if (!j)
		return NULL;
	j->ring = event_ring(t, ev);
	if (j->ring < 0) {
		job_free(t, j);
		return NULL;
	}
	j->serial = t->ix->jobs_made++;
	set_submitter(t, j, ev->pid);
	t->jobs_in_flight++;
	if (t->jobs_in_flight > t->max_jobs_in_flight)
		t->max_jobs_in_flight = t->jobs_in_flight;
	return j;
}

/*
 * A new job is only kept if some key can find it again; one without any
 * (a record with its key fields missing) would be held forever.
 */
static struct job *new_indexed_job(struct timeline *t, const struct gpu_event *ev)
{
	struct job *j = new_job(t, ev);

	if (!j)
		return NULL;
	index_job(t, j, ev);
	if (!j->id_keyed && !j->has_fence && !j->fence_ptr) {
		t->jobs_in_flight--;
		t->orphans++;
		job_free(t, j);
		return NULL;
	}
	return j;
}

static void unindex_job(struct timeline *t, struct job *j)
{
	if (j->id_keyed && keymap_get(&t->ix->by_id, j->id_key) == j)
		keymap_del(&t->ix->by_id, j->id_key);
	if (j->has_fence && keymap_get(&t->ix->by_fence, fence_key(j->ctx, j->seqno)) == j)
		keymap_del(&t->ix->by_fence, fence_key(j->ctx, j->seqno));
	if (j->fence_ptr && keymap_get(&t->ix->by_ptr, j->fence_ptr) == j)
		keymap_del(&t->ix->by_ptr, j->fence_ptr);
	if (j->virtio_fence_id && keymap_get(&t->ix->by_virtio, j->virtio_fence_id) == j)
		keymap_del(&t->ix->by_virtio, j->virtio_fence_id);
}

const char *job_flag_letters(char *buf, size_t len, unsigned int flags)
{
	/* once a job on every output: a loop, not a seven-string snprintf */
	static const struct { unsigned int flag; char letter; } letters[] = {
		{ JOB_WORKLOAD, 'W' }, { JOB_UNFINISHED, 'U' }, { JOB_LOST, 'L' },
		{ JOB_DONE_FENCE, 'F' }, { JOB_DEP_UNKNOWN, 'D' }, { JOB_OWNER_SWITCH, 'I' },
		{ JOB_HANG, 'H' }, { JOB_TRIGGER, 'T' },
	};
	size_t i, n = 0;

	if (!len)
		return buf;
	for (i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if ((flags & letters[i].flag) && n + 1 < len)
			buf[n++] = letters[i].letter;
	buf[n] = '\0';
	return buf;
}

bool job_switch_wait(const struct job *j, uint64_t *ns)
{
	if (!(j->flags & JOB_OWNER_SWITCH) || !j->t_run || j->t_run < j->t_switch)
		return false;
	*ns = j->t_run - j->t_switch;
	return true;
}

static void set_lat(struct job *j, enum job_latency l, uint64_t from, uint64_t to)
{
	if (!from || !to || to < from)
		return;
	j->has_lat[l] = true;
	j->lat[l] = to - from;
}

static uint64_t job_last_time(const struct job *j)
{
	return j->t_done ? j->t_done : j->t_run ? j->t_run : j->t_queue ? j->t_queue : j->t_submit;
}

static void ring_in_flight(struct timeline *t, struct ring_stats *r, int64_t by)
{
	r->in_flight += by;
	t->in_flight_changes++;
}

/* Fold a finished (or never-finished) job into the statistics, hand it on. */
static void retire(struct timeline *t, struct job *j)
{
	struct ring_stats *r = t->rings[j->ring];

	r->handed_out++;
	/*
	 * Outside the window every CPU covers, a lost CPU may have held some of
	 * a job's events: one that lacks its done, or ran without its run in
	 * the file, is flagged; one whose every stage is there is what it says
	 */
	if (t->cover_to && (job_first_time(j) < t->cover_from || job_last_time(j) > t->cover_to) &&
	    (!j->t_done || (j->t_queue && !j->t_run)))
		j->flags |= JOB_LOST;
	unindex_job(t, j);
	t->jobs_in_flight--;
	if (j->t_queue && !j->t_done)
		ring_in_flight(t, r, -1);
	if (j->t_run && !j->t_done)
		r->hw_in_flight--;
	if (!timeline_passes(t, j)) {
		t->filtered_out++;
		job_free(t, j);
		return;
	}
	for (int i = 0; i < t->nr_triggers; i++)
		if (j->t_done == t->triggers[i].done &&
		    !strcmp(timeline_ring_name(t, j->ring), t->triggers[i].ring))
			j->flags |= JOB_TRIGGER;
	timeline_stats_add(t, j);
	if (t->on_job)
		t->on_job(j, t->job_ctx);
	job_free(t, j);
}

void timeline_mark_trigger(struct timeline *t, const char *ring, uint64_t done)
{
	if (t->nr_triggers == TIMELINE_TRIGGERS || !done)
		return;
	snprintf(t->triggers[t->nr_triggers].ring, sizeof(t->triggers[0].ring), "%s", ring);
	t->triggers[t->nr_triggers++].done = done;
}

/* When the job runs, its dependencies' signal times say how long it waited. */
static void resolve_deps(struct timeline *t, struct job *j)
{
	unsigned int i;
	uint64_t ts;

	for (i = 0; i < j->nr_dep_fences; i++) {
		if (!timeline_fence_signal(t, j->dep_fences[i].ctx, j->dep_fences[i].seqno, &ts)) {
			j->flags |= JOB_DEP_UNKNOWN;
			continue;
		}
		if (ts > j->dep_ready)
			j->dep_ready = ts;
	}
}

static void count_client_hw(struct timeline *t, uint64_t id, uint64_t ns)
{
	uintptr_t at = (uintptr_t)keymap_get(&t->ix->client_hw_index, id);

	if (!at) {
		if (t->nr_client_hw == TIMELINE_CLIENT_HW_MAX)
			return;
		if (t->nr_client_hw == t->cap_client_hw) {
			int cap = t->cap_client_hw ? t->cap_client_hw * 2 : 16;
			uint64_t *n = realloc(t->client_hw, sizeof(*n) * (size_t)cap);

			if (!n)
				return;
			t->client_hw = n;
			t->cap_client_hw = cap;
		}
		if (keymap_put(&t->ix->client_hw_index, id, (void *)(uintptr_t)(t->nr_client_hw + 1)))
			return;
		t->client_hw[t->nr_client_hw] = 0;
		at = (uintptr_t)++t->nr_client_hw;
	}
	t->client_hw[at - 1] += ns;
}

uint64_t timeline_client_hw_ns(const struct timeline *t, uint64_t id)
{
	uintptr_t at = (uintptr_t)keymap_get(&t->ix->client_hw_index, id);

	return at ? t->client_hw[at - 1] : 0;
}

/*
 * @exact: the job's own hardware start and engine time (its driver's), else
 * NULL: a ring executes in order, the job started when the one before it
 * ended
 */
static void complete(struct timeline *t, struct job *j, uint64_t ts,
		     const struct job_engine_time *exact)
{
	struct ring_stats *r = t->rings[j->ring];
	uint64_t first = job_first_time(j);

	j->t_done = ts;
	if (j->t_queue)
		ring_in_flight(t, r, -1);
	if (j->t_run)
		r->hw_in_flight--;
	if (j->t_run && exact && exact->start >= j->t_run && exact->start <= ts &&
	    exact->ns <= ts - exact->start) {
		j->t_hw_start = exact->start;
		r->busy_ns += exact->ns;
		r->timed_jobs++;
		if (exact->nr >= 2 && exact->nr <= GEV_MAX_STINTS) {
			j->nr_hw_stints = (unsigned int)exact->nr;
			memcpy(j->hw_stints, exact->stints, sizeof(j->hw_stints[0]) * j->nr_hw_stints);
		}
		set_lat(j, LAT_RUN_TO_HW, j->t_run, j->t_hw_start);
		j->has_lat[LAT_EXEC] = true;
		j->lat[LAT_EXEC] = exact->ns;
		if (j->has_client_id)
			count_client_hw(t, j->client_id, exact->ns);
	} else if (j->t_run) {
		/* a ring executes in order: it starts when the previous job ends */
		j->t_hw_start = j->t_run > r->last_done ? j->t_run : r->last_done;
		if (j->t_hw_start > ts)
			j->t_hw_start = ts;
		r->busy_ns += ts - j->t_hw_start;
		r->timed_jobs++;
		set_lat(j, LAT_RUN_TO_HW, j->t_run, j->t_hw_start);
		set_lat(j, LAT_EXEC, j->t_hw_start, ts);
		if (j->has_client_id && j->has_lat[LAT_EXEC])
			count_client_hw(t, j->client_id, j->lat[LAT_EXEC]);
	}
	if (ts > r->last_done)
		r->last_done = ts;
	if (!r->first_ts || first < r->first_ts)
		r->first_ts = first;
	r->last_ts = ts;
	set_lat(j, LAT_SUBMIT_TO_QUEUE, j->t_submit, j->t_queue);
	set_lat(j, LAT_QUEUE_TO_RUN, j->t_queue, j->t_run);
	if (j->t_queue && j->t_run && !(j->flags & JOB_DEP_UNKNOWN)) {
		uint64_t ready = j->dep_ready > j->t_queue ? j->dep_ready : j->t_queue;

		if (ready > j->t_run)
			ready = j->t_run;
		set_lat(j, LAT_DEP_WAIT, j->t_queue, ready);
		if (!j->has_lat[LAT_DEP_WAIT]) {
			j->has_lat[LAT_DEP_WAIT] = true;
			j->lat[LAT_DEP_WAIT] = 0;
		}
	}
	set_lat(j, LAT_TOTAL, first, ts);
	if (j->has_fence)
		remember_signal(t, j->ctx, j->seqno, ts);
	if (j->t_hw_start) {
		timeline_attribute_wait(t, j);
		timeline_remember_exec(r, j);
	}
	retire(t, j);
}

static void add_dep_fence(struct job *j, const struct gpu_event *ev)
{
	unsigned int i;

	if (!(ev->dep_ctx || ev->dep_seqno))
		return;
	for (i = 0; i < j->nr_dep_fences; i++)
		if (j->dep_fences[i].ctx == ev->dep_ctx && j->dep_fences[i].seqno == ev->dep_seqno)
			return;
	if (i == sizeof(j->dep_fences) / sizeof(j->dep_fences[0])) {
		j->flags |= JOB_DEP_UNKNOWN;	/* more than we keep: the wait is unknown */
		return;
	}
	j->dep_fences[i].ctx = ev->dep_ctx;
	j->dep_fences[i].seqno = ev->dep_seqno;
	j->nr_dep_fences++;
}

/* Sent to the hardware (or its queue): on the ring until done. */
static void set_run(struct timeline *t, struct job *j, uint64_t ts)
{
	j->t_run = ts;
	if (j->t_queue) {
		j->moved_in_wait = t->moves.bytes - j->moved_at_queue;
		j->vm_in_wait = t->vm.updated_bytes - j->vm_at_queue;
	}
	t->rings[j->ring]->hw_in_flight++;
}

static void track_depth(struct timeline *t, struct job *j)
{
	struct ring_stats *r = t->rings[j->ring];

	j->moved_at_queue = t->moves.bytes;
	j->vm_at_queue = t->vm.updated_bytes;
	ring_in_flight(t, r, 1);
	if (r->in_flight > r->max_in_flight)
		r->max_in_flight = r->in_flight;
}

/*
 * virtio-gpu numbers a fence when it emits it (dma_fence_init has seqno 0):
 * the fence's seqno is the command's fence_id. A fenced command is a job
 * from emit (submit) to virtio_gpu_cmd_queue (queued to the host, which
 * runs its queue in order) to dma_fence_signaled, whatever else the file
 * has, scheduler events or not.
 */
static void virtio_emit(struct timeline *t, struct job *j, const struct gpu_event *ev)
{
	if (!j) {
		j = new_indexed_job(t, ev);
		if (!j)
			return;
		j->flags |= JOB_FENCE_ONLY;
	}
	set_submitter(t, j, ev->pid);
	if (!j->t_submit)
		j->t_submit = ev->ts;
	if (!j->virtio_fence_id && ev->seqno) {
		j->virtio_fence_id = ev->seqno;
		put_key(t, &t->ix->by_virtio, ev->seqno, j);
	}
}

static void virtio_command(struct timeline *t, const struct gpu_event *ev)
{
	struct job *j;

	if (ev->kind != GEV_VIRTIO_CMD_QUEUE || !ev->id)
		return;		/* answers, and commands without a fence */
	j = keymap_get(&t->ix->by_virtio, ev->id);
	if (!j) {
		t->orphans++;	/* its emit is not in the trace */
		return;
	}
	if (!j->t_queue) {
		j->t_queue = ev->ts;
		track_depth(t, j);
		set_run(t, j, ev->ts);
	}
}

static bool is_virtio(const struct gpu_event *ev)
{
	return ev->fence_driver == FENCE_DRIVER_VIRTIO;
}

static bool is_scheduler_fence(const struct gpu_event *ev)
{
	return ev->fence_driver == FENCE_DRIVER_SCHEDULER;
}

static void fence_event(struct timeline *t, const struct gpu_event *ev)
{
	uint64_t key = fence_key(ev->ctx, ev->seqno);
	struct job *j;

	if (!gpu_fence_kind_joined(ev->kind, t->fence_mode, is_virtio(ev)))
		return;
	j = keymap_get(&t->ix->by_fence, key);
	if (is_virtio(ev) && ev->kind == GEV_FENCE_INIT)
		return;		/* not numbered yet */
	if (is_virtio(ev) && ev->kind == GEV_FENCE_EMIT) {
		virtio_emit(t, j, ev);
		return;
	}
	switch (ev->kind) {
	case GEV_FENCE_SIGNALED:
		remember_signal(t, ev->ctx, ev->seqno, ev->ts);
		if (j && (t->fence_mode || (j->t_run && is_scheduler_fence(ev)) ||
			  j->virtio_fence_id)) {
			if (!t->fence_mode && !j->virtio_fence_id)
				j->flags |= JOB_DONE_FENCE;
			complete(t, j, ev->ts, NULL);
		}
		break;
	case GEV_FENCE_INIT:
	case GEV_FENCE_EMIT:
		if (!t->fence_mode)
			break;
		if (!j) {
			j = new_indexed_job(t, ev);
			if (!j)
				break;
			j->flags |= JOB_FENCE_ONLY;
		}
		if (ev->kind == GEV_FENCE_INIT && !j->t_queue) {
			j->t_queue = ev->ts;
			track_depth(t, j);
		} else if (ev->kind == GEV_FENCE_EMIT && !j->t_run) {
			set_run(t, j, ev->ts);
		}
		break;
	case GEV_FENCE_DESTROY:
		/* destroyed unsignalled (a stub or cancelled fence): not a job */
		if (t->fence_mode && j) {
			unindex_job(t, j);
			if (j->t_queue)
				ring_in_flight(t, t->rings[j->ring], -1);
			if (j->t_run)
				t->rings[j->ring]->hw_in_flight--;
			t->jobs_in_flight--;
			job_free(t, j);
		}
		break;
	default:
		break;
	}
}

/*
 * The job whose dependency wait or run its worker reports right after
 * switching owners is the job the switch was for (owner-switch.h).
 */
static void claim_switch(struct timeline *t, struct job *j, const struct gpu_event *ev)
{
	struct owner_switch *sw;
	struct job *dep = NULL;
	uint64_t ts;
	size_t idx;

	if ((j->flags & JOB_OWNER_SWITCH) ||
	    !owner_switches_claim(&t->switches, ev->pid, &ts, &idx))
		return;
	j->flags |= JOB_OWNER_SWITCH;
	j->t_switch = ts;
	j->switch_idx = idx;
	sw = owner_switches_at(&t->switches, idx);
	if (!sw)
		return;
	sw->ring = j->ring;
	sw->pid = j->pid;
	sw->workload = j->flags & JOB_WORKLOAD;
	sw->has_fence = j->has_fence;
	sw->ctx = j->ctx;
	sw->seqno = j->seqno;
	sw->has_id = j->has_id;
	sw->id = j->id;
	sw->fence_ptr = j->fence_ptr;
	owner_switches_name_owner(&t->switches, sw->next, j->pid);
	if (ev->kind != GEV_DEP_WAIT || !ev->has_dep)
		return;
	sw->waited = true;
	sw->wait_ctx = ev->dep_ctx;
	sw->wait_seqno = ev->dep_seqno;
	if (ev->dep_ctx || ev->dep_seqno)
		dep = keymap_get(&t->ix->by_fence, fence_key(ev->dep_ctx, ev->dep_seqno));
	else if (ev->dep_ptr)
		dep = keymap_get(&t->ix->by_ptr, ev->dep_ptr);
	if (dep) {
		sw->wait_pid = dep->pid;
		sw->wait_ring = dep->ring;
	}
}

/* A job sent to its ring: the cleaner shader that may follow is its switch's. */
static void note_run_switch(struct timeline *t, struct job *j)
{
	struct ring_stats *r = t->rings[j->ring];
	struct owner_switch *sw;

	r->last_run_switched = j->flags & JOB_OWNER_SWITCH;
	r->last_run_switch = j->switch_idx;
	sw = r->last_run_switched ? owner_switches_at(&t->switches, j->switch_idx) : NULL;
	if (sw && !sw->t_run)
		sw->t_run = j->t_run;
}

static void cleaner_shader(struct timeline *t, const struct gpu_event *ev)
{
	int ring = timeline_ring_index(t, ev->ring);
	struct ring_stats *r = ring >= 0 ? t->rings[ring] : NULL;

	if (r)
		r->cleaner_shaders++;
	owner_switches_cleaner(&t->switches, r && r->last_run_switched,
			       r ? r->last_run_switch : SIZE_MAX, ev->ts, ev->seqno);
}

static void done_event(struct timeline *t, const struct gpu_event *ev,
		       const struct job_engine_time *exact)
{
	struct job *j = ev->has_fence ? keymap_get(&t->ix->by_fence, fence_key(ev->ctx, ev->seqno))
				      : keymap_get(&t->ix->by_ptr, ev->fence_ptr);

	if (ev->has_fence)
		remember_signal(t, ev->ctx, ev->seqno, ev->ts);
	if (!j) {
		t->orphans++;
		return;
	}
	complete(t, j, ev->ts, exact);
}

/*
 * A job is queued once, before it runs: a queue that found a job already
 * queued or run, one of whose keys differs from the queue's (another id,
 * another fence), is another job under a key the two share. Ids repeat (a
 * scheduler made again numbers from 1) and a freed fence's address comes
 * back, so where the earlier job's done was lost a key still finds it;
 * joining the two would give one job two jobs' times. Every key the same:
 * the same job, whatever order its CPUs' clocks put its events in (a run
 * stamped before its queue). A submit splits by its fence's context:seqno,
 * which is its own (amdgpu_cs_ioctl declares a fence address it never sets,
 * 4.11 on), from a job whose fence differs, or that has none and another
 * thread queued (a kworker's kernel job): up to 6.16 its job id may be
 * another GPU's job's on a ring of the same name.
 */
static bool another_job(const struct job *j, const struct gpu_event *ev)
{
	if (ev->kind == GEV_SUBMIT)
		return ev->has_fence && (j->has_fence ? ev->ctx != j->ctx || ev->seqno != j->seqno :
					 j->t_queue && j->pid != ev->pid);
	if (ev->kind != GEV_QUEUE || (!j->t_queue && !j->t_run))
		return false;
	if (ev->has_id && j->has_id && ev->id != j->id)
		return true;
	if (ev->has_fence && j->has_fence)
		return ev->ctx != j->ctx || ev->seqno != j->seqno;
	return ev->fence_ptr && j->fence_ptr && ev->fence_ptr != j->fence_ptr;
}

/*
 * What a queue @ev without fence context:seqno (up to 6.16) does with @was,
 * the job find_job() found, where @j is the job of its thread's submit (or
 * none). Found by the queue's fence address while @j is the queue's: that
 * fence was freed and its address is @j's now, so @was lost its done: it
 * ends, unfinished. Found by ring and id alone while @j is the queue's: the
 * id is another GPU's job's on a ring of the same name (or a job's whose
 * done was lost: its next submit ended it, see stale_submit()). Or, @j none,
 * @was is another thread's submit or queue: a job is queued by the thread
 * that submitted it, or made it (a kernel job: a rank's page-table update on
 * its own GPU), so the id is another GPU's job's here too (or one the
 * scheduler numbered before it was made again, where the same thread queues
 * both: ended by another_job(); queued by another thread, such a job whose
 * done was lost stays in flight to the end, the price of keeping the other
 * GPU's; so does a job a run made, whose queue was lost, when its thread
 * queues the id again). Neither is the queue's, and neither is ended for it.
 * Nor is a job a run made (its queue stamped later, or lost) whose fence is
 * another.
 */
enum queue_found { FOUND_KEEP, FOUND_OTHER, FOUND_ENDED };

static enum queue_found queue_found(struct timeline *t, const struct job *was, const struct job *j,
				    const struct gpu_event *ev)
{
	if (ev->kind != GEV_QUEUE || ev->has_fence || was == j)
		return FOUND_KEEP;
	if (ev->fence_ptr && keymap_get(&t->ix->by_ptr, ev->fence_ptr) == was)
		return j ? FOUND_ENDED : FOUND_KEEP;
	/* a job its run made, of another fence: its own queue may still come, stamped later */
	if (!was->t_queue && ev->fence_ptr && was->fence_ptr && was->fence_ptr != ev->fence_ptr)
		return FOUND_OTHER;
	return j || ((was->t_submit || was->t_queue) && was->pid != ev->pid) ? FOUND_OTHER : FOUND_KEEP;
}

/*
 * A submit split from @was, the job its id found: one fence context is one
 * scheduler entity, of one GPU, whose ids do not repeat while the scheduler
 * lives, so @was of the same context is stale (its done or queue was lost).
 * Another context's is another GPU's, in flight.
 */
static bool stale_submit(const struct job *was, const struct gpu_event *ev)
{
	return was->has_fence && ev->has_fence && was->ctx == ev->ctx;
}

/* @exact: with a done, the job's own engine time (timeline_add_done_exact), else NULL */
static void add_gpu_event(struct timeline *t, const struct gpu_event *ev,
			  const struct job_engine_time *exact)
{
	struct job *j, *was;
	int ring;

	if (gpu_event_is_fence(ev->kind)) {
		fence_event(t, ev);
		return;
	}
	if (ev->kind == GEV_VIRTIO_CMD_QUEUE || ev->kind == GEV_VIRTIO_CMD_RESPONSE) {
		virtio_command(t, ev);
		return;
	}
	if (t->fence_mode)
		return;
	switch (ev->kind) {
	case GEV_SUBMIT:
	case GEV_QUEUE:
		j = ev->kind == GEV_QUEUE && !ev->has_fence ? submitted_job(t, ev) : NULL;
		was = find_job(t, ev);
		switch (was ? queue_found(t, was, j, ev) : FOUND_KEEP) {
		case FOUND_ENDED:
			was->flags |= JOB_UNFINISHED;
			retire(t, was);
			/* fall through */
		case FOUND_OTHER:
			was = NULL;
			break;
		case FOUND_KEEP:
			break;
		}
		if (was && was != j && another_job(was, ev)) {
			/*
			 * a queue: its key's earlier job lost its done (a lossy file), handed out
			 * unfinished. A submit: the job its id found may be another GPU's, in
			 * flight; its fence's key still finds it (put_key() ends it if not)
			 */
			if (ev->kind == GEV_QUEUE || stale_submit(was, ev)) {
				was->flags |= JOB_UNFINISHED;
				retire(t, was);
			}
			was = NULL;
		}
		if (!j)
			j = was;
		if (!j)
			j = new_indexed_job(t, ev);
		if (!j)
			return;
		index_job(t, j, ev);
		ring = ring_named(ev) ? event_ring(t, ev) : -1;
		/*
		 * a stand-in ring takes no job from the ring its ioctl named, unless
		 * that ring is known by another address (another GPU's of that name)
		 */
		if (ring >= 0 && (!j->t_submit || ev->ring[0] || !ring_stand_in(t, ring) ||
				  t->rings[j->ring]->name_ptr))
			j->ring = ring;
		if (ev->kind == GEV_SUBMIT) {
			set_submitter(t, j, ev->pid);
			if (!j->t_submit)
				j->t_submit = ev->ts;
			submit_waits(t, j, ev->pid);
		} else if (!j->t_queue) {
			j->t_queue = ev->ts;
			if (!j->t_submit)
				set_submitter(t, j, ev->pid);
			track_depth(t, j);
		}
		break;
	case GEV_DEP_ADD:
	case GEV_DEP_WAIT:
		j = find_job(t, ev);
		if (!j) {
			t->orphans++;
			return;
		}
		if (ev->kind == GEV_DEP_ADD) {
			j->nr_deps++;
		} else {
			j->nr_waits++;
			claim_switch(t, j, ev);
		}
		add_dep_fence(j, ev);
		break;
	case GEV_RUN:
	case GEV_AMDGPU_RUN:
		j = NULL;
		if (ev->kind == GEV_RUN)
			run_waits(t, ev);
		else
			j = run_named(t, ev);
		if (!j)
			j = find_job(t, ev);
		/*
		 * up to 6.16 the scheduler's queue and run name the same fence (its
		 * finished one): a job its ring and id found, queued with another, is
		 * another GPU's of the id (this run's queue lost, or stamped later)
		 */
		if (j && ev->kind == GEV_RUN && ev->fence_ptr && j->fence_ptr &&
		    j->fence_ptr != ev->fence_ptr) {
			j = NULL;
		} else if (j && ev->kind == GEV_RUN && ev->has_id && j->has_id && ev->id != j->id) {
			/* found by its fence's address, come back: that job lost its done */
			j->flags |= JOB_UNFINISHED;
			retire(t, j);
			j = NULL;
		}
		if (!j && ev->kind == GEV_AMDGPU_RUN)
			return;
		if (!j) {
			/* its queue event is not in the trace: a partial job */
			j = new_indexed_job(t, ev);
			if (!j)
				return;
			t->orphans++;
		}
		index_job(t, j, ev);
		claim_switch(t, j, ev);
		if (!j->t_run) {
			set_run(t, j, ev->ts);
			resolve_deps(t, j);
			note_run_switch(t, j);
		}
		break;
	case GEV_DONE:
		done_event(t, ev, exact);
		break;
	case GEV_ISOLATION:
		owner_switches_add(&t->switches, ev);
		break;
	case GEV_CLEANER_SHADER:
		cleaner_shader(t, ev);
		break;
	case GEV_BO_MOVE:
	case GEV_BO_CREATE:
		buffer_moves_add(&t->moves, ev);
		break;
	case GEV_VM_GRAB_ID:
	case GEV_VM_FLUSH:
	case GEV_VM_UPDATE_PTES:
	case GEV_VM_BO_MAP:
	case GEV_VM_BO_UNMAP:
		vm_activity_add(&t->vm, ev);
		break;
	case GEV_DMA_BUF:
		dma_bufs_add(&t->dma_bufs, ev);
		break;
	default:
		break;
	}
}

static void add_event(struct timeline *t, const struct gpu_event *ev,
		      const struct job_engine_time *exact)
{
	t->ix->event_ring.ev = NULL;
	add_gpu_event(t, ev, exact);
	t->ix->event_ring.ev = NULL;
}

void timeline_add_event(struct timeline *t, const struct gpu_event *ev)
{
	add_event(t, ev, NULL);
}

void timeline_add_done_exact(struct timeline *t, const struct gpu_event *ev,
			     const struct job_engine_time *et)
{
	add_event(t, ev, ev->kind == GEV_DONE ? et : NULL);
}

static void mark_lost(struct keymap *m)
{
	uint64_t key;
	void *val;
	size_t i = 0;

	while (keymap_next(m, &i, &key, &val))
		((struct job *)val)->flags |= JOB_LOST;
}

void timeline_lost_events(struct timeline *t, uint64_t ts)
{
	(void)ts;
	t->lost_windows++;
	/* what a thread traced just before may be lost: its next event pairs with nothing */
	keymap_free(&t->ix->submit_waits);
	memset(t->ix->run_waits, 0, sizeof(t->ix->run_waits));
	mark_lost(&t->ix->by_id);
	mark_lost(&t->ix->by_fence);
	mark_lost(&t->ix->by_ptr);
	mark_lost(&t->ix->by_virtio);
}

static int cmp_job_start(const void *a, const void *b)
{
	const struct job *x = *(struct job *const *)a, *y = *(struct job *const *)b;
	uint64_t fx = job_first_time(x), fy = job_first_time(y);

	if (fx != fy)
		return fx < fy ? -1 : 1;
	/* not by address: that would make the order the allocator's */
	return x->serial < y->serial ? -1 : x->serial > y->serial;
}

static void collect(struct keymap *m, struct job ***list, size_t *nr, size_t *cap)
{
	uint64_t key;
	void *val;
	size_t i = 0;

	while (keymap_next(m, &i, &key, &val)) {
		if (*nr == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;
			struct job **n = realloc(*list, sizeof(*n) * ncap);

			if (!n)
				return;
			*list = n;
			*cap = ncap;
		}
		(*list)[(*nr)++] = val;
	}
}

/* Every job in flight, sorted by @cmp; a job under several keys comes once per key, side by side. */
static size_t in_flight(struct timeline *t, struct job ***list,
			int (*cmp)(const void *, const void *))
{
	size_t nr = 0, cap = 0;

	*list = NULL;
	collect(&t->ix->by_id, list, &nr, &cap);
	collect(&t->ix->by_fence, list, &nr, &cap);
	collect(&t->ix->by_ptr, list, &nr, &cap);
	collect(&t->ix->by_virtio, list, &nr, &cap);
	if (nr)
		qsort(*list, nr, sizeof(**list), cmp);
	return nr;
}

void timeline_finish(struct timeline *t)
{
	struct job **list;
	size_t nr = in_flight(t, &list, cmp_job_start), i;

	for (i = 0; i < nr; i++) {
		struct job *j = list[i];

		if (i && list[i - 1] == j)
			continue;	/* indexed under several keys */
		j->flags |= JOB_UNFINISHED;
		set_lat(j, LAT_SUBMIT_TO_QUEUE, j->t_submit, j->t_queue);
		set_lat(j, LAT_QUEUE_TO_RUN, j->t_queue, j->t_run);
		retire(t, j);
	}
	free(list);
	timeline_stats_finish(t);
}

static int cmp_job_run(const void *a, const void *b)
{
	const struct job *x = *(struct job *const *)a, *y = *(struct job *const *)b;
	/* sent to the ring first, in order; then those still queued */
	uint64_t rx = x->t_run ? x->t_run : UINT64_MAX, ry = y->t_run ? y->t_run : UINT64_MAX;

	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (job_first_time(x) != job_first_time(y))
		return job_first_time(x) < job_first_time(y) ? -1 : 1;
	return x->serial < y->serial ? -1 : x->serial > y->serial;
}

size_t timeline_ring_timed_out(struct timeline *t, int ring, uint64_t ts,
			       struct job_in_flight *out, size_t max, size_t *total)
{
	struct job **list;
	size_t nr, i, kept = 0, n = 0;
	struct ring_stats *r;

	*total = 0;
	if (ring < 0 || ring >= t->nr_rings)
		return 0;
	r = t->rings[ring];
	r->timeouts++;
	nr = in_flight(t, &list, cmp_job_run);
	for (i = 0; i < nr; i++) {
		struct job *j = list[i];
		bool first = !n;

		/* indexed under several keys: the same job again */
		if ((i && list[i - 1] == j) || j->ring != ring || j->t_done || (!j->t_queue && !j->t_run))
			continue;
		j->flags |= JOB_HANG;
		n++;
		if (kept == max)
			continue;
		out[kept] = (struct job_in_flight){
			.has_fence = j->has_fence, .has_id = j->has_id, .ctx = j->ctx,
			.seqno = j->seqno, .id = j->id, .fence_ptr = j->fence_ptr, .pid = j->pid,
			.t_queue = j->t_queue, .t_run = j->t_run,
		};
		if (first && j->t_run && j->t_run <= ts)
			out[kept].since = j->t_run > r->last_done ? j->t_run : r->last_done;
		kept++;
	}
	free(list);
	*total = n;
	return kept;
}

static int cmp_job_ptr(const void *a, const void *b)
{
	const struct job *x = *(struct job *const *)a, *y = *(struct job *const *)b;

	return x < y ? -1 : x > y;
}

/*
 * Jobs still in flight when the pass ended early (an output that could not be
 * written stopped it before timeline_finish): freed once each, though indexed
 * under several keys.
 */
static void free_in_flight(struct timeline *t)
{
	struct job **list;
	size_t nr = in_flight(t, &list, cmp_job_ptr), i;

	for (i = 0; i < nr; i++)
		if (!i || list[i - 1] != list[i])
			free(list[i]);
	free(list);
}

void timeline_free(struct timeline *t)
{
	timeline_stats_free(t);
	if (t->ix) {
		free_in_flight(t);
		while (t->ix->spares) {
			struct job_spare *s = t->ix->spares;

			t->ix->spares = s->next;
			free(s);
		}
		keymap_free(&t->ix->by_id);
		keymap_free(&t->ix->by_fence);
		keymap_free(&t->ix->by_ptr);
		keymap_free(&t->ix->by_virtio);
		keymap_free(&t->ix->submit_waits);
		keymap_free(&t->ix->ring_by_ptr);
		fence_signals_free(&t->ix->signals);
		keymap_free(&t->ix->client_hw_index);
		free(t->ix);
	}
	free(t->client_hw);
	owner_switches_free(&t->switches);
	dma_bufs_free(&t->dma_bufs);
	memset(t, 0, sizeof(*t));
}

/* The join (analysis-joins.h): every GPU event */
struct timeline *timeline_of(const struct analysis *a)
{
	return analysis_state(a, JOIN_JOBS);
}

/* without scheduler or amdgpu events, jobs are the fences themselves */
static int join_init(void *state, struct analysis *a)
{
	return timeline_init(state, gpu_decoder_jobs_from_fences(analysis_decoder(a)));
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	(void)a;
	if (r->missed)
		timeline_lost_events(state, r->ts);
	if (r->kind == GEV_NONE || r->kind == GEV_FUNC || r->kind == GEV_FUNC_ENTRY ||
	    r->kind == GEV_FUNC_EXIT)
		return;
	timeline_add_event(state, &r->ev);
	r->taken = true;
}

static void join_finish(void *state, struct analysis *a)
{
	(void)a;
	timeline_finish(state);
}

static void join_free(void *state)
{
	timeline_free(state);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	(void)state;
	return analysis_totals(a)->gpu_events;
}

/*
 * Every GPU event but the dma_fence kinds fence_event() passes over, virtio-gpu's or
 * not (gpu_fence_kind_joined()): with scheduler jobs, a fence's init, destroy and waits
 * are a third of a file's records, which then no join reads and none decodes.
 */
static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	const struct timeline *t = state;
	uint64_t kinds = ~(JOIN_KIND(GEV_NONE) | JOIN_KIND(GEV_FUNC) | JOIN_KIND(GEV_FUNC_ENTRY) |
			   JOIN_KIND(GEV_FUNC_EXIT));
	int k;

	(void)a;
	for (k = GEV_FENCE_INIT; k <= GEV_FENCE_DESTROY; k++)
		if (!gpu_fence_kind_joined(k, t->fence_mode, false) &&
		    !gpu_fence_kind_joined(k, t->fence_mode, true))
			kinds &= ~JOIN_KIND(k);
	return kinds;
}

const struct analysis_join timeline_join = {
	.name = "GPU jobs",
	.state_size = sizeof(struct timeline),
	.init = join_init,
	.record = join_record,
	.finish = join_finish,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
