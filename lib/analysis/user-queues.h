/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_USER_QUEUES_H
#define GT_USER_QUEUES_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/latency-stats.h"
#include "decode/gpu-event.h"

/*
 * amdgpu's user-mode queues (7.x, amdgpu_userq_* events): gfx, compute and
 * SDMA queues that user space feeds through a doorbell, with no scheduler
 * job. What the kernel says of them: each queue's creation and destruction
 * (with their results), every state it went through (the driver's
 * UNMAPPED 0, MAPPED 1, PREEMPTED 2, HUNG 3, INVALID_VA 4), the fence each
 * submission's completion signals (emit, then dma_fence_signaled), and the
 * fences a queue's work waited on. No event marks the hardware picking work
 * up: a user queue "job" is emit -> signaled, and the time its queue was not
 * mapped while work was pending is the part the kernel made it wait.
 * dma_fence events carry 32-bit context and seqno where these carry 64:
 * fences are joined on the low 32 bits of both.
 */
enum userq_state {
	USERQ_UNMAPPED, USERQ_MAPPED, USERQ_PREEMPTED, USERQ_HUNG, USERQ_INVALID_VA, USERQ_NR_STATES
};

/* Bounds on what a file can make us keep. */
#define USERQ_MAX_QUEUES	4096
#define USERQ_MAX_PENDING	65536
#define USERQ_MAX_SPANS		65536

/*
 * What the timelines draw (Perfetto): a queue's state intervals and its
 * fences from emit to signal (or to the file's end, still pending), in
 * queue and start order once the pass is over.
 */
enum userq_span_kind { USERQ_SPAN_STATE, USERQ_SPAN_FENCE, USERQ_SPAN_PENDING };

struct userq_span {
	uint64_t from, to;
	uint64_t ctx, seqno;		/* fences: the fence (64-bit, as emitted) */
	int q;				/* index into queues */
	enum userq_span_kind kind;
	enum userq_state state;		/* USERQ_SPAN_STATE */
};

struct user_queue {
	uint64_t doorbell;
	uint32_t type;			/* AMDGPU_HW_IP_*: 0 gfx, 1 compute, 2 sdma */
	uint32_t xcp_id;
	uint64_t queue;			/* the kernel's struct amdgpu_usermode_queue */
	int pid;			/* who created it (the ioctl's process); 0: before the file */
	bool has_client;
	uint64_t client_id;
	char dev[GEV_STR_LEN];
	bool has_create;		/* a create_start in the file */
	uint64_t created;
	bool has_result;		/* its create_end */
	int result;			/* 0 or -errno */
	uint64_t create_ns;
	bool destroyed;
	uint64_t destroyed_at;
	int destroy_result;
	/* states, from the first state the file shows */
	bool state_known;
	enum userq_state state;
	uint64_t state_since;
	uint64_t state_ns[USERQ_NR_STATES];
	unsigned int entered[USERQ_NR_STATES];	/* times it went into each */
	/* work: fences emitted, signaled, pending */
	uint64_t emits, signaled;
	unsigned int pending;
	struct latency_stats emit_to_signal;
	uint64_t pending_since;		/* when the last count of pending work changed */
	uint64_t unmapped_pending_ns;	/* not mapped while work was pending */
	uint64_t dep_waits, deps_unresolved;
	struct latency_stats dep_wait;	/* wait_deps -> the dependency's signal */
};

/*
 * What the join found, for the outputs: its decode state (the formats, the queues
 * live by doorbell, the fences in flight) is user-queues.c's alone.
 */
struct user_queues {
	bool present;			/* the file has the user-queue formats */
	struct user_queue *queues;
	int nr, cap;
	uint64_t records;		/* amdgpu_userq_* records read */
	struct userq_span *spans;
	int nr_spans, cap_spans;
	uint64_t spans_dropped;		/* past USERQ_MAX_SPANS: not drawn */
	uint64_t dropped;		/* past the bounds above: not followed */
	uint64_t end_ts;		/* the last record's time: open intervals end there */
};

/**
 * user_queues_present - whether the file can tell user queues
 * @u: user_queues_of()'s
 *
 * Return: true when the file has the user-queue formats (the kernel has the events)
 */
bool user_queues_present(const struct user_queues *u);

/** userq_state_name - "unmapped", "mapped", "preempted", "hung", "invalid VA" */
const char *userq_state_name(enum userq_state s);
/** userq_state_key - the same as JSON keys and CSV columns: "unmapped", ..., "invalid_va" */
const char *userq_state_key(enum userq_state s);
/** userq_type_name - "gfx", "compute", "sdma", or NULL for another type */
const char *userq_type_name(uint32_t type);

struct analysis;
/**
 * user_queues_of - what the user queue join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its queues and spans, owned by @a (valid until analysis_close()); not const,
 * as reading a percentile of its latency_stats computes it in place; NULL before
 * analysis_init()
 */
struct user_queues *user_queues_of(const struct analysis *a);

#endif
