// SPDX-License-Identifier: GPL-2.0
/*
 * What the timeline keeps about the jobs it has joined: rings and their
 * latency statistics, per-process and per-client groups, the filter that
 * decides which jobs count, and whose jobs a job waited behind.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline.h"
#include "analysis/timeline-stats.h"
#include "analysis/timeline-private.h"

#define RING_HISTORY	4096	/* recent executions per ring, for job_behind */

const char *job_latency_name(enum job_latency l)
{
	static const char *const names[LAT_NR] = {
		"submit->queue", "queue->run", "dep wait", "run->hw start", "exec", "total"
	};

	return l < LAT_NR ? names[l] : "?";
}

const char *job_latency_key(enum job_latency l)
{
	static const char *const keys[LAT_NR] = {
		"submit_to_queue", "queue_to_run", "dep_wait", "run_to_hw", "exec", "total"
	};

	return l < LAT_NR ? keys[l] : "?";
}

/*
 * Rings by name: a hash lookup per event (a fence-only trace has one
 * "ring" per timeline, thousands of them), each ring allocated once.
 */
static uint64_t dev_key(const char *dev, const char *name)
{
	return keymap_pair(keymap_str(dev), keymap_str(name));
}

static void note_dev(struct timeline *t, const char *dev)
{
	int i;

	for (i = 0; i < t->nr_devs; i++)
		if (!strcmp(t->devs[i], dev))
			return;
	if (t->nr_devs < (int)(sizeof(t->devs) / sizeof(t->devs[0])))
		snprintf(t->devs[t->nr_devs++], GEV_STR_LEN, "%s", dev);
}

/*
 * A ring named like another device's says its device. The first keeps its
 * name: jobs and tracks already written under it stay true (the device is
 * in every format besides).
 */
static void relabel(struct timeline *t, struct ring_stats *r)
{
	const char *dev = r->dev;
	int i, others = 0;

	for (i = 0; i < t->nr_rings; i++)
		others += t->rings[i] != r && t->rings[i]->dev[0] && !strcmp(t->rings[i]->name, r->name) &&
			  strcmp(t->rings[i]->dev, r->dev);
	if (!others)
		return;
	/* PCI domain 0, as most machines have: "gfx_0.0.0@c3:00.0" */
	if (!strncmp(dev, "0000:", 5) && strlen(dev) > 5)
		dev += 5;
	snprintf(r->label, sizeof(r->label), "%s@%s", r->name, dev);
}

static void give_dev(struct timeline *t, int i, const char *dev)
{
	struct ring_stats *r = t->rings[i];

	snprintf(r->dev, sizeof(r->dev), "%s", dev);
	keymap_put(&t->ix->ring_by_dev, dev_key(dev, r->name), (void *)(uintptr_t)(i + 1));
	note_dev(t, dev);
	relabel(t, r);
}

/* The first ring so named, -1 when none */
static int first_named(const struct timeline *t, const char *key)
{
	uintptr_t at = (uintptr_t)keymap_get(&t->ix->ring_by_name, keymap_str(key));
	int i;

	if (at && !strcmp(t->rings[at - 1]->name, key))
		return (int)at - 1;
	if (at) {
		/* two names, one hash: look the slow way */
		for (i = 0; i < t->nr_rings; i++)
			if (!strcmp(t->rings[i]->name, key))
				return i;
	}
	return -1;
}

/*
 * A new ring, or past TIMELINE_MAX_RINGS the one that stands for the rest
 * (a GPU names a few dozen; a damaged or hostile file could name millions,
 * each 50 KB of statistics). -1 when out of memory.
 */
static int add_ring(struct timeline *t, const char *key, const char *dev)
{
	struct ring_stats **n, *r;
	bool first;

	if (t->nr_rings >= TIMELINE_MAX_RINGS - 1) {
		t->rings_capped = true;
		if (t->nr_rings == TIMELINE_MAX_RINGS)
			return TIMELINE_MAX_RINGS - 1;
		key = TIMELINE_MORE_RINGS;
		dev = NULL;
	}
	first = first_named(t, key) < 0;
	n = realloc(t->rings, sizeof(*n) * (size_t)(t->nr_rings + 1));
	r = calloc(1, sizeof(*r));
	if (n)
		t->rings = n;
	if (!n || !r) {
		free(r);
		return -1;
	}
	strncpy(r->name, key, GEV_STR_LEN - 1);
	t->rings[t->nr_rings] = r;
	if (first)
		keymap_put(&t->ix->ring_by_name, keymap_str(key), (void *)(uintptr_t)(t->nr_rings + 1));
	t->nr_rings++;
	if (dev && dev[0])
		give_dev(t, t->nr_rings - 1, dev);
	return t->nr_rings - 1;
}

