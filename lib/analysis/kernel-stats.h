/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KERNEL_STATS_H
#define GT_KERNEL_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/live-stats.h"
#include "decode/sched-hist.h"

/*
 * What gpu-trace top --in-kernel shows, from the kernel's histograms
 * (decode/sched-hist.h): per ring, the interval that just ended (the counts
 * now less those of the last tick) and the time since the start (or the
 * last reset). Latencies are the log2 buckets' upper bounds, in ns.
 */
struct kernel_ring_row {
	char name[HIST_NAME_LEN];
	double jobs_per_s;
	int64_t in_flight, on_hw;		/* queued not done, run not done: now */
	uint64_t queue_to_run_p50, queue_to_run_p99, exec_p50, exec_p99;	/* interval */
	uint64_t total_jobs, total_queued;
	uint64_t total_queue_to_run_p50, total_queue_to_run_p99, total_exec_p50, total_exec_p99;
};

struct kernel_snapshot {
	double interval_s;
	struct kernel_ring_row rows[SCHED_HIST_MAX_RINGS];
	int nr_rows;
	uint64_t unjoined;			/* jobs lost to renewals, all rings */
	uint64_t renewals;
	uint64_t left_out;			/* buckets past the rings' or contexts' bounds */
};

/* Zeroed to begin: nothing counted before the join. */
struct kernel_stats {
	struct sched_hist last, start;		/* at the last tick, at the start or reset */
};

/**
 * kernel_stats_tick - @out from the counts @now after an interval of @interval_s, its rows
 * in @sort's order (busy: as jobs, the kernel keeps no busy time)
 */
void kernel_stats_tick(struct kernel_stats *k, const struct sched_hist *now, double interval_s,
		       enum live_sort sort, struct kernel_snapshot *out);
/** kernel_stats_reset - "since the start" begins at @now */
void kernel_stats_reset(struct kernel_stats *k, const struct sched_hist *now);

#endif
