// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/drm-clients.h"
#include "analysis/analysis.h"
#include "analysis/timeline.h"
#include "decode/drm-fdinfo-line.h"

/* The join's state: what it found (the model drm_clients_of() hands out) and how it reads */
struct drm_clients_state {
	struct drm_clients model;
	/* the file whose lines are being read: the keys before drm-client-id */
	int cur_seq, cur_pid, cur_fd;
	char cur_driver[24], cur_pdev[32];
	int cur;			/* index of its client, -1 until known */
	/* the events' hardware time of client @id so far; NULL: none */
	uint64_t (*events_ns)(void *ctx, uint64_t id);
	void *events_ctx;
};

/* no clients yet */
static void drm_clients_init(struct drm_clients_state *c)
{
	memset(c, 0, sizeof(*c));
	c->cur = -1;
}

static int client_index(struct drm_clients *c, uint64_t id)
{
	int i;

	for (i = c->nr - 1; i >= 0; i--)
		if (c->list[i].id == id)
			return i;
	if (c->nr == DRM_CLIENTS_MAX) {
		c->dropped++;
		return -1;
	}
	if (c->nr == c->cap) {
		int cap = c->cap ? c->cap * 2 : 16;
		struct drm_client *n = realloc(c->list, sizeof(*n) * (size_t)cap);

		if (!n) {
			c->dropped++;
			return -1;
		}
		c->list = n;
		c->cap = cap;
	}
	memset(&c->list[c->nr], 0, sizeof(c->list[0]));
	c->list[c->nr].id = id;
	return c->nr++;
}

static void engine(struct drm_client *cl, const char *name, uint64_t ns)
{
	int i;

	for (i = 0; i < cl->nr_engines; i++)
		if (!strcmp(cl->engines[i].name, name)) {
			cl->engines[i].last_ns = ns;
			return;
		}
	if (cl->nr_engines == DRM_CLIENT_ENGINES)
		return;
	snprintf(cl->engines[i].name, sizeof(cl->engines[i].name), "%s", name);
	cl->engines[i].first_ns = cl->engines[i].last_ns = ns;
	cl->nr_engines++;
}

/* A key of the file being read: the client's, once drm-client-id named it */
static void key(struct drm_clients_state *c, uint64_t ts, const struct fdinfo_line *l)
{
	struct drm_client *cl;
	uint64_t v;

	if (l->seq != c->cur_seq || l->pid != c->cur_pid || l->fd != c->cur_fd) {
		c->cur_seq = l->seq;
		c->cur_pid = l->pid;
		c->cur_fd = l->fd;
		c->cur_driver[0] = c->cur_pdev[0] = '\0';
		c->cur = -1;
	}
	if (!strcmp(l->key, "drm-driver")) {
		snprintf(c->cur_driver, sizeof(c->cur_driver), "%.23s", l->value);
		return;
	}
	if (!strcmp(l->key, "drm-pdev"))
		snprintf(c->cur_pdev, sizeof(c->cur_pdev), "%.31s", l->value);
	if (!strcmp(l->key, "drm-client-id")) {
		c->cur = client_index(&c->model, strtoull(l->value, NULL, 10));
		if (c->cur < 0)
			return;
		cl = &c->model.list[c->cur];
		if (!cl->pid)
			cl->pid = l->pid;
		if (cl->last_seq != l->seq) {
			uint64_t ns = c->events_ns ? c->events_ns(c->events_ctx, cl->id) : 0;

			cl->last_seq = l->seq;
			if (!cl->snapshots++) {
				cl->first_ts = ts;
				cl->events_first_ns = ns;
			}
			cl->last_ts = ts;
			cl->events_last_ns = ns;
		}
	}
	if (c->cur < 0)
		return;
	cl = &c->model.list[c->cur];
	if (c->cur_driver[0])
		snprintf(cl->driver, sizeof(cl->driver), "%s", c->cur_driver);
	if (c->cur_pdev[0])
		snprintf(cl->pdev, sizeof(cl->pdev), "%s", c->cur_pdev);
	if (!strncmp(l->key, "drm-engine-", 11) && strncmp(l->key, "drm-engine-capacity-", 20) &&
	    fdinfo_value_ns(l->value, &v))
		engine(cl, l->key + 11, v);
	else if (!strncmp(l->key, "drm-resident-", 13) && fdinfo_value_bytes(l->value, &v)) {
		if (cl->resident_seq != (uint64_t)l->seq) {
			cl->resident_seq = (uint64_t)l->seq;
			cl->resident = 0;
		}
		cl->resident += v;
		cl->has_resident = true;
	}
}

/* one print line at @ts: true when it was a drm-fdinfo line (taken) */
static bool drm_clients_line(struct drm_clients_state *c, uint64_t ts, const char *text)
{
	struct fdinfo_line l;

	if (strncmp(text, DRM_FDINFO_PREFIX, strlen(DRM_FDINFO_PREFIX)))
		return false;
	if (!fdinfo_line_parse(text, &l))
		return true;	/* ours, but not a line we know */
	c->model.lines++;
	if (l.kind == FDINFO_SNAPSHOT)
		c->model.snapshots++;
	else if (l.kind == FDINFO_KEY)
		key(c, ts, &l);
	return true;
}

const struct drm_client *drm_clients_find(const struct drm_clients *c, uint64_t id)
{
	int i;

	for (i = 0; i < c->nr; i++)
		if (c->list[i].id == id)
			return &c->list[i];
	return NULL;
}

uint64_t drm_client_engine_ns(const struct drm_client *cl)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < cl->nr_engines; i++)
		if (cl->engines[i].last_ns > cl->engines[i].first_ns)
			sum += cl->engines[i].last_ns - cl->engines[i].first_ns;
	return sum;
}

uint64_t drm_client_events_ns(const struct drm_client *cl)
{
	return cl->events_last_ns - cl->events_first_ns;
}

/* the clients */
static void drm_clients_free(struct drm_clients_state *c)
{
	free(c->model.list);
	drm_clients_init(c);
}

/* The join (analysis-joins.h): record's DRM fdinfo snapshots, as print lines */
const struct drm_clients *drm_clients_of(const struct analysis *a)
{
	const struct drm_clients_state *c = analysis_state(a, JOIN_DRM_CLIENTS);

	return c ? &c->model : NULL;
}

static uint64_t client_hw_ns(void *ctx, uint64_t id)
{
	return timeline_client_hw_ns(ctx, id);
}

static int join_init(void *state, struct analysis *a)
{
	struct drm_clients_state *c = state;

	drm_clients_init(c);
	c->events_ns = client_hw_ns;
	c->events_ctx = timeline_of(a);
	return 0;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	(void)a;
	if (!r->taken && r->print && drm_clients_line(state, r->ts, r->print))
		r->taken = true;
}

static void join_free(void *state)
{
	drm_clients_free(state);
}

/* ftrace's print lines, when the file has their format */
static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)state;
	return analysis_print_kinds(a);
}

const struct analysis_join drm_clients_join = {
	.name = "DRM fdinfo snapshots",
	.state_size = sizeof(struct drm_clients_state),
	.init = join_init,
	.record = join_record,
	.free = join_free,
	.kinds = join_kinds,
};
