// SPDX-License-Identifier: GPL-2.0
/* A against B, per ring and stage, beyond noise (compare-verdict.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare-verdict.h"
#include "analysis/rank-test.h"

#define RANK_Z			3.29	/* two-sided p < 0.001 */

static const char *const verdict_names[] = {
	[CMP_SAME] = "same", [CMP_SLOWER] = "B slower", [CMP_FASTER] = "B faster",
	[CMP_TOO_FEW] = "too few jobs", [CMP_ONE_SIDE] = "only one side",
};

const char *compare_verdict_name(enum cmp_verdict v)
{
	return verdict_names[v];
}

void compare_init(struct compare *c, double min_change)
{
	memset(c, 0, sizeof(*c));
	c->min_change = min_change;
}

struct cmp_ring *compare_ring(struct compare *c, const char *name)
{
	struct cmp_ring *r;
	int i;

	for (i = 0; i < c->nr_rings; i++)
		if (!strcmp(c->rings[i].name, name))
			return &c->rings[i];
	r = realloc(c->rings, sizeof(*r) * (size_t)(c->nr_rings + 1));
	if (!r) {
		c->failed = 1;
		return NULL;
	}
	c->rings = r;
	r = &c->rings[c->nr_rings++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	return r;
}

void compare_add_job(struct compare *c, enum cmp_side side, struct cmp_ring *r,
		     const struct job *j)
{
	int l;

	(void)c;
	/* as the report's statistics: lost-touched and unfinished jobs are not timed */
	if (j->flags & JOB_LOST)
		return;
	for (l = 0; l < LAT_NR; l++)
		if (j->has_lat[l])
			latency_stats_add(&r->stage[side][l].pooled, j->lat[l]);
}

static void push_median(struct compare *c, struct cmp_stage *s, uint64_t v)
{
	double *n = realloc(s->run_p50, sizeof(*n) * (size_t)(s->nr_runs + 1));

	if (!n) {
		c->failed = 1;
		return;
	}
	s->run_p50 = n;
	s->run_p50[s->nr_runs++] = (double)v;
}

void compare_end_run(struct compare *c, enum cmp_side side, struct timeline *tl,
		     uint64_t span_ns)
{
	int i, l;

	c->runs[side]++;
	for (i = 0; i < tl->nr_rings; i++) {
		struct ring_stats *rs = tl->rings[i];
		struct cmp_ring *r = compare_ring(c, timeline_ring_name(tl, i));

		if (!r)
			return;
		r->runs[side]++;
		r->jobs[side] += rs->jobs;
		r->unfinished[side] += rs->unfinished;
		r->lost[side] += rs->lost;
		if (span_ns)
			r->busy_pct[side] += 100.0 * (double)rs->busy_ns / (double)span_ns;
		for (l = 0; l < LAT_NR; l++)
			if (rs->lat[l].count)
				push_median(c, &r->stage[side][l], latency_stats_percentile(&rs->lat[l], 50));
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double compare_median(double *v, int n)
{
	if (!n)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void compare_stage(struct compare *c, struct cmp_ring *r, enum job_latency l,
		   struct cmp_result *out)
{
	struct cmp_stage *a = &r->stage[CMP_A][l], *b = &r->stage[CMP_B][l];
	double ma, mb, big;
	bool clear;
	int s;

	memset(out, 0, sizeof(*out));
	for (s = 0; s < 2; s++) {
		struct latency_stats *p = &r->stage[s][l].pooled;

		out->n[s] = p->count;
		out->p50[s] = latency_stats_percentile(p, 50);
		out->p90[s] = latency_stats_percentile(p, 90);
		out->p99[s] = latency_stats_percentile(p, 99);
	}
	out->by_runs = c->runs[CMP_A] >= COMPARE_MIN_RUNS && c->runs[CMP_B] >= COMPARE_MIN_RUNS;
	ma = out->by_runs ? compare_median(a->run_p50, a->nr_runs) : (double)out->p50[CMP_A];
	mb = out->by_runs ? compare_median(b->run_p50, b->nr_runs) : (double)out->p50[CMP_B];
	out->median[CMP_A] = ma;
	out->median[CMP_B] = mb;
	out->change = ma > 0 ? (mb - ma) / ma : NAN;
	if (!out->n[CMP_A] || !out->n[CMP_B]) {
		out->verdict = out->n[CMP_A] || out->n[CMP_B] ? CMP_ONE_SIDE : CMP_TOO_FEW;
		return;
	}
	if (out->by_runs) {
		if (a->nr_runs < COMPARE_MIN_RUNS || b->nr_runs < COMPARE_MIN_RUNS) {
			out->verdict = CMP_TOO_FEW;
			return;
		}
		out->p = rank_test_p(a->run_p50, a->nr_runs, b->run_p50, b->nr_runs);
		if (isnan(out->p))
			c->failed = 1;
		clear = out->p < COMPARE_ALPHA;
	} else {
		if (out->n[CMP_A] < COMPARE_MIN_JOBS || out->n[CMP_B] < COMPARE_MIN_JOBS) {
			out->verdict = CMP_TOO_FEW;
			return;
		}
		out->z = latency_stats_rank_z(&a->pooled, &b->pooled);
		clear = fabs(out->z) > RANK_Z;
	}
	/* a change from 0 counts when it is clear: dependency waits that appear */
	big = ma > 0 ? fabs(mb - ma) >= c->min_change * ma : mb > 0;
	out->under_min = clear && !big;
	if (!clear || !big)
		out->verdict = CMP_SAME;
	else
		out->verdict = mb > ma ? CMP_SLOWER : CMP_FASTER;
}

void compare_ring_verdict(struct compare *c, struct cmp_ring *r, struct cmp_ring_verdict *out)
{
	struct cmp_result res;
	bool judged = false;
	int l;

	memset(out, 0, sizeof(*out));
	for (l = 0; l < LAT_NR; l++) {
		compare_stage(c, r, (enum job_latency)l, &res);
		if (!res.n[CMP_A] && !res.n[CMP_B])
			continue;
		judged |= res.verdict == CMP_SAME || res.verdict == CMP_SLOWER ||
			  res.verdict == CMP_FASTER;
		if (res.verdict == CMP_SLOWER)
			out->slower |= 1u << l;
		if (res.verdict == CMP_FASTER)
			out->faster |= 1u << l;
		if (res.under_min)
			out->under_min |= 1u << l;
	}
	/*
	 * Nothing judged: one side only where the ring has jobs on one side
	 * only. A stage measured on one side (dependency waits of B's jobs
	 * alone) said "only one side" for a ring of 2 and 7 jobs: too few.
	 */
	if (!judged)
		out->verdict = r->jobs[CMP_A] && r->jobs[CMP_B] ? CMP_TOO_FEW :
			       r->jobs[CMP_A] || r->jobs[CMP_B] ? CMP_ONE_SIDE : CMP_TOO_FEW;
	else if (out->slower && !out->faster)
		out->verdict = CMP_SLOWER;
	else if (out->faster && !out->slower)
		out->verdict = CMP_FASTER;
	else
		out->verdict = CMP_SAME;
}

bool compare_has_jobs(const struct compare *c)
{
	int i;

	for (i = 0; i < c->nr_rings; i++)
		if (c->rings[i].jobs[CMP_A] || c->rings[i].jobs[CMP_B] ||
		    c->rings[i].unfinished[CMP_A] || c->rings[i].unfinished[CMP_B])
			return true;
	return false;
}

void compare_free(struct compare *c)
{
	int i, s, l;

	for (i = 0; i < c->nr_rings; i++)
		for (s = 0; s < 2; s++)
			for (l = 0; l < LAT_NR; l++) {
				latency_stats_free(&c->rings[i].stage[s][l].pooled);
				free(c->rings[i].stage[s][l].run_p50);
			}
	free(c->rings);
	memset(c, 0, sizeof(*c));
}
