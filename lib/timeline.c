// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

#define SIGNALS_KEPT	65536	/* recent fence signals, for dependency waits */
#define RING_HISTORY	4096	/* recent executions per ring, for job_behind */
#define LOW32		0xffffffffULL

const char *job_latency_name(enum job_latency l)
{
	static const char *const names[LAT_NR] = {
		"submit->queue", "queue->run", "dep wait", "run->hw start", "exec", "total"
	};

	return l < LAT_NR ? names[l] : "?";
}

/* dma_fence events carry 32-bit context and seqno: join on those bits. */
static uint64_t fence_key(uint64_t ctx, uint64_t seqno)
{
	return keymap_pair(ctx & LOW32, seqno & LOW32);
}

int timeline_init(struct timeline *t, bool fence_mode)
{
	memset(t, 0, sizeof(*t));
	t->fence_mode = fence_mode;
	return 0;
}

static uint64_t name_hash(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ULL;
	return h;
}

/*
 * Rings by name: a hash lookup per event (a fence-only trace has one
 * "ring" per timeline, thousands of them), each ring allocated once.
 */
static int ring_index(struct timeline *t, const char *name)
{
	const char *key = name[0] ? name : "(unnamed)";
	uint64_t h = name_hash(key);
	uintptr_t at = (uintptr_t)keymap_get(&t->ring_by_name, h);
	struct ring_stats **n, *r;
	int i;

	if (at && !strcmp(t->rings[at - 1]->name, key))
		return (int)at - 1;
	if (at) {
		/* two names, one hash: look the slow way */
		for (i = 0; i < t->nr_rings; i++)
			if (!strcmp(t->rings[i]->name, key))
				return i;
	}
	n = realloc(t->rings, sizeof(*n) * (size_t)(t->nr_rings + 1));
	r = calloc(1, sizeof(*r));
	if (n)
		t->rings = n;
	if (!n || !r) {
		free(r);
		return 0;
	}
	strncpy(r->name, key, GEV_STR_LEN - 1);
	t->rings[t->nr_rings] = r;
	if (!at)
		keymap_put(&t->ring_by_name, h, (void *)(uintptr_t)(t->nr_rings + 1));
	return t->nr_rings++;
}

const char *timeline_ring_name(const struct timeline *t, int ring)
{
	return ring >= 0 && ring < t->nr_rings ? t->rings[ring]->name : "?";
}

/* Per-process and per-client statistics, found by key in a hash. */
static struct group_stats *group(struct group_stats ***list, int *nr, struct keymap *index,
				 uint64_t key)
{
	uintptr_t at = (uintptr_t)keymap_get(index, key);
	struct group_stats **n, *g;

	if (at)
		return (*list)[at - 1];
	n = realloc(*list, sizeof(*n) * (size_t)(*nr + 1));
	g = calloc(1, sizeof(*g));
	if (n)
		*list = n;
	if (!n || !g || keymap_put(index, key, (void *)(uintptr_t)(*nr + 1))) {
		free(g);
		return NULL;
	}
	g->key = key;
	(*list)[(*nr)++] = g;
	return g;
}

/* The FIFO grows (in order, oldest first) up to SIGNALS_KEPT: small traces stay small. */
static bool grow_signals(struct timeline *t)
{
	size_t cap = t->signal_cap ? t->signal_cap * 2 : 256, i;
	uint64_t *n = malloc(2 * cap * sizeof(*n));

	if (!n)
		return false;
	for (i = 0; i < t->signal_count; i++) {
		size_t from = (t->signal_head + i) % t->signal_cap;

		n[2 * i] = t->signal_fifo[2 * from];
		n[2 * i + 1] = t->signal_fifo[2 * from + 1];
	}
	free(t->signal_fifo);
	t->signal_fifo = n;
	t->signal_cap = cap;
	t->signal_head = 0;
	return true;
}

