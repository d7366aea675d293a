/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_LIVE_STATS_H
#define GT_LIVE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/keymap.h"
#include "analysis/latency-stats.h"
#include "analysis/gpu-hangs.h"
#include "analysis/timeline.h"

/*
 * What a live view (gpu-trace top) shows, over the one join report uses:
 * fed by the analysis' on_job hook, read at each tick as rows for the
 * interval that just ended and since the start (or the last reset).
 */
struct live_ring {
	uint64_t jobs, waited;			/* this interval */
	struct latency_stats queue_to_run, exec;
	uint64_t total_jobs;			/* since start */
	struct latency_stats total_queue_to_run, total_exec;
	uint64_t busy_ns_before;		/* the ring's busy_ns when the interval began */
};

/*
 * A process or client without jobs for this long leaves the table (and
 * memory): a machine that runs thousands of short GPU processes would
 * otherwise list every one of them in every interval.
 */
#define LIVE_GROUP_IDLE_S	60.0

struct live_group {			/* a process or a DRM client, this interval */
	uint64_t key;
	uint64_t jobs, wait_ns;		/* wait: queue->run summed */
	uint64_t total_jobs;
	double idle_s;			/* since its last job */
};

struct live_stats {
	struct live_ring *rings;	/* indexed as timeline rings */
	int nr_rings;
	struct keymap procs, clients;	/* key + 1 -> struct live_group * */
	uint64_t lost_before;
};

struct live_ring_row {
	const char *name;
	double jobs_per_s, busy_pct;
	int64_t in_flight, on_hw;
	uint64_t waited, total_jobs;
	uint64_t queue_to_run_p50, queue_to_run_p99, exec_p50, exec_p99;	/* ns, interval */
	uint64_t total_queue_to_run_p50, total_queue_to_run_p99, total_exec_p50, total_exec_p99;
};

struct live_group_row {
	uint64_t key;
	double jobs_per_s;
	uint64_t avg_wait_ns;		/* interval; 0 without jobs */
	uint64_t total_jobs;
};

enum live_sort { LIVE_SORT_JOBS, LIVE_SORT_BUSY, LIVE_SORT_WAIT, LIVE_SORT_NAME, LIVE_SORT_NR };

struct live_snapshot {
	double interval_s;
	uint64_t lost;			/* events lost in the interval */
	struct live_ring_row *rings;
	int nr_rings;
	struct live_group_row *procs, *clients;
	int nr_procs, nr_clients;
	/* since the start: ring timeouts and GPU resets, and the newest timeout (NULL: none) */
	uint64_t timeouts, resets;
	const struct gpu_hang *last_hang;
};

/** live_stats_on_job - the analysis hook: every job the join retires. ctx is the live_stats. */
void live_stats_on_job(const struct job *j, void *ctx);
/**
 * live_stats_tick - rows for the interval of interval_s seconds that just ended (lost: the
 * events lost so far in all), sorted by `sort`; the interval's counters start again. 0, or -1
 * when out of memory.
 */
int live_stats_tick(struct live_stats *ls, struct timeline *tl, double interval_s,
		    uint64_t lost, enum live_sort sort, struct live_snapshot *out);
/** live_snapshot_hangs - the hangs so far (gpu-hangs.h) into the snapshot's hang fields */
void live_snapshot_hangs(struct live_snapshot *s, const struct gpu_hangs *h);
/** live_stats_reset - forgets everything counted since the start ('r' in top). */
void live_stats_reset(struct live_stats *ls, struct timeline *tl);
/** live_sort_name - a sort key as top's header shows it (jobs/s, busy, wait, name) */
const char *live_sort_name(enum live_sort sort);
/** live_snapshot_free - what live_stats_tick() allocated for one interval */
void live_snapshot_free(struct live_snapshot *s);
/** live_stats_free - everything top's interval statistics hold */
void live_stats_free(struct live_stats *ls);

#endif
