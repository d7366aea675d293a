// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "analysis/owner-switch.h"

static int pending_slot(const struct owner_switches *s, int worker)
{
	int i;

	for (i = 0; i < s->nr_pending; i++)
		if (s->pending[i].worker == worker)
			return i;
	return -1;
}

static void drop_pending(struct owner_switches *s, int i)
{
	memmove(&s->pending[i], &s->pending[i + 1],
		sizeof(s->pending[0]) * (size_t)(s->nr_pending - i - 1));
	s->nr_pending--;
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
	int slot = pending_slot(s, ev->pid);

	s->seen++;
	if (idx == SIZE_MAX)
		s->dropped++;
	/* a worker's earlier switch that no job claimed: its job is not in the file */
	if (slot >= 0)
		drop_pending(s, slot);
	if (s->nr_pending == OWNER_SWITCH_WORKERS)
		drop_pending(s, 0);
	s->pending[s->nr_pending].worker = ev->pid;
	s->pending[s->nr_pending].ts = ev->ts;
	s->pending[s->nr_pending].idx = idx;
	s->nr_pending++;
}

bool owner_switches_claim(struct owner_switches *s, int worker, uint64_t *ts, size_t *idx)
{
	int slot = pending_slot(s, worker);

	if (slot < 0)
		return false;
	*ts = s->pending[slot].ts;
	*idx = s->pending[slot].idx;
	drop_pending(s, slot);
	return true;
}

struct owner_switch *owner_switches_at(struct owner_switches *s, size_t idx)
{
	return idx < s->nr ? &s->list[idx] : NULL;
}

void owner_switches_name_owner(struct owner_switches *s, uint64_t owner, int pid)
{
	if (owner == OWNER_NONE || owner == OWNER_SHARED || pid <= 0 ||
	    keymap_get(&s->owner_pid, owner))
		return;
	keymap_put(&s->owner_pid, owner, (void *)(uintptr_t)(pid + 1));
}

int owner_switches_owner_pid(const struct owner_switches *s, uint64_t owner)
{
	uintptr_t v = (uintptr_t)keymap_get(&s->owner_pid, owner);

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
	keymap_free(&s->owner_pid);
	memset(s, 0, sizeof(*s));
}
