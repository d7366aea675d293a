// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/vblanks.h"
#include "decode/event-fields.h"
#include "decode/gpu-ioctl.h"
#include "util/keymap.h"

#define VBLANK_RECENT		8	/* vblank records kept per CRTC for delivery latency */
#define VBLANK_EVENT_SLACK	16	/* an event this far behind a count may still be its */
#define VBLANK_MIN_PERIOD_NS	500000	/* 2000 Hz: no display counts faster */
#define PAGE_FLIP_NR		0xb0	/* DRM_IOCTL_MODE_PAGE_FLIP's number ('d') */

/* A CRTC's latest vblanks, and deliveries waiting for their vblank's record */
struct vblank_crtc_live {
	struct { uint64_t seq, ts, time; } recent[VBLANK_RECENT];
	int next_recent;
	struct { uint64_t seq, ts; } pending[VBLANK_RECENT];
	int nr_pending;
	uint64_t seen_seq;		/* the last record's seq */
	uint64_t last_vblank_ts;	/* the last vblank's record */
};

/*
 * A page flip asked for: by whom, when it entered, and once it returned 0 when, with each
 * display's vblank records and last count by then (the vblank it was due at is the next)
 */
struct vblank_flip_ask {
	int pid;
	bool paired;			/* its event came before it returned */
	uint64_t enter_ts, exit_ts;	/* exit_ts 0: still in its ioctl */
	uint64_t vblanks[VBLANK_MAX_CRTCS + 1], last_seq[VBLANK_MAX_CRTCS + 1];
};

/*
 * The join's state: what it found (the model vblanks_of() hands out) and what it keeps
 * while reading; live[i] is model.crtcs[i]'s, until join_finish sorts the CRTCs
 */
struct vblanks_state {
	struct vblanks model;
	struct vblank_crtc_live live[VBLANK_MAX_CRTCS + 1];
	struct keymap waiters;		/* (client, CRTC) -> struct vblank_waiter * */
	int nr_waiters;
	bool mono;			/* the trace clock is the vblanks' timestamps' (mono) */
	bool clock_known;
	/* the workload's ioctls (record's CPU side): its page flips' asks */
	struct event_fields enter, exit;
	struct vblank_flip_ask asks[VBLANK_FLIP_ASKS];	/* in the order asked */
	int nr_asks;
};

/* One client's events pending on one CRTC, oldest first: the vblanks asked for */
struct vblank_waiter {
	uint64_t seq[VBLANK_WAITER_EVENTS];
	int nr;
};

static struct vblank_crtc_live *live_of(struct vblanks_state *v, const struct vblank_crtc *c)
{
	return &v->live[c - v->model.crtcs];
}

/*
 * How far @seq, a record of @kind at @ts, is from @c's count (its last
 * vblank's, or before any the last event's): a vblank only forward, and by no
 * more vblanks than the time since its last allows at 2000 Hz; a delivery
 * comes at the vblank being handled (one behind at most, sent at once); an
 * event asked for may be a few behind (the core sends it at once, late).
 * UINT64_MAX: not @c's.
 */
static uint64_t distance(struct vblanks_state *v, const struct vblank_crtc *c, uint64_t seq,
			 enum gpu_event_kind kind, uint64_t ts)
{
	const struct vblank_crtc_live *l = live_of(v, c);
	uint64_t at = c->vblanks ? c->last_seq : l->seen_seq;
	uint64_t slack = kind == GEV_VBLANK_QUEUED ? VBLANK_EVENT_SLACK : 1;

	if (kind == GEV_VBLANK && c->vblanks && seq > at &&
	    seq - at > 1 + (ts > l->last_vblank_ts ? ts - l->last_vblank_ts : 0) / VBLANK_MIN_PERIOD_NS)
		return UINT64_MAX;
	if (seq >= at)
		return seq - at;	/* the same vblank again: the same count */
	if (kind == GEV_VBLANK && c->vblanks)
		return UINT64_MAX;
	return at - seq <= slack ? at - seq : UINT64_MAX;
}

/* the display of CRTC @crtc that @seq belongs to (vblanks.h), a new one where none fits */
static struct vblank_crtc *crtc_of(struct vblanks_state *v, long long crtc, uint64_t seq,
				   enum gpu_event_kind kind, uint64_t ts)
{
	struct vblank_crtc *best = NULL, *first = NULL;
	uint64_t best_d = UINT64_MAX, d;
	int i, displays = 0;

