/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FLIGHT_RULES_H
#define GT_FLIGHT_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/timeline.h"
#include "util/gt-error.h"

/*
 * When the flight recorder saves what it holds: the causes, the slow-job
 * rules (--trigger 'gfx*:total>50ms'), and the plan that turns triggers
 * into dumps: one dump per cause at a time, written --after the trigger,
 * later triggers of that cause folded into it, and a cause that dumped
 * less than --min-gap ago only counted (a storm of slow jobs writes one
 * file, not thousands).
 */
enum flight_cause {
	FLIGHT_SLOW_JOB,
	FLIGHT_TIMEOUT,		/* a ring timeout (the kernel's log, xe's tracepoint) */
	FLIGHT_RESET,		/* a GPU or ring reset */
	FLIGHT_XID,		/* an NVIDIA Xid */
	FLIGHT_JOB_ERROR,	/* a job's fence given an error (xe_sched_job_set_error) */
	FLIGHT_SIGNAL,		/* SIGUSR1 */
	FLIGHT_FILE,		/* --trigger-file touched */
	FLIGHT_PERIODIC,	/* --every */
	FLIGHT_NR
};

#define FLIGHT_RING_GLOB	64
#define FLIGHT_DETAIL		256

struct flight_rule {
	char ring[FLIGHT_RING_GLOB];	/* fnmatch() pattern of ring names */
	enum job_latency stage;
	uint64_t over_ns;
};

struct flight_pending {
	bool armed;
	uint64_t at_ns, due_ns;		/* the first trigger, and when its dump is written */
	uint64_t folded;		/* later triggers of the cause folded into it */
	char detail[FLIGHT_DETAIL];
};

struct flight_plan {
	uint64_t after_ns, min_gap_ns;
	struct flight_pending pending[FLIGHT_NR];
	bool dumped[FLIGHT_NR];
	uint64_t last_at_ns[FLIGHT_NR];	/* the last dump's trigger time */
	uint64_t suppressed[FLIGHT_NR];	/* since that dump: inside --min-gap */
};

enum flight_fire {
	FLIGHT_ARMED,		/* a new dump is due at pending[cause].due_ns */
	FLIGHT_FOLDED,		/* into the dump already due */
	FLIGHT_SUPPRESSED,	/* within --min-gap of the last dump of the cause */
};

/** flight_cause_name - "slow-job", "timeout", ...: the dump's file name and the marker say it */
const char *flight_cause_name(enum flight_cause c);
/**
 * flight_rule_parse - RING_GLOB:STAGE>DURATION, e.g. 'gfx*:total>50ms' or '*:exec>2ms'
 * @spec: the text
 * @r:    filled
 * @err:  what is wrong with it
 *
 * STAGE is a latency's key (total, exec, queue_to_run, dep_wait, run_to_hw, submit_to_queue)
 * or its short name (queue, wait, hw, submit); DURATION needs its unit (ns, us, ms, s).
 *
 * Return: 0, or -1 with @err set.
 */
int flight_rule_parse(const char *spec, struct flight_rule *r, struct gt_error *err);
/** flight_rule_match - whether a job on the ring named @ring breaks @r */
bool flight_rule_match(const struct flight_rule *r, const char *ring, const struct job *j);
/**
 * flight_plan_fire - a trigger of @cause at @now_ns (the trace clock: the kernel's CLOCK_MONOTONIC)
 * @detail: what happened, kept for the dump's marker when it arms a dump
 *
 * Periodic and signal triggers are never suppressed: they are asked for.
 */
enum flight_fire flight_plan_fire(struct flight_plan *p, enum flight_cause cause,
				  uint64_t now_ns, const char *detail);
/** flight_plan_next_due - the cause whose dump is due at @now_ns, or FLIGHT_NR */
enum flight_cause flight_plan_next_due(const struct flight_plan *p, uint64_t now_ns);
/** flight_plan_done - @cause's dump written (or given up): its pending dump cleared */
void flight_plan_done(struct flight_plan *p, enum flight_cause cause);

#endif
