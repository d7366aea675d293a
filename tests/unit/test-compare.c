// SPDX-License-Identifier: GPL-2.0
/*
 * compare's verdicts: a stage is called only beyond noise and min_change,
 * and a ring's one line says which way its called stages go (slower,
 * faster, mixed) or why none was judged.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/analysis/compare.h"
#include "unit.h"

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

/* Two runs a side are not enough for the interval over runs: the jobs decide. */
static void test_two_runs_are_judged_by_jobs(void)
{
	struct cmp_result res;
	struct compare c;
	struct cmp_ring *r;
	int s, k;

	compare_init(&c, 0.05);
	r = compare_ring(&c, "gfx");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	for (s = 0; s < 2; s++)
		for (k = 0; k < 2; k++) {
			add_jobs(&c, (enum cmp_side)s, r, 100, 50000, s ? 150000 : 100000);
			r->stage[s][LAT_EXEC].run_p50 = realloc(r->stage[s][LAT_EXEC].run_p50,
				sizeof(double) * (size_t)(k + 1));
			r->stage[s][LAT_EXEC].run_p50[k] = s ? 150000.0 : 100000.0;
			r->stage[s][LAT_EXEC].nr_runs = k + 1;
			c.runs[s]++;
		}
	compare_stage(&c, r, LAT_EXEC, &res);
	CU_ASSERT_FALSE(res.by_runs);
	CU_ASSERT_EQUAL(res.verdict, CMP_SLOWER);
	/* what the change compares is what the p50 columns show */
	CU_ASSERT_DOUBLE_EQUAL(res.change, (res.median[CMP_B] - res.median[CMP_A]) / res.median[CMP_A],
			       1e-12);
	CU_ASSERT_DOUBLE_EQUAL(res.median[CMP_A], (double)res.p50[CMP_A], 0.5);
	compare_free(&c);
}

void suite_compare(void)
{
	CU_pSuite s = CU_add_suite("compare", NULL, NULL);

	CU_add_test(s, "a ring in one line: slower, faster, mixed, same, too few, one side", test_a_ring_in_one_line);
	CU_add_test(s, "two runs a side are judged by the jobs", test_two_runs_are_judged_by_jobs);
}
