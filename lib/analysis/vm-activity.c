// SPDX-License-Identifier: GPL-2.0
/* amdgpu's GPU virtual memory at work, added up (vm-activity.h). */
#include <string.h>

#include "analysis/vm-activity.h"

static struct vm_ring_use *ring_use(struct vm_activity *v, const char *ring)
{
	int i;

	for (i = 0; i < v->nr_rings; i++)
		if (!strcmp(v->rings[i].ring, ring))
			return &v->rings[i];
	if (v->nr_rings == VM_RINGS)
		return NULL;
	memcpy(v->rings[v->nr_rings].ring, ring, GEV_STR_LEN);
	return &v->rings[v->nr_rings++];
}

static struct vm_pid_use *pid_use(struct vm_activity *v, int pid)
{
	int i;

	for (i = 0; i < v->nr_pids; i++)
		if (v->pids[i].pid == pid)
			return &v->pids[i];
	if (v->nr_pids == VM_PIDS)
		return NULL;
	v->pids[v->nr_pids].pid = pid;
	return &v->pids[v->nr_pids++];
}

/* GPU pages @first to @last inclusive, in bytes; 0 for a range the wrong way round */
static uint64_t range_bytes(unsigned long long first, unsigned long long last)
{
	return last >= first && last - first < (1ULL << 40) ? (last - first + 1) * VM_PAGE : 0;
}

static void grab_or_flush(struct vm_activity *v, const struct gpu_event *ev)
{
	struct vm_ring_use *r = ring_use(v, ev->ring);
	bool flush = ev->kind == GEV_VM_FLUSH;

	if (flush) {
		v->flushes++;
	} else {
		v->grabs++;
		v->grabs_flushing += ev->needs_flush;
	}
	if (!r) {
		*(flush ? &v->other_ring_flushes : &v->other_ring_grabs) += 1;
		return;
	}
	if (flush) {
		r->flushes++;
	} else {
		r->grabs++;
		r->grabs_flushing += ev->needs_flush;
	}
}

static void update_ptes(struct vm_activity *v, const struct gpu_event *ev)
{
	/* end is one past the last page updated (nptes, at most 32, is what the event shows) */
	uint64_t bytes = ev->va_last > ev->va_start ? range_bytes(ev->va_start, ev->va_last - 1) : 0;
	struct vm_pid_use *p = pid_use(v, ev->vm_pid);

	v->updates++;
	v->updated_bytes += bytes;
	if (!p) {
		v->other_pid_updates++;
		v->other_pid_bytes += bytes;
		return;
	}
	p->updates++;
	p->bytes += bytes;
}

void vm_activity_add(struct vm_activity *v, const struct gpu_event *ev)
{
	switch (ev->kind) {
	case GEV_VM_GRAB_ID:
	case GEV_VM_FLUSH:
		grab_or_flush(v, ev);
		break;
	case GEV_VM_UPDATE_PTES:
		update_ptes(v, ev);
		break;
	case GEV_VM_BO_MAP:
		v->maps++;
		v->mapped_bytes += range_bytes(ev->va_start, ev->va_last);
		break;
	case GEV_VM_BO_UNMAP:
		v->unmaps++;
		v->unmapped_bytes += range_bytes(ev->va_start, ev->va_last);
		break;
	default:
		return;
	}
	if (!v->first_ts)
		v->first_ts = ev->ts;
	v->last_ts = ev->ts;
}

uint64_t vm_activity_events(const struct vm_activity *v)
{
	return v->grabs + v->flushes + v->updates + v->maps + v->unmaps;
}
