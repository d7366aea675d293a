// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet summary's statistics against values worked by hand: Holm's
 * correction, distributions that add up in any order, the processes kept,
 * hosts named from paths, and which hosts the judgement names.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/analysis/fleet-stats.h"
#include "../unit.h"

static void test_holm(void)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double q[] = { 0.2, 0.2, 0.2 };
	double one[] = { 0.7 };

	/* sorted 0.005 0.01 0.03 0.04 times 4 3 2 1: 0.02 0.03 0.06 0.04 -> kept monotone */
	CU_ASSERT_EQUAL(fleet_holm(p, 4), 0);
	CU_ASSERT_DOUBLE_EQUAL(p[3], 0.02, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(p[0], 0.03, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(p[2], 0.06, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(p[1], 0.06, 1e-12);
	/* capped at 1; equal values get equal results */
	CU_ASSERT_EQUAL(fleet_holm(q, 3), 0);
	CU_ASSERT_DOUBLE_EQUAL(q[0], 0.6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(q[1], 0.6, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(q[2], 0.6, 1e-12);
	CU_ASSERT_EQUAL(fleet_holm(one, 1), 0);
	CU_ASSERT_DOUBLE_EQUAL(one[0], 0.7, 1e-12);
	CU_ASSERT_EQUAL(fleet_holm(NULL, 0), 0);
}

/* n values from @base, each scaled by (1000 + noise) / 1000 with noise in -30..30 (LCG @seed) */
static void add_values(struct latency_stats *s, int n, uint64_t base, unsigned int pct,
		       unsigned long long seed)
{
	int i;

	for (i = 0; i < n; i++) {
		uint64_t v = (base + (uint64_t)(i * 7919 % 480) * 1000) * pct / 100;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		latency_stats_add(s, v * (970 + (seed >> 33) % 61) / 1000);
	}
}

static void fill(struct latency_stats *s, int n, uint64_t base, unsigned int pct,
		 unsigned long long seed)
{
	memset(s, 0, sizeof(*s));
	add_values(s, n, base, pct, seed);
}

static void test_dist_merge_commutes(void)
{
	uint64_t *counts = malloc(sizeof(*counts) * LATENCY_BUCKETS);
	struct fleet_dist a, b, ab = { 0 }, ba = { 0 }, all;
	struct latency_stats sa, sb, both;
	uint32_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(counts);
	fill(&sa, 300, 20000, 100, 1);
	fill(&sb, 2000, 50000, 100, 2);
	CU_ASSERT_EQUAL(fleet_dist_from_stats(&a, &sa, counts), 0);
	CU_ASSERT_EQUAL(fleet_dist_from_stats(&b, &sb, counts), 0);
	/* one file's p50 and p99 are report's own: exact under LATENCY_EXACT values */
	CU_ASSERT_TRUE(a.exact);
	CU_ASSERT_EQUAL(fleet_dist_percentile(&a, 50), latency_stats_percentile(&sa, 50));
	CU_ASSERT_EQUAL(fleet_dist_percentile(&a, 99), latency_stats_percentile(&sa, 99));
	CU_ASSERT_EQUAL(fleet_dist_percentile(&b, 99), latency_stats_percentile(&sb, 99));
	CU_ASSERT_EQUAL(fleet_dist_merge(&ab, &a), 0);
	CU_ASSERT_TRUE(ab.exact);
	CU_ASSERT_EQUAL(fleet_dist_merge(&ab, &b), 0);
	CU_ASSERT_EQUAL(fleet_dist_merge(&ba, &b), 0);
	CU_ASSERT_EQUAL(fleet_dist_merge(&ba, &a), 0);
	CU_ASSERT_FALSE(ab.exact);
	CU_ASSERT_EQUAL(ab.count, 2300);
	CU_ASSERT_EQUAL(ab.count, ba.count);
	CU_ASSERT_EQUAL(ab.sum, ba.sum);
	CU_ASSERT_EQUAL(ab.sum, sa.sum + sb.sum);
	CU_ASSERT_EQUAL(ab.min, sa.min < sb.min ? sa.min : sb.min);
	CU_ASSERT_EQUAL(ab.max, sa.max > sb.max ? sa.max : sb.max);
	CU_ASSERT_EQUAL_FATAL(ab.nr_bins, ba.nr_bins);
	for (i = 0; i < ab.nr_bins; i++) {
		CU_ASSERT_EQUAL(ab.bins[i].bucket, ba.bins[i].bucket);
		CU_ASSERT_EQUAL(ab.bins[i].n, ba.bins[i].n);
		CU_ASSERT_TRUE(!i || ab.bins[i].bucket > ab.bins[i - 1].bucket);
	}
	/* the summed buckets are report's histogram of every value of both files */
	fill(&both, 300, 20000, 100, 1);
	add_values(&both, 2000, 50000, 100, 2);
	CU_ASSERT_EQUAL(fleet_dist_from_stats(&all, &both, counts), 0);
	CU_ASSERT_EQUAL_FATAL(all.nr_bins, ab.nr_bins);
	for (i = 0; i < all.nr_bins; i++) {
		CU_ASSERT_EQUAL(all.bins[i].bucket, ab.bins[i].bucket);
		CU_ASSERT_EQUAL(all.bins[i].n, ab.bins[i].n);
	}
	CU_ASSERT_EQUAL(fleet_dist_percentile(&ab, 90), latency_stats_percentile(&both, 90));
	fleet_dist_free(&all);
	latency_stats_free(&both);
	CU_ASSERT_EQUAL(fleet_dist_percentile(&ab, 50), fleet_dist_percentile(&ba, 50));
	CU_ASSERT_TRUE(fleet_dist_percentile(&ab, 99) <= ab.max);
	CU_ASSERT_TRUE(fleet_dist_percentile(&ab, 0) >= ab.min);
	fleet_dist_free(&a);
	fleet_dist_free(&b);
	fleet_dist_free(&ab);
	fleet_dist_free(&ba);
	latency_stats_free(&sa);
	latency_stats_free(&sb);
	free(counts);
}

static void test_rank_z_counts(void)
{
	uint64_t *ca = calloc(LATENCY_BUCKETS, sizeof(*ca)), *cb = calloc(LATENCY_BUCKETS, sizeof(*cb));
	struct latency_stats a, b;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ca);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cb);
	fill(&a, 500, 20000, 100, 3);
	fill(&b, 1500, 20000, 120, 4);
	latency_stats_bucket_counts(&a, ca);
	latency_stats_bucket_counts(&b, cb);
	/* over counts, the same test as over the distributions; b larger: z > 0 */
	CU_ASSERT_DOUBLE_EQUAL(latency_rank_z_counts(ca, cb), latency_stats_rank_z(&a, &b), 1e-9);
	CU_ASSERT_TRUE(latency_rank_z_counts(ca, cb) > 5);
	CU_ASSERT_DOUBLE_EQUAL(latency_rank_z_counts(ca, ca), 0, 1e-9);
	memset(cb, 0, LATENCY_BUCKETS * sizeof(*cb));
	CU_ASSERT_DOUBLE_EQUAL(latency_rank_z_counts(ca, cb), 0, 1e-12);
	latency_stats_free(&a);
	latency_stats_free(&b);
	free(ca);
	free(cb);
}

static void test_behind_keeps_the_lowest(void)
{
	struct fleet_row x = { 0 }, y = { 0 };
	static const int pids[] = { 900, 12, 700, 12, 44, 5000, 3 };
	int i;

	for (i = 0; i < 7; i++)
		fleet_behind_add(&x, pids[i], "p");
	for (i = 6; i >= 0; i--)
		fleet_behind_add(&y, pids[i], "p");
	/* the four lowest, once each, whatever the order; the rest said to be there */
	CU_ASSERT_EQUAL_FATAL(x.nr_behind, FLEET_MAX_BEHIND);
	CU_ASSERT_EQUAL(x.behind[0].pid, 3);
	CU_ASSERT_EQUAL(x.behind[1].pid, 12);
	CU_ASSERT_EQUAL(x.behind[2].pid, 44);
	CU_ASSERT_EQUAL(x.behind[3].pid, 700);
	CU_ASSERT_TRUE(x.behind_more);
	CU_ASSERT_EQUAL(memcmp(x.behind, y.behind, sizeof(x.behind)), 0);
	CU_ASSERT_EQUAL(x.behind_more, y.behind_more);
	/* a long name is cut to a comm's length */
	fleet_behind_add(&x, 1, "a-much-longer-name-than-sixteen");
	CU_ASSERT_EQUAL(x.behind[0].pid, 1);
	CU_ASSERT_EQUAL(strlen(x.behind[0].comm), FLEET_COMM_LEN - 1);
}

static void test_host_names(void)
{
	char h[FLEET_HOST_LEN];

	CU_ASSERT_TRUE(fleet_host_from_path("/data/host=node07/step=3/trace.dat", h, sizeof(h)));
	CU_ASSERT_STRING_EQUAL(h, "node07");
	/* the nearest to the file */
	CU_ASSERT_TRUE(fleet_host_from_path("host=a/x/host=b/t.dat", h, sizeof(h)));
	CU_ASSERT_STRING_EQUAL(h, "b");
	/* not a folder of that name: none */
	CU_ASSERT_FALSE(fleet_host_from_path("/x/myhost=a/t.dat", h, sizeof(h)));
	CU_ASSERT_FALSE(fleet_host_from_path("/x/host=/t.dat", h, sizeof(h)));
	CU_ASSERT_FALSE(fleet_host_from_path("/x/host=z.dat", h, sizeof(h)));
	fleet_host_from_name("/runs/b/run7.dat", h, sizeof(h));
	CU_ASSERT_STRING_EQUAL(h, "run7");
	fleet_host_from_name("plain", h, sizeof(h));
	CU_ASSERT_STRING_EQUAL(h, "plain");
	fleet_host_from_name(".dat", h, sizeof(h));
	CU_ASSERT_STRING_EQUAL(h, ".dat");
}

/* host @name's file: one ring "gfx" whose exec stage has 1000 jobs at @pct */
static void add_host(struct fleet *f, const char *name, unsigned int pct, unsigned long long seed,
		     uint64_t *counts)
{
	struct fleet_file ff = { .from = FLEET_HOST_PATH };
	struct latency_stats s;

	snprintf(ff.host, sizeof(ff.host), "%s", name);
	ff.rings = calloc(1, sizeof(*ff.rings));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ff.rings);
	ff.nr_rings = 1;
	snprintf(ff.rings[0].ring, sizeof(ff.rings[0].ring), "gfx");
	ff.rings[0].jobs = 1000;
	ff.rings[0].busy_ns = 50;
	ff.rings[0].span_ns = 100;
	fill(&s, 1000, 20000, pct, seed);
	CU_ASSERT_EQUAL(fleet_dist_from_stats(&ff.rings[0].stage[LAT_EXEC], &s, counts), 0);
	latency_stats_free(&s);
	fleet_add_file(f, &ff);
	CU_ASSERT_PTR_NULL(ff.rings);
}

static void test_judge(void)
{
	uint64_t *counts = malloc(sizeof(*counts) * LATENCY_BUCKETS);
	char name[16];
	struct fleet f;
	size_t i;
	int h;

	CU_ASSERT_PTR_NOT_NULL_FATAL(counts);
	/* twelve hosts, added backwards; host07 50% slower */
	fleet_init(&f, 0.1);
	for (h = 11; h >= 0; h--) {
		snprintf(name, sizeof(name), "host%02d", h);
		add_host(&f, name, h == 7 ? 150 : 100, (unsigned long long)h + 1, counts);
	}
	fleet_judge(&f);
	CU_ASSERT_FALSE(f.failed);
	CU_ASSERT_EQUAL_FATAL(f.nr_rows, 12);
	CU_ASSERT_EQUAL(f.tests, 12);
	CU_ASSERT_EQUAL(f.nr_called, 1);
	for (i = 0; i < f.nr_rows; i++) {
		const struct fleet_row *r = f.rows[i];

		snprintf(name, sizeof(name), "host%02d", (int)i);
		CU_ASSERT_STRING_EQUAL(r->host, name);
		CU_ASSERT_STRING_EQUAL(f.hosts[i].name, name);
		CU_ASSERT_EQUAL(r->called, i == 7 ? 1u << LAT_EXEC : 0u);
		CU_ASSERT_TRUE(i == 7 ? r->p[LAT_EXEC] < 1e-6 && r->z[LAT_EXEC] > 10 : r->p[LAT_EXEC] > 0.05);
		/* stages without jobs are not tested */
		CU_ASSERT_TRUE(isnan(r->p[LAT_TOTAL]));
		CU_ASSERT_EQUAL(r->fleet_p50[LAT_EXEC], f.rows[0]->fleet_p50[LAT_EXEC]);
	}
	CU_ASSERT_PTR_NOT_NULL(fleet_host_find(&f, "host07"));
	CU_ASSERT_PTR_NULL(fleet_host_find(&f, "host99"));
	fleet_free(&f);

	/* 8% slower over 12 hosts' jobs: clear to the test (p 0.0001), under min_change */
	fleet_init(&f, 0.1);
	for (h = 0; h < 12; h++) {
		snprintf(name, sizeof(name), "host%02d", h);
		add_host(&f, name, h == 3 ? 108 : 100, (unsigned long long)h + 1, counts);
	}
	fleet_judge(&f);
	CU_ASSERT_EQUAL(f.nr_called, 0);
	CU_ASSERT_TRUE(f.rows[3]->p[LAT_EXEC] < 0.05);
	fleet_free(&f);

	/* two hosts: shown, never judged (which of two is the odd one?) */
	fleet_init(&f, 0.1);
	add_host(&f, "a", 100, 1, counts);
	add_host(&f, "b", 200, 2, counts);
	fleet_judge(&f);
	CU_ASSERT_EQUAL(f.tests, 0);
	CU_ASSERT_EQUAL(f.nr_called, 0);
	CU_ASSERT_TRUE(isnan(f.rows[1]->p[LAT_EXEC]));
	CU_ASSERT_TRUE(f.rows[1]->fleet_p50[LAT_EXEC] > 0);

	/* a second file of a host adds up into its row */
	add_host(&f, "a", 100, 3, counts);
	CU_ASSERT_EQUAL(f.nr_rows, 2);
	CU_ASSERT_EQUAL(f.nr_hosts, 2);
	fleet_judge(&f);
	CU_ASSERT_EQUAL(f.rows[0]->files, 2);
	CU_ASSERT_EQUAL(f.rows[0]->jobs, 2000);
	CU_ASSERT_EQUAL(f.rows[0]->stage[LAT_EXEC].count, 2000);
	CU_ASSERT_EQUAL(f.hosts[0].files, 2);
	fleet_free(&f);
	free(counts);
}

void suite_fleet_stats(void)
{
	CU_pSuite s = CU_add_suite("fleet_stats", NULL, NULL);

	CU_add_test(s, "Holm's step-down correction", test_holm);
	CU_add_test(s, "distributions add up in any order", test_dist_merge_commutes);
	CU_add_test(s, "the rank test over bucket counts", test_rank_z_counts);
	CU_add_test(s, "the processes waited behind: the lowest kept", test_behind_keeps_the_lowest);
	CU_add_test(s, "hosts named from a path or a file", test_host_names);
	CU_add_test(s, "the slow host named, small shifts and two hosts not", test_judge);
}