/* Signal times of recent fences, kept in a bounded FIFO. */
static void remember_signal(struct timeline *t, uint64_t ctx, uint64_t seqno, uint64_t ts)
{
	uint64_t key = fence_key(ctx, seqno);
	size_t at;

	if (t->signal_count == t->signal_cap && t->signal_cap < SIGNALS_KEPT &&
	    !grow_signals(t))
		return;
	if (t->signal_count == t->signal_cap) {
		at = t->signal_head;
		/* forget the oldest, unless the same fence was stored again since */
		if ((uintptr_t)keymap_get(&t->signals, t->signal_fifo[2 * at]) ==
		    t->signal_fifo[2 * at + 1] + 1)
			keymap_del(&t->signals, t->signal_fifo[2 * at]);
		t->signal_head = (t->signal_head + 1) % t->signal_cap;
	} else {
		at = (t->signal_head + t->signal_count++) % t->signal_cap;
	}
	t->signal_fifo[2 * at] = key;
	t->signal_fifo[2 * at + 1] = ts;
	keymap_put(&t->signals, key, (void *)(uintptr_t)(ts + 1));	/* never NULL */
}

static bool signal_time(struct timeline *t, uint64_t key, uint64_t *ts)
{
	uintptr_t v = (uintptr_t)keymap_get(&t->signals, key);

	if (!v)
		return false;
	*ts = (uint64_t)v - 1;
	return true;
}

/*
 * The scheduler numbers jobs per scheduler (sched->job_id_count), so job 1
 * exists once on every ring: an id names a job only with its ring.
 */
static uint64_t id_key(struct timeline *t, const struct gpu_event *ev)
{
	return keymap_pair((uint64_t)ring_index(t, ev->ring) + 1, ev->id);
}

static struct job *find_job(struct timeline *t, const struct gpu_event *ev)
{
	struct job *j = NULL;

	if (ev->has_id)
		j = keymap_get(&t->by_id, id_key(t, ev));
	if (!j && ev->has_fence)
		j = keymap_get(&t->by_fence, fence_key(ev->ctx, ev->seqno));
	if (!j && ev->fence_ptr)
		j = keymap_get(&t->by_ptr, ev->fence_ptr);
	return j;
}

