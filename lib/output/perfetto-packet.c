// SPDX-License-Identifier: GPL-2.0
/*
 * Perfetto's packets as the exporters write them: TracePacket framing on one sequence,
 * interned names, track descriptors written on first use, TrackEvents, slices, flows and
 * lanes. Knows no subsystem: the emitters (perfetto-export.c and perfetto-*.c) call in,
 * nothing here calls out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/perfetto-packet.h"
#include "util/write-behind.h"

/* Field numbers of Perfetto's public protos (protos/perfetto/trace/...). */
enum {
	TRACE_PACKET = 1,
	PKT_TIMESTAMP = 8, PKT_SEQUENCE_ID = 10, PKT_TRACK_EVENT = 11,
	PKT_INTERNED_DATA = 12, PKT_SEQUENCE_FLAGS = 13, PKT_TRACK_DESCRIPTOR = 60,
	PKT_MACHINE_ID = 98,
	SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2,
	TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT_UUID = 5, TD_COUNTER = 8,
	TD_CHILD_ORDERING = 11, TD_SIBLING_ORDER_RANK = 12, TD_DESCRIPTION = 14,
	CHILD_ORDERING_EXPLICIT = 3,
	PROCESS_PID = 1, PROCESS_NAME = 6,
	THREAD_PID = 1, THREAD_TID = 2, THREAD_NAME = 5,
	TE_DEBUG_ANNOTATIONS = 4, TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK_UUID = 11,
	TE_NAME = 23, TE_COUNTER_VALUE = 30, TE_FLOW_IDS = 47, TE_TERMINATING_FLOW_IDS = 48,
	DA_NAME_IID = 1, DA_UINT = 3, DA_INT = 4, DA_DOUBLE = 5, DA_STRING = 6, DA_NAME = 10,
	ID_EVENT_NAMES = 2, ID_ANNOTATION_NAMES = 3, INTERNED_IID = 1, INTERNED_NAME = 2,
};

#define SEQUENCE_ID	1
#define MAX_LANES	256

