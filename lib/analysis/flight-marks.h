/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FLIGHT_MARKS_H
#define GT_FLIGHT_MARKS_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/gpu-event.h"

/*
 * What a flight recorder dump says of itself (cmd/flight.c writes it):
 *   gpu-trace trigger: cause=slow-job ring=R stage=S ns=N over_ns=O pid=P done_ns=D
 *   gpu-trace trigger: cause=timeout ring=R | cause=reset dev=D | cause=xid xid=X dev=D |
 *                      cause=signal | cause=file | cause=periodic
 *   gpu-trace flight dump: cause=C window_from_ns=W
 * The dump line, written just before the file, says its cause and from when
 * every CPU's records are whole; the triggers it holds may be older ones too.
 */

#define FLIGHT_MARKS_MAX	8

struct flight_mark {
	uint64_t ts;			/* the marker's: when the recorder saw the trigger */
	char cause[16];
	char ring[GEV_STR_LEN], stage[24], dev[32];
	bool has_job;			/* a slow job: the numbers below */
	uint64_t ns, over_ns, done_ns;
	int pid;
	uint64_t xid;
};

struct flight_marks {
	struct flight_mark marks[FLIGHT_MARKS_MAX];
	int nr;
	uint64_t more;			/* past FLIGHT_MARKS_MAX */
	bool dump;			/* the dump line was read */
	/*
	 * the last dump line's: a dump may hold an earlier dump's line too (its
	 * window reaches back past it), its own is written last
	 */
	char dump_cause[16];
	uint64_t window_from_ns;	/* 0: the whole file */
};

struct analysis;
/**
 * flight_marks_of - the flight recorder join's model in @a (analysis-joins.h), for the outputs
 * @a: the session
 *
 * Return: the model, owned by the session; NULL before analysis_init().
 */
const struct flight_marks *flight_marks_of(const struct analysis *a);

/**
 * flight_marks_known - a dump's triggers found by an earlier pass over the same file handed to
 * the job join, so the triggering job is flagged as it retires (the marker follows it)
 * @a:    the session, after analysis_init() and before its run
 * @prev: flight_marks_of() of the earlier pass
 */
void flight_marks_known(struct analysis *a, const struct flight_marks *prev);

#endif
