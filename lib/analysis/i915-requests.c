// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/i915-requests.h"
#include "analysis/timeline.h"

/* what a request did, kept in i915_requests.live until it retires */
#define REQ_QUEUED	(1u << 0)
#define REQ_RAN		(1u << 1)
#define REQ_DONE	(1u << 2)
/* above them, its engine's index + 1: a fence's signal names no engine */
#define REQ_ENGINE_SHIFT 8

static const char *const stage_names[I915_NR_STAGES] = {
	[I915_QUEUE] = "queue", [I915_ADD] = "add", [I915_SUBMIT] = "submit",
	[I915_EXECUTE] = "execute", [I915_IN] = "in", [I915_OUT] = "out",
	[I915_RETIRE] = "retire", [I915_WAIT_BEGIN] = "wait_begin", [I915_WAIT_END] = "wait_end",
};

/* Each stage under its 4.16+ name, else its 4.x i915_gem_request_* one. */
static void find_stages(struct i915_requests *q, struct tep_handle *tep)
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
	q->low_level = q->stage[I915_IN].id >= 0 || q->stage[I915_OUT].id >= 0;
}

static int stage_of(const struct i915_requests *q, int type)
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

static unsigned int flags_of(const struct i915_requests *q, uint64_t key)
{
	return (unsigned int)(uintptr_t)keymap_get(&q->live, key);
}

/* a request's stage for the job join, as the scheduler's kind of it */
static void to_jobs(struct analysis *a, struct gpu_event *ev, enum gpu_event_kind kind)
{
	ev->kind = kind;
	timeline_add_event(timeline_of(a), ev);
}

static void done(struct i915_requests *q, struct analysis *a, struct gpu_event *ev,
		 uint64_t key, unsigned int flags)
{
	unsigned int engine = flags >> REQ_ENGINE_SHIFT;

	if (!(flags & (REQ_QUEUED | REQ_RAN)) || (flags & REQ_DONE))
		return;
	keymap_put(&q->live, key, (void *)(uintptr_t)(flags | REQ_DONE));
	if (engine && engine <= I915_MAX_ENGINES + 1)
		q->engines[engine - 1].completed++;
	to_jobs(a, ev, GEV_DONE);
}

/* CPU waits on a request (i915_request_wait_begin -> _end), per engine */
static void wait_stage(struct i915_requests *q, int s, struct i915_engine *e, uint64_t key,
		       uint64_t ts)
{
	uint64_t began = (uint64_t)(uintptr_t)keymap_get(&q->waits, key);

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

/* the decoded record (its engine's name in ring), as the job join's event */
static void stage(struct i915_requests *q, struct analysis *a, struct join_record *r, int s)
{
	struct gpu_event ev = r->ev;
	struct i915_engine *e;
	unsigned int flags;
	uint64_t key;

	ev.has_fence = true;
	if (!ev.ring[0])
		snprintf(ev.ring, sizeof(ev.ring), "engine ?");
	e = engine(q, ev.ring);
	key = request_key(&ev);
	flags = flags_of(q, key);
	switch (s) {
	case I915_QUEUE:
	case I915_ADD:
		if (flags)
			break;
		keymap_put(&q->live, key, (void *)(uintptr_t)(REQ_QUEUED |
			   (unsigned int)(e - q->engines + 1) << REQ_ENGINE_SHIFT));
		e->requests++;
		to_jobs(a, &ev, GEV_QUEUE);
		break;
	case I915_SUBMIT:
	case I915_EXECUTE:
	case I915_IN:
		/* with in in the file, it is the engine's start; else submit is the nearest */
		if ((q->stage[I915_IN].id >= 0 && s != I915_IN) || !(flags & REQ_QUEUED) ||
		    (flags & REQ_RAN))
			break;
		keymap_put(&q->live, key, (void *)(uintptr_t)(flags | REQ_RAN));
		e->ran++;
		to_jobs(a, &ev, GEV_RUN);
		break;
	case I915_OUT:
		if (!ev.completed) {
			e->preempted++;
			break;
		}
		done(q, a, &ev, key, flags);
		break;
	case I915_RETIRE:
		done(q, a, &ev, key, flags);
		keymap_del(&q->live, key);
		break;
	default:
		wait_stage(q, s, e, key, ev.ts);
		break;
	}
}

/* Without out events, a request's fence signalling is when the engine finished it. */
static void signalled(struct i915_requests *q, struct analysis *a, struct join_record *r)
{
	struct gpu_event ev = r->ev;
	uint64_t key;
	unsigned int flags;

	ev.has_fence = true;
	key = request_key(&ev);
	flags = flags_of(q, key);

	if (!flags || (flags & REQ_DONE))
		return;
	/* the job join knows the ring by the request's fence */
	ev.ring[0] = '\0';
	ev.dev[0] = '\0';
	done(q, a, &ev, key, flags);
}

/* The join (analysis-joins.h): i915's request events, and the fences they signal */
struct i915_requests *i915_requests_of(const struct analysis *a)
{
	return a->states[JOIN_I915];
}

static int join_init(void *state, struct analysis *a)
{
	find_stages(state, a->tep);
	return 0;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct i915_requests *q = state;
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
	q->records++;
	r->taken = true;
	stage(q, a, r, s);
}

static void join_free(void *state)
{
	struct i915_requests *q = state;

	keymap_free(&q->live);
	keymap_free(&q->waits);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct i915_requests *q = state;

	(void)a;
	return q->records;
}

/* i915_request_* and 4.x's i915_gem_request_* decode as GEV_I915_REQUEST */
static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	const struct i915_requests *q = state;
	int s;

	(void)a;
	for (s = 0; s < I915_NR_STAGES; s++)
		if (q->stage[s].id >= 0)
			return JOIN_KIND(GEV_I915_REQUEST) | JOIN_KIND(GEV_FENCE_SIGNALED);
	return 0;
}

const struct analysis_join i915_requests_join = {
	.name = "Intel i915 requests",
	.state_size = sizeof(struct i915_requests),
	.init = join_init,
	.record = join_record,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