void perfetto_fail(struct perfetto_export *p, int err)
{
	if (!p->error)
		p->error = err;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

/* A track's identity: the same source, kind and key give the same one. */
uint64_t perfetto_track_uuid(const struct perfetto_export *p, enum track_kind kind, uint64_t a,
			   uint64_t b)
{
	uint64_t u = mix(keymap_pair(keymap_pair(p->source + 1, kind), keymap_pair(a, b)));

	return u ? u : 1;
}

/* Packets collect in buf and go out in large writes. */
#define FLUSH_AT	(256 * 1024)

void perfetto_packet_flush(struct perfetto_export *p)
{
	int error;

	if (p->buf.failed) {
		perfetto_fail(p, ENOMEM);
	} else if (p->wb) {
		/* the filled buffer handed over, an empty one back */
		error = write_behind_put(p->wb, &p->buf.data, p->buf.len, &p->buf.cap);
		if (error)
			perfetto_fail(p, error);
	} else if (p->buf.len && fwrite(p->buf.data, 1, p->buf.len, p->out) != p->buf.len) {
		perfetto_fail(p, errno ? errno : EIO);
	}
	pb_reset(&p->buf);
}

/* @ts moved by the source's offset (ERANGE in p->error below 0: Perfetto's timestamps are unsigned) */
static uint64_t packet_ts(struct perfetto_export *p, uint64_t ts)
{
	if (p->offset < 0 && ts < (uint64_t)-p->offset)
		perfetto_fail(p, ERANGE);
	return ts + (uint64_t)p->offset;
}

size_t perfetto_packet_begin(struct perfetto_export *p, uint64_t ts, bool timestamped)
{
	size_t at;

	at = pb_begin(&p->buf, TRACE_PACKET);
	if (timestamped)
		pb_varint_field(&p->buf, PKT_TIMESTAMP, packet_ts(p, ts));
	pb_varint_field(&p->buf, PKT_SEQUENCE_ID, SEQUENCE_ID);
	if (p->machine)
		pb_varint_field(&p->buf, PKT_MACHINE_ID, p->machine);
	return at;
}

/* A packet is in the buffer: counted, and the buffer written out once full. */
static void packet_written(struct perfetto_export *p)
{
	p->packets++;
	if (p->buf.len >= FLUSH_AT || p->buf.failed)
		perfetto_packet_flush(p);
}

uint8_t *perfetto_packet_claim(struct perfetto_export *p, size_t bound, uint64_t ts, uint8_t **pkt)
{
	uint8_t *w;

	bound += 5 * PB_FIELD_MAX;	/* the packet's own fields */
	if (bound > PB_MESSAGE_MAX) {
		perfetto_fail(p, E2BIG);
		return NULL;
	}
	w = pb_claim(&p->buf, bound);
	if (!w) {
		perfetto_fail(p, ENOMEM);
		return NULL;
	}
	w = pbw_begin(w, TRACE_PACKET, pkt);
	w = pbw_varint_field(w, PKT_TIMESTAMP, packet_ts(p, ts));
	w = pbw_varint_field(w, PKT_SEQUENCE_ID, SEQUENCE_ID);
	return p->machine ? pbw_varint_field(w, PKT_MACHINE_ID, p->machine) : w;
}

void perfetto_packet_commit(struct perfetto_export *p, uint8_t *w, uint8_t *pkt)
{
	pbw_end(w, pkt);
	pb_commit(&p->buf, w);
	packet_written(p);
}

void perfetto_packet_end(struct perfetto_export *p, size_t at)
{
	pb_end(&p->buf, at);
	packet_written(p);
}

size_t perfetto_interned_begin(struct perfetto_export *p, size_t *at)
{
	*at = perfetto_packet_begin(p, 0, false);
	pb_varint_field(&p->buf, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	return pb_begin(&p->buf, PKT_INTERNED_DATA);
}

void perfetto_interned_end(struct perfetto_export *p, size_t at, size_t id)
{
	pb_end(&p->buf, id);
	perfetto_packet_end(p, at);
}

/*
 * The uuid written for a track, its descriptor written the first time.
 * Numbered in order of first use: every event names its track, and a
 * one-byte id instead of a hash keeps the file a fifth smaller.
 */
uint64_t perfetto_track(struct perfetto_export *p, const struct pf_track *t)
{
	uintptr_t id = (uintptr_t)keymap_get(&p->tracks, t->uuid);
	uint64_t parent = t->parent ? t->parent : p->root;
	/* Perfetto files a thread under its pid: another host's pid 1234
	 * would join it, so grouped sources name their submitters instead */
	bool thread = t->thread_pid > 0 && !p->root;
	char name[80];
	size_t at, td;

	if (id && !t->again)
		return id;
	/* without it Perfetto shows the thread's process as "Process 4242" */
	if (thread && !id)
		perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_PROCESS, (uint64_t)t->thread_pid, 0),
					     .name = t->name, .process_pid = t->thread_pid });
	if (!id) {
		id = (uintptr_t)++p->nr_tracks;
		if (keymap_put(&p->tracks, t->uuid, (void *)id)) {
			perfetto_fail(p, ENOMEM);
			return id;
		}
	}
	at = perfetto_packet_begin(p, 0, false);
	td = pb_begin(&p->buf, PKT_TRACK_DESCRIPTOR);
	pb_varint_field(&p->buf, TD_UUID, id);
	if (parent)
		pb_varint_field(&p->buf, TD_PARENT_UUID, parent);
	if (t->process_pid > 0) {
		size_t pr = pb_begin(&p->buf, TD_PROCESS);

		pb_int_field(&p->buf, PROCESS_PID, t->process_pid);
		pb_string_field(&p->buf, PROCESS_NAME, t->name);
		pb_end(&p->buf, pr);
	} else if (t->thread_pid > 0 && !thread) {
		snprintf(name, sizeof(name), "%s %d", t->name, t->thread_pid);
		pb_string_field(&p->buf, TD_NAME, name);
	} else if (t->name) {
		pb_string_field(&p->buf, TD_NAME, t->name);
	}
	if (t->description)
		pb_string_field(&p->buf, TD_DESCRIPTION, t->description);
	if (t->ordered)
		pb_varint_field(&p->buf, TD_CHILD_ORDERING, CHILD_ORDERING_EXPLICIT);
	if (t->rank > 0)
		pb_int_field(&p->buf, TD_SIBLING_ORDER_RANK, t->rank);
	if (thread) {
		size_t th = pb_begin(&p->buf, TD_THREAD);

		pb_int_field(&p->buf, THREAD_PID, t->thread_pid);
		pb_int_field(&p->buf, THREAD_TID, t->thread_pid);
		pb_string_field(&p->buf, THREAD_NAME, t->name);
		pb_end(&p->buf, th);
	}
	if (t->counter)
		pb_end(&p->buf, pb_begin(&p->buf, TD_COUNTER));
	pb_end(&p->buf, td);
	perfetto_packet_end(p, at);
	return id;
}

