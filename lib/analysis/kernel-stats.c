// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kernel-stats.h"

/* The rings' order in a hist file follows their counts: rings are matched by name. */
static const struct sched_hist_ring *same_ring(const struct sched_hist *h, const char *name)
{
	int i;

	for (i = 0; i < h->nr_rings; i++)
		if (!strcmp(h->rings[i].name, name))
			return &h->rings[i];
	return NULL;
}

/* @now less @before, bucket by bucket (none before: all of @now) */
static void since(uint64_t *out, const uint64_t *now, const uint64_t *before)
{
	int i;

	for (i = 0; i < HIST_LOG2_MAX; i++)
		out[i] = before && now[i] >= before[i] ? now[i] - before[i] : before ? 0 : now[i];
}

static uint64_t ns_at_most(const uint64_t *buckets, double q)
{
	return hist_log2_quantile(buckets, HIST_LOG2_MAX, q) * 1000;
}

static int64_t minus(uint64_t a, uint64_t b, uint64_t c)
{
	return a > b + c ? (int64_t)(a - b - c) : 0;
}

static void row(struct kernel_ring_row *r, const struct sched_hist_ring *now,
		const struct sched_hist_ring *last, const struct sched_hist_ring *start,
		double interval_s)
{
	uint64_t wait[HIST_LOG2_MAX], exec[HIST_LOG2_MAX];
	uint64_t done = sched_hist_sum(now->exec, HIST_LOG2_MAX);

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", now->name);
	r->in_flight = minus(now->queued, done, now->lost_queued);
	r->on_hw = minus(sched_hist_sum(now->wait, HIST_LOG2_MAX), done, now->lost_run);
	since(wait, now->wait, last ? last->wait : NULL);
	since(exec, now->exec, last ? last->exec : NULL);
	r->jobs_per_s = interval_s > 0 ? (double)sched_hist_sum(exec, HIST_LOG2_MAX) / interval_s : 0;
	r->queue_to_run_p50 = ns_at_most(wait, 0.5);
	r->queue_to_run_p99 = ns_at_most(wait, 0.99);
	r->exec_p50 = ns_at_most(exec, 0.5);
	r->exec_p99 = ns_at_most(exec, 0.99);
	since(wait, now->wait, start ? start->wait : NULL);
	since(exec, now->exec, start ? start->exec : NULL);
	r->total_jobs = sched_hist_sum(exec, HIST_LOG2_MAX);
	r->total_queued = now->queued - (start && start->queued <= now->queued ? start->queued : 0);
	r->total_queue_to_run_p50 = ns_at_most(wait, 0.5);
	r->total_queue_to_run_p99 = ns_at_most(wait, 0.99);
	r->total_exec_p50 = ns_at_most(exec, 0.5);
	r->total_exec_p99 = ns_at_most(exec, 0.99);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct kernel_ring_row *)a)->name,
		      ((const struct kernel_ring_row *)b)->name);
}

/* the most first; ties by name */
static int by_jobs(const void *a, const void *b)
{
	const struct kernel_ring_row *x = a, *y = b;

	if (x->jobs_per_s != y->jobs_per_s)
		return x->jobs_per_s < y->jobs_per_s ? 1 : -1;
	return by_name(a, b);
}

static int by_wait(const void *a, const void *b)
{
	const struct kernel_ring_row *x = a, *y = b;

	if (x->queue_to_run_p99 != y->queue_to_run_p99)
		return x->queue_to_run_p99 < y->queue_to_run_p99 ? 1 : -1;
	return by_name(a, b);
}

void kernel_stats_tick(struct kernel_stats *k, const struct sched_hist *now, double interval_s,
		       enum live_sort sort, struct kernel_snapshot *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	out->interval_s = interval_s;
	out->left_out = now->left_out;
	out->renewals = now->renewals;
	for (i = 0; i < now->nr_rings; i++) {
		const struct sched_hist_ring *n = &now->rings[i];

		row(&out->rows[out->nr_rows++], n, same_ring(&k->last, n->name),
		    same_ring(&k->start, n->name), interval_s);
		out->unjoined += n->lost_queued;
	}
	/* the kernel keeps no busy time: busy sorts as jobs do */
	qsort(out->rows, (size_t)out->nr_rows, sizeof(out->rows[0]),
	      sort == LIVE_SORT_NAME ? by_name : sort == LIVE_SORT_WAIT ? by_wait : by_jobs);
	k->last = *now;
}

void kernel_stats_reset(struct kernel_stats *k, const struct sched_hist *now)
{
	k->start = *now;
}