static int ring_index_dev(struct timeline *t, const char *dev, const char *name)
{
	const char *key = name[0] ? name : TIMELINE_UNNAMED_RING;
	int first = first_named(t, key), i;
	uintptr_t at;

	if (!dev || !dev[0])
		return first >= 0 ? first : add_ring(t, key, NULL);
	if (first >= 0 && !strcmp(t->rings[first]->dev, dev))
		return first;
	at = (uintptr_t)keymap_get(&t->ix->ring_by_dev, dev_key(dev, key));
	if (at && !strcmp(t->rings[at - 1]->name, key) && !strcmp(t->rings[at - 1]->dev, dev))
		return (int)at - 1;
	for (i = first < 0 ? t->nr_rings : first; i < t->nr_rings; i++) {
		if (strcmp(t->rings[i]->name, key))
			continue;
		if (!strcmp(t->rings[i]->dev, dev))
			return i;	/* a hash shared with another (device, name) */
		if (!t->rings[i]->dev[0]) {
			give_dev(t, i, dev);
			return i;
		}
	}
	return add_ring(t, key, dev);
}

/*
 * A (name, device) once answered keeps its ring: rings are only added, and
 * a device only given to a ring without one.
 */
int timeline_ring_index_dev(struct timeline *t, const char *dev, const char *name)
{
	int ring;

	if (!dev)
		dev = "";
	if (t->ix->ring_seen.ring && !strcmp(t->ix->ring_seen.name, name) && !strcmp(t->ix->ring_seen.dev, dev))
		return t->ix->ring_seen.ring - 1;
	ring = ring_index_dev(t, dev, name);
	if (ring >= 0 && strlen(name) < GEV_STR_LEN && strlen(dev) < GEV_STR_LEN) {
		strcpy(t->ix->ring_seen.name, name);
		strcpy(t->ix->ring_seen.dev, dev);
		t->ix->ring_seen.ring = ring + 1;
	}
	return ring;
}

int timeline_ring_rename(struct timeline *t, int ring, const char *name)
{
	struct ring_stats *r;
	uint64_t was;

	if (ring < 0 || ring >= t->nr_rings || !name[0] || strlen(name) >= GEV_STR_LEN ||
	    first_named(t, name) >= 0)
		return -1;
	r = t->rings[ring];
	if (r->dev[0] || !strcmp(r->name, TIMELINE_MORE_RINGS))
		return -1;
	was = keymap_str(r->name);
	if (keymap_put(&t->ix->ring_by_name, keymap_str(name), (void *)(uintptr_t)(ring + 1)))
		return -1;
	if (was != keymap_str(name) &&
	    (uintptr_t)keymap_get(&t->ix->ring_by_name, was) == (uintptr_t)ring + 1)
		keymap_del(&t->ix->ring_by_name, was);
	strcpy(r->name, name);
	t->ix->ring_seen.ring = 0;	/* the last name looked up may have been the old one */
	return 0;
}

int timeline_ring_find(const struct timeline *t, const char *name)
{
	return first_named(t, name);
}

int timeline_ring_find_dev(const struct timeline *t, const char *dev, const char *name)
{
	const char *key = name[0] ? name : TIMELINE_UNNAMED_RING;
	int first = first_named(t, key), i;

	if (first < 0 || !dev || !dev[0])
		return first;
	/* ring_index_dev()'s walk: the device's ring of the name, or one without a device */
	for (i = first; i < t->nr_rings; i++)
		if (!strcmp(t->rings[i]->name, key) &&
		    (!strcmp(t->rings[i]->dev, dev) || !t->rings[i]->dev[0]))
			return i;
	return -1;
}

int timeline_ring_index(struct timeline *t, const char *name)
{
	return timeline_ring_index_dev(t, NULL, name);
}

const char *timeline_ring_name(const struct timeline *t, int ring)
{
	if (ring < 0 || ring >= t->nr_rings)
		return "?";
	return t->rings[ring]->label[0] ? t->rings[ring]->label : t->rings[ring]->name;
}

