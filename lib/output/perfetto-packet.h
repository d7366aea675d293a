/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PERFETTO_PACKET_H
#define GT_PERFETTO_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/perfetto-export.h"

/*
 * The trace as every emitter writes it (perfetto-packet.c): tracks
 * (described the first time they are used), events on them, and raw packets
 * (begun, their fields added with pb_*(&p->buf), then ended).
 */
enum track_kind { T_GPU = 1, T_RING, T_HW, T_LANE, T_COUNTER, T_SIGNALS, T_THREAD, T_LOST_ROOT,
		  T_LOST, T_DISPLAY, T_VBLANK, T_KFD_ROOT, T_KFD, T_SOURCE, T_HIP_ROOT, T_HIP,
		  T_USERQ_ROOT, T_USERQ, T_USERQ_LANE, T_SWITCHES, T_TIMEOUTS, T_RESETS, T_MOVES,
		  T_MOVED, T_VM_UPDATED, T_VM_FLUSHES, T_DMA_BUF, T_PROCESS, T_KFDQ_ROOT,
		  T_KFDQ_PROCESS, T_KFDQ_QUEUE, T_KFDQ_CALLS, T_KFDQ_EVICTIONS, T_KFD_SNAPSHOTS, T_NV_ROOT, T_NV_CALLS,
		  T_NV_ISR, T_NV_BH, T_NV_UVM, T_NV_UVM_NR, T_NV_XIDS, T_VBLANK_EVENTS };

enum { PF_SLICE_BEGIN = 1, PF_SLICE_END = 2, PF_INSTANT = 3, PF_COUNTER = 4 };

struct pf_arg {
	int name;			/* interned (A_*), or -1: name_str */
	const char *name_str;
	enum { ARG_UINT, ARG_INT, ARG_DOUBLE, ARG_STR } type;
	uint64_t u;
	int64_t i;
	double d;
	const char *s;
	/*
	 * ARG_STR where the emitter made the string: its length (0: taken here)
	 * and whether it is all ASCII (checked here otherwise): a job's strings
	 * are written three times, and their lengths were taken twice each
	 */
	size_t s_len;
	bool s_ascii;
};

/* the most arguments an event carries (a job's hardware slice: 10) */
#define PF_MAX_ARGS	16

struct pf_event {
	uint64_t ts, track;
	int type;
	int name;			/* interned, or -1 */
	const char *name_str;
	size_t name_len;		/* name_str's length where known (0: taken here) */
	const struct pf_arg *args;
	int nr_args;
	const uint64_t *flows, *ends_flows;	/* flow_ids, terminating_flow_ids */
	int nr_flows, nr_ends_flows;
	int64_t counter;
};

struct pf_track {
	uint64_t uuid;			/* identity, from perfetto_track_uuid() */
	uint64_t parent;		/* the id perfetto_track() returned for the parent, or 0:
					 * the source's group, or none */
	const char *name;
	int thread_pid;			/* > 0: a thread track */
	bool counter;
	int rank;			/* > 0: its place among its parent's children */
	bool ordered;			/* its children go by their rank, not their name */
	int process_pid;		/* > 0: the process track named name */
	const char *description;
	/*
	 * written again though known: a name given late (Perfetto takes a track's name
	 * from a descriptor that has one, wherever it lies in the trace)
	 */
	bool again;
};

/** perfetto_track_uuid - a track's identity: the same source, kind and keys give the same one */
uint64_t perfetto_track_uuid(const struct perfetto_export *p, enum track_kind kind, uint64_t a,
			     uint64_t b);
/** perfetto_track - the id events name the track by; its descriptor is written the first time */
uint64_t perfetto_track(struct perfetto_export *p, const struct pf_track *t);
/** perfetto_named_track - a plain track under @parent (0: the top, or the file's group) */
uint64_t perfetto_named_track(struct perfetto_export *p, enum track_kind kind, uint64_t key,
			      uint64_t parent, const char *name);
/** perfetto_event - one TrackEvent */
void perfetto_event(struct perfetto_export *p, const struct pf_event *e);
/** perfetto_slice - @e as a slice from its ts to @end */
void perfetto_slice(struct perfetto_export *p, struct pf_event *e, uint64_t end);
/**
 * perfetto_lane_take - the first of @l's lanes free at @start, now taken until @end (lanes are
 * filled in the order slices come); -1 past 256 lanes or out of memory
 */
int perfetto_lane_take(struct pf_lanes *l, uint64_t start, uint64_t end);

/**
 * perfetto_packet_begin - a packet on the trace's one sequence, stamped with @ts moved by the
 * source's offset when @timestamped (ERANGE in p->error below 0); returns what to end
 */
size_t perfetto_packet_begin(struct perfetto_export *p, uint64_t ts, bool timestamped);
/** perfetto_packet_end - closes the packet; writes the buffer out once it is large */
void perfetto_packet_end(struct perfetto_export *p, size_t at);

/*
 * The packets written per job or per record go through a cursor instead
 * (protobuf.h): room for all of it claimed once, the fields put unchecked.
 */
/**
 * perfetto_packet_claim - a timestamped packet on the trace's one sequence with room for
 * @bound more bytes, begun as perfetto_packet_begin() begins one; the cursor past its header
 * (write its fields with pbw_*()), *@pkt for perfetto_packet_commit(); NULL (p->error set)
 * when @bound is past a message's limit or memory is out
 */
uint8_t *perfetto_packet_claim(struct perfetto_export *p, size_t bound, uint64_t ts, uint8_t **pkt);
/** perfetto_packet_commit - closes the claimed packet at cursor @w, as perfetto_packet_end() */
void perfetto_packet_commit(struct perfetto_export *p, uint8_t *w, uint8_t *pkt);

/**
 * perfetto_interned_begin - a packet of interned data on the sequence: add its entries to
 * p->buf; *@at and the return value are for perfetto_interned_end()
 */
size_t perfetto_interned_begin(struct perfetto_export *p, size_t *at);
/** perfetto_interned_end - closes what perfetto_interned_begin() began */
void perfetto_interned_end(struct perfetto_export *p, size_t at, size_t id);

/** perfetto_fail - remembers the first error (@err, an errno); later ones are dropped */
void perfetto_fail(struct perfetto_export *p, int err);
/** perfetto_packet_flush - what the buffer holds written out; a failed write is remembered */
void perfetto_packet_flush(struct perfetto_export *p);
/** perfetto_new_flow - a flow id no other flow of the trace has */
uint64_t perfetto_new_flow(struct perfetto_export *p);
/**
 * perfetto_packet_intern - the sequence's first packet: its state cleared, the event names
 * (@events, iid = index + 1) and debug annotation names (@args) the emitters refer to by iid
 */
void perfetto_packet_intern(struct perfetto_export *p, const char *const *events, int nr_events,
			    const char *const *args, int nr_args);

#endif
