/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_TIMELINE_STATS_H
#define GT_TIMELINE_STATS_H

/* Between timeline.c (the join) and timeline-stats.c (what is kept); not public. */
#include "analysis/timeline.h"

/**
 * timeline_ring_index - the index of the ring so named in t->rings, added on first use; -1
 * when out of memory
 */
int timeline_ring_index(struct timeline *t, const char *name);
/**
 * timeline_ring_index_dev - the ring so named on device @dev (6.17+ events name it): rings of
 * two devices never merge; a ring first seen without a device takes the first device named
 * for it. @dev "" or NULL: the first ring so named, whatever its device.
 */
int timeline_ring_index_dev(struct timeline *t, const char *dev, const char *name);
/**
 * timeline_ring_rename - ring @ring, known so far by a stand-in name, takes @name: 0, or -1
 * (and nothing changes) where another ring has it, the ring has a device or stands for
 * TIMELINE_MORE_RINGS, or memory ran out
 */
int timeline_ring_rename(struct timeline *t, int ring, const char *name);
/** timeline_passes - a finished or unfinished job counts (filter, min latency)? */
bool timeline_passes(struct timeline *t, const struct job *j);
/**
 * timeline_attribute_wait - before the job joins the ring's history: whose jobs it waited
 * behind.
 */
void timeline_attribute_wait(struct timeline *t, struct job *j);
/**
 * timeline_remember_exec - a finished job into its ring's recent history, where later jobs
 * find whom they waited behind
 */
void timeline_remember_exec(struct ring_stats *r, const struct job *j);
/**
 * timeline_stats_add - folds a job that passed the filter into its ring's and groups'
 * statistics.
 */
void timeline_stats_add(struct timeline *t, const struct job *j);
/** timeline_filter_active - a filter that keeps some jobs out is set */
bool timeline_filter_active(const struct timeline_filter *f);
/**
 * timeline_stats_finish - under a filter, each ring's busy time and most jobs in flight become
 * the kept jobs' (clipped to the filter's window), as its counts already are
 */
void timeline_stats_finish(struct timeline *t);
/** timeline_stats_free - the rings, groups and their statistics */
void timeline_stats_free(struct timeline *t);

#endif
