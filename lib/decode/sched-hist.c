// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "decode/sched-hist.h"

int sched_hist_ring_find(struct sched_hist *h, const char *name)
{
	int i;

	for (i = 0; i < h->nr_rings; i++)
		if (!strcmp(h->rings[i].name, name))
			return i;
	if (h->nr_rings == SCHED_HIST_MAX_RINGS)
		return -1;
	memset(&h->rings[i], 0, sizeof(h->rings[i]));
	snprintf(h->rings[i].name, sizeof(h->rings[i].name), "%s", name);
	return h->nr_rings++;
}

static const struct hist_key *key(const struct hist_line *l, int i, const char *field)
{
	return i < l->nr_keys && !strcmp(l->key[i].field, field) ? &l->key[i] : NULL;
}

static int ring_of(struct sched_hist *h, const struct hist_key *k, uint64_t count)
{
	int r = k && k->is_str ? sched_hist_ring_find(h, k->str) : -1;

	if (r < 0)
		h->left_out += count;
	return r;
}

static int one_queued(const struct hist_line *l, void *ctx)
{
	struct sched_hist *h = ctx;
	int r = ring_of(h, key(l, 0, "name"), l->hitcount);

	if (r >= 0)
		h->rings[r].queued += l->hitcount;
	return 0;
}

void sched_hist_add_queued(struct sched_hist *h, const char *text, size_t len)
{
	hist_each_line(text, len, one_queued, h);
}

static int one_wait(const struct hist_line *l, void *ctx)
{
	struct sched_hist *h = ctx;
	const struct hist_key *b = key(l, 1, "wait_us");
	int r;

	if (!b || !b->log2)
		return 0;
	r = ring_of(h, key(l, 0, "ring"), l->hitcount);
	if (r >= 0)
		h->rings[r].wait[b->num] += l->hitcount;
	return 0;
}

void sched_hist_add_waits(struct sched_hist *h, const char *text, size_t len)
{
	hist_each_line(text, len, one_wait, h);
}

static int context_ring(const struct sched_hist *h, uint64_t ctx)
{
	int i;

	for (i = 0; i < h->nr_contexts; i++)
		if (h->contexts[i].ctx == ctx)
			return h->contexts[i].ring;
	return -1;
}

static int one_exec(const struct hist_line *l, void *ctx)
{
	struct sched_hist *h = ctx;
	const struct hist_key *b = key(l, 1, "exec_us"), *c = key(l, 0, "ctx");
	int r;

	if (!b || !b->log2)
		return 0;
	if (c && !c->is_str && !c->log2) {
		r = context_ring(h, c->num);
		if (r < 0)
			h->left_out += l->hitcount;
	} else {
		r = ring_of(h, key(l, 0, "ring"), l->hitcount);
	}
	if (r >= 0)
		h->rings[r].exec[b->num] += l->hitcount;
	return 0;
}

void sched_hist_add_execs(struct sched_hist *h, const char *text, size_t len)
{
	hist_each_line(text, len, one_exec, h);
}

static int one_context(const struct hist_line *l, void *ctx)
{
	struct sched_hist *h = ctx;
	const struct hist_key *c = key(l, 1, "ctx");
	int r;

	if (!c || c->is_str || c->log2 || context_ring(h, c->num) >= 0)
		return 0;
	r = ring_of(h, key(l, 0, "ring"), 0);
	if (r < 0 || h->nr_contexts == SCHED_HIST_MAX_CONTEXTS)
		return 0;
	h->contexts[h->nr_contexts++] = (struct sched_hist_context){ c->num, r };
	return 0;
}

void sched_hist_add_contexts(struct sched_hist *h, const char *text, size_t len)
{
	hist_each_line(text, len, one_context, h);
}

uint64_t sched_hist_sum(const uint64_t *buckets, int n)
{
	uint64_t s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += buckets[i];
	return s;
}
