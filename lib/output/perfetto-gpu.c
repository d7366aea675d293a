// SPDX-License-Identifier: GPL-2.0
/*
 * Finished jobs as Perfetto's own GPU data: one GpuRenderStageEvent per job on
 * its ring's hardware queue, so that Perfetto's gpu_slice and GPU track
 * tables, and the UI's GPU views, hold the rings' jobs beside the TrackEvent
 * timeline (which alone says the queued lanes, dependencies and flows).
 * Queues, render stages and graphics contexts are interned on the trace's
 * one sequence the first time a job needs them.
 */
#include <string.h>

#include "output/perfetto-gpu.h"
#include "output/perfetto-packet.h"

/* Field numbers of Perfetto's public protos (protos/perfetto/trace/...). */
enum {
	PKT_INTERNED_DATA = 12, PKT_SEQUENCE_FLAGS = 13, PKT_GPU_RENDER_STAGE_EVENT = 53,
	SEQ_NEEDS_INCREMENTAL_STATE = 2,
	ID_GRAPHICS_CONTEXTS = 23, ID_GPU_SPECIFICATIONS = 24,
	CTX_IID = 1, CTX_PID = 2,
	SPEC_IID = 1, SPEC_NAME = 2, SPEC_DESCRIPTION = 3, SPEC_CATEGORY = 4,
	CATEGORY_OTHER = 0, CATEGORY_GRAPHICS = 1, CATEGORY_COMPUTE = 2,
	RS_EVENT_ID = 1, RS_DURATION = 2, RS_CONTEXT = 5, RS_EXTRA_DATA = 6, RS_GPU_ID = 11,
	RS_HW_QUEUE_IID = 13, RS_STAGE_IID = 14, RS_NAME = 17,
	EXTRA_NAME = 1, EXTRA_VALUE = 2,
};

/* Stages and queues share one iid space: the stages' by category, queues after. */
#define STAGE_IID(category)	((uint64_t)(category) + 1)
#define FIRST_QUEUE_IID		16

enum { KEY_QUEUE = 1, KEY_CONTEXT };

static const char *const stage_names[] = {
	[CATEGORY_OTHER] = "job", [CATEGORY_GRAPHICS] = "graphics job",
	[CATEGORY_COMPUTE] = "compute job",
};

/* What a ring runs, from the names amdgpu, i915 and xe give their rings. */
static int ring_category(const char *ring)
{
	if (!strncmp(ring, "gfx", 3) || !strncmp(ring, "rcs", 3))
		return CATEGORY_GRAPHICS;
	if (!strncmp(ring, "comp", 4) || !strncmp(ring, "ccs", 3))
		return CATEGORY_COMPUTE;
	return CATEGORY_OTHER;
}

/* The ring's device: 6.17+ events name it; before, a second GPU's label does. */
static const char *ring_device(const struct ring_stats *r)
{
	const char *at = strchr(r->label, '@');

	return r->dev[0] ? r->dev : at ? at + 1 : "";
}

/*
 * Perfetto's gpu_id: the ring's device, numbered in the order the source's
 * jobs met devices. Rings are as many as a file names, devices a few: past
 * PF_MAX_GPUS distinct ones the rest share the last number.
 */
static int gpu_id(struct perfetto_export *p, int ring)
{
	const char *dev = ring_device(p->a->tl.rings[ring]);
	int i;

	for (i = 0; i < p->nr_gpus; i++)
		if (!strcmp(p->gpus[i], dev))
			return i;
	if (p->nr_gpus == PF_MAX_GPUS)
		return PF_MAX_GPUS - 1;
	snprintf(p->gpus[p->nr_gpus], sizeof(p->gpus[0]), "%s", dev);
	return p->nr_gpus++;
}

static void spec(struct pb_buf *b, uint64_t iid, const char *name, const char *description,
		 int category)
{
	size_t at = pb_begin(b, ID_GPU_SPECIFICATIONS);

	pb_varint_field(b, SPEC_IID, iid);
	pb_string_field(b, SPEC_NAME, name);
	pb_string_field(b, SPEC_DESCRIPTION, description);
	if (category != CATEGORY_OTHER)
		pb_varint_field(b, SPEC_CATEGORY, (uint64_t)category);
	pb_end(b, at);
}

