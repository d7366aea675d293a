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
#include "analysis/analysis.h"
#include "analysis/timeline.h"

/* Field numbers of Perfetto's public protos (protos/perfetto/trace/...). */
enum {
	PKT_SEQUENCE_FLAGS = 13, PKT_GPU_RENDER_STAGE_EVENT = 53, PKT_GPU_INFO = 128,
	SEQ_NEEDS_INCREMENTAL_STATE = 2,
	ID_GRAPHICS_CONTEXTS = 23, ID_GPU_SPECIFICATIONS = 24,
	CTX_IID = 1, CTX_PID = 2,
	SPEC_IID = 1, SPEC_NAME = 2, SPEC_DESCRIPTION = 3, SPEC_CATEGORY = 4,
	CATEGORY_OTHER = 0, CATEGORY_GRAPHICS = 1, CATEGORY_COMPUTE = 2,
	RS_EVENT_ID = 1, RS_DURATION = 2, RS_CONTEXT = 5, RS_EXTRA_DATA = 6, RS_GPU_ID = 11,
	RS_HW_QUEUE_IID = 13, RS_STAGE_IID = 14, RS_NAME = 17,
	EXTRA_NAME = 1, EXTRA_VALUE = 2,
	INFO_GPUS = 1, GPU_NAME = 1, GPU_EXTRA_INFO = 6, GPU_PCI_BDF = 7, KV_KEY = 1, KV_VALUE = 2,
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
 * Perfetto's gpu_id: the ring's device, numbered across the trace's sources
 * in the order their jobs met devices (so that one GpuInfo names them all),
 * each host's apart (a machine's GpuInfo names its own: Perfetto keeps a gpu
 * table per machine). Rings are as many as a file names, devices a few: past
 * PF_MAX_GPUS distinct ones the rest share the last number.
 */
int perfetto_gpu_id(struct perfetto_export *p, int ring)
{
	const char *dev = ring_device(p->tl->rings[ring]);
	struct pf_gpu *g;
	int i, id = 0;

	for (i = 0; i < p->nr_gpus; i++) {
		if (p->gpus[i].source == p->source && !strcmp(p->gpus[i].dev, dev))
			return p->gpus[i].id;
		id += p->gpus[i].machine == p->machine;
	}
	if (p->nr_gpus == PF_MAX_GPUS) {
		p->gpus_more = true;
		return p->gpus[PF_MAX_GPUS - 1].id;
	}
	g = &p->gpus[p->nr_gpus++];
	g->source = p->source;
	g->machine = p->machine;
	g->id = id;
	snprintf(g->dev, sizeof(g->dev), "%s", dev);
	snprintf(g->name, sizeof(g->name), "%s%s%s", p->label ? p->label : "", p->label ? ": " : "",
		 dev[0] ? dev : "GPU");
	g->rings[0] = '\0';
	return id;
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

/*
 * The ring's hardware queue iid, interned (with the stages, the first time);
 * its gpu_id in *gpu. Both are kept as one value: iid | gpu_id << 32.
 */
static uint64_t hw_queue(struct perfetto_export *p, int ring, int *gpu)
{
	uint64_t key = keymap_pair(KEY_QUEUE, keymap_pair(p->source, (uint64_t)ring));
	/* a job's ring's, kept with its tracks: a lookup a job less */
	uint64_t *mine = ring < p->nr_rings ? &p->ring_tracks[ring].gpu_queue : NULL;
	uint64_t kept = mine && *mine ? *mine : (uintptr_t)keymap_get(&p->gpu_interned, key), iid;
	const char *name;
	char queue[2 * GEV_STR_LEN + 256];
	size_t at, id;
	int c;

	if (kept) {
		if (mine)
			*mine = kept;
		*gpu = (int)(kept >> 32);
		return kept & UINT32_MAX;
	}
	iid = FIRST_QUEUE_IID + p->gpu_queues;
	*gpu = perfetto_gpu_id(p, ring);
	if (keymap_put(&p->gpu_interned, key, (void *)(uintptr_t)(iid | (uint64_t)*gpu << 32)))
		return 0;
	if (mine)
		*mine = iid | (uint64_t)*gpu << 32;
	name = timeline_ring_name(p->tl, ring);
	p->gpu_queues++;
	id = perfetto_interned_begin(p, &at);
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
	perfetto_interned_end(p, at, id);
	return iid;
}

/* The process's graphics context (iid: its pid), interned the first time. */
static uint64_t context(struct perfetto_export *p, int pid)
{
	uint64_t key = keymap_pair(KEY_CONTEXT, (uint64_t)pid);
	size_t at, id, ctx;

	if (pid <= 0)
		return 0;
	if (pid == p->gpu_context_pid || keymap_get(&p->gpu_interned, key)) {
		p->gpu_context_pid = pid;
		return (uint64_t)pid;
	}
	if (keymap_put(&p->gpu_interned, key, (void *)1))
		return 0;
	p->gpu_context_pid = pid;
	/*
	 * Its process named, as a submit's thread track names it (perfetto_track()):
	 * a job whose queue event was lost has no submit, and Perfetto showed its
	 * GPU slices in a process of no name. Written once, whichever comes first.
	 */
	if (!p->root)
		perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_PROCESS, (uint64_t)pid, 0),
						     .name = analysis_comm(p->a, pid), .process_pid = pid });
	id = perfetto_interned_begin(p, &at);
	ctx = pb_begin(&p->buf, ID_GRAPHICS_CONTEXTS);
	pb_varint_field(&p->buf, CTX_IID, (uint64_t)pid);
	pb_int_field(&p->buf, CTX_PID, pid);
	pb_end(&p->buf, ctx);
	perfetto_interned_end(p, at, id);
	return (uint64_t)pid;
}

