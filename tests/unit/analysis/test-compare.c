// SPDX-License-Identifier: GPL-2.0
/*
 * compare's verdicts: a stage is called only beyond noise and min_change,
 * and a ring's one line says which way its called stages go (slower,
 * faster, mixed) or why none was judged.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../lib/analysis/compare-verdict.h"
#include "../unit.h"

/* n jobs on one side, each with these queue->run and exec latencies (ns) plus a jitter */
static void add_jobs(struct compare *c, enum cmp_side side, struct cmp_ring *r, int n,
		     uint64_t queue, uint64_t exec)
{
	struct job j;
	int i;

	memset(&j, 0, sizeof(j));
	for (i = 0; i < n; i++) {
		j.has_lat[LAT_QUEUE_TO_RUN] = j.has_lat[LAT_EXEC] = true;
		j.lat[LAT_QUEUE_TO_RUN] = queue + (uint64_t)(i % 7) * 100;
		j.lat[LAT_EXEC] = exec + (uint64_t)(i % 5) * 100;
		compare_add_job(c, side, r, &j);
	}
	r->jobs[side] += (uint64_t)n;
}

static struct cmp_ring *one_run_a_side(struct compare *c)
{
	compare_init(c, 0.05);
	c->runs[CMP_A] = c->runs[CMP_B] = 1;
	return compare_ring(c, "gfx");
}

