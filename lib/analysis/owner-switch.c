// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "analysis/owner-switch-private.h"

/* what @s keeps while reading, made at the first need; NULL: out of memory */
static struct owner_switches_live *live_of(struct owner_switches *s)
{
	if (!s->live)
		s->live = calloc(1, sizeof(*s->live));
	return s->live;
}

static int pending_slot(const struct owner_switches *s, int worker)
{
	int i;

	for (i = 0; s->live && i < s->live->nr_pending; i++)
		if (s->live->pending[i].worker == worker)
			return i;
	return -1;
}

static void drop_pending(struct owner_switches_live *l, int i)
{
	memmove(&l->pending[i], &l->pending[i + 1],
		sizeof(l->pending[0]) * (size_t)(l->nr_pending - i - 1));
	l->nr_pending--;
}

static size_t keep(struct owner_switches *s, const struct gpu_event *ev)
{
	struct owner_switch *sw;

	if (s->nr == OWNER_SWITCH_MAX)
		return SIZE_MAX;
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct owner_switch *n = realloc(s->list, sizeof(*n) * cap);

		if (!n)
			return SIZE_MAX;
		s->list = n;
		s->cap = cap;
	}
	sw = &s->list[s->nr];
	memset(sw, 0, sizeof(*sw));
	sw->ts = ev->ts;
	sw->prev = ev->owner_prev;
	sw->next = ev->owner_next;
	sw->worker = ev->pid;
	sw->ring = -1;
	sw->wait_ring = -1;
	return s->nr++;
}

void owner_switches_add(struct owner_switches *s, const struct gpu_event *ev)
{
	size_t idx = keep(s, ev);
	struct owner_switches_live *l = live_of(s);
	int slot = pending_slot(s, ev->pid);

	s->seen++;
	if (idx == SIZE_MAX)
		s->dropped++;
	/* out of memory: kept, but no job claims it */
	if (!l)
		return;
	/* a worker's earlier switch that no job claimed: its job is not in the file */
	if (slot >= 0)
		drop_pending(l, slot);
	if (l->nr_pending == OWNER_SWITCH_WORKERS)
		drop_pending(l, 0);
	l->pending[l->nr_pending].worker = ev->pid;
	l->pending[l->nr_pending].ts = ev->ts;
	l->pending[l->nr_pending].idx = idx;
	l->nr_pending++;
}

bool owner_switches_claim(struct owner_switches *s, int worker, uint64_t *ts, size_t *idx)
{
	int slot = pending_slot(s, worker);

	if (slot < 0)
		return false;
	*ts = s->live->pending[slot].ts;
	*idx = s->live->pending[slot].idx;
	drop_pending(s->live, slot);
	return true;
}

struct owner_switch *owner_switches_at(struct owner_switches *s, size_t idx)
{
	return idx < s->nr ? &s->list[idx] : NULL;
}

void owner_switches_name_owner(struct owner_switches *s, uint64_t owner, int pid)
{
	struct owner_switches_live *l;

	if (owner == OWNER_NONE || owner == OWNER_SHARED || pid <= 0 || !(l = live_of(s)) ||
	    keymap_get(&l->owner_pid, owner))
		return;
	keymap_put(&l->owner_pid, owner, (void *)(uintptr_t)(pid + 1));
}

int owner_switches_owner_pid(const struct owner_switches *s, uint64_t owner)
{
	uintptr_t v = s->live ? (uintptr_t)keymap_get(&s->live->owner_pid, owner) : 0;

	return v ? (int)(v - 1) : 0;
}

void owner_switches_cleaner(struct owner_switches *s, bool after_switch, size_t idx, uint64_t ts,
			    uint64_t seqno)
{
	struct owner_switch *sw = owner_switches_at(s, idx);

	s->cleaner_runs++;
	if (!after_switch) {
		s->cleaner_alone++;
		return;
	}
	if (!sw || sw->cleaner)
		return;
	sw->cleaner = true;
	sw->cleaner_ts = ts;
	sw->cleaner_seqno = seqno;
}

void owner_switches_free(struct owner_switches *s)
{
	free(s->list);
	if (s->live)
		keymap_free(&s->live->owner_pid);
	free(s->live);
	memset(s, 0, sizeof(*s));
}
