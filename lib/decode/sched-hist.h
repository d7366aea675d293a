/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_SCHED_HIST_H
#define GT_SCHED_HIST_H

#include <stdint.h>

#include "decode/hist-text.h"

/*
 * The GPU scheduler's rings as the in-kernel join's histograms count them
 * (capture/kernel-join.h sets them up), since the join began: jobs queued,
 * and per log2 bucket of microseconds the jobs that ran (their wait from
 * queue to run) and the jobs that finished (their run to done).
 */
#define SCHED_HIST_MAX_RINGS	64
/* 6.17+ names a finished job by its fence context: the contexts seen, to their ring */
#define SCHED_HIST_MAX_CONTEXTS	4096

struct sched_hist_ring {
	char name[HIST_NAME_LEN];
	uint64_t queued;
	/*
	 * Jobs the join lost when it made its tables anew: those queued and
	 * not done then (never run or done since, as far as the join knows),
	 * and those run and not done
	 */
	uint64_t lost_queued, lost_run;
	uint64_t wait[HIST_LOG2_MAX];	/* queue -> run, us */
	uint64_t exec[HIST_LOG2_MAX];	/* run -> done, us */
};

struct sched_hist_context {
	uint64_t ctx;
	int ring;
};

struct sched_hist {
	struct sched_hist_ring rings[SCHED_HIST_MAX_RINGS];
	int nr_rings;
	struct sched_hist_context contexts[SCHED_HIST_MAX_CONTEXTS];
	int nr_contexts;
	/* buckets of rings or contexts past the bounds above: left out, counted */
	uint64_t left_out;
	uint64_t renewals;		/* times the join's keyed tables were made anew */
};

/** sched_hist_ring_find - the ring so named, added when new; -1 past SCHED_HIST_MAX_RINGS */
int sched_hist_ring_find(struct sched_hist *h, const char *name);

/** sched_hist_add_queued - a "keys=name" histogram of the queue event: jobs queued per ring */
void sched_hist_add_queued(struct sched_hist *h, const char *text, size_t len);
/**
 * sched_hist_add_waits - a "keys=ring,wait_us.log2" histogram: jobs run, per ring and bucket
 */
void sched_hist_add_waits(struct sched_hist *h, const char *text, size_t len);
/**
 * sched_hist_add_execs - a "keys=ring,exec_us.log2" histogram (before 6.17), or a
 * "keys=ctx,exec_us.log2" one (6.17+: read sched_hist_add_contexts' first)
 */
void sched_hist_add_execs(struct sched_hist *h, const char *text, size_t len);
/** sched_hist_add_contexts - a "keys=ring,ctx" histogram: which ring each fence context is on */
void sched_hist_add_contexts(struct sched_hist *h, const char *text, size_t len);

/** sched_hist_sum - the jobs counted in @n buckets */
uint64_t sched_hist_sum(const uint64_t *buckets, int n);

#endif
