// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "analysis/live-stats.h"

const char *live_sort_name(enum live_sort sort)
{
	static const char *const names[LIVE_SORT_NR] = { "jobs/s", "busy", "wait", "name" };

	return sort < LIVE_SORT_NR ? names[sort] : "?";
}

static struct live_ring *ring_of(struct live_stats *ls, int ring)
{
	struct live_ring *n;

	if (ring < 0)
		return NULL;
	if (ring >= ls->nr_rings) {
		n = realloc(ls->rings, sizeof(*n) * (size_t)(ring + 1));
		if (!n)
			return NULL;
		memset(n + ls->nr_rings, 0, sizeof(*n) * (size_t)(ring + 1 - ls->nr_rings));
		ls->rings = n;
		ls->nr_rings = ring + 1;
	}
	return &ls->rings[ring];
}

static struct live_group *group_of(struct keymap *m, uint64_t key)
{
	struct live_group *g = keymap_get(m, key + 1);

	if (g)
		return g;
	g = calloc(1, sizeof(*g));
	if (!g || keymap_put(m, key + 1, g)) {
		free(g);
		return NULL;
	}
	g->key = key;
	return g;
}

static void count_group(struct keymap *m, uint64_t key, const struct job *j)
{
	struct live_group *g = group_of(m, key);

	if (!g)
		return;
	g->jobs++;
	g->total_jobs++;
	if (j->has_lat[LAT_QUEUE_TO_RUN])
		g->wait_ns += j->lat[LAT_QUEUE_TO_RUN];
}

void live_stats_on_job(const struct job *j, void *ctx)
{
	struct live_stats *ls = ctx;
	struct live_ring *r;

	/* unfinished jobs come only at the end; a job in lost events is not counted */
	if (j->flags & (JOB_UNFINISHED | JOB_LOST))
		return;
	r = ring_of(ls, j->ring);
	if (!r)
		return;
	r->jobs++;
	r->total_jobs++;
	if (j->nr_waits)
		r->waited++;
	if (j->has_lat[LAT_QUEUE_TO_RUN]) {
		latency_stats_add(&r->queue_to_run, j->lat[LAT_QUEUE_TO_RUN]);
		latency_stats_add(&r->total_queue_to_run, j->lat[LAT_QUEUE_TO_RUN]);
	}
	if (j->has_lat[LAT_EXEC]) {
		latency_stats_add(&r->exec, j->lat[LAT_EXEC]);
		latency_stats_add(&r->total_exec, j->lat[LAT_EXEC]);
	}
	count_group(&ls->procs, (uint64_t)j->pid, j);
	if (j->has_client_id)
		count_group(&ls->clients, j->client_id, j);
}