static void index_job(struct timeline *t, struct job *j, const struct gpu_event *ev)
{
	if (ev->has_id && !j->has_id) {
		j->has_id = true;
		j->id = ev->id;
		j->id_key = id_key(t, ev);
		keymap_put(&t->by_id, j->id_key, j);
	}
	if (ev->has_fence && !j->has_fence) {
		j->has_fence = true;
		j->ctx = ev->ctx;
		j->seqno = ev->seqno;
		keymap_put(&t->by_fence, fence_key(j->ctx, j->seqno), j);
	}
	/* a freed fence's address comes back for a later job: the newest wins */
	if (ev->fence_ptr && j->fence_ptr != ev->fence_ptr) {
		/* no stale key may point at the job once it is freed */
		if (j->fence_ptr && keymap_get(&t->by_ptr, j->fence_ptr) == j)
			keymap_del(&t->by_ptr, j->fence_ptr);
		j->fence_ptr = ev->fence_ptr;
		keymap_put(&t->by_ptr, j->fence_ptr, j);
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

static struct job *new_job(struct timeline *t, const struct gpu_event *ev)
{
	struct job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->ring = ring_index(t, ev->ring);
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
	if (!j->has_id && !j->has_fence && !j->fence_ptr) {
		t->jobs_in_flight--;
		t->orphans++;
		free(j);
		return NULL;
	}
	return j;
}

static void unindex_job(struct timeline *t, struct job *j)
{
	if (j->has_id && keymap_get(&t->by_id, j->id_key) == j)
		keymap_del(&t->by_id, j->id_key);
	if (j->has_fence && keymap_get(&t->by_fence, fence_key(j->ctx, j->seqno)) == j)
		keymap_del(&t->by_fence, fence_key(j->ctx, j->seqno));
	if (j->fence_ptr && keymap_get(&t->by_ptr, j->fence_ptr) == j)
		keymap_del(&t->by_ptr, j->fence_ptr);
	if (j->virtio_fence_id && keymap_get(&t->by_virtio, j->virtio_fence_id) == j)
		keymap_del(&t->by_virtio, j->virtio_fence_id);
}

uint64_t job_first_time(const struct job *j)
{
	return j->t_submit ? j->t_submit : j->t_queue ? j->t_queue : j->t_run ? j->t_run : j->t_done;
}

static void set_lat(struct job *j, enum job_latency l, uint64_t from, uint64_t to)
{
	if (!from || !to || to < from)
		return;
	j->has_lat[l] = true;
	j->lat[l] = to - from;
}

bool timeline_filter_match(const struct timeline *t, uint64_t ts, int pid, const char *ring,
			   bool workload)
{
	const struct timeline_filter *f = &t->filter;

	if ((f->from && ts < f->from) || (f->to && ts > f->to))
		return false;
	if (f->ring && (!ring || strcmp(ring, f->ring)))
		return false;
	if (f->pid && pid != f->pid)
		return false;
	if (f->workload_only && !workload)
		return false;
	if (f->comm) {
		const char *comm = t->comm_of ? t->comm_of(pid, t->comm_ctx) : NULL;

		if (!comm || strcmp(comm, f->comm))
			return false;
	}
	return true;
}

static bool passes(struct timeline *t, const struct job *j)
{
	const struct timeline_filter *f = &t->filter;

	if (f->min_latency && (!j->has_lat[LAT_TOTAL] || j->lat[LAT_TOTAL] < f->min_latency))
		return false;
	return timeline_filter_match(t, job_first_time(j), j->pid, t->rings[j->ring]->name,
				     j->flags & JOB_WORKLOAD);
}

/* Fold a finished (or never-finished) job into the statistics, hand it on. */
static void retire(struct timeline *t, struct job *j)
{
	struct ring_stats *r = t->rings[j->ring];
	struct group_stats *g;
	int l;

	unindex_job(t, j);
	t->jobs_in_flight--;
	if (j->t_queue && !j->t_done)
		r->in_flight--;
	if (!passes(t, j)) {
		t->filtered_out++;
		free(j);
		return;
	}
	if (j->flags & JOB_UNFINISHED)
		r->unfinished++;
	else
		r->jobs++;
	if (j->flags & JOB_WORKLOAD)
		r->workload_jobs++;
	if (j->flags & JOB_LOST)
		r->lost++;
	if (j->nr_waits)
		r->waits++;
	/* a job touched by lost events may have wrong stages: shown, not counted */
	if (!(j->flags & JOB_LOST)) {
		for (l = 0; l < LAT_NR; l++)
			if (j->has_lat[l])
				latency_add(&r->lat[l], j->lat[l]);
		if (j->has_lat[LAT_TOTAL]) {
			g = group(&t->procs, &t->nr_procs, &t->proc_index, (uint64_t)j->pid);
			if (g) {
				g->jobs++;
				latency_add(&g->total, j->lat[LAT_TOTAL]);
			}
			if (j->has_client_id) {
				g = group(&t->clients, &t->nr_clients, &t->client_index, j->client_id);
				if (g) {
					g->jobs++;
					latency_add(&g->total, j->lat[LAT_TOTAL]);
				}
			}
		}
	}
	if (t->on_job)
		t->on_job(j, t->job_ctx);
	free(j);
}

/* When the job runs, its dependencies' signal times say how long it waited. */
static void resolve_deps(struct timeline *t, struct job *j)
{
	unsigned int i;
	uint64_t ts;

	for (i = 0; i < j->nr_dep_fences; i++) {
		if (!signal_time(t, fence_key(j->dep_fences[i].ctx, j->dep_fences[i].seqno), &ts)) {
			j->flags |= JOB_DEP_UNKNOWN;
			continue;
		}
		if (ts > j->dep_ready)
			j->dep_ready = ts;
	}
}

/* The jobs whose waits a ring's summary adds up: the workload's, if named. */
static bool summarised(const struct timeline *t, const struct job *j)
{
	return !(t->workload && t->workload->known) || (j->flags & JOB_WORKLOAD);
}

static bool other_than(const struct timeline *t, const struct job *j,
		       const struct ring_exec *e)
{
	if (t->workload && t->workload->known && (j->flags & JOB_WORKLOAD))
		return !e->workload;
	return e->pid != j->pid;
}

static void note_pid(int *pids, int *nr, int cap, bool *more, int pid)
{
	int i;

	for (i = 0; i < *nr; i++)
		if (pids[i] == pid)
			return;
	if (*nr < cap)
		pids[(*nr)++] = pid;
	else
		*more = true;
}

/*
 * The ring ran in order: what it executed between the job's queueing and
 * its hardware start is what it waited behind. Walk the ring's recent
 * executions back from the newest.
 */
static void attribute_wait(struct timeline *t, struct job *j)
{
	struct ring_stats *r = t->rings[j->ring];
	bool sum = summarised(t, j) && passes(t, j);
	int pids[16], nr_pids = 0;
	bool more = false;
	size_t n;

	if (!j->t_queue || !r->history_len)
		return;
	for (n = r->history_len; n > 0; n--) {
		struct ring_exec *e = &r->history[(r->history_head + n - 1) % RING_HISTORY];
		uint64_t from = e->hw_start > j->t_queue ? e->hw_start : j->t_queue;
		uint64_t to = e->done < j->t_hw_start ? e->done : j->t_hw_start;

		if (e->done <= j->t_queue)
			break;
		if (to <= from || !other_than(t, j, e))
			continue;
		j->behind.ns += to - from;
		j->behind.jobs++;
		note_pid(pids, &nr_pids, 16, &more, e->pid);
		if (!sum)
			continue;
		if (!e->counted) {
			e->counted = true;
			r->behind_jobs++;
		}
		note_pid(r->behind_pids, &r->nr_behind_pids, 32, &r->behind_pids_more, e->pid);
	}
	j->behind.procs = (unsigned int)nr_pids + more;
	if (n == 0 && r->history_dropped &&
	    r->history[r->history_head].done > j->t_queue)
		j->flags |= JOB_BEHIND_PARTIAL;
	if (sum)
		r->behind_ns += j->behind.ns;
}

static void remember_exec(struct ring_stats *r, const struct job *j)
{
	struct ring_exec *e;

	if (!r->history) {
		r->history = calloc(RING_HISTORY, sizeof(*r->history));
		if (!r->history)
			return;
	}
	if (r->history_len == RING_HISTORY) {
		r->history_head = (r->history_head + 1) % RING_HISTORY;
		r->history_len--;
		r->history_dropped = true;
	}
	e = &r->history[(r->history_head + r->history_len++) % RING_HISTORY];
	*e = (struct ring_exec){ j->t_hw_start, j->t_done, j->pid,
				 (j->flags & JOB_WORKLOAD) != 0, false };
}

static void complete(struct timeline *t, struct job *j, uint64_t ts)
{
	struct ring_stats *r = t->rings[j->ring];
	uint64_t first = job_first_time(j);

	j->t_done = ts;
	if (j->t_queue)
		r->in_flight--;
	if (j->t_run) {
		/* a ring executes in order: it starts when the previous job ends */
		j->t_hw_start = j->t_run > r->last_done ? j->t_run : r->last_done;
		if (j->t_hw_start > ts)
			j->t_hw_start = ts;
		r->busy_ns += ts - j->t_hw_start;
		set_lat(j, LAT_RUN_TO_HW, j->t_run, j->t_hw_start);
		set_lat(j, LAT_EXEC, j->t_hw_start, ts);
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
		attribute_wait(t, j);
		remember_exec(r, j);
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

static void track_depth(struct timeline *t, struct job *j)
{
	struct ring_stats *r = t->rings[j->ring];

	r->in_flight++;
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
		keymap_put(&t->by_virtio, ev->seqno, j);
	}
}

static void virtio_command(struct timeline *t, const struct gpu_event *ev)
{
	struct job *j;

	if (ev->kind != GEV_VIRTIO_CMD_QUEUE || !ev->id)
		return;		/* answers, and commands without a fence */
	j = keymap_get(&t->by_virtio, ev->id);
	if (!j) {
		t->orphans++;	/* its emit is not in the trace */
		return;
	}
	if (!j->t_queue) {
		j->t_queue = j->t_run = ev->ts;
		track_depth(t, j);
	}
}

static bool is_virtio(const struct gpu_event *ev)
{
	return !strcmp(ev->driver, "virtio_gpu");
}

static void fence_event(struct timeline *t, const struct gpu_event *ev)
{
	uint64_t key = fence_key(ev->ctx, ev->seqno);
	struct job *j = keymap_get(&t->by_fence, key);

	if (is_virtio(ev) && ev->kind == GEV_FENCE_INIT)
		return;		/* not numbered yet */
	if (is_virtio(ev) && ev->kind == GEV_FENCE_EMIT) {
		virtio_emit(t, j, ev);
		return;
	}
	switch (ev->kind) {
	case GEV_FENCE_SIGNALED:
		remember_signal(t, ev->ctx, ev->seqno, ev->ts);
		if (j && (t->fence_mode || (j->t_run && !strcmp(ev->driver, "drm_sched")) ||
			  j->virtio_fence_id)) {
			if (!t->fence_mode && !j->virtio_fence_id)
				j->flags |= JOB_DONE_FENCE;
			complete(t, j, ev->ts);
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
			j->t_run = ev->ts;
		}
		break;
	case GEV_FENCE_DESTROY:
		/* destroyed unsignalled (a stub or cancelled fence): not a job */
		if (t->fence_mode && j) {
			unindex_job(t, j);
			if (j->t_queue)
				t->rings[j->ring]->in_flight--;
			t->jobs_in_flight--;
			free(j);
		}
		break;
	default:
		break;
	}
}

void timeline_add_event(struct timeline *t, const struct gpu_event *ev)
{
	struct job *j;

	t->events++;
	if (!t->first_ts)
		t->first_ts = ev->ts;
	t->last_ts = ev->ts;
	if (ev->kind >= GEV_FENCE_INIT && ev->kind <= GEV_FENCE_DESTROY) {
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
		j = find_job(t, ev);
		if (!j)
			j = new_indexed_job(t, ev);
		if (!j)
			return;
		index_job(t, j, ev);
		if (ev->ring[0])
			j->ring = ring_index(t, ev->ring);
		if (ev->kind == GEV_SUBMIT) {
			set_submitter(t, j, ev->pid);
			if (!j->t_submit)
				j->t_submit = ev->ts;
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
		if (ev->kind == GEV_DEP_ADD)
			j->nr_deps++;
		else
			j->nr_waits++;
		add_dep_fence(j, ev);
		break;
	case GEV_RUN:
	case GEV_AMDGPU_RUN:
		j = find_job(t, ev);
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
		if (!j->t_run) {
			j->t_run = ev->ts;
			resolve_deps(t, j);
		}
		break;
	case GEV_DONE:
		j = ev->has_fence ? keymap_get(&t->by_fence, fence_key(ev->ctx, ev->seqno))
				  : keymap_get(&t->by_ptr, ev->fence_ptr);
		if (ev->has_fence)
			remember_signal(t, ev->ctx, ev->seqno, ev->ts);
		if (!j) {
			t->orphans++;
			return;
		}
		complete(t, j, ev->ts);
		break;
	default:
		break;
	}
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
	mark_lost(&t->by_id);
	mark_lost(&t->by_fence);
	mark_lost(&t->by_ptr);
	mark_lost(&t->by_virtio);
}

static int cmp_job_start(const void *a, const void *b)
{
	const struct job *x = *(struct job *const *)a, *y = *(struct job *const *)b;
	uint64_t fx = job_first_time(x), fy = job_first_time(y);

	if (fx != fy)
		return fx < fy ? -1 : 1;
	return x < y ? -1 : x > y;
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

void timeline_finish(struct timeline *t)
{
	struct job **list = NULL;
	size_t nr = 0, cap = 0, i;

	collect(&t->by_id, &list, &nr, &cap);
	collect(&t->by_fence, &list, &nr, &cap);
	collect(&t->by_ptr, &list, &nr, &cap);
	collect(&t->by_virtio, &list, &nr, &cap);
	if (nr)
		qsort(list, nr, sizeof(*list), cmp_job_start);
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
}

void timeline_free(struct timeline *t)
{
	int i, l;

	for (i = 0; i < t->nr_rings; i++) {
		for (l = 0; l < LAT_NR; l++)
			latency_free(&t->rings[i]->lat[l]);
		free(t->rings[i]->history);
		free(t->rings[i]);
	}
	for (i = 0; i < t->nr_procs; i++) {
		latency_free(&t->procs[i]->total);
		free(t->procs[i]);
	}
	for (i = 0; i < t->nr_clients; i++) {
		latency_free(&t->clients[i]->total);
		free(t->clients[i]);
	}
	keymap_free(&t->proc_index);
	keymap_free(&t->client_index);
	free(t->rings);
	free(t->procs);
	free(t->clients);
	keymap_free(&t->ring_by_name);
	keymap_free(&t->by_id);
	keymap_free(&t->by_fence);
	keymap_free(&t->by_ptr);
	keymap_free(&t->by_virtio);
	keymap_free(&t->signals);
	free(t->signal_fifo);
	memset(t, 0, sizeof(*t));
}
