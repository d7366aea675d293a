// SPDX-License-Identifier: GPL-2.0
/* The Mann-Whitney rank-sum test, exact for small samples (rank-test.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rank-test.h"

struct ranked {
	double v;
	int side;	/* 0: a, 1: b */
};

static int cmp_ranked(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;

	return (a > b) - (a < b);
}

/*
 * Twice each value's mean rank (ranks from 1), so that the mean rank of a tie
 * stays an integer; @tie_term gets the sum of t^3 - t over the ties.
 */
static void doubled_ranks(struct ranked *p, int n, int *rank2, double *tie_term)
{
	int i, j, k;

	*tie_term = 0;
	qsort(p, (size_t)n, sizeof(*p), cmp_ranked);
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && p[j].v == p[i].v; j++)
			;
		/* ranks i+1 .. j: their mean doubled is i + 1 + j */
		for (k = i; k < j; k++)
			rank2[k] = i + 1 + j;
		t = j - i;
		*tie_term += t * t * t - t;
	}
}

/*
 * Of all ways to take @k of the @n doubled ranks, the share whose sum lies
 * @dev or further from @mean: counted by the sum reached with each count taken
 * (ways[taken][sum]), items added one at a time.
 */
static double exact_tail(const int *rank2, int n, int k, long mean, long dev)
{
	long max_sum = 0, s, total_sum;
	double *ways, far = 0, all = 0;
	int i, t;

	for (i = 0; i < n; i++)
		max_sum += rank2[i];
	total_sum = max_sum + 1;
	ways = calloc((size_t)(k + 1) * (size_t)total_sum, sizeof(*ways));
	if (!ways)
		return NAN;
	ways[0] = 1;
	for (i = 0; i < n; i++)
		for (t = (i + 1 < k ? i + 1 : k); t >= 1; t--)
			for (s = max_sum; s >= rank2[i]; s--)
				ways[t * total_sum + s] += ways[(t - 1) * total_sum + s - rank2[i]];
	for (s = 0; s <= max_sum; s++) {
		double w = ways[k * total_sum + s];

		all += w;
		if (labs(s - mean) >= dev)
			far += w;
	}
	free(ways);
	return all > 0 ? far / all : 1;
}

double rank_test_p(const double *a, int na, const double *b, int nb)
{
	int n = na + nb, i, *rank2;
	struct ranked *p;
	long sum = 0, mean;
	double tie_term, p_value, var;
	int k;

	if (na <= 0 || nb <= 0)
		return 1;
	p = malloc(sizeof(*p) * (size_t)n);
	rank2 = malloc(sizeof(*rank2) * (size_t)n);
	if (!p || !rank2) {
		free(p);
		free(rank2);
		return NAN;
	}
	for (i = 0; i < n; i++) {
		p[i].v = i < na ? a[i] : b[i - na];
		p[i].side = i >= na;
	}
	doubled_ranks(p, n, rank2, &tie_term);
	/* the smaller side's rank sum: the same test, a smaller table */
	k = na < nb ? na : nb;
	for (i = 0; i < n; i++)
		if (p[i].side == (na < nb ? 0 : 1))
			sum += rank2[i];
	mean = (long)k * (n + 1);	/* doubled, as the ranks */
	if (n <= RANK_TEST_EXACT_MAX) {
		p_value = exact_tail(rank2, n, k, mean, labs(sum - mean));
	} else {
		var = (double)na * nb / 12.0 * ((n + 1) - tie_term / ((double)n * (n - 1)));
		p_value = var > 0 ? erfc(fabs((double)(sum - mean) / 2) / sqrt(var) / sqrt(2)) : 1;
	}
	free(p);
	free(rank2);
	return p_value > 1 ? 1 : p_value;
}
