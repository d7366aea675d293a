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

void latency_add(struct latency_stats *s, uint64_t v);
/* p in 0..100; 0 when empty */
uint64_t latency_percentile(struct latency_stats *s, double p);
uint64_t latency_avg(const struct latency_stats *s);
void latency_free(struct latency_stats *s);

#endif
