// SPDX-License-Identifier: GPL-2.0
#include "../../../lib/dat/cpu-coverage.h"
#include "../unit.h"

#define S 1000000000ULL
#define MB (1024ULL * 1024)

static struct cpu_coverage cov;

/*
 * Three CPUs from 0 s to 30 s, one of them replaced by the arguments; @overrun: what CPU 2's
 * stats say (-1: the file has none)
 */
static void judge_stats(uint64_t first, uint64_t last, uint64_t bytes, uint64_t buffer,
			long long overrun)
{
	cpu_coverage_init(&cov);
	cpu_coverage_add(&cov, 0, 0, 30 * S, 4 * MB, overrun < 0 ? -1 : 0);
	cpu_coverage_add(&cov, 1, 1 * S / 1000, 30 * S, 4 * MB, overrun < 0 ? -1 : 0);
	cpu_coverage_add(&cov, 2, first, last, bytes, overrun);
	cpu_coverage_judge(&cov, buffer);
}

static void judge(uint64_t first, uint64_t last, uint64_t bytes, uint64_t buffer)
{
	judge_stats(first, last, bytes, buffer, -1);
}

static void test_aligned(void)
{
	judge(2 * S, 30 * S, 4 * MB, 0);	/* 2 s of 30: under 10% */
	CU_ASSERT_FALSE(cov.skewed);
	CU_ASSERT_EQUAL(cov.late_cpu, -1);
	CU_ASSERT_EQUAL(cov.from, 0);
}

/* The public 4.11 recordings: a busy CPU's records start 20 s after the first's */
static void test_late_busy_cpu(void)
{
	judge(20 * S, 30 * S, 4 * MB, 0);
	CU_ASSERT_TRUE(cov.skewed);
	CU_ASSERT_EQUAL(cov.late_cpu, 2);
	CU_ASSERT_EQUAL(cov.from, 20 * S);
	CU_ASSERT_EQUAL(cov.to, 30 * S);
	CU_ASSERT_EQUAL(cov.end_cpu, -1);
	CU_ASSERT_EQUAL(cov.start, 0);
	CU_ASSERT_EQUAL(cov.late_evidence, OVERWRITE_LARGEST);
	CU_ASSERT_EQUAL(cov.evidence_bytes, 4 * MB);
}

/* A CPU with a few records late in the file was idle, not cut */
static void test_late_idle_cpu(void)
{
	judge(20 * S, 30 * S, 4096, 0);
	CU_ASSERT_FALSE(cov.skewed);
	/* a real 6-CPU recording: the late CPU held 44 KB of a large buffer */
	judge(20 * S, 30 * S, 44 * 1024, 0);
	CU_ASSERT_FALSE(cov.skewed);
	CU_ASSERT_EQUAL(cov.late_evidence, OVERWRITE_NONE);
}

/*
 * An overrun count is evidence; 0 is not evidence of the opposite (a real 4.11 extract in
 * overwrite mode had 0): the data sizes decide then
 */
static void test_overrun_counts(void)
{
	judge_stats(20 * S, 30 * S, 4 * MB, 0, 0);
	CU_ASSERT_TRUE(cov.skewed);
	CU_ASSERT_EQUAL(cov.late_evidence, OVERWRITE_LARGEST);
	judge_stats(20 * S, 30 * S, 44 * 1024, 0, 0);
	CU_ASSERT_FALSE(cov.skewed);
	judge_stats(20 * S, 30 * S, 4096, 0, 1200);
	CU_ASSERT_TRUE(cov.skewed);
	CU_ASSERT_EQUAL(cov.late_cpu, 2);
	CU_ASSERT_EQUAL(cov.late_evidence, OVERWRITE_OVERRUN);
}

/* Data as large as the largest CPU's says nothing when every CPU holds a page or two */
static void test_small_files(void)
{
	cpu_coverage_init(&cov);
	cpu_coverage_add(&cov, 0, 0, 150000000, 4096, -1);
	cpu_coverage_add(&cov, 1, 17000000, 100000000, 4096, -1);
	cpu_coverage_judge(&cov, 0);
	CU_ASSERT_FALSE(cov.skewed);
}