/* Per-process and per-client statistics, found by key in a hash. */
static struct group_stats *group(struct group_stats ***list, int *nr, struct keymap *index,
				 uint64_t key)
{
	uintptr_t at = (uintptr_t)keymap_get(index, key);
	struct group_stats **n, *g;

	if (at)
		return (*list)[at - 1];
	n = realloc(*list, sizeof(*n) * (size_t)(*nr + 1));
	g = calloc(1, sizeof(*g));
	if (n)
		*list = n;
	if (!n || !g || keymap_put(index, key, (void *)(uintptr_t)(*nr + 1))) {
		free(g);
		return NULL;
	}
	g->key = key;
	(*list)[(*nr)++] = g;
	return g;
}

bool timeline_filter_match(const struct timeline *t, uint64_t ts, int pid, const char *ring,
			   const char *dev, bool workload)
{
	const struct timeline_filter *f = &t->filter;

	if ((f->from && ts < f->from) || (f->to && ts > f->to))
		return false;
	if (f->ring && (!ring || strcmp(ring, f->ring)))
		return false;
	if (f->dev && (!dev || strcmp(dev, f->dev)))
		return false;
	if (f->pid && pid != f->pid)
		return false;
	if (f->workload_only && !workload)
		return false;
	if (f->comm) {
		const char *comm = t->comm_of ? t->comm_of(pid, t->comm_ctx) : NULL;

		if (!comm || strcmp(comm, f->comm))
			return false;
	}
	return true;
}

bool timeline_passes(struct timeline *t, const struct job *j)
{
	const struct timeline_filter *f = &t->filter;

	if (f->min_latency && (!j->has_lat[LAT_TOTAL] || j->lat[LAT_TOTAL] < f->min_latency))
		return false;
	return timeline_filter_match(t, job_first_time(j), j->pid, t->rings[j->ring]->name,
				     t->rings[j->ring]->dev, j->flags & JOB_WORKLOAD);
}

/* The jobs whose waits a ring's summary adds up: the workload's, if named. */
static bool summarised(const struct timeline *t, const struct job *j)
{
	return !(t->workload && t->workload->known) || (j->flags & JOB_WORKLOAD);
}

static bool other_than(const struct timeline *t, const struct job *j,
		       const struct ring_exec *e)
{
	if (t->workload && t->workload->known && (j->flags & JOB_WORKLOAD))
		return !e->workload;
	return e->pid != j->pid;
}

static void note_pid(int *pids, int *nr, int cap, bool *more, int pid)
{
	int i;

	for (i = 0; i < *nr; i++)
		if (pids[i] == pid)
			return;
	if (*nr < cap)
		pids[(*nr)++] = pid;
	else
		*more = true;
}

/*
 * The ring ran in order: what it executed between the job's queueing and
 * its hardware start is what it waited behind. Walk the ring's recent
 * executions back from the newest.
 */
void timeline_attribute_wait(struct timeline *t, struct job *j)
{
	struct ring_stats *r = t->rings[j->ring];
	bool sum = summarised(t, j) && timeline_passes(t, j);
	int pids[16], nr_pids = 0;
	bool more = false;
	size_t n;

	if (!j->t_queue || !r->history_len)
		return;
	for (n = r->history_len; n > 0; n--) {
		struct ring_exec *e = &r->history[(r->history_head + n - 1) % RING_HISTORY];
		uint64_t from = e->hw_start > j->t_queue ? e->hw_start : j->t_queue;
		uint64_t to = e->done < j->t_hw_start ? e->done : j->t_hw_start;

		if (e->done <= j->t_queue)
			break;
		if (to <= from || !other_than(t, j, e))
			continue;
		j->behind.ns += to - from;
		j->behind.jobs++;
		note_pid(pids, &nr_pids, 16, &more, e->pid);
		if (!sum)
			continue;
		if (!e->counted) {
			e->counted = true;
			r->behind_jobs++;
		}
		note_pid(r->behind_pids, &r->nr_behind_pids, 32, &r->behind_pids_more, e->pid);
	}
	j->behind.procs = (unsigned int)nr_pids + more;
	if (n == 0 && r->history_dropped &&
	    r->history[r->history_head].done > j->t_queue)
		j->flags |= JOB_BEHIND_PARTIAL;
	if (sum)
		r->behind_ns += j->behind.ns;
}

void timeline_remember_exec(struct ring_stats *r, const struct job *j)
{
	struct ring_exec *e;

	if (!r->history) {
		r->history = calloc(RING_HISTORY, sizeof(*r->history));
		if (!r->history)
			return;
	}
	if (r->history_len == RING_HISTORY) {
		r->history_head = (r->history_head + 1) % RING_HISTORY;
		r->history_len--;
		r->history_dropped = true;
	}
	e = &r->history[(r->history_head + r->history_len++) % RING_HISTORY];
	*e = (struct ring_exec){ j->t_hw_start, j->t_done, j->pid,
				 (j->flags & JOB_WORKLOAD) != 0, false };
}

