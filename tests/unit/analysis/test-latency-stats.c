// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "../../../lib/analysis/latency-stats.h"
#include "../unit.h"

/* 100000 / 7 ns is 14285.71: the report printed 14.285 us for 14.2857 */
static void test_mean_rounded(void)
{
	struct latency_stats *s = calloc(1, sizeof(*s));
	int i;

	latency_stats_add(s, 100000);
	for (i = 0; i < 6; i++)
		latency_stats_add(s, 0);
	CU_ASSERT_EQUAL(latency_stats_avg(s), 14286);
	latency_stats_add(s, 1);	/* 100001 / 8 = 12500.125 */
	CU_ASSERT_EQUAL(latency_stats_avg(s), 12500);
	latency_stats_free(s);
	free(s);
}

static void test_exact_nearest_rank(void)
{
	struct latency_stats *s = calloc(1, sizeof(*s));
	uint64_t v[] = { 50, 10, 40, 20, 30 };
	int i;

	for (i = 0; i < 5; i++)
		latency_stats_add(s, v[i]);
	CU_ASSERT_EQUAL(s->min, 10);
	CU_ASSERT_EQUAL(s->max, 50);
	CU_ASSERT_EQUAL(latency_stats_avg(s), 30);
	/* nearest rank: ceil(p/100 * n) */
	CU_ASSERT_EQUAL(latency_stats_percentile(s, 50), 30);
	CU_ASSERT_EQUAL(latency_stats_percentile(s, 90), 50);
	CU_ASSERT_EQUAL(latency_stats_percentile(s, 20), 10);
	CU_ASSERT_EQUAL(latency_stats_percentile(s, 21), 20);
	latency_stats_free(s);
	free(s);
}

static void test_histogram_after_spill(void)
{
	struct latency_stats *s = calloc(1, sizeof(*s));
	uint64_t i, p50, p99;

	/* 1..100000 us in ns: far past the exact buffer */
	for (i = 1; i <= 100000; i++)
		latency_stats_add(s, i * 1000);
	CU_ASSERT_PTR_NOT_NULL(s->buckets);
	CU_ASSERT_EQUAL(s->count, 100000);
	CU_ASSERT_EQUAL(s->min, 1000);
	CU_ASSERT_EQUAL(s->max, 100000000);
	CU_ASSERT_EQUAL(latency_stats_avg(s), 50000500);
	p50 = latency_stats_percentile(s, 50);
	p99 = latency_stats_percentile(s, 99);
	/* within the documented 1.6% */
	CU_ASSERT(p50 > 50000000 * 0.984 && p50 < 50000000 * 1.016);
	CU_ASSERT(p99 > 99000000 * 0.984 && p99 < 99000000 * 1.016);
	CU_ASSERT_EQUAL(latency_stats_percentile(s, 100), 100000000);
	latency_stats_free(s);
	free(s);
}

static void test_empty(void)
{
	struct latency_stats *s = calloc(1, sizeof(*s));

	CU_ASSERT_EQUAL(latency_stats_percentile(s, 50), 0);
	CU_ASSERT_EQUAL(latency_stats_avg(s), 0);
	free(s);
}

void suite_latency(void)
{
	CU_pSuite s = CU_add_suite("latency-stats", NULL, NULL);

	CU_add_test(s, "exact nearest-rank percentiles", test_exact_nearest_rank);
	CU_add_test(s, "the mean rounded, not truncated", test_mean_rounded);
	CU_add_test(s, "histogram within 1.6% after 1024 values", test_histogram_after_spill);
	CU_add_test(s, "empty", test_empty);
}