/* A plain track, child of parent (0: the top, or the file's group). */
uint64_t perfetto_named_track(struct perfetto_export *p, enum track_kind kind, uint64_t key,
			    uint64_t parent, const char *name)
{
	return perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, kind, key, 0), .parent = parent,
					    .name = name });
}

static const char *arg_str(const struct pf_arg *arg)
{
	return arg->s ? arg->s : "";
}

/* The length of a string the emitter may have measured (0: not) */
static size_t str_len(const char *s, size_t known)
{
	return known ? known : strlen(s);
}

/*
 * The most perfetto_event() writes of @e: claimed at once, then written
 * unchecked. The strings' lengths are kept in @lens (name_str's first, then
 * each ARG_STR's, in order) for the writing.
 */
static size_t event_bound(const struct pf_event *e, size_t *lens)
{
	size_t n = 8 * PB_FIELD_MAX, i;

	/* strings at 3 bytes a byte: a byte that is not UTF-8 becomes U+FFFD */
	if (e->name < 0 && e->name_str) {
		*lens = str_len(e->name_str, e->name_len);
		n += 3 * *lens;
	}
	lens++;
	for (i = 0; i < (size_t)e->nr_args; i++) {
		const struct pf_arg *arg = &e->args[i];

		n += 3 * PB_FIELD_MAX;
		if (arg->name < 0)
			n += 3 * strlen(arg->name_str);
		if (arg->type == ARG_STR) {
			*lens = str_len(arg_str(arg), arg->s_len);
			n += 3 * *lens++;
		}
	}
	return n + PB_FIELD_MAX * (size_t)(e->nr_flows + e->nr_ends_flows);
}

static uint8_t *put_string(uint8_t *w, unsigned int field, const char *s)
{
	return pbw_text_field(w, field, s, strlen(s));
}