/* One busy CPU that starts late is not a buffer's size: it takes another CPU holding as much */
static void test_one_busy_cpu(void)
{
	cpu_coverage_init(&cov);
	cpu_coverage_add(&cov, 0, 0, 30 * S, 200 * 1024, -1);
	cpu_coverage_add(&cov, 1, 0, 30 * S, 300 * 1024, -1);
	cpu_coverage_add(&cov, 2, 20 * S, 30 * S, 4 * MB, -1);
	cpu_coverage_judge(&cov, 0);
	CU_ASSERT_FALSE(cov.skewed);
}

/* Where the buffer size is known, only a CPU that filled it has wrapped */
static void test_known_buffer(void)
{
	judge(20 * S, 30 * S, 1 * MB, 4 * MB);
	CU_ASSERT_FALSE(cov.skewed);
	judge(20 * S, 30 * S, 4 * MB, 4 * MB);
	CU_ASSERT_TRUE(cov.skewed);
	CU_ASSERT_EQUAL(cov.late_cpu, 2);
	CU_ASSERT_EQUAL(cov.late_evidence, OVERWRITE_FULL);
}

/* An early end counts only as a full buffer: a quiet CPU just stops */
static void test_early_end(void)
{
	judge(0, 10 * S, 4 * MB, 0);
	CU_ASSERT_FALSE(cov.skewed);
	judge(0, 10 * S, 4 * MB, 4 * MB);
	CU_ASSERT_TRUE(cov.skewed);
	CU_ASSERT_EQUAL(cov.end_cpu, 2);
	CU_ASSERT_EQUAL(cov.late_cpu, -1);
	CU_ASSERT_EQUAL(cov.from, 0);
	CU_ASSERT_EQUAL(cov.to, 10 * S);
}

/* Short files: 10% of 50 ms is not enough, 10 ms is the floor */
static void test_minimum_gap(void)
{
	cpu_coverage_init(&cov);
	cpu_coverage_add(&cov, 0, 0, 50000000, 4 * MB, -1);
	cpu_coverage_add(&cov, 1, 8000000, 50000000, 4 * MB, -1);
	cpu_coverage_judge(&cov, 0);
	CU_ASSERT_FALSE(cov.skewed);
	cpu_coverage_init(&cov);
	cpu_coverage_add(&cov, 0, 0, 50000000, 4 * MB, -1);
	cpu_coverage_add(&cov, 1, 12000000, 50000000, 4 * MB, -1);
	cpu_coverage_judge(&cov, 0);
	CU_ASSERT_TRUE(cov.skewed);
}

static void test_one_cpu(void)
{
	cpu_coverage_init(&cov);
	cpu_coverage_add(&cov, 0, 5 * S, 30 * S, 4 * MB, -1);
	cpu_coverage_judge(&cov, 0);
	CU_ASSERT_FALSE(cov.skewed);
}

void suite_cpu_coverage(void)
{
	CU_pSuite s = CU_add_suite("cpu-coverage", NULL, NULL);

	CU_add_test(s, "CPUs that start together", test_aligned);
	CU_add_test(s, "a busy CPU starting 20 s late", test_late_busy_cpu);
	CU_add_test(s, "an idle CPU's late first record", test_late_idle_cpu);
	CU_add_test(s, "a known buffer size: only a full one wrapped", test_known_buffer);
	CU_add_test(s, "the stats' overrun count decides", test_overrun_counts);
	CU_add_test(s, "pages alike in small files say nothing", test_small_files);
	CU_add_test(s, "one busy late CPU is no buffer's size", test_one_busy_cpu);
	CU_add_test(s, "an early end only with a full buffer", test_early_end);
	CU_add_test(s, "the 10 ms floor", test_minimum_gap);
	CU_add_test(s, "one CPU", test_one_cpu);
}