void perfetto_gpu_job(struct perfetto_export *p, const struct job *j, const char *name,
		      size_t name_len, const char *key, size_t key_len, uint64_t start, uint64_t end)
{
	const char *ring = timeline_ring_name(p->tl, j->ring);
	uint64_t queue, ctx = context(p, j->pid);
	uint8_t *w, *pkt, *rs, *x;
	int gpu;

	queue = hw_queue(p, j->ring, &gpu);
	if (!queue)
		return;
	/* one per job: through the cursor */
	w = perfetto_packet_claim(p, 12 * PB_FIELD_MAX + 3 * (name_len + key_len), start, &pkt);
	if (!w)
		return;
	w = pbw_varint_field(w, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	w = pbw_begin(w, PKT_GPU_RENDER_STAGE_EVENT, &rs);
	w = pbw_varint_field(w, RS_EVENT_ID, ((uint64_t)p->source << 48) | ++p->gpu_slices);
	w = pbw_varint_field(w, RS_DURATION, end - start);
	if (ctx)
		w = pbw_varint_field(w, RS_CONTEXT, ctx);
	w = pbw_varint_field(w, RS_GPU_ID, (uint64_t)(int64_t)gpu);
	w = pbw_varint_field(w, RS_HW_QUEUE_IID, queue);
	w = pbw_varint_field(w, RS_STAGE_IID, STAGE_IID(ring_category(ring)));
	w = pbw_text_field(w, RS_NAME, name, name_len);
	w = pbw_begin(w, RS_EXTRA_DATA, &x);
	w = pbw_bytes_field(w, EXTRA_NAME, "job", 3);
	w = pbw_bytes_field(w, EXTRA_VALUE, key, key_len);
	pbw_end(w, x);
	pbw_end(w, rs);
	perfetto_packet_commit(p, w, pkt);
}

/* A PCI address as 6.17+ events give it: "0000:03:00.0". */
static bool pci_bdf(const char *dev)
{
	return strlen(dev) == 12 && dev[4] == ':' && dev[7] == ':' && dev[10] == '.';
}

/* The source's rings, each on its device's list (", ..." past what it holds). */
static void gpu_rings(struct perfetto_export *p)
{
	const struct timeline *tl = p->tl;
	int r, i;

	for (r = 0; r < tl->nr_rings; r++) {
		const char *dev = ring_device(tl->rings[r]), *name = timeline_ring_name(tl, r);

		for (i = 0; i < p->nr_gpus; i++) {
			struct pf_gpu *g = &p->gpus[i];
			size_t len = strlen(g->rings);

			if (g->source != p->source || strcmp(g->dev, dev))
				continue;
			if (len + 2 + strlen(name) + sizeof(", ...") > sizeof(g->rings)) {
				if (len < 3 || strcmp(g->rings + len - 3, "..."))
					strcpy(g->rings + len, len ? ", ..." : "...");
			} else {
				sprintf(g->rings + len, "%s%s", len ? ", " : "", name);
			}
			break;
		}
	}
}

static void key_value(struct pb_buf *b, const char *key, const char *value)
{
	size_t at = pb_begin(b, GPU_EXTRA_INFO);

	pb_string_field(b, KV_KEY, key);
	pb_string_field(b, KV_VALUE, value);
	pb_end(b, at);
}

void perfetto_gpu_info(struct perfetto_export *p)
{
	size_t at, info;
	int i;

	gpu_rings(p);
	for (i = 0; i < p->nr_gpus && p->gpus[i].machine != p->machine; i++)
		;
	if (i == p->nr_gpus)
		return;
	at = perfetto_packet_begin(p, 0, false);
	info = pb_begin(&p->buf, PKT_GPU_INFO);
	for (i = 0; i < p->nr_gpus; i++) {
		const struct pf_gpu *g = &p->gpus[i];
		size_t gpu;
		char name[sizeof(g->name) + 16];

		if (g->machine != p->machine)
			continue;
		gpu = pb_begin(&p->buf, INFO_GPUS);
		snprintf(name, sizeof(name), "%s%s", g->name,
			 p->gpus_more && i == PF_MAX_GPUS - 1 ? " and more" : "");
		pb_string_field(&p->buf, GPU_NAME, name);
		if (pci_bdf(g->dev))
			pb_string_field(&p->buf, GPU_PCI_BDF, g->dev);
		if (g->rings[0])
			key_value(&p->buf, "rings", g->rings);
		pb_end(&p->buf, gpu);
	}
	pb_end(&p->buf, info);
	perfetto_packet_end(p, at);
}
