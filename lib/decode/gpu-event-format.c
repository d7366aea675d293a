// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "decode/gpu-event.h"

struct line {
	char *buf;
	size_t len, off;
};

/* "add" of i915_request_add and of 4.x's i915_gem_request_add */
static const char *i915_stage(const char *name)
{
	const char *s = strstr(name, "request_");

	return s ? s + strlen("request_") : name;
}

static void add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->off >= l->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->off, l->len - l->off, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->off += (size_t)n;
}

/* The job's identity, whichever keys this kernel's events carry. */
static void add_job(struct line *l, const struct gpu_event *ev)
{
	if (ev->ring[0])
		add(l, "ring=%s ", ev->ring);
	if (ev->has_id)
		add(l, "job=%llu ", ev->id);
	if (ev->has_fence)
		add(l, "fence=%llu:%llu ", ev->ctx, ev->seqno);
	else if (ev->fence_ptr)
		add(l, "fence=0x%llx ", ev->fence_ptr);
}

static void add_counts(struct line *l, const struct gpu_event *ev)
{
	add(l, "(in queue %lld, on hw %lld", ev->job_count, ev->hw_job_count);
	if (ev->has_client_id)
		add(l, ", client %llu", ev->client_id);
	if (ev->dev[0])
		add(l, ", dev %s", ev->dev);
	add(l, ")");
}

/* Fields the record does not hold: their values above are no values (gpu_event.missing). */
static void missing(struct line *l, const struct gpu_event *ev)
{
	int bit, n = 0;

	if (!ev->missing)
		return;
	add(l, " [outside the record:");
	for (bit = 0; bit < GF_NR; bit++)
		if (ev->missing & (1ULL << bit))
			add(l, "%s%s", n++ ? "," : " ", gpu_field_name((enum gpu_field)bit));
	add(l, "]");
}

const char *bo_placement_name(unsigned int placement)
{
	/* TTM's SYSTEM, TT and VRAM, then amdgpu's private placements */
	static const char *const names[] = { "system", "GTT", "VRAM", "GDS", "GWS", "OA",
					     "preemptible", "doorbell", "MMIO remap" };

	return placement < sizeof(names) / sizeof(names[0]) ? names[placement] : "?";
}

size_t gpu_event_format(const struct gpu_event *ev, char *buf, size_t len)
{
	struct line l = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	switch (ev->kind) {
	case GEV_SUBMIT:
		add_job(&l, ev);
		add(&l, "submitted by ioctl");
		if (ev->num_ibs >= 0)
			add(&l, ", %lld IB%s", ev->num_ibs, ev->num_ibs == 1 ? "" : "s");
		if (ev->timeline[0])
			add(&l, ", timeline %s", ev->timeline);
		break;
	case GEV_QUEUE:
		add_job(&l, ev);
		add(&l, "queued ");
		add_counts(&l, ev);
		break;
	case GEV_RUN:
		add_job(&l, ev);
		add(&l, "sent to hardware ");
		add_counts(&l, ev);
		break;
	case GEV_AMDGPU_RUN:
		add_job(&l, ev);
		add(&l, "written to ring");
		if (ev->num_ibs >= 0)
			add(&l, ", %lld IB%s", ev->num_ibs, ev->num_ibs == 1 ? "" : "s");
		break;
	case GEV_DONE:
		add_job(&l, ev);
		add(&l, "done on hardware");
		break;
	case GEV_DEP_ADD:
	case GEV_DEP_WAIT:
		add_job(&l, ev);
		add(&l, "%s ", ev->kind == GEV_DEP_ADD ? "depends on" : "waits for");
		if (ev->dep_ctx || ev->dep_seqno)
			add(&l, "fence %llu:%llu", ev->dep_ctx, ev->dep_seqno);
		else
			add(&l, "fence 0x%llx", ev->dep_ptr);
		if (!strcmp(ev->name, "drm_sched_job_unschedulable"))
			add(&l, " (unsignalled)");
		break;
	case GEV_FENCE_INIT: case GEV_FENCE_EMIT: case GEV_FENCE_ENABLE_SIGNAL:
	case GEV_FENCE_SIGNALED: case GEV_FENCE_WAIT_START: case GEV_FENCE_WAIT_END:
	case GEV_FENCE_DESTROY:
		add(&l, "fence=%llu:%llu %s timeline=%s driver=%s", ev->ctx, ev->seqno,
		    ev->name + strlen("dma_fence_"), ev->timeline, ev->driver);
		break;
	case GEV_VBLANK:
		add(&l, "crtc=%lld seq=%lld vblank at %lld ns", ev->crtc, ev->vblank_seq,
		    ev->vblank_time);
		break;
	case GEV_VBLANK_QUEUED:
	case GEV_VBLANK_DELIVERED:
		add(&l, "crtc=%lld seq=%lld event %s", ev->crtc, ev->vblank_seq,
		    ev->kind == GEV_VBLANK_QUEUED ? "queued" : "delivered");
		break;
	case GEV_VIRTIO_CMD_QUEUE:
	case GEV_VIRTIO_CMD_RESPONSE:
		add(&l, "%s %s fence_id=%llu seqno=%llu ctx=%llu", ev->timeline,
		    ev->kind == GEV_VIRTIO_CMD_QUEUE ? "queued" : "answered", ev->id,
		    ev->seqno, ev->ctx);
		break;
	case GEV_ISOLATION:
		add(&l, "owner switch 0x%llx -> 0x%llx", ev->owner_prev, ev->owner_next);
		break;
	case GEV_CLEANER_SHADER:
		add(&l, "ring=%s cleaner shader, ring fence seqno %llu", ev->ring, ev->seqno);
		break;
	case GEV_BO_MOVE:
		add(&l, "bo=0x%llx moved %s -> %s, %llu bytes", ev->bo, bo_placement_name(ev->placement_from),
		    bo_placement_name(ev->placement_to), ev->bo_bytes);
		break;
	case GEV_BO_CREATE:
		add(&l, "bo=0x%llx created, %llu bytes, prefers domain 0x%x", ev->bo, ev->bo_bytes,
		    ev->placement_to);
		break;
	case GEV_I915_REQUEST:
		add(&l, "request %llu:%llu %s", ev->ctx, ev->seqno, i915_stage(ev->name));
		if (ev->ring[0])
			add(&l, " on %s", ev->ring);
		if (ev->completed == 0)
			add(&l, ": preempted, not completed (completed?=0)");
		else if (ev->completed > 0)
			add(&l, ": completed");
		break;
	case GEV_XE_JOB:
		add(&l, "job fence=0x%llx seqno=%llu guc_id=%llu %s", ev->fence_ptr,
		    ev->seqno, ev->id, ev->name + strlen("xe_sched_job_"));
		break;
	default:
		break;
	}
	missing(&l, ev);
	return l.off < len ? l.off : len ? len - 1 : 0;
}