bool timeline_filter_active(const struct timeline_filter *f)
{
	return f->pid || f->comm || f->ring || f->dev || f->from || f->to || f->min_latency ||
	       f->workload_only;
}

/* [a, b) within the filter's window; false when nothing of it is */
static bool clip(const struct timeline_filter *f, uint64_t *a, uint64_t *b)
{
	if (f->from && *a < f->from)
		*a = f->from;
	if (f->to && *b > f->to)
		*b = f->to;
	return *b > *a;
}

/*
 * Of @span, a part of [hardware start, done]: the part on the engine. A job
 * whose driver knew its engine time (a preempted i915 request) spent less of
 * that span on it than all of it, in proportion.
 */
static uint64_t on_engine(const struct job *j, uint64_t span)
{
	uint64_t whole = j->t_done - j->t_hw_start;

	if (!j->has_lat[LAT_EXEC] || j->lat[LAT_EXEC] >= whole || !whole)
		return span;
	return (uint64_t)((double)span * (double)j->lat[LAT_EXEC] / (double)whole);
}

/*
 * A kept job's share of its ring under a filter: its execution within the
 * window (a ring runs one job at a time: the shares do not overlap) and its
 * time queued, for the most in flight at once at the end.
 */
static void keep_figures(struct timeline *t, struct ring_stats *r, const struct job *j)
{
	uint64_t a, b;

	a = j->t_hw_start;
	b = j->t_done;
	if (j->t_hw_start && j->t_done && clip(&t->filter, &a, &b))
		r->kept_busy_ns += on_engine(j, b - a);
	a = j->t_queue ? j->t_queue : job_first_time(j);
	b = j->t_done ? j->t_done : UINT64_MAX;		/* unfinished: in flight to the end */
	if (!a || !clip(&t->filter, &a, &b))
		return;
	if (r->nr_kept == r->cap_kept) {
		size_t cap = r->cap_kept ? 2 * r->cap_kept : 256;
		struct kept_span *n = realloc(r->kept, cap * sizeof(*n));

		if (!n)
			return;
		r->kept = n;
		r->cap_kept = cap;
	}
	r->kept[r->nr_kept++] = (struct kept_span){ a, b };
}

/* a job's hardware time (clipped to the window), in its process's and client's shares */
static void add_gpu_share(struct group_stats *g, int ring, uint64_t ns)
{
	int i;

	g->gpu_ns += ns;
	for (i = 0; i < g->nr_by_ring; i++)
		if (g->by_ring[i].ring == ring) {
			g->by_ring[i].ns += ns;
			return;
		}
	if (!(g->nr_by_ring & (g->nr_by_ring - 1))) {	/* 0, 1, 2, 4, ...: grow */
		struct gpu_share *n = realloc(g->by_ring, sizeof(*n) * (size_t)(g->nr_by_ring ? 2 * g->nr_by_ring : 1));

		if (!n)
			return;
		g->by_ring = n;
	}
	g->by_ring[g->nr_by_ring++] = (struct gpu_share){ ring, ns };
}

static void gpu_shares(struct timeline *t, const struct job *j)
{
	uint64_t a = j->t_hw_start, b = j->t_done;
	struct group_stats *g;

	if (t->no_groups || !j->t_hw_start || !j->t_done || b < a)
		return;
	if (timeline_filter_active(&t->filter) && !clip(&t->filter, &a, &b))
		return;
	g = group(&t->procs, &t->nr_procs, &t->ix->proc_index, (uint64_t)j->pid);
	if (g)
		add_gpu_share(g, j->ring, on_engine(j, b - a));
	if (j->has_client_id) {
		g = group(&t->clients, &t->nr_clients, &t->ix->client_index, j->client_id);
		if (g)
			add_gpu_share(g, j->ring, on_engine(j, b - a));
	}
}