	for (i = 0; i < v->model.nr_crtcs; i++) {
		struct vblank_crtc *c = &v->model.crtcs[i];

		if (c->crtc != crtc)
			continue;
		first = first ? first : c;
		displays++;
		d = distance(v, c, seq, kind, ts);
		if (d < best_d) {
			best = c;
			best_d = d;
		}
	}
	if (best)
		return best;
	if (first && displays == VBLANK_MAX_DISPLAYS)
		return first;
	if (v->model.nr_crtcs == VBLANK_MAX_CRTCS || crtc < 0 || crtc > 0xffff) {
		v->model.crtcs[VBLANK_MAX_CRTCS].crtc = -1;
		return &v->model.crtcs[VBLANK_MAX_CRTCS];
	}
	v->model.crtcs[v->model.nr_crtcs].crtc = (int)crtc;
	v->model.crtcs[v->model.nr_crtcs].display = displays;
	return &v->model.crtcs[v->model.nr_crtcs++];
}

/* a delivery against its vblank: from the vblank's own time where comparable, else its record */
static void latency(struct vblanks_state *v, struct vblank_crtc *c, uint64_t at, uint64_t vblank_ts,
		    uint64_t vblank_time)
{
	uint64_t from = v->mono && vblank_time ? vblank_time : vblank_ts;

	if (at >= from)
		latency_stats_add(&c->deliver, at - from);
}

static void vblank(struct vblanks_state *v, struct vblank_crtc *c, const struct gpu_event *ev)
{
	uint64_t seq = (uint64_t)ev->vblank_seq, time = (uint64_t)ev->vblank_time;
	struct vblank_crtc_live *l = live_of(v, c);
	int i;

	/* the CRTCs past the ones kept apart share a bucket: no gaps or periods across them */
	if (c->vblanks && c->crtc >= 0) {
		if (seq < c->last_seq) {
			c->backwards++;
		} else if (seq - c->last_seq > 1) {
			c->gaps++;
			c->unseen += seq - c->last_seq - 1;
		} else if (seq == c->last_seq + 1 && time > c->last_time) {
			latency_stats_add(&c->period, time - c->last_time);
		}
	}
	if (!c->vblanks++)
		c->first_seq = seq;
	c->last_seq = seq;
	c->last_time = time;
	c->high_prec = ev->vblank_high_prec;
	l->recent[l->next_recent].seq = seq;
	l->recent[l->next_recent].ts = ev->ts;
	l->recent[l->next_recent].time = time;
	l->next_recent = (l->next_recent + 1) % VBLANK_RECENT;
	l->last_vblank_ts = ev->ts;
	/* the deliveries of this vblank, traced before it; an older one's vblank never came */
	for (i = 0; i < l->nr_pending; i++)
		if (l->pending[i].seq <= seq) {
			if (l->pending[i].seq == seq)
				latency(v, c, l->pending[i].ts, ev->ts, time);
			l->pending[i--] = l->pending[--l->nr_pending];
		}
}

static uint64_t waiter_key(const struct gpu_event *ev)
{
	return keymap_pair(ev->vblank_file, (uint64_t)ev->crtc);
}

static void queued(struct vblanks_state *v, struct vblank_crtc *c, const struct gpu_event *ev)
{
	struct vblank_waiter *w = keymap_get(&v->waiters, waiter_key(ev));

	c->queued++;
	if (!w && v->nr_waiters < VBLANK_MAX_WAITERS && (w = calloc(1, sizeof(*w)))) {
		if (keymap_put(&v->waiters, waiter_key(ev), w)) {
			free(w);
			w = NULL;
		} else {
			v->nr_waiters++;
		}
	}
	if (!w || w->nr == VBLANK_WAITER_EVENTS) {
		v->model.untracked++;
		return;
	}
	w->seq[w->nr++] = (uint64_t)ev->vblank_seq;
}

/* the smallest vblank @w asked for that @seq does not precede; -1: none (a page flip's) */
static int asked(const struct vblank_waiter *w, uint64_t seq)
{
	int i, best = -1;

	for (i = 0; w && i < w->nr; i++)
		if (w->seq[i] <= seq && (best < 0 || w->seq[i] < w->seq[best]))
			best = i;
	return best;
}

static void drop_ask(struct vblanks_state *v, int i)
{
	memmove(&v->asks[i], &v->asks[i + 1], sizeof(v->asks[0]) * (size_t)(v->nr_asks - i - 1));
	v->nr_asks--;
}

/*
 * A page flip's event (vblanks.h): its ask is the oldest not yet paired that entered
 * before it. Due at the display's first vblank after the ask returned: the vblanks it
 * missed are the count's steps since then (the records', where the display had none
 * by then or the event has no count past them: a device without a vblank counter).
 * An event before its ask returned was due at none it missed.
 */
