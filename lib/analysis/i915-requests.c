// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/i915-requests.h"
#include "analysis/timeline.h"
#include "decode/event-fields.h"
#include "util/keymap.h"

enum i915_stage {
	I915_QUEUE,
	I915_ADD,
	I915_SUBMIT,
	I915_GUC_SUBMIT,
	I915_EXECUTE,
	I915_IN,
	I915_OUT,
	I915_RETIRE,
	I915_WAIT_BEGIN,
	I915_WAIT_END,
	I915_NR_STAGES
};

/* The join's state: what it found (the model i915_requests_of() hands out) and how it decodes */
struct i915_requests_state {
	struct i915_requests model;
	struct event_fields stage[I915_NR_STAGES];
	struct keymap live;		/* (ctx, seqno) -> what it did (flags), until retired */
	struct keymap waits;		/* (ctx, seqno) -> wait_begin time */
};

/* what a request did, kept in i915_requests_state.live until it retires */
#define REQ_QUEUED	(1u << 0)
#define REQ_RAN		(1u << 1)
#define REQ_DONE	(1u << 2)

struct i915_request {
	unsigned int flags;
	int engine;			/* index into i915_requests.engines: its queue's */
	uint64_t first_in;		/* its first in: the engine's start; 0: never in */
	uint64_t in_at;			/* the in it is on the engine since; 0: out */
	uint64_t on_engine;		/* ns between its ins and outs */
	/* its stints, in order; past GEV_MAX_STINTS the last one grows */
	uint64_t stints[GEV_MAX_STINTS][2];
	int nr_stints;
};

static const char *const stage_names[I915_NR_STAGES] = {
	[I915_QUEUE] = "queue", [I915_ADD] = "add", [I915_SUBMIT] = "submit",
	[I915_GUC_SUBMIT] = "guc_submit", [I915_EXECUTE] = "execute", [I915_IN] = "in",
	[I915_OUT] = "out", [I915_RETIRE] = "retire", [I915_WAIT_BEGIN] = "wait_begin",
	[I915_WAIT_END] = "wait_end",
};

/* Each stage under its 4.16+ name, else its 4.x i915_gem_request_* one. */
static void find_stages(struct i915_requests_state *q, struct tep_handle *tep)
{
	char name[64];
	int s;

	for (s = 0; s < I915_NR_STAGES; s++) {
		snprintf(name, sizeof(name), "i915_request_%s", stage_names[s]);
		if (event_fields_find(&q->stage[s], tep, "i915", name, NULL))
			continue;
		snprintf(name, sizeof(name), "i915_gem_request_%s", stage_names[s]);
		event_fields_find(&q->stage[s], tep, "i915", name, NULL);
	}
}

static int stage_of(const struct i915_requests_state *q, int type)
{
	int s;

	for (s = 0; s < I915_NR_STAGES; s++)
		if (q->stage[s].id == type)
			return s;
	return -1;
}

static struct i915_engine *engine(struct i915_requests *q, const char *name)
{
	int i;

	for (i = 0; i < q->nr_engines; i++)
		if (!strcmp(q->engines[i].name, name))
			return &q->engines[i];
	if (q->nr_engines == I915_MAX_ENGINES) {
		struct i915_engine *more = &q->engines[I915_MAX_ENGINES];

		snprintf(more->name, sizeof(more->name), "(more engines)");
		return more;
	}
	snprintf(q->engines[q->nr_engines].name, sizeof(q->engines[0].name), "%s", name);
	return &q->engines[q->nr_engines++];
}

static uint64_t request_key(const struct gpu_event *ev)
{
	return keymap_pair(ev->ctx, ev->seqno);
}

/* a request's stage for the job join, as the scheduler's kind of it */
static void to_jobs(struct analysis *a, struct gpu_event *ev, enum gpu_event_kind kind)
{
	ev->kind = kind;
	timeline_add_event(timeline_of(a), ev);
}

/* in and out: the request's stints on the engine */
static void engine_stint(struct i915_requests_state *q, struct i915_request *rq, int s, uint64_t ts)
{
	q->model.low_level = true;
	if (!rq)
		return;
	if (s == I915_IN) {
		if (!rq->first_in)
			rq->first_in = ts;
		rq->in_at = ts;
	} else if (rq->in_at && ts >= rq->in_at) {
		rq->on_engine += ts - rq->in_at;
		if (rq->nr_stints < GEV_MAX_STINTS)
			rq->stints[rq->nr_stints][0] = rq->in_at;
		else
			rq->nr_stints--;
		rq->stints[rq->nr_stints++][1] = ts;
		rq->in_at = 0;
	}
}

/*
 * Done: with its ins and outs in the file, the job's hardware start is its
 * first in and its time on the engine the sum of its stints (a preempted
 * request's wait between them is not the engine's)
 */
static void done(struct i915_requests_state *q, struct analysis *a, struct gpu_event *ev,
		 struct i915_request *rq)
{
	if (!rq || !(rq->flags & (REQ_QUEUED | REQ_RAN)) || (rq->flags & REQ_DONE))
		return;
	rq->flags |= REQ_DONE;
	q->model.engines[rq->engine].completed++;
	/* done (a retire, a signal) while on the engine with no out: its stint ends here */
	if (rq->in_at)
		engine_stint(q, rq, I915_OUT, ev->ts);
	ev->kind = GEV_DONE;
	if (rq->first_in && rq->first_in <= ev->ts)
		timeline_add_done_exact(timeline_of(a), ev, &(struct job_engine_time){
			.start = rq->first_in, .ns = rq->on_engine,
			.stints = (const uint64_t (*)[2])rq->stints, .nr = rq->nr_stints });
	else
		timeline_add_event(timeline_of(a), ev);
}