static int by_time_then_end(const void *x, const void *y)
{
	const int64_t *a = x, *b = y;

	/* (time, +1 start / -1 end): an end before a start at the same time */
	if (a[0] != b[0])
		return (uint64_t)a[0] < (uint64_t)b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

static int64_t most_at_once(const struct kept_span *s, size_t n)
{
	int64_t *ev = malloc(4 * n * sizeof(*ev)), now = 0, most = 0;
	size_t i;

	if (!ev)
		return 0;
	for (i = 0; i < n; i++) {
		ev[4 * i] = (int64_t)s[i].from;
		ev[4 * i + 1] = 1;
		ev[4 * i + 2] = (int64_t)s[i].to;
		ev[4 * i + 3] = -1;
	}
	qsort(ev, 2 * n, 2 * sizeof(*ev), by_time_then_end);
	for (i = 0; i < 2 * n; i++) {
		now += ev[2 * i + 1];
		if (now > most)
			most = now;
	}
	free(ev);
	return most;
}

void timeline_stats_finish(struct timeline *t)
{
	int i;

	if (!timeline_filter_active(&t->filter))
		return;
	for (i = 0; i < t->nr_rings; i++) {
		struct ring_stats *r = t->rings[i];

		r->busy_ns = r->kept_busy_ns;
		r->max_in_flight = most_at_once(r->kept, r->nr_kept);
		free(r->kept);
		r->kept = NULL;
		r->nr_kept = r->cap_kept = 0;
	}
}

void timeline_stats_add(struct timeline *t, const struct job *j)
{
	struct ring_stats *r = t->rings[j->ring];
	struct group_stats *g;
	int l;

	if (timeline_filter_active(&t->filter))
		keep_figures(t, r, j);
	gpu_shares(t, j);

	if (j->flags & JOB_UNFINISHED)
		r->unfinished++;
	else
		r->jobs++;
	if (j->flags & JOB_WORKLOAD)
		r->workload_jobs++;
	if (j->flags & JOB_LOST)
		r->lost++;
	if (j->nr_waits)
		r->waits++;
	if (j->moved_in_wait && summarised(t, j) && !(j->flags & JOB_LOST) && j->t_run >= j->t_queue) {
		r->moved_wait_jobs++;
		r->moved_wait_bytes += j->moved_in_wait;
		r->moved_wait_ns += j->t_run - j->t_queue;
	}
	if (j->vm_in_wait && summarised(t, j) && !(j->flags & JOB_LOST) && j->t_run >= j->t_queue) {
		r->vm_wait_jobs++;
		r->vm_wait_bytes += j->vm_in_wait;
		r->vm_wait_ns += j->t_run - j->t_queue;
	}
	if (j->flags & JOB_OWNER_SWITCH) {
		r->switches++;
		if (summarised(t, j) && j->t_run >= j->t_switch && !(j->flags & JOB_LOST)) {
			r->switch_wait_jobs++;
			r->switch_wait_ns += j->t_run - j->t_switch;
		}
	}
	/* a job touched by lost events may have wrong stages: shown, not counted */
	if (!(j->flags & JOB_LOST)) {
		for (l = 0; l < LAT_NR; l++)
			if (j->has_lat[l])
				latency_stats_add(&r->lat[l], j->lat[l]);
		if (j->has_lat[LAT_TOTAL] && !t->no_groups) {
			g = group(&t->procs, &t->nr_procs, &t->ix->proc_index, (uint64_t)j->pid);
			if (g) {
				g->jobs++;
				latency_stats_add(&g->total, j->lat[LAT_TOTAL]);
			}
			if (j->has_client_id) {
				g = group(&t->clients, &t->nr_clients, &t->ix->client_index, j->client_id);
				if (g) {
					g->jobs++;
					g->exec_ns += j->has_lat[LAT_EXEC] ? j->lat[LAT_EXEC] : 0;
					latency_stats_add(&g->total, j->lat[LAT_TOTAL]);
				}
			}
		}
	}
}

void timeline_stats_free(struct timeline *t)
{
	int i, l;

	for (i = 0; i < t->nr_rings; i++) {
		for (l = 0; l < LAT_NR; l++)
			latency_stats_free(&t->rings[i]->lat[l]);
		free(t->rings[i]->history);
		free(t->rings[i]->kept);
		free(t->rings[i]);
	}
	for (i = 0; i < t->nr_procs; i++) {
		latency_stats_free(&t->procs[i]->total);
		free(t->procs[i]->by_ring);
		free(t->procs[i]);
	}
	for (i = 0; i < t->nr_clients; i++) {
		latency_stats_free(&t->clients[i]->total);
		free(t->clients[i]->by_ring);
		free(t->clients[i]);
	}
	if (t->ix) {
		keymap_free(&t->ix->proc_index);
		keymap_free(&t->ix->client_index);
		keymap_free(&t->ix->ring_by_name);
		keymap_free(&t->ix->ring_by_dev);
	}
	free(t->rings);
	free(t->procs);
	free(t->clients);
}
