/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RANK_TEST_H
#define GT_RANK_TEST_H

/*
 * The Mann-Whitney rank-sum test on two small samples (the runs' medians of
 * an A/B comparison). Exact where it matters: with a handful of runs a side
 * the normal approximation and the bootstrap both promise more than the data
 * hold (three runs a side split cleanly by chance one time in ten).
 */

/* Pooled sizes up to this get the exact distribution; above, the normal one. */
#define RANK_TEST_EXACT_MAX	40

/**
 * rank_test_p - two-sided p of "A and B come from one distribution"
 * @a: @na values
 * @b: @nb values
 *
 * Ties take their mean rank. Up to RANK_TEST_EXACT_MAX values in all, p is
 * the share of all C(na + nb, nb) ways to split the pooled ranks whose rank sum
 * of B lies at least as far from its mean as the observed one; above, the normal
 * approximation with the tie correction. Four values a side split cleanly give
 * 2/70 = 0.029; three a side never less than 0.1.
 *
 * Return: p in (0, 1]; 1 when a side is empty; NAN when out of memory.
 */
double rank_test_p(const double *a, int na, const double *b, int nb);

#endif