/* One TrackEvent packet: two thirds of a trace's packets, so written with a cursor. */
void perfetto_event(struct perfetto_export *p, const struct pf_event *e)
{
	size_t lens[PF_MAX_ARGS + 1], *len = lens + 1;
	uint8_t *w, *pkt, *te, *da;
	int i;

	if (e->nr_args > PF_MAX_ARGS) {
		perfetto_fail(p, E2BIG);
		return;
	}
	w = perfetto_packet_claim(p, event_bound(e, lens), e->ts, &pkt);
	if (!w)
		return;
	w = pbw_varint_field(w, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	w = pbw_begin(w, PKT_TRACK_EVENT, &te);
	w = pbw_varint_field(w, TE_TYPE, (uint64_t)e->type);
	w = pbw_varint_field(w, TE_TRACK_UUID, e->track);
	if (e->name >= 0)
		w = pbw_varint_field(w, TE_NAME_IID, (uint64_t)e->name + 1);
	else if (e->name_str)
		w = pbw_text_field(w, TE_NAME, e->name_str, lens[0]);
	if (e->type == PF_COUNTER)
		w = pbw_varint_field(w, TE_COUNTER_VALUE, (uint64_t)e->counter);
	for (i = 0; i < e->nr_args; i++) {
		const struct pf_arg *arg = &e->args[i];

		w = pbw_begin(w, TE_DEBUG_ANNOTATIONS, &da);
		if (arg->name >= 0)
			w = pbw_varint_field(w, DA_NAME_IID, (uint64_t)arg->name + 1);
		else
			w = put_string(w, DA_NAME, arg->name_str);
		if (arg->type == ARG_UINT)
			w = pbw_varint_field(w, DA_UINT, arg->u);
		else if (arg->type == ARG_INT)
			w = pbw_varint_field(w, DA_INT, (uint64_t)arg->i);
		else if (arg->type == ARG_DOUBLE)
			w = pbw_double_field(w, DA_DOUBLE, arg->d);
		else if (arg->s_ascii)
			w = pbw_bytes_field(w, DA_STRING, arg_str(arg), *len++);
		else
			w = pbw_text_field(w, DA_STRING, arg_str(arg), *len++);
		pbw_end(w, da);
	}
	for (i = 0; i < e->nr_flows; i++)
		w = pbw_fixed64_field(w, TE_FLOW_IDS, e->flows[i]);
	for (i = 0; i < e->nr_ends_flows; i++)
		w = pbw_fixed64_field(w, TE_TERMINATING_FLOW_IDS, e->ends_flows[i]);
	pbw_end(w, te);
	perfetto_packet_commit(p, w, pkt);
}

/* A slice from begin to end; the END carries nothing but the track. */
void perfetto_slice(struct perfetto_export *p, struct pf_event *e, uint64_t end)
{
	struct pf_event close = { .ts = end, .track = e->track, .type = PF_SLICE_END, .name = -1 };

	e->type = PF_SLICE_BEGIN;
	perfetto_event(p, e);
	perfetto_event(p, &close);
	p->slices++;
}

uint64_t perfetto_new_flow(struct perfetto_export *p)
{
	p->flows++;
	return ((uint64_t)(p->source + 1) << 48) | ++p->flow_seq;
}

int perfetto_lane_take(struct pf_lanes *l, uint64_t start, uint64_t end)
{
	uint64_t *n;
	int i;

	for (i = 0; i < l->nr; i++)
		if (l->ends[i] <= start)
			break;
	if (i == l->nr) {
		if (l->nr == MAX_LANES)
			return -1;
		n = realloc(l->ends, sizeof(*n) * (size_t)(l->nr + 1));
		if (!n)
			return -1;
		l->ends = n;
		l->nr++;
	}
	l->ends[i] = end;
	return i;
}

static void interned_list(struct pb_buf *b, unsigned int field, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		size_t at = pb_begin(b, field);

		pb_varint_field(b, INTERNED_IID, (uint64_t)i + 1);
		pb_string_field(b, INTERNED_NAME, names[i]);
		pb_end(b, at);
	}
}

void perfetto_packet_intern(struct perfetto_export *p, const char *const *events, int nr_events,
			    const char *const *args, int nr_args)
{
	size_t at = perfetto_packet_begin(p, 0, false), id;

	pb_varint_field(&p->buf, PKT_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	id = pb_begin(&p->buf, PKT_INTERNED_DATA);
	interned_list(&p->buf, ID_EVENT_NAMES, events, nr_events);
	interned_list(&p->buf, ID_ANNOTATION_NAMES, args, nr_args);
	pb_end(&p->buf, id);
	perfetto_packet_end(p, at);
	p->interned = true;
}
