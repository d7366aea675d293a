// SPDX-License-Identifier: GPL-2.0
#include "../../../lib/dat/cpu-coverage.h"
#include "../unit.h"

#define S 1000000000ULL
#define MB (1024ULL * 1024)

static struct cpu_coverage cov;

/* Three CPUs from 0 s to 30 s, one of them replaced by the arguments. */
static void judge(uint64_t first, uint64_t last, uint64_t bytes, uint64_t buffer)
{
	cpu_coverage_init(&cov);
	cpu_coverage_add(&cov, 0, 0, 30 * S, 4 * MB);
	cpu_coverage_add(&cov, 1, 1 * S / 1000, 30 * S, 4 * MB);
	cpu_coverage_add(&cov, 2, first, last, bytes);
	cpu_coverage_judge(&cov, buffer);
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
}

/* A CPU with a few records late in the file was idle, not cut */
static void test_late_idle_cpu(void)
{
	judge(20 * S, 30 * S, 4096, 0);
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
	cpu_coverage_add(&cov, 0, 0, 50000000, 4 * MB);
	cpu_coverage_add(&cov, 1, 8000000, 50000000, 4 * MB);
	cpu_coverage_judge(&cov, 0);
	CU_ASSERT_FALSE(cov.skewed);
	cpu_coverage_init(&cov);
	cpu_coverage_add(&cov, 0, 0, 50000000, 4 * MB);
	cpu_coverage_add(&cov, 1, 12000000, 50000000, 4 * MB);
	cpu_coverage_judge(&cov, 0);
	CU_ASSERT_TRUE(cov.skewed);
}

static void test_one_cpu(void)
{
	cpu_coverage_init(&cov);
	cpu_coverage_add(&cov, 0, 5 * S, 30 * S, 4 * MB);
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
	CU_add_test(s, "an early end only with a full buffer", test_early_end);
	CU_add_test(s, "the 10 ms floor", test_minimum_gap);
	CU_add_test(s, "one CPU", test_one_cpu);
}
