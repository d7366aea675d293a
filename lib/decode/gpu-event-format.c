// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdbool.h>
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

/* @v's digits at the end of @end's buffer (base 10 or 16): where they start */
static char *digits(char *end, unsigned long long v, bool hex)
{
	if (hex) {
		do {
			*--end = "0123456789abcdef"[v & 15];
			v >>= 4;
		} while (v);
	} else {
		do {
			*--end = (char)('0' + v % 10);
			v /= 10;
		} while (v);
	}
	return end;
}

/*
 * What vsnprintf() writes of @fmt at the line's end, written without it
 * (most of report --events' time went there) for the conversions the lines
 * use: %s, %d, %u, %x, %lld, %llu, %llx and %%, nothing between the % and
 * the letter. False at any other, with what was written left to
 * vsnprintf() to write again. A byte at a time, kept where it fits as
 * vsnprintf() keeps it: the pieces are a few bytes each.
 */
static bool add_plain(struct line *l, const char *fmt, va_list ap)
{
	/* locals: a store through buf may not make the compiler read l again */
	char *buf = l->buf, num[24], *end = num + sizeof(num), *p;
	size_t off = l->off, lim = l->len - 1;
	unsigned long long u;
	long long v;

#define PUT(c) do { if (off < lim) buf[off] = (c); off++; } while (0)
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			PUT(*fmt);
			continue;
		}
		p = end;
		switch (*++fmt) {
		case '%':
			PUT('%');
			continue;
		case 's':
			for (p = va_arg(ap, char *), p = p ? p : "(null)"; *p; p++)
				PUT(*p);
			continue;
		case 'd':
			v = va_arg(ap, int);
			p = digits(end, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, false);
			if (v < 0)
				*--p = '-';
			break;
		case 'u':
		case 'x':
			p = digits(end, va_arg(ap, unsigned int), *fmt == 'x');
			break;
		case 'l':
			if (fmt[1] != 'l' || (fmt[2] != 'd' && fmt[2] != 'u' && fmt[2] != 'x'))
				return false;
			fmt += 2;
			if (*fmt == 'd') {
				v = va_arg(ap, long long);
				u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
				p = digits(end, u, false);
				if (v < 0)
					*--p = '-';
			} else {
				p = digits(end, va_arg(ap, unsigned long long), *fmt == 'x');
			}
			break;
		default:
			return false;
		}
		for (; p < end; p++)
			PUT(*p);
	}
#undef PUT
	buf[off < lim ? off : lim] = '\0';
	l->off = off;
	return true;
}

static void add(struct line *l, const char *fmt, ...)
{
	size_t off = l->off;
	va_list ap, again;
	bool plain;
	int n;

	if (l->off >= l->len)
		return;
	va_start(ap, fmt);
	va_copy(again, ap);
	plain = add_plain(l, fmt, ap);
	va_end(ap);
	if (!plain) {
		l->off = off;
		n = vsnprintf(l->buf + l->off, l->len - l->off, fmt, again);
		if (n > 0)
			l->off += (size_t)n;
	}
	va_end(again);
}

/* The job's identity, whichever keys this kernel's events carry. */
static void add_job(struct line *l, const struct gpu_event *ev)
{
	/* up to 5.1x the scheduler's events hold the name's address: one ring's, all the same */
	if (ev->ring[0])
		add(l, "ring=%s ", ev->ring);
	else if (ev->ring_ptr)
		add(l, "ring=0x%llx ", (unsigned long long)ev->ring_ptr);
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
		/* no client: the DRM core's own, for an atomic commit that asked for none */
		if (ev->vblank_file)
			add(&l, " client=%#llx", ev->vblank_file);
		else if (ev->kind == GEV_VBLANK_DELIVERED)
			add(&l, " (the DRM core's own: no client)");
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
