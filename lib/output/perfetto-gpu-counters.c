// SPDX-License-Identifier: GPL-2.0
/*
 * Each ring's jobs in flight and busy share as Perfetto's own GPU counters
 * (GpuCounterEvent against a counter descriptor interned per ring, on the
 * ring's gpu_id), so that its gpu_counter_track and counter tables, and the
 * UI's GPU counter tracks, hold them beside the TrackEvent "in flight" lane.
 *
 * Perfetto reads a GPU counter sample backwards: the value holds from the
 * previous sample up to this one (the first sample only starts the track).
 * So a change is written as the value before it, at its time; the busy share
 * of a window at the window's end, windows of one value written once.
 */
#include "output/perfetto-gpu-counters.h"
#include "output/perfetto-gpu.h"
#include "output/perfetto-packet.h"
#include "analysis/timeline.h"

/* Field numbers of Perfetto's public protos (protos/perfetto/...). */
enum {
	PKT_SEQUENCE_FLAGS = 13, PKT_GPU_COUNTER_EVENT = 52,
	SEQ_NEEDS_INCREMENTAL_STATE = 2,
	GCE_COUNTERS = 2, GCE_DESCRIPTOR_IID = 4,
	GC_COUNTER_ID = 1, GC_INT_VALUE = 2, GC_DOUBLE_VALUE = 3,
	ID_GPU_COUNTER_DESCRIPTORS = 47,
	IGCD_IID = 1, IGCD_DESCRIPTOR = 2, IGCD_GPU_ID = 3,
	DESC_SPECS = 1,
	SPEC_COUNTER_ID = 1, SPEC_NAME = 2, SPEC_DESCRIPTION = 3, SPEC_NUMERATOR_UNITS = 7,
	UNIT_PERCENT = 37,
};

enum { C_IN_FLIGHT = 1, C_BUSY };

static void counter_spec(struct pb_buf *b, int id, const char *ring, const char *what,
			 const char *description, int unit)
{
	size_t at = pb_begin(b, DESC_SPECS);
	char name[2 * GEV_STR_LEN + 256];

	snprintf(name, sizeof(name), "%s %s", ring, what);
	pb_varint_field(b, SPEC_COUNTER_ID, (uint64_t)id);
	pb_string_field(b, SPEC_NAME, name);
	pb_string_field(b, SPEC_DESCRIPTION, description);
	if (unit)
		pb_varint_field(b, SPEC_NUMERATOR_UNITS, (uint64_t)unit);
	pb_end(b, at);
}

/* The ring's counter descriptor iid, interned the first time. */
static uint64_t descriptor(struct perfetto_export *p, int ring)
{
	struct pf_ring_counters *c = &p->ring_counters[ring];
	char name[2 * GEV_STR_LEN + 200];
	size_t at, id, entry, desc;

	if (c->iid)
		return c->iid;
	c->iid = ++p->gpu_counter_descs;
	/* several files' rings of one name stay apart by their group's name */
	snprintf(name, sizeof(name), "%s%s%s", p->label ? p->label : "", p->label ? ": " : "",
		 timeline_ring_name(p->tl, ring));
	id = perfetto_interned_begin(p, &at);
	entry = pb_begin(&p->buf, ID_GPU_COUNTER_DESCRIPTORS);
	pb_varint_field(&p->buf, IGCD_IID, c->iid);
	desc = pb_begin(&p->buf, IGCD_DESCRIPTOR);
	counter_spec(&p->buf, C_IN_FLIGHT, name, "in flight",
		     "jobs queued to the ring and not yet done", 0);
	counter_spec(&p->buf, C_BUSY, name, "busy",
		     "share of each 1 ms the ring ran a job on the hardware", UNIT_PERCENT);
	pb_end(&p->buf, desc);
	pb_int_field(&p->buf, IGCD_GPU_ID, perfetto_gpu_id(p, ring));
	pb_end(&p->buf, entry);
	perfetto_interned_end(p, at, id);
	return c->iid;
}

