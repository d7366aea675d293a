// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/latency-stats.h"

static unsigned int bucket_of(uint64_t v)
{
	unsigned int e;

	if (v < 128)
		return (unsigned int)v;
	e = 63u - (unsigned int)__builtin_clzll(v);
	return 128 + (e - 7) * 64 + (unsigned int)((v >> (e - LATENCY_SUB_BITS)) & 63);
}

uint64_t latency_bucket_value(unsigned int b)
{
	unsigned int e, sub;
	uint64_t lo, width;

	if (b < 128)
		return b;
	e = (b - 128) / 64 + 7;
	sub = (b - 128) % 64;
	width = 1ULL << (e - LATENCY_SUB_BITS);
	lo = (1ULL << e) + sub * width;
	return lo + width / 2;
}

static int spill(struct latency_stats *s)
{
	uint64_t i;

	s->buckets = calloc(LATENCY_BUCKETS, sizeof(*s->buckets));
	if (!s->buckets)
		return -1;
	for (i = 0; i < LATENCY_EXACT; i++)
		s->buckets[bucket_of(s->exact[i])]++;
	return 0;
}

void latency_stats_add(struct latency_stats *s, uint64_t v)
{
	if (!s->count || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	if (s->count < LATENCY_EXACT) {
		s->exact[s->count] = v;
	} else {
		if (!s->buckets && spill(s))
			return;
		s->buckets[bucket_of(v)]++;
	}
	s->count++;
	s->sum += v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t latency_stats_percentile(struct latency_stats *s, double p)
{
	uint64_t rank, seen = 0, v;
	unsigned int b;

	if (!s->count)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)s->count);
	if (rank < 1)
		rank = 1;
	if (rank > s->count)
		rank = s->count;
	if (!s->buckets) {
		qsort(s->exact, (size_t)s->count, sizeof(uint64_t), cmp_u64);
		return s->exact[rank - 1];
	}
	for (b = 0; b < LATENCY_BUCKETS; b++) {
		seen += s->buckets[b];
		if (seen >= rank)
			break;
	}
	v = latency_bucket_value(b);
	return v < s->min ? s->min : v > s->max ? s->max : v;
}

uint64_t latency_stats_avg(const struct latency_stats *s)
{
	uint64_t q, r;

	if (!s->count)
		return 0;
	/* to the nearest ns: 14285.7 is 14286 (14.286 us), as printed averages round */
	q = s->sum / s->count;
	r = s->sum % s->count;
	return q + (r >= s->count - r);
}

void latency_stats_free(struct latency_stats *s)
{
	free(s->buckets);
	s->buckets = NULL;
}

void latency_stats_bucket_counts(const struct latency_stats *s, uint64_t *counts)
{
	unsigned int b;
	uint64_t i;

	memset(counts, 0, LATENCY_BUCKETS * sizeof(*counts));
	if (s->buckets) {
		for (b = 0; b < LATENCY_BUCKETS; b++)
			counts[b] = s->buckets[b];
	} else {
		for (i = 0; i < s->count; i++)
			counts[bucket_of(s->exact[i])]++;
	}
}

double latency_rank_z_counts(const uint64_t *ca, const uint64_t *cb)
{
	double na = 0, nb = 0, n, u = 0, below = 0, ties = 0, var;
	unsigned int k;

	for (k = 0; k < LATENCY_BUCKETS; k++) {
		double t = (double)(ca[k] + cb[k]);

		/* pairs where b's value is larger, ties counting half */
		u += (double)cb[k] * (below + 0.5 * (double)ca[k]);
		below += (double)ca[k];
		ties += t * t * t - t;
		na += (double)ca[k];
		nb += (double)cb[k];
	}
	n = na + nb;
	if (!na || !nb)
		return 0;
	var = na * nb / 12.0 * ((n + 1) - ties / (n * (n - 1)));
	return var > 0 ? (u - na * nb / 2) / sqrt(var) : 0;
}

double latency_stats_rank_z(const struct latency_stats *a, const struct latency_stats *b)
{
	uint64_t *ca, *cb;
	double z;

	if (!a->count || !b->count)
		return 0;
	ca = malloc(LATENCY_BUCKETS * sizeof(*ca));
	cb = malloc(LATENCY_BUCKETS * sizeof(*cb));
	if (!ca || !cb) {
		free(ca);
		free(cb);
		return NAN;
	}
	latency_stats_bucket_counts(a, ca);
	latency_stats_bucket_counts(b, cb);
	z = latency_rank_z_counts(ca, cb);
	free(ca);
	free(cb);
	return z;
}