static void flip(struct vblanks_state *v, struct vblank_crtc *c, const struct gpu_event *ev)
{
	uint64_t late = 0, seq = (uint64_t)ev->vblank_seq;
	struct vblank_flip_ask *ask;
	int i, d = (int)(c - v->model.crtcs);

	for (i = 0; i < v->nr_asks && v->asks[i].paired; i++)
		;
	if (i == v->nr_asks || v->asks[i].enter_ts > ev->ts)
		return;
	ask = &v->asks[i];
	if (!ask->exit_ts) {
		latency_stats_add(&c->flip_present, ev->ts - ask->enter_ts);
		ask->paired = true;	/* its exit drops it */
	} else {
		if (ask->vblanks[d] && seq > ask->last_seq[d])
			late = seq - ask->last_seq[d] - 1;
		else
			late = c->vblanks - ask->vblanks[d];
		latency_stats_add(&c->flip_present, ev->ts >= ask->exit_ts ? ev->ts - ask->exit_ts : 0);
		drop_ask(v, i);
	}
	if (late) {
		c->flips_late++;
		c->flips_late_vblanks += late;
	}
	v->model.last_flip_asked = true;
	v->model.last_flip_late = late;
}

/* events were lost: which flip an event is, is lost with them; the asks returned count unpaired */
static void forget_asks(struct vblanks_state *v)
{
	int i;

	for (i = 0; i < v->nr_asks; i++)
		v->model.flip_asks_unpaired += v->asks[i].exit_ts && !v->asks[i].paired;
	v->nr_asks = 0;
}

/* @pid's ask still in its ioctl, or -1 */
static int in_flight(const struct vblanks_state *v, int pid)
{
	int i;

	for (i = 0; i < v->nr_asks; i++)
		if (v->asks[i].pid == pid && !v->asks[i].exit_ts)
			return i;
	return -1;
}

/*
 * A slot for a new ask past VBLANK_FLIP_ASKS pending: the oldest returned and not
 * paired is given up (counted unpaired); false while every one is still in its ioctl
 */
static bool make_room(struct vblanks_state *v)
{
	int i;

	for (i = 0; i < v->nr_asks; i++)
		if (v->asks[i].exit_ts && !v->asks[i].paired) {
			v->model.flip_asks_unpaired++;
			drop_ask(v, i);
			return true;
		}
	return false;
}

/*
 * the workload's ioctls: a DRM_IOCTL_MODE_PAGE_FLIP's enter, then its exit (which names
 * no ioctl: the thread's ask in flight does)
 */
static void ioctl_record(struct vblanks_state *v, const struct join_record *r)
{
	struct vblank_flip_ask *ask;
	unsigned long long val;
	int i;

	if (r->type < 0 || r->too_short || (r->type != v->enter.id && r->type != v->exit.id))
		return;
	i = in_flight(v, r->pid);
	if (r->type == v->enter.id) {
		/* a thread is in one syscall at a time: one still in flight lost its exit */
		if (i >= 0)
			drop_ask(v, i);
		if (!event_field_num(&v->enter, 0, r->rec, &val) || GPU_IOCTL_TYPE(val) != 'd' ||
		    GPU_IOCTL_NR(val) != PAGE_FLIP_NR)
			return;
		if (v->nr_asks < VBLANK_FLIP_ASKS || make_room(v))
			v->asks[v->nr_asks++] = (struct vblank_flip_ask){ .pid = r->pid,
									  .enter_ts = r->ts };
		return;
	}
	if (i < 0)
		return;
	if (!event_field_num(&v->exit, 0, r->rec, &val) || val) {
		drop_ask(v, i);		/* refused (EBUSY: one pending already) */
		return;
	}
	v->model.flip_asks++;
	ask = &v->asks[i];
	if (ask->paired) {
		drop_ask(v, i);
		return;
	}
	ask->exit_ts = r->ts;
	for (i = 0; i <= VBLANK_MAX_CRTCS; i++) {
		ask->vblanks[i] = v->model.crtcs[i].vblanks;
		ask->last_seq[i] = v->model.crtcs[i].last_seq;
	}
}

static void delivered(struct vblanks_state *v, struct vblank_crtc *c, const struct gpu_event *ev)
{
	struct vblank_waiter *w = keymap_get(&v->waiters, waiter_key(ev));
	struct vblank_crtc_live *l = live_of(v, c);
	uint64_t seq = (uint64_t)ev->vblank_seq;
	int i, k;

	c->delivered++;
	/* the vblank's record comes after its deliveries; seen already, it is one of the last */
	for (i = 0; i < VBLANK_RECENT; i++)
		if (l->recent[i].ts && l->recent[i].seq == seq && l->recent[i].ts <= ev->ts)
			break;
	if (i < VBLANK_RECENT)
		latency(v, c, ev->ts, l->recent[i].ts, l->recent[i].time);
	else if (l->nr_pending < VBLANK_RECENT) {
		l->pending[l->nr_pending].seq = seq;
		l->pending[l->nr_pending++].ts = ev->ts;
	}
	k = asked(w, seq);
	v->model.last_late = 0;
	v->model.last_matched = k >= 0;
	v->model.last_flip_asked = false;
	v->model.last_flip_late = 0;
	if (k < 0) {
		c->unmatched++;
		if (!ev->vblank_file)
			c->core_events++;
		else
			flip(v, c, ev);
		return;
	}
	if (seq > w->seq[k]) {
		c->late++;
		c->late_vblanks += seq - w->seq[k];
		v->model.last_late = seq - w->seq[k];
	}
	w->seq[k] = w->seq[--w->nr];
}