static void write_sample(struct perfetto_export *p, int ring, uint64_t ts, int counter, double v)
{
	uint64_t iid = descriptor(p, ring);
	uint8_t *w, *pkt, *ev, *c;

	/* two per job: through the cursor */
	w = perfetto_packet_claim(p, 6 * PB_FIELD_MAX, ts, &pkt);
	if (!w)
		return;
	w = pbw_varint_field(w, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	w = pbw_begin(w, PKT_GPU_COUNTER_EVENT, &ev);
	w = pbw_begin(w, GCE_COUNTERS, &c);
	w = pbw_varint_field(w, GC_COUNTER_ID, (uint64_t)counter);
	if (counter == C_BUSY)
		w = pbw_double_field(w, GC_DOUBLE_VALUE, v);
	else
		w = pbw_varint_field(w, GC_INT_VALUE, (uint64_t)(int64_t)v);
	pbw_end(w, c);
	w = pbw_varint_field(w, GCE_DESCRIPTOR_IID, iid);
	pbw_end(w, ev);
	perfetto_packet_commit(p, w, pkt);
}

static void write_held(struct perfetto_export *p, int ring)
{
	struct pf_ring_counters *c = &p->ring_counters[ring];
	int i, n = c->nr_held;

	c->nr_held = 0;
	for (i = 0; i < n; i++)
		write_sample(p, ring, c->held[i].ts, c->held[i].counter, c->held[i].v);
}

/*
 * A sample of a ring still known by a stand-in name is held (a few, then
 * written as they are): its descriptor, interned with the first sample
 * written, takes the ring's name once an event gives it
 */
static void sample(struct perfetto_export *p, int ring, uint64_t ts, int counter, double v)
{
	struct pf_ring_counters *c = &p->ring_counters[ring];

	if (!c->iid && c->nr_held < PF_HELD_SAMPLES && timeline_ring_stand_in(p->tl, ring)) {
		c->held[c->nr_held++] = (struct pf_held_sample){ .ts = ts, .v = v, .counter = counter };
		return;
	}
	if (c->nr_held)
		write_held(p, ring);
	write_sample(p, ring, ts, counter, v);
}

void perfetto_gpu_in_flight(struct perfetto_export *p, int ring, uint64_t ts, int64_t before)
{
	/* the first sample's value is not read: it only starts the track */
	sample(p, ring, ts, C_IN_FLIGHT, before > 0 ? (double)before : 0);
	p->ring_counters[ring].in_flight_begun = true;
	p->ring_counters[ring].in_flight_ts = ts;
}

static double busy_pct(uint64_t ns, uint64_t window)
{
	return (double)ns * 100.0 / (double)window;
}

/* @n windows from @from closed at @pct: a run of one value goes out when the value changes. */
static void busy_close(struct perfetto_export *p, int ring, uint64_t from, uint64_t n, double pct)
{
	struct pf_ring_counters *c = &p->ring_counters[ring];

	if (c->run && c->run_pct == pct && c->run_end == from) {
		c->run_end = from + n;
		return;
	}
	if (c->run)
		sample(p, ring, c->run_end * PF_BUSY_WINDOW_NS, C_BUSY, c->run_pct);
	c->run = true;
	c->run_pct = pct;
	c->run_end = from + n;
}

/* The window being filled is over, and the idle ones up to @win: @win is filled next. */
static void busy_move_to(struct perfetto_export *p, int ring, uint64_t win, double pct_full)
{
	struct pf_ring_counters *c = &p->ring_counters[ring];

	if (win <= c->busy_win)
		return;
	busy_close(p, ring, c->busy_win, 1, busy_pct(c->busy_ns, PF_BUSY_WINDOW_NS));
	if (win > c->busy_win + 1)
		busy_close(p, ring, c->busy_win + 1, win - c->busy_win - 1, pct_full);
	c->busy_win = win;
	c->busy_ns = 0;
}

void perfetto_gpu_busy(struct perfetto_export *p, int ring, uint64_t start, uint64_t end,
		       bool stint)
{
	struct pf_ring_counters *c = &p->ring_counters[ring];
	uint64_t win, floor = c->busy_from;

	/* a job the ring's order puts before what was counted counts only past it */
	if (stint && c->busy_begun && start < floor)
		floor = c->busy_win * PF_BUSY_WINDOW_NS;
	if (start < floor)
		start = floor;
	if (end <= start)
		return;
	if (!c->busy_begun) {
		c->busy_win = start / PF_BUSY_WINDOW_NS;
		sample(p, ring, c->busy_win * PF_BUSY_WINDOW_NS, C_BUSY, 0);
		c->busy_begun = true;
	}
	busy_move_to(p, ring, start / PF_BUSY_WINDOW_NS, 0);
	win = end / PF_BUSY_WINDOW_NS;
	if (win > c->busy_win) {
		c->busy_ns += (c->busy_win + 1) * PF_BUSY_WINDOW_NS - start;
		busy_move_to(p, ring, win, 100);
		start = win * PF_BUSY_WINDOW_NS;
	}
	c->busy_ns += end - start;
	if (end > c->busy_from)
		c->busy_from = end;
}

/* The ring idle from its last job to @ts; the window @ts falls in cut short there. */
static void busy_end(struct perfetto_export *p, int ring, uint64_t ts)
{
	struct pf_ring_counters *c = &p->ring_counters[ring];
	uint64_t from;
	double pct;

	if (ts < c->busy_from)
		ts = c->busy_from;
	busy_move_to(p, ring, ts / PF_BUSY_WINDOW_NS, 0);
	from = c->busy_win * PF_BUSY_WINDOW_NS;
	if (ts > from) {
		pct = busy_pct(c->busy_ns, ts - from);
		if (c->run && (c->run_pct != pct || c->run_end != c->busy_win))
			sample(p, ring, c->run_end * PF_BUSY_WINDOW_NS, C_BUSY, c->run_pct);
		c->run = false;
		sample(p, ring, ts, C_BUSY, pct);
	}
	if (c->run)
		sample(p, ring, c->run_end * PF_BUSY_WINDOW_NS, C_BUSY, c->run_pct);
	c->run = false;
}

void perfetto_gpu_counters_end(struct perfetto_export *p, uint64_t ts)
{
	int r;

	for (r = 0; r < p->nr_rings; r++) {
		if (p->ring_counters[r].nr_held)
			write_held(p, r);
		/* the value since the last change, unless it changed at the very end */
		if (p->ring_counters[r].in_flight_begun && p->ring_counters[r].in_flight_ts < ts)
			sample(p, r, ts, C_IN_FLIGHT, (double)p->ring_in_flight[r]);
		if (p->ring_counters[r].busy_begun)
			busy_end(p, r, ts);
	}
}