static void test_a_ring_in_one_line(void)
{
	struct cmp_ring_verdict v;
	struct compare c;
	struct cmp_ring *r;

	/* exec 50% longer, queue->run 60% shorter: mixed */
	r = one_run_a_side(&c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	add_jobs(&c, CMP_A, r, 200, 50000, 100000);
	add_jobs(&c, CMP_B, r, 200, 20000, 150000);
	compare_ring_verdict(&c, r, &v);
	CU_ASSERT_EQUAL(v.verdict, CMP_SAME);
	CU_ASSERT_EQUAL(v.slower, 1u << LAT_EXEC);
	CU_ASSERT_EQUAL(v.faster, 1u << LAT_QUEUE_TO_RUN);
	CU_ASSERT_TRUE(compare_has_jobs(&c));
	compare_free(&c);

	/* only exec, longer: B slower */
	r = one_run_a_side(&c);
	add_jobs(&c, CMP_A, r, 200, 50000, 100000);
	add_jobs(&c, CMP_B, r, 200, 50000, 150000);
	compare_ring_verdict(&c, r, &v);
	CU_ASSERT_EQUAL(v.verdict, CMP_SLOWER);
	CU_ASSERT_EQUAL(v.slower, 1u << LAT_EXEC);
	CU_ASSERT_EQUAL(v.faster, 0);
	compare_free(&c);

	/* the same jobs: nothing called */
	r = one_run_a_side(&c);
	add_jobs(&c, CMP_A, r, 200, 50000, 100000);
	add_jobs(&c, CMP_B, r, 200, 50000, 100000);
	compare_ring_verdict(&c, r, &v);
	CU_ASSERT_EQUAL(v.verdict, CMP_SAME);
	CU_ASSERT_EQUAL(v.slower | v.faster, 0);
	compare_free(&c);

	/* three jobs a side: too few for the rank test, whatever the change */
	r = one_run_a_side(&c);
	add_jobs(&c, CMP_A, r, COMPARE_MIN_JOBS - 2, 50000, 100000);
	add_jobs(&c, CMP_B, r, COMPARE_MIN_JOBS - 2, 50000, 300000);
	compare_ring_verdict(&c, r, &v);
	CU_ASSERT_EQUAL(v.verdict, CMP_TOO_FEW);
	compare_free(&c);

	/* jobs in A only */
	r = one_run_a_side(&c);
	add_jobs(&c, CMP_A, r, 200, 50000, 100000);
	compare_ring_verdict(&c, r, &v);
	CU_ASSERT_EQUAL(v.verdict, CMP_ONE_SIDE);
	compare_free(&c);

	/* no jobs anywhere: nothing to compare */
	r = one_run_a_side(&c);
	CU_ASSERT_FALSE(compare_has_jobs(&c));
	compare_free(&c);
}

/* runs a side, each with one exec median: A's from @a, B's from @b */
static void runs_a_side(struct compare *c, struct cmp_ring *r, int n, const double *a,
			const double *b)
{
	int s, k;

	for (s = 0; s < 2; s++)
		for (k = 0; k < n; k++) {
			double v = s ? b[k] : a[k];
			struct cmp_stage *st = &r->stage[s][LAT_EXEC];

			add_jobs(c, (enum cmp_side)s, r, 20, 50000, (uint64_t)v);
			st->run_p50 = realloc(st->run_p50, sizeof(double) * (size_t)(k + 1));
			st->run_p50[k] = v;
			st->nr_runs = k + 1;
			c->runs[s]++;
		}
}

/* Three runs a side cannot reach p < 0.05 (a clean split is p = 0.1): the jobs decide. */
static void test_three_runs_are_judged_by_jobs(void)
{
	const double a[] = { 100000, 101000, 102000 }, b[] = { 150000, 151000, 152000 };
	struct cmp_result res;
	struct compare c;
	struct cmp_ring *r;

	compare_init(&c, 0.05);
	r = compare_ring(&c, "gfx");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	runs_a_side(&c, r, 3, a, b);
	compare_stage(&c, r, LAT_EXEC, &res);
	CU_ASSERT_FALSE(res.by_runs);
	CU_ASSERT_EQUAL(res.verdict, CMP_SLOWER);
	/* what the change compares is what the p50 columns show */
	CU_ASSERT_DOUBLE_EQUAL(res.change, (res.median[CMP_B] - res.median[CMP_A]) / res.median[CMP_A],
			       1e-12);
	CU_ASSERT_DOUBLE_EQUAL(res.median[CMP_A], (double)res.p50[CMP_A], 0.5);
	compare_free(&c);
}

/*
 * Four runs a side: the rank test over the runs' medians. A clean split is
 * called (p = 2/70); one run of B among A's is not (p = 4/70), however large
 * the medians' change, and a split under --min-change is not either.
 */
static void test_four_runs_are_judged_by_runs(void)
{
	const double a[] = { 100000, 101000, 102000, 103000 };
	const double clean[] = { 150000, 151000, 152000, 153000 };
	const double one_among[] = { 102500, 151000, 152000, 153000 };
	const double small[] = { 103500, 104000, 104500, 105000 };
	struct cmp_ring_verdict v;
	struct cmp_result res;
	struct compare c;
	struct cmp_ring *r;

	compare_init(&c, 0.05);
	r = compare_ring(&c, "gfx");
	runs_a_side(&c, r, 4, a, clean);
	compare_stage(&c, r, LAT_EXEC, &res);
	CU_ASSERT_TRUE(res.by_runs);
	CU_ASSERT_DOUBLE_EQUAL(res.p, 2.0 / 70, 1e-12);
	CU_ASSERT_EQUAL(res.verdict, CMP_SLOWER);
	CU_ASSERT_FALSE(res.under_min);
	CU_ASSERT_DOUBLE_EQUAL(res.median[CMP_B], 151500, 1e-9);
	compare_free(&c);

	compare_init(&c, 0.05);
	r = compare_ring(&c, "gfx");
	runs_a_side(&c, r, 4, a, one_among);
	compare_stage(&c, r, LAT_EXEC, &res);
	CU_ASSERT_DOUBLE_EQUAL(res.p, 4.0 / 70, 1e-12);
	CU_ASSERT_EQUAL(res.verdict, CMP_SAME);
	CU_ASSERT_FALSE(res.under_min);	/* noise: not beyond it */
	compare_free(&c);

	compare_init(&c, 0.05);
	r = compare_ring(&c, "gfx");
	runs_a_side(&c, r, 4, a, small);
	compare_stage(&c, r, LAT_EXEC, &res);
	CU_ASSERT_DOUBLE_EQUAL(res.p, 2.0 / 70, 1e-12);
	CU_ASSERT_EQUAL(res.verdict, CMP_SAME);	/* +2.5%: under min_change */
	CU_ASSERT_TRUE(res.under_min);		/* ... beyond noise */
	compare_ring_verdict(&c, r, &v);
	CU_ASSERT_EQUAL(v.verdict, CMP_SAME);
	CU_ASSERT_EQUAL(v.under_min, 1u << LAT_EXEC);
	CU_ASSERT_EQUAL(v.slower | v.faster, 0);
	compare_free(&c);
}

void suite_compare(void)
{
	CU_pSuite s = CU_add_suite("compare", NULL, NULL);

	CU_add_test(s, "a ring in one line: slower, faster, mixed, same, too few, one side", test_a_ring_in_one_line);
	CU_add_test(s, "three runs a side are judged by the jobs", test_three_runs_are_judged_by_jobs);
	CU_add_test(s, "four runs a side are judged by the runs", test_four_runs_are_judged_by_runs);
}
