/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_LATENCY_STATS_H
#define GT_LATENCY_STATS_H

#include <stdint.h>

/*
 * min/avg/max are exact. Percentiles are nearest-rank: exact while there
 * are at most LATENCY_EXACT values, then read from a log-linear histogram
 * (64 sub-buckets per power of two: within 1.6%). The size is fixed, so the
 * summary of a trace never grows with its length.
 */
#define LATENCY_EXACT		1024
#define LATENCY_SUB_BITS	6
#define LATENCY_BUCKETS		(128 + 57 * 64)

struct latency_stats {
	uint64_t count;
	uint64_t sum;
	uint64_t min, max;
	uint64_t exact[LATENCY_EXACT];
	uint32_t *buckets;		/* allocated at the first spill */
};

/** latency_stats_add - one value (ns) into the distribution */
void latency_stats_add(struct latency_stats *s, uint64_t v);
/** latency_stats_percentile - p in 0..100; 0 when empty */
uint64_t latency_stats_percentile(struct latency_stats *s, double p);
/** latency_stats_avg - the mean of the values added, rounded to the nearest ns; 0 when none */
uint64_t latency_stats_avg(const struct latency_stats *s);
/**
 * latency_stats_rank_z - the Mann-Whitney rank test of a against b over the histogram's buckets
 * (values in one bucket tie): the normal approximation's z with the ties correction, > 0 when
 * b's values tend to be larger; 0 when either side is empty, NAN when out of memory.
 */
double latency_stats_rank_z(const struct latency_stats *a, const struct latency_stats *b);
/**
 * latency_stats_bucket_counts - how many values fall in each histogram bucket (exact values
 * bucketed too), into @counts of LATENCY_BUCKETS: the distribution in a form that adds up
 * across files (the fleet summary keeps its non-empty buckets)
 */
void latency_stats_bucket_counts(const struct latency_stats *s, uint64_t *counts);
/** latency_bucket_value - the value a bucket stands for: the middle of its range */
uint64_t latency_bucket_value(unsigned int b);
/**
 * latency_rank_z_counts - latency_stats_rank_z() over two bucket count arrays (LATENCY_BUCKETS
 * each): > 0 when @cb's values tend to be larger; 0 when either is empty
 */
double latency_rank_z_counts(const uint64_t *ca, const uint64_t *cb);
/** latency_stats_free - the buckets kept for percentiles */
void latency_stats_free(struct latency_stats *s);

#endif