static int by_crtc(const void *a, const void *b)
{
	const struct vblank_crtc *x = a, *y = b;

	if (x->crtc != y->crtc)
		return (x->crtc > y->crtc) - (x->crtc < y->crtc);
	return (x->display > y->display) - (x->display < y->display);
}

/*
 * the CRTCs in their own order for the outputs (the rest's bucket stays last); their
 * live[] rows, read no more, keep the order they were met in
 */
static void join_finish(void *state, struct analysis *a)
{
	struct vblanks_state *v = state;

	(void)a;
	forget_asks(v);
	qsort(v->model.crtcs, (size_t)v->model.nr_crtcs, sizeof(v->model.crtcs[0]), by_crtc);
}

double vblank_refresh_hz(struct vblank_crtc *c)
{
	uint64_t p = latency_stats_percentile(&c->period, 50);

	return p ? 1e9 / (double)p : 0.0;
}

/* The join (analysis-joins.h): drm's vblank events */
struct vblanks *vblanks_of(const struct analysis *a)
{
	struct vblanks_state *v = analysis_state(a, JOIN_VBLANKS);

	return v ? &v->model : NULL;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct vblanks_state *v = state;
	struct vblank_crtc *c;

	if (r->missed)
		forget_asks(v);
	if (r->kind == GEV_NONE) {
		ioctl_record(v, r);
		return;
	}
	if (r->kind != GEV_VBLANK && r->kind != GEV_VBLANK_QUEUED && r->kind != GEV_VBLANK_DELIVERED)
		return;
	v->model.records++;
	if (!v->clock_known) {
		v->clock_known = true;
		v->mono = analysis_meta(a) && !strcmp(analysis_meta(a)->clock, "mono");
	}
	c = crtc_of(v, r->ev.crtc, (uint64_t)r->ev.vblank_seq, r->kind, r->ts);
	v->model.last_display = c->display;
	live_of(v, c)->seen_seq = (uint64_t)r->ev.vblank_seq;
	if (r->kind == GEV_VBLANK)
		vblank(v, c, &r->ev);
	else if (r->kind == GEV_VBLANK_QUEUED)
		queued(v, c, &r->ev);
	else
		delivered(v, c, &r->ev);
}

static void join_free(void *state)
{
	struct vblanks_state *v = state;
	size_t i = 0;
	uint64_t key;
	void *w;
	int c;

	while (keymap_next(&v->waiters, &i, &key, &w))
		free(w);
	keymap_free(&v->waiters);
	for (c = 0; c <= VBLANK_MAX_CRTCS; c++) {
		latency_stats_free(&v->model.crtcs[c].period);
		latency_stats_free(&v->model.crtcs[c].deliver);
		latency_stats_free(&v->model.crtcs[c].flip_present);
	}
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct vblanks_state *v = state;

	(void)a;
	return v->model.records;
}

/* the workload's ioctls where the file has them and flips' events can be in it */
static int join_init(void *state, struct analysis *a)
{
	static const char *const cmd[] = { "cmd", NULL }, *const ret[] = { "ret", NULL };
	struct vblanks_state *v = state;
	struct tep_handle *tep = analysis_tep(a);
	struct event_fields delivery;

	v->enter.id = v->exit.id = -1;
	if (!event_fields_find(&delivery, tep, "drm", "drm_vblank_event_delivered", NULL))
		return 0;
	if (!event_fields_find_all(&v->enter, tep, "syscalls", "sys_enter_ioctl", cmd) ||
	    !event_fields_find_all(&v->exit, tep, "syscalls", "sys_exit_ioctl", ret))
		v->enter.id = v->exit.id = -1;
	return 0;
}

static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	const struct vblanks_state *v = state;

	(void)a;
	return JOIN_KIND(GEV_VBLANK) | JOIN_KIND(GEV_VBLANK_QUEUED) | JOIN_KIND(GEV_VBLANK_DELIVERED) |
	       (v->enter.id >= 0 ? JOIN_KIND(GEV_NONE) : 0);
}

const struct analysis_join vblanks_join = {
	.name = "display vblanks",
	.state_size = sizeof(struct vblanks_state),
	.init = join_init,
	.record = join_record,
	.finish = join_finish,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
