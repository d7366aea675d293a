// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "analysis/user-queues.h"
#include "decode/event-fields.h"
#include "analysis/analysis.h"
#include "util/keymap.h"

enum userq_kind {
	UQ_CREATE_START, UQ_CREATE_END, UQ_DESTROY_START, UQ_DESTROY_END,
	UQ_EMIT, UQ_WAIT_DEPS, UQ_STATE_START, UQ_STATE_CHANGED, UQ_NR_KINDS
};

static const char *const userq_event_names[UQ_NR_KINDS] = {
	"amdgpu_userq_create_start", "amdgpu_userq_create_end",
	"amdgpu_userq_destroy_start", "amdgpu_userq_destroy_end",
	"amdgpu_userq_emit_fence", "amdgpu_userq_wait_deps",
	"amdgpu_userq_state_start", "amdgpu_userq_state_changed",
};

/* The fields read, by their index in field_names[] (each format has some of them). */
enum userq_field { UQF_QUEUE, UQF_DOORBELL, UQF_TYPE, UQF_STATE, UQF_XCP, UQF_RESULT, UQF_CTX,
		   UQF_SEQNO, UQF_DEV, UQF_CLIENT, UQF_TO, UQF_FROM, UQF_DEP_CTX, UQF_DEP_SEQNO,
		   UQF_NR };

_Static_assert(UQF_NR <= EVENT_FIELDS_MAX, "event_fields keeps EVENT_FIELDS_MAX fields");

static const char *const field_names[UQF_NR + 1] = {
	"queue", "doorbell_index", "queue_type", "state", "xcp_id", "result", "fence_context",
	"fence_seqno", "dev", "client_id", "to", "from", "dep_context", "dep_seqno", NULL,
};

/* the wait's own context is "context" */
static const char *const wait_field_names[UQF_NR + 1] = {
	"queue", "doorbell_index", "queue_type", "state", "xcp_id", "result", "context",
	"fence_seqno", "dev", "client_id", "to", "from", "dep_context", "dep_seqno", NULL,
};

/* One format of the file's and its fields. */
struct userq_event {
	int id;
	enum userq_kind kind;
	struct event_fields fields;
};

/* An emitted fence not yet signaled, or a queue waiting on a dependency. */
struct userq_wait {
	int q;
	uint64_t since;
	uint64_t ctx, seqno;		/* an emitted fence's own */
	struct userq_wait *next;	/* more waiters on the same dependency */
};

#define RECENT_SIGNALS	4096

/* The join's state: what it found (the model user_queues_of() hands out) and how it reads */
struct user_queues_state {
	struct user_queues model;
	struct keymap live;		/* type, doorbell -> index + 1 of the queue that has it */
	struct keymap fences;		/* low 32 bits of ctx:seqno -> pending emit */
	struct keymap deps;		/* the same of a dependency -> its waiters */
	struct keymap signaled;		/* recently signaled fences -> ts + 1 */
	uint64_t *recent;		/* ring of the keys in `signaled` */
	unsigned int recent_at;
	unsigned int nr_pending;
	struct userq_event *events;	/* the file's amdgpu_userq_* formats */
	int nr_events;
};

const char *userq_state_name(enum userq_state s)
{
	static const char *const names[USERQ_NR_STATES] = {
		"unmapped", "mapped", "preempted", "hung", "invalid VA"
	};

	return s < USERQ_NR_STATES ? names[s] : "?";
}

const char *userq_state_key(enum userq_state s)
{
	return s == USERQ_INVALID_VA ? "invalid_va" : userq_state_name(s);
}

