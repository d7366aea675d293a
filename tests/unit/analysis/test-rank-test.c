// SPDX-License-Identifier: GPL-2.0
/*
 * The rank-sum test's p against values counted by hand: the share of the
 * C(n, k) splits at least as far from the mean as the one observed.
 */
#include <math.h>

#include "../../../lib/analysis/rank-test.h"
#include "../unit.h"

static void test_clean_splits(void)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };

	/* only the observed split and its mirror are as far: 2 of C(2k, k) */
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(a, 3, b, 3), 2.0 / 20, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(a, 4, b, 4), 2.0 / 70, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(a, 5, b, 5), 2.0 / 252, 1e-12);
	/* which side is larger does not matter, nor which is longer */
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(b, 4, a, 4), 2.0 / 70, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(a, 3, b, 5), 2.0 / 56, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(b, 5, a, 3), 2.0 / 56, 1e-12);
}

static void test_overlap_and_ties(void)
{
	/* a's ranks 1 2 3 5: sums of 4 of 1..8 at most 11 are 2, at least 25 are 2 */
	const double a[] = { 1, 2, 3, 5 }, b[] = { 4, 6, 7, 8 };
	const double ta[] = { 1, 1, 2, 2 }, tb[] = { 3, 3, 4, 4 };
	const double zero[] = { 0, 0, 0, 0 };
	const double mixed_a[] = { 1, 2, 2, 3 }, mixed_b[] = { 2, 3, 3, 4 };

	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(a, 4, b, 4), 4.0 / 70, 1e-12);
	/* ties inside each side: still a clean split */
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(ta, 4, tb, 4), 2.0 / 70, 1e-12);
	/* every value the same (dependency waits of 0): no evidence at all */
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(zero, 4, zero, 4), 1, 1e-12);
	/* ties across the sides: a p, not 0 and not over 1 */
	CU_ASSERT_TRUE(rank_test_p(mixed_a, 4, mixed_b, 4) > 2.0 / 70);
	CU_ASSERT_TRUE(rank_test_p(mixed_a, 4, mixed_b, 4) <= 1);
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(a, 0, b, 4), 1, 1e-12);
}

/* Past RANK_TEST_EXACT_MAX the normal approximation, checked by hand. */
static void test_large_samples(void)
{
	double a[50], b[50];
	int i;

	for (i = 0; i < 50; i++) {
		a[i] = 2 * i;
		b[i] = 2 * i + 1;
	}
	/* B's rank sum 2550 against 2525, sd sqrt(50 * 50 * 101 / 12): z 0.172 */
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(a, 50, b, 50), erfc(25 / sqrt(50 * 50 * 101 / 12.0) / sqrt(2)),
			       1e-12);
	CU_ASSERT_DOUBLE_EQUAL(rank_test_p(a, 50, b, 50), 0.863, 0.001);
	for (i = 0; i < 50; i++)
		b[i] = 1000 + i;
	CU_ASSERT_TRUE(rank_test_p(a, 50, b, 50) < 1e-15);
	/* the exact and the normal one near the seam agree on an obvious case */
	CU_ASSERT_TRUE(rank_test_p(a, 20, b, 20) < 1e-9);
}

void suite_rank_test(void)
{
	CU_pSuite s = CU_add_suite("rank_test", NULL, NULL);

	CU_add_test(s, "clean splits: 2 of C(n, k)", test_clean_splits);
	CU_add_test(s, "overlap and ties", test_overlap_and_ties);
	CU_add_test(s, "large samples: the normal approximation", test_large_samples);
}
