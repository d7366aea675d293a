// SPDX-License-Identifier: GPL-2.0
#include "analysis/buffer-moves.h"

#define PL_VRAM	2

unsigned int buffer_moves_placement(unsigned int placement)
{
	return placement < BO_PLACEMENTS ? placement : BO_PLACEMENTS;
}

void buffer_moves_add(struct buffer_moves *m, const struct gpu_event *ev)
{
	unsigned int from = buffer_moves_placement(ev->placement_from);
	unsigned int to = buffer_moves_placement(ev->placement_to);

	if (ev->kind == GEV_BO_CREATE) {
		m->creates++;
		m->created_bytes += ev->bo_bytes;
		return;
	}
	if (ev->kind != GEV_BO_MOVE)
		return;
	if (!m->moves)
		m->first_ts = ev->ts;
	m->last_ts = ev->ts;
	m->moves++;
	m->bytes += ev->bo_bytes;
	m->count[from][to]++;
	m->moved[from][to] += ev->bo_bytes;
	if (ev->placement_from == PL_VRAM && ev->placement_to != PL_VRAM) {
		m->evictions++;
		m->evicted_bytes += ev->bo_bytes;
	}
}