/* CPU waits on a request (i915_request_wait_begin -> _end) by each thread, per engine */
static void wait_stage(struct i915_requests_state *q, int s, struct i915_engine *e, uint64_t key,
		       int pid, uint64_t ts)
{
	uint64_t began;

	key = keymap_pair(key, (uint64_t)(uint32_t)pid);
	began = (uint64_t)(uintptr_t)keymap_get(&q->waits, key);
	if (s == I915_WAIT_BEGIN) {
		keymap_put(&q->waits, key, (void *)(uintptr_t)ts);
		return;
	}
	if (!began || ts < began)
		return;
	keymap_del(&q->waits, key);
	e->waits++;
	e->wait_ns += ts - began;
	if (ts - began > e->max_wait_ns)
		e->max_wait_ns = ts - began;
}

static struct i915_request *new_request(struct i915_requests_state *q, uint64_t key, int engine)
{
	struct i915_request *rq = calloc(1, sizeof(*rq));

	if (!rq)
		return NULL;
	if (keymap_put(&q->live, key, rq)) {
		free(rq);
		return NULL;
	}
	rq->flags = REQ_QUEUED;
	rq->engine = engine;
	return rq;
}

/* the decoded record (its engine's name in ring), as the job join's event */
static void stage(struct i915_requests_state *q, struct analysis *a, struct join_record *r, int s)
{
	struct gpu_event ev = r->ev;
	struct i915_request *rq;
	struct i915_engine *e;
	uint64_t key;

	ev.has_fence = true;
	if (!ev.ring[0])
		snprintf(ev.ring, sizeof(ev.ring), "engine ?");
	e = engine(&q->model, ev.ring);
	key = request_key(&ev);
	rq = keymap_get(&q->live, key);
	switch (s) {
	case I915_QUEUE:
	case I915_ADD:
		if (rq || !(rq = new_request(q, key, (int)(e - q->model.engines))))
			break;
		e->requests++;
		to_jobs(a, &ev, GEV_QUEUE);
		break;
	case I915_SUBMIT:
	case I915_GUC_SUBMIT:
	case I915_EXECUTE:
	case I915_IN:
		if (s == I915_IN)
			engine_stint(q, rq, s, ev.ts);
		/* handed to the backend (or, with no submit, taken by the engine): its run */
		if (!rq || (rq->flags & REQ_RAN))
			break;
		rq->flags |= REQ_RAN;
		q->model.engines[rq->engine].ran++;
		to_jobs(a, &ev, GEV_RUN);
		break;
	case I915_OUT:
		engine_stint(q, rq, s, ev.ts);
		if (!ev.completed) {
			e->preempted++;
			break;
		}
		done(q, a, &ev, rq);
		break;
	case I915_RETIRE:
		done(q, a, &ev, rq);
		if (rq) {
			keymap_del(&q->live, key);
			free(rq);
		}
		break;
	default:
		wait_stage(q, s, e, key, ev.pid, ev.ts);
		break;
	}
}

/*
 * Without outs (Debian's kernels build none; GuC submission sends none), a
 * request's fence signalling is when the engine finished it
 */
static void signalled(struct i915_requests_state *q, struct analysis *a, struct join_record *r)
{
	struct gpu_event ev = r->ev;

	if (q->model.low_level)
		return;
	ev.has_fence = true;
	/* the job join knows the ring by the request's fence */
	ev.ring[0] = '\0';
	ev.dev[0] = '\0';
	done(q, a, &ev, keymap_get(&q->live, request_key(&ev)));
}

/* The join (analysis-joins.h): i915's request events, and the fences they signal */
const struct i915_requests *i915_requests_of(const struct analysis *a)
{
	const struct i915_requests_state *q = analysis_state(a, JOIN_I915);

	return q ? &q->model : NULL;
}

static int join_init(void *state, struct analysis *a)
{
	find_stages(state, analysis_tep(a));
	return 0;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct i915_requests_state *q = state;
	int s;

	if (r->kind == GEV_FENCE_SIGNALED) {
		signalled(q, a, r);
		return;
	}
	if (r->kind != GEV_I915_REQUEST)
		return;
	s = stage_of(q, r->type);
	if (s < 0)
		return;
	q->model.records++;
	r->taken = true;
	stage(q, a, r, s);
}

static void join_free(void *state)
{
	struct i915_requests_state *q = state;
	size_t i = 0;
	uint64_t key;
	void *rq;

	while (keymap_next(&q->live, &i, &key, &rq))
		free(rq);
	keymap_free(&q->live);
	keymap_free(&q->waits);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct i915_requests_state *q = state;

	(void)a;
	return q->model.records;
}

/* i915_request_* and 4.x's i915_gem_request_* decode as GEV_I915_REQUEST */
static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	const struct i915_requests_state *q = state;
	int s;

	(void)a;
	for (s = 0; s < I915_NR_STAGES; s++)
		if (q->stage[s].id >= 0)
			return JOIN_KIND(GEV_I915_REQUEST) | JOIN_KIND(GEV_FENCE_SIGNALED);
	return 0;
}

const struct analysis_join i915_requests_join = {
	.name = "Intel i915 requests",
	.state_size = sizeof(struct i915_requests_state),
	.init = join_init,
	.record = join_record,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