const char *userq_type_name(uint32_t type)
{
	static const char *const names[] = { "gfx", "compute", "sdma" };

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

/* an empty table; finds the amdgpu_userq_* formats in @tep */
static void user_queues_init(struct user_queues_state *u, struct tep_handle *tep)
{
	int k;

	memset(u, 0, sizeof(*u));
	u->events = calloc(UQ_NR_KINDS, sizeof(*u->events));
	for (k = 0; u->events && k < UQ_NR_KINDS; k++) {
		struct userq_event *d = &u->events[u->nr_events];

		if (!event_fields_find(&d->fields, tep, "amdgpu", userq_event_names[k],
				       k == UQ_WAIT_DEPS ? wait_field_names : field_names))
			continue;
		d->id = d->fields.id;
		d->kind = (enum userq_kind)k;
		u->nr_events++;
	}
	u->model.present = u->nr_events > 0;
}

bool user_queues_present(const struct user_queues *u)
{
	return u->present;
}

static uint64_t num(const struct userq_event *d, enum userq_field f, const struct tep_record *r)
{
	return event_field_u64(&d->fields, f, r);
}

static uint64_t queue_key(uint32_t type, uint64_t doorbell)
{
	return keymap_pair(type, doorbell);
}

/* dma_fence events carry 32-bit context and seqno: the key both sides share */
static uint64_t fence_key(uint64_t ctx, uint64_t seqno)
{
	return keymap_pair(ctx & 0xffffffffu, seqno & 0xffffffffu);
}

/* The queue that has this doorbell now; NULL when there is none. */
static struct user_queue *live_queue(struct user_queues_state *u, uint32_t type, uint64_t doorbell)
{
	uintptr_t at = (uintptr_t)keymap_get(&u->live, queue_key(type, doorbell));
	struct user_queue *q = at ? &u->model.queues[at - 1] : NULL;

	return q && q->type == type && q->doorbell == doorbell ? q : NULL;
}

static struct user_queue *add_queue(struct user_queues_state *u, uint32_t type, uint64_t doorbell)
{
	struct user_queue *q;

	if (u->model.nr >= USERQ_MAX_QUEUES) {
		u->model.dropped++;
		return NULL;
	}
	if (u->model.nr == u->model.cap) {
		int cap = u->model.cap ? u->model.cap * 2 : 16;
		struct user_queue *n = realloc(u->model.queues, sizeof(*n) * (size_t)cap);

		if (!n) {
			u->model.dropped++;
			return NULL;
		}
		u->model.queues = n;
		u->model.cap = cap;
	}
	q = &u->model.queues[u->model.nr++];
	memset(q, 0, sizeof(*q));
	q->type = type;
	q->doorbell = doorbell;
	if (keymap_put(&u->live, queue_key(type, doorbell), (void *)(uintptr_t)u->model.nr))
		u->model.dropped++;
	return q;
}

/* A queue met first in the middle of its life (created before the file). */
static struct user_queue *queue_of(struct user_queues_state *u, uint32_t type, uint64_t doorbell)
{
	struct user_queue *q = live_queue(u, type, doorbell);

	return q ? q : add_queue(u, type, doorbell);
}

/* Of the queues created last, the one with this kernel pointer and no answer yet. */
static struct user_queue *queue_by_pointer(struct user_queues_state *u, uint64_t ptr, bool answered)
{
	int i;

	for (i = u->model.nr - 1; i >= 0 && i >= u->model.nr - 64; i--)
		if (u->model.queues[i].queue == ptr && u->model.queues[i].has_create &&
		    u->model.queues[i].has_result == answered && !u->model.queues[i].destroyed)
			return &u->model.queues[i];
	return NULL;
}

static void add_span(struct user_queues_state *u, const struct userq_span *s)
{
	if (s->to <= s->from)
		return;
	if (u->model.nr_spans == u->model.cap_spans) {
		int cap = u->model.cap_spans ? u->model.cap_spans * 2 : 64;
		struct userq_span *n;

		if (u->model.nr_spans >= USERQ_MAX_SPANS ||
		    !(n = realloc(u->model.spans, sizeof(*n) * (size_t)cap))) {
			u->model.spans_dropped++;
			return;
		}
		u->model.spans = n;
		u->model.cap_spans = cap;
	}
	u->model.spans[u->model.nr_spans++] = *s;
}

/* Time not mapped while work was pending, up to ts; before pending or state change. */
static void advance(struct user_queue *q, uint64_t ts)
{
	if (q->pending && q->state_known && q->state != USERQ_MAPPED && ts > q->pending_since)
		q->unmapped_pending_ns += ts - q->pending_since;
	q->pending_since = ts;
}

static void close_state(struct user_queues_state *u, struct user_queue *q, uint64_t ts)
{
	advance(q, ts);
	if (q->state_known && ts > q->state_since) {
		q->state_ns[q->state] += ts - q->state_since;
		add_span(u, &(struct userq_span){ .from = q->state_since, .to = ts,
						  .q = (int)(q - u->model.queues),
						  .kind = USERQ_SPAN_STATE, .state = q->state });
	}
	q->state_since = ts;
}

static void enter_state(struct user_queues_state *u, struct user_queue *q, uint64_t state,
			uint64_t ts)
{
	close_state(u, q, ts);
	q->state = state < USERQ_NR_STATES ? (enum userq_state)state : USERQ_INVALID_VA;
	q->state_known = true;
	q->entered[q->state]++;
}

static void client(struct user_queue *q, const struct userq_event *d, struct tep_record *rec)
{
	if (event_field_has(&d->fields, UQF_CLIENT)) {
		q->has_client = true;
		q->client_id = num(d, UQF_CLIENT, rec);
	}
	if (event_field_has(&d->fields, UQF_DEV) && !q->dev[0])
		event_field_str(&d->fields, UQF_DEV, rec, q->dev, sizeof(q->dev));
}

static void destroy_queue(struct user_queues_state *u, struct user_queue *q, uint64_t ts)
{
	close_state(u, q, ts);
	q->destroyed = true;
	if (!q->destroyed_at)
		q->destroyed_at = ts;
	if (live_queue(u, q->type, q->doorbell) == q)
		keymap_del(&u->live, queue_key(q->type, q->doorbell));
}

static void on_create(struct user_queues_state *u, const struct userq_event *d,
		      struct tep_record *rec, uint32_t type, uint64_t doorbell)
{
	uint64_t ptr = num(d, UQF_QUEUE, rec);
	struct user_queue *q;

	if (d->kind == UQ_CREATE_START) {
		q = add_queue(u, type, doorbell);
		if (!q)
			return;
		q->has_create = true;
		q->queue = ptr;
		q->created = rec->ts;
		q->xcp_id = (uint32_t)num(d, UQF_XCP, rec);
		q->pid = tep_data_pid(d->fields.event->tep, rec);
		if (event_field_has(&d->fields, UQF_STATE))
			enter_state(u, q, num(d, UQF_STATE, rec), rec->ts);
		return;
	}
	q = queue_by_pointer(u, ptr, false);
	if (!q)
		return;
	q->has_result = true;
	q->result = (int)num(d, UQF_RESULT, rec);
	q->create_ns = rec->ts - q->created;
	/* a create that failed never was a queue: its doorbell is not taken */
	if (q->result)
		destroy_queue(u, q, rec->ts);
}

static void on_destroy(struct user_queues_state *u, const struct userq_event *d,
		       struct tep_record *rec, uint32_t type, uint64_t doorbell)
{
	struct user_queue *q = live_queue(u, type, doorbell);

	if (!q)
		q = queue_by_pointer(u, num(d, UQF_QUEUE, rec), true);
	if (!q)
		return;
	if (d->kind == UQ_DESTROY_START) {
		q->destroyed_at = rec->ts;
		return;
	}
	q->destroy_result = (int)num(d, UQF_RESULT, rec);
	destroy_queue(u, q, rec->ts);
}

static bool too_many_pending(struct user_queues_state *u)
{
	if (u->nr_pending < USERQ_MAX_PENDING)
		return false;
	u->model.dropped++;
	return true;
}

static void on_emit(struct user_queues_state *u, const struct userq_event *d,
		    struct tep_record *rec, struct user_queue *q)
{
	uint64_t ctx = num(d, UQF_CTX, rec), seqno = num(d, UQF_SEQNO, rec);
	uint64_t key = fence_key(ctx, seqno);
	struct userq_wait *w;

	q->emits++;
	if (too_many_pending(u) || keymap_get(&u->fences, key))
		return;
	w = calloc(1, sizeof(*w));
	if (!w || keymap_put(&u->fences, key, w)) {
		free(w);
		u->model.dropped++;
		return;
	}
	w->q = (int)(q - u->model.queues);
	w->since = rec->ts;
	w->ctx = ctx;
	w->seqno = seqno;
	advance(q, rec->ts);
	q->pending++;
	u->nr_pending++;
}

static void on_wait_deps(struct user_queues_state *u, const struct userq_event *d,
			 struct tep_record *rec, struct user_queue *q)
{
	uint64_t key = fence_key(num(d, UQF_DEP_CTX, rec), num(d, UQF_DEP_SEQNO, rec));
	uintptr_t signaled = (uintptr_t)keymap_get(&u->signaled, key);
	struct userq_wait *w;

	q->dep_waits++;
	/* signaled before the wait began: no wait at all */
	if (signaled) {
		latency_stats_add(&q->dep_wait, 0);
		return;
	}
	if (too_many_pending(u) || !(w = calloc(1, sizeof(*w)))) {
		q->deps_unresolved++;
		return;
	}
	w->q = (int)(q - u->model.queues);
	w->since = rec->ts;
	w->next = keymap_get(&u->deps, key);
	if (keymap_put(&u->deps, key, w)) {
		free(w);
		q->deps_unresolved++;
		return;
	}
	u->nr_pending++;
}

/* Kept for wait_deps that come after their dependency signaled. */
static void remember_signal(struct user_queues_state *u, uint64_t key, uint64_t ts)
{
	if (!u->recent) {
		u->recent = calloc(RECENT_SIGNALS, sizeof(*u->recent));
		if (!u->recent)
			return;
	}
	if (u->recent[u->recent_at])
		keymap_del(&u->signaled, u->recent[u->recent_at]);
	u->recent[u->recent_at] = key;
	u->recent_at = (u->recent_at + 1) % RECENT_SIGNALS;
	keymap_put(&u->signaled, key, (void *)(uintptr_t)(ts + 1));
}

static void on_signal(struct user_queues_state *u, const struct gpu_event *ev, uint64_t ts)
{
	uint64_t key = fence_key(ev->ctx, ev->seqno);
	struct userq_wait *w = keymap_get(&u->fences, key), *next;

	if (w) {
		struct user_queue *q = &u->model.queues[w->q];

		keymap_del(&u->fences, key);
		advance(q, ts);
		q->pending--;
		q->signaled++;
		latency_stats_add(&q->emit_to_signal, ts - w->since);
		add_span(u, &(struct userq_span){ .from = w->since, .to = ts, .ctx = w->ctx,
						  .seqno = w->seqno, .q = w->q,
						  .kind = USERQ_SPAN_FENCE });
		free(w);
		u->nr_pending--;
	}
	for (w = keymap_get(&u->deps, key); w; w = next) {
		next = w->next;
		latency_stats_add(&u->model.queues[w->q].dep_wait, ts - w->since);
		free(w);
		u->nr_pending--;
	}
	keymap_del(&u->deps, key);
	remember_signal(u, key, ts);
}

static const struct userq_event *event_of(const struct user_queues_state *u, struct tep_record *rec,
					  const struct gpu_event *ev)
{
	int i, id;

	if (!u->nr_events || !ev->name || strncmp(ev->name, "amdgpu_userq_", 13))
		return NULL;
	id = tep_data_type(u->events[0].fields.event->tep, rec);
	for (i = 0; i < u->nr_events; i++)
		if (u->events[i].id == id)
			return &u->events[i];
	return NULL;
}

/*
 * one record: an amdgpu_userq_* event, or a fence signal (@kind GEV_FENCE_SIGNALED: @ev has
 * its fence); true when it was a user-queue event
 */
static bool user_queues_record(struct user_queues_state *u, struct tep_record *rec,
			       enum gpu_event_kind kind, const struct gpu_event *ev)
{
	const struct userq_event *d;
	struct user_queue *q;
	uint32_t type;
	uint64_t doorbell;

	if (!u->nr_events)
		return false;
	if (kind == GEV_FENCE_SIGNALED && ev->has_fence) {
		on_signal(u, ev, rec->ts);
		return false;	/* the fence's own joins read it too */
	}
	d = kind == GEV_AMDGPU_OTHER ? event_of(u, rec, ev) : NULL;
	if (!d)
		return false;
	u->model.records++;
	type = (uint32_t)num(d, UQF_TYPE, rec);
	doorbell = num(d, UQF_DOORBELL, rec);
	switch (d->kind) {
	case UQ_CREATE_START: case UQ_CREATE_END:
		on_create(u, d, rec, type, doorbell);
		return true;
	case UQ_DESTROY_START: case UQ_DESTROY_END:
		on_destroy(u, d, rec, type, doorbell);
		return true;
	default:
		break;
	}
	q = queue_of(u, type, doorbell);
	if (!q)
		return true;
	client(q, d, rec);
	if (d->kind == UQ_EMIT)
		on_emit(u, d, rec, q);
	else if (d->kind == UQ_WAIT_DEPS)
		on_wait_deps(u, d, rec, q);
	else if (d->kind == UQ_STATE_START && !q->state_known)
		enter_state(u, q, num(d, UQF_FROM, rec), rec->ts);
	else if (d->kind == UQ_STATE_CHANGED)
		enter_state(u, q, num(d, UQF_TO, rec), rec->ts);
	return true;
}

/* What is still waiting at the end: counted (dependencies) or drawn to the end (fences). */
static void free_waits(struct user_queues_state *u, struct keymap *m, bool deps)
{
	uint64_t key;
	size_t i = 0;
	void *v;

	while (keymap_next(m, &i, &key, &v)) {
		struct userq_wait *w = v, *next;

		for (; w; w = next) {
			next = deps ? w->next : NULL;
			if (deps)
				u->model.queues[w->q].deps_unresolved++;
			else
				add_span(u, &(struct userq_span){ .from = w->since,
								  .to = u->model.end_ts,
								  .ctx = w->ctx, .seqno = w->seqno,
								  .q = w->q, .kind = USERQ_SPAN_PENDING });
			free(w);
		}
	}
	keymap_free(m);
}

static int by_queue_then_start(const void *a, const void *b)
{
	const struct userq_span *x = a, *y = b;

	if (x->q != y->q)
		return x->q < y->q ? -1 : 1;
	return (x->from > y->from) - (x->from < y->from);
}

/* open state intervals and pending work end at @end_ts, the last record's */
static void user_queues_finish(struct user_queues_state *u, uint64_t end_ts)
{
	int i;

	u->model.end_ts = end_ts;
	for (i = 0; i < u->model.nr; i++)
		if (!u->model.queues[i].destroyed)
			close_state(u, &u->model.queues[i], u->model.end_ts);
	free_waits(u, &u->deps, true);
	free_waits(u, &u->fences, false);
	u->nr_pending = 0;
	if (u->model.nr_spans)
		qsort(u->model.spans, (size_t)u->model.nr_spans, sizeof(*u->model.spans),
		      by_queue_then_start);
}

/* everything the table holds */
static void user_queues_free(struct user_queues_state *u)
{
	int i;

	free_waits(u, &u->deps, true);
	free_waits(u, &u->fences, false);
	for (i = 0; i < u->model.nr; i++) {
		latency_stats_free(&u->model.queues[i].emit_to_signal);
		latency_stats_free(&u->model.queues[i].dep_wait);
	}
	free(u->model.queues);
	free(u->model.spans);
	free(u->events);
	free(u->recent);
	keymap_free(&u->live);
	keymap_free(&u->signaled);
	memset(u, 0, sizeof(*u));
}

/* The join (analysis-joins.h): amdgpu's user-mode queues */
struct user_queues *user_queues_of(const struct analysis *a)
{
	struct user_queues_state *u = analysis_state(a, JOIN_USER_QUEUES);

	return u ? &u->model : NULL;
}

static int join_init(void *state, struct analysis *a)
{
	user_queues_init(state, analysis_tep(a));
	return 0;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	(void)a;
	if (user_queues_record(state, r->rec, r->kind, &r->ev))
		r->taken = true;
}

static void join_finish(void *state, struct analysis *a)
{
	user_queues_finish(state, analysis_totals(a)->last_ts);
}

static void join_free(void *state)
{
	user_queues_free(state);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct user_queues_state *u = state;

	(void)a;
	return u->model.records;
}

static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)a;
	const struct user_queues_state *u = state;

	return u->nr_events ? JOIN_KIND(GEV_FENCE_SIGNALED) | JOIN_KIND(GEV_AMDGPU_OTHER) : 0;
}

const struct analysis_join user_queues_join = {
	.name = "amdgpu user queues",
	.state_size = sizeof(struct user_queues_state),
	.init = join_init,
	.record = join_record,
	.finish = join_finish,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