static int cmp_rings(const void *a, const void *b, void *sort)
{
	const struct live_ring_row *x = a, *y = b;
	double dx = 0, dy = 0;

	switch (*(enum live_sort *)sort) {
	case LIVE_SORT_NAME:
		return strcmp(x->name, y->name);
	case LIVE_SORT_BUSY:
		dx = x->busy_pct;
		dy = y->busy_pct;
		break;
	case LIVE_SORT_WAIT:
		dx = (double)x->queue_to_run_p99;
		dy = (double)y->queue_to_run_p99;
		break;
	default:
		dx = x->jobs_per_s;
		dy = y->jobs_per_s;
		break;
	}
	if (dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_groups(const void *a, const void *b, void *sort)
{
	const struct live_group_row *x = a, *y = b;
	enum live_sort by = *(enum live_sort *)sort;

	if (by == LIVE_SORT_WAIT && x->avg_wait_ns != y->avg_wait_ns)
		return x->avg_wait_ns < y->avg_wait_ns ? 1 : -1;
	if (by != LIVE_SORT_NAME && x->jobs_per_s != y->jobs_per_s)
		return x->jobs_per_s < y->jobs_per_s ? 1 : -1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Rows of the groups with jobs in the last LIVE_GROUP_IDLE_S; the interval's counts restart. */
static int group_rows(struct keymap *m, double interval_s, enum live_sort sort,
		      struct live_group_row **out, int *nr)
{
	uint64_t key, *idle;
	void *val;
	size_t i = 0, nr_idle = 0;

	*nr = 0;
	*out = calloc(m->used + 1, sizeof(**out));
	idle = calloc(m->used + 1, sizeof(*idle));
	if (!*out || !idle) {
		free(*out);
		free(idle);
		*out = NULL;
		return -1;
	}
	while (keymap_next(m, &i, &key, &val)) {
		struct live_group *g = val;
		struct live_group_row *row;

		g->idle_s = g->jobs ? 0 : g->idle_s + interval_s;
		if (g->idle_s >= LIVE_GROUP_IDLE_S) {
			idle[nr_idle++] = key;
			continue;
		}
		row = &(*out)[(*nr)++];
		row->key = g->key;
		row->jobs_per_s = interval_s > 0 ? (double)g->jobs / interval_s : 0;
		row->avg_wait_ns = g->jobs ? g->wait_ns / g->jobs : 0;
		row->total_jobs = g->total_jobs;
		g->jobs = g->wait_ns = 0;
	}
	/* not while iterating: a deletion moves later entries back */
	for (i = 0; i < nr_idle; i++) {
		free(keymap_get(m, idle[i]));
		keymap_del(m, idle[i]);
	}
	free(idle);
	qsort_r(*out, (size_t)*nr, sizeof(**out), cmp_groups, &sort);
	return 0;
}

int live_stats_tick(struct live_stats *ls, struct timeline *tl, double interval_s,
		    uint64_t lost, enum live_sort sort, struct live_snapshot *out)
{
	int i;

	memset(out, 0, sizeof(*out));
	out->interval_s = interval_s;
	out->lost = lost - ls->lost_before;
	ls->lost_before = lost;
	if (tl->nr_rings && !ring_of(ls, tl->nr_rings - 1))
		return -1;
	out->rings = calloc((size_t)tl->nr_rings + 1, sizeof(*out->rings));
	if (!out->rings)
		return -1;
	for (i = 0; i < tl->nr_rings; i++) {
		const struct ring_stats *rs = tl->rings[i];
		struct live_ring *r = &ls->rings[i];
		struct live_ring_row *row = &out->rings[out->nr_rings++];
		double busy = (double)(rs->busy_ns - r->busy_ns_before) / 1e9;

		row->name = timeline_ring_name(tl, i);
		row->jobs_per_s = interval_s > 0 ? (double)r->jobs / interval_s : 0;
		/* a job's busy time is counted when it ends: cap what spills in */
		row->busy_pct = interval_s > 0 ? 100.0 * busy / interval_s : 0;
		if (row->busy_pct > 100)
			row->busy_pct = 100;
		row->in_flight = rs->in_flight;
		row->on_hw = rs->hw_in_flight;
		row->waited = r->waited;
		row->total_jobs = r->total_jobs;
		row->queue_to_run_p50 = latency_stats_percentile(&r->queue_to_run, 50);
		row->queue_to_run_p99 = latency_stats_percentile(&r->queue_to_run, 99);
		row->exec_p50 = latency_stats_percentile(&r->exec, 50);
		row->exec_p99 = latency_stats_percentile(&r->exec, 99);
		row->total_queue_to_run_p50 = latency_stats_percentile(&r->total_queue_to_run, 50);
		row->total_queue_to_run_p99 = latency_stats_percentile(&r->total_queue_to_run, 99);
		row->total_exec_p50 = latency_stats_percentile(&r->total_exec, 50);
		row->total_exec_p99 = latency_stats_percentile(&r->total_exec, 99);
		/* the next interval starts from nothing */
		r->jobs = r->waited = 0;
		latency_stats_free(&r->queue_to_run);
		latency_stats_free(&r->exec);
		memset(&r->queue_to_run, 0, sizeof(r->queue_to_run));
		memset(&r->exec, 0, sizeof(r->exec));
		r->busy_ns_before = rs->busy_ns;
	}
	qsort_r(out->rings, (size_t)out->nr_rings, sizeof(*out->rings), cmp_rings, &sort);
	if (group_rows(&ls->procs, interval_s, sort, &out->procs, &out->nr_procs) ||
	    group_rows(&ls->clients, interval_s, sort, &out->clients, &out->nr_clients)) {
		live_snapshot_free(out);
		return -1;
	}
	return 0;
}

void live_stats_reset(struct live_stats *ls, struct timeline *tl)
{
	uint64_t lost = ls->lost_before;

	live_stats_free(ls);
	ls->lost_before = lost;
	if (tl->nr_rings && ring_of(ls, tl->nr_rings - 1)) {
		int i;

		for (i = 0; i < tl->nr_rings; i++)
			ls->rings[i].busy_ns_before = tl->rings[i]->busy_ns;
	}
}

void live_snapshot_hangs(struct live_snapshot *s, const struct gpu_hangs *h)
{
	s->timeouts = h->nr_hangs + h->dropped;
	s->resets = h->nr_resets;
	s->last_hang = h->nr_hangs ? &h->hangs[h->nr_hangs - 1] : NULL;
}

void live_snapshot_free(struct live_snapshot *s)
{
	free(s->rings);
	free(s->procs);
	free(s->clients);
	memset(s, 0, sizeof(*s));
}

static void free_groups(struct keymap *m)
{
	uint64_t key;
	void *val;
	size_t i = 0;

	while (keymap_next(m, &i, &key, &val))
		free(val);
	keymap_free(m);
}

void live_stats_free(struct live_stats *ls)
{
	int i;

	for (i = 0; i < ls->nr_rings; i++) {
		latency_stats_free(&ls->rings[i].queue_to_run);
		latency_stats_free(&ls->rings[i].exec);
		latency_stats_free(&ls->rings[i].total_queue_to_run);
		latency_stats_free(&ls->rings[i].total_exec);
	}
	free(ls->rings);
	free_groups(&ls->procs);
	free_groups(&ls->clients);
	memset(ls, 0, sizeof(*ls));
}