static size_t interned_begin(struct perfetto_export *p, size_t *at)
{
	*at = perfetto_packet_begin(p, 0, false);
	pb_varint_field(&p->buf, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	return pb_begin(&p->buf, PKT_INTERNED_DATA);
}

static void interned_end(struct perfetto_export *p, size_t at, size_t id)
{
	pb_end(&p->buf, id);
	perfetto_packet_end(p, at);
}

/*
 * The ring's hardware queue iid, interned (with the stages, the first time);
 * its gpu_id in *gpu. Both are kept as one value: iid | gpu_id << 32.
 */
static uint64_t hw_queue(struct perfetto_export *p, int ring, int *gpu)
{
	uint64_t key = keymap_pair(KEY_QUEUE, keymap_pair(p->source, (uint64_t)ring));
	uint64_t kept = (uintptr_t)keymap_get(&p->gpu_interned, key), iid;
	const char *name = timeline_ring_name(&p->a->tl, ring);
	char queue[2 * GEV_STR_LEN + 256];
	size_t at, id;
	int c;

	if (kept) {
		*gpu = (int)(kept >> 32);
		return kept & UINT32_MAX;
	}
	iid = FIRST_QUEUE_IID + p->gpu_queues;
	*gpu = gpu_id(p, ring);
	if (keymap_put(&p->gpu_interned, key, (void *)(uintptr_t)(iid | (uint64_t)*gpu << 32)))
		return 0;
	p->gpu_queues++;
	id = interned_begin(p, &at);
	if (!p->gpu_stages) {
		for (c = CATEGORY_OTHER; c <= CATEGORY_COMPUTE; c++)
			spec(&p->buf, STAGE_IID(c), stage_names[c],
			     "a job from its hardware start to done", c);
		p->gpu_stages = true;
	}
	/* several files' rings of one name stay apart by their group's name */
	snprintf(queue, sizeof(queue), "%s%s%s", p->label ? p->label : "", p->label ? ": " : "",
		 name);
	spec(&p->buf, iid, queue, "a GPU ring (drm_sched)", CATEGORY_OTHER);
	interned_end(p, at, id);
	return iid;
}

/* The process's graphics context (iid: its pid), interned the first time. */
static uint64_t context(struct perfetto_export *p, int pid)
{
	uint64_t key = keymap_pair(KEY_CONTEXT, (uint64_t)pid);
	size_t at, id, ctx;

	if (pid <= 0)
		return 0;
	if (keymap_get(&p->gpu_interned, key))
		return (uint64_t)pid;
	if (keymap_put(&p->gpu_interned, key, (void *)1))
		return 0;
	id = interned_begin(p, &at);
	ctx = pb_begin(&p->buf, ID_GRAPHICS_CONTEXTS);
	pb_varint_field(&p->buf, CTX_IID, (uint64_t)pid);
	pb_int_field(&p->buf, CTX_PID, pid);
	pb_end(&p->buf, ctx);
	interned_end(p, at, id);
	return (uint64_t)pid;
}

void perfetto_gpu_job(struct perfetto_export *p, const struct job *j, const char *name,
		      const char *key, uint64_t end)
{
	const char *ring = timeline_ring_name(&p->a->tl, j->ring);
	uint64_t queue, ctx = context(p, j->pid);
	size_t at, rs, x;
	int gpu;

	queue = hw_queue(p, j->ring, &gpu);
	if (!queue)
		return;
	at = perfetto_packet_begin(p, j->t_hw_start, true);
	pb_varint_field(&p->buf, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	rs = pb_begin(&p->buf, PKT_GPU_RENDER_STAGE_EVENT);
	pb_varint_field(&p->buf, RS_EVENT_ID, ((uint64_t)p->source << 48) | ++p->gpu_slices);
	pb_varint_field(&p->buf, RS_DURATION, end - j->t_hw_start);
	if (ctx)
		pb_varint_field(&p->buf, RS_CONTEXT, ctx);
	pb_int_field(&p->buf, RS_GPU_ID, gpu);
	pb_varint_field(&p->buf, RS_HW_QUEUE_IID, queue);
	pb_varint_field(&p->buf, RS_STAGE_IID, STAGE_IID(ring_category(ring)));
	pb_string_field(&p->buf, RS_NAME, name);
	x = pb_begin(&p->buf, RS_EXTRA_DATA);
	pb_string_field(&p->buf, EXTRA_NAME, "job");
	pb_string_field(&p->buf, EXTRA_VALUE, key);
	pb_end(&p->buf, x);
	pb_end(&p->buf, rs);
	perfetto_packet_end(p, at);
}
