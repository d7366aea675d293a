// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/gpu-event.h"
#include "decode/record-field.h"

struct event_map {
	const char *system;
	const char *name;	/* exact, or a prefix when it ends in '*' */
	enum gpu_event_kind kind;
	bool printed;		/* the plugins print it as one decoded line */
};

static const struct event_map event_map[] = {
	{ "gpu_scheduler", "drm_sched_job", GEV_QUEUE, true },
	{ "gpu_scheduler", "drm_sched_job_queue", GEV_QUEUE, true },
	{ "gpu_scheduler", "drm_run_job", GEV_RUN, true },
	{ "gpu_scheduler", "drm_sched_job_run", GEV_RUN, true },
	{ "gpu_scheduler", "drm_sched_process_job", GEV_DONE, true },
	{ "gpu_scheduler", "drm_sched_job_done", GEV_DONE, true },
	{ "gpu_scheduler", "drm_sched_job_wait_dep", GEV_DEP_WAIT, true },
	{ "gpu_scheduler", "drm_sched_job_unschedulable", GEV_DEP_WAIT, true },
	{ "gpu_scheduler", "drm_sched_job_add_dep", GEV_DEP_ADD, true },
	/* before 4.16 the scheduler was amdgpu's own (fence and ring as pointers) */
	{ "gpu_sched", "amd_sched_job", GEV_QUEUE, false },
	{ "gpu_sched", "amd_sched_process_job", GEV_DONE, false },
	{ "amdgpu", "amdgpu_cs_ioctl", GEV_SUBMIT, true },
	{ "amdgpu", "amdgpu_sched_run_job", GEV_AMDGPU_RUN, true },
	/* register accesses are far too many to be worth decoding */
	{ "amdgpu", "amdgpu_device_rreg", GEV_NONE, false },
	{ "amdgpu", "amdgpu_device_wreg", GEV_NONE, false },
	{ "amdgpu", "amdgpu_isolation", GEV_ISOLATION, true },
	{ "amdgpu", "amdgpu_cleaner_shader", GEV_CLEANER_SHADER, true },
	{ "amdgpu", "amdgpu_bo_move", GEV_BO_MOVE, true },
	{ "amdgpu", "amdgpu_bo_create", GEV_BO_CREATE, true },
	{ "amdgpu", "amdgpu_vm_grab_id", GEV_VM_GRAB_ID, false },
	{ "amdgpu", "amdgpu_vm_flush", GEV_VM_FLUSH, false },
	{ "amdgpu", "amdgpu_vm_update_ptes", GEV_VM_UPDATE_PTES, false },
	{ "amdgpu", "amdgpu_vm_bo_map", GEV_VM_BO_MAP, false },
	{ "amdgpu", "amdgpu_vm_bo_unmap", GEV_VM_BO_UNMAP, false },
	{ "amdgpu", "amdgpu_*", GEV_AMDGPU_OTHER, false },
	{ "dma_buf", "dma_buf_*", GEV_DMA_BUF, false },
	{ "dma_fence", "dma_fence_init", GEV_FENCE_INIT, true },
	{ "dma_fence", "dma_fence_emit", GEV_FENCE_EMIT, true },
	{ "dma_fence", "dma_fence_enable_signal", GEV_FENCE_ENABLE_SIGNAL, true },
	{ "dma_fence", "dma_fence_signaled", GEV_FENCE_SIGNALED, true },
	{ "dma_fence", "dma_fence_wait_start", GEV_FENCE_WAIT_START, true },
	{ "dma_fence", "dma_fence_wait_end", GEV_FENCE_WAIT_END, true },
	{ "dma_fence", "dma_fence_destroy", GEV_FENCE_DESTROY, true },
	{ "drm", "drm_vblank_event", GEV_VBLANK, true },
	{ "drm", "drm_vblank_event_queued", GEV_VBLANK_QUEUED, true },
	{ "drm", "drm_vblank_event_delivered", GEV_VBLANK_DELIVERED, true },
	{ "i915", "i915_request_add", GEV_I915_REQUEST, true },
	{ "i915", "i915_request_submit", GEV_I915_REQUEST, true },
	{ "i915", "i915_request_in", GEV_I915_REQUEST, true },
	{ "i915", "i915_request_out", GEV_I915_REQUEST, true },
	{ "i915", "i915_request_retire", GEV_I915_REQUEST, true },
	{ "i915", "i915_request_queue", GEV_I915_REQUEST, true },
	{ "i915", "i915_request_execute", GEV_I915_REQUEST, true },
	{ "i915", "i915_request_wait_begin", GEV_I915_REQUEST, true },
	{ "i915", "i915_request_wait_end", GEV_I915_REQUEST, true },
	{ "i915", "i915_request_*", GEV_I915_REQUEST, false },
	/* before 4.16 */
	{ "i915", "i915_gem_request_add", GEV_I915_REQUEST, true },
	{ "i915", "i915_gem_request_submit", GEV_I915_REQUEST, true },
	{ "i915", "i915_gem_request_execute", GEV_I915_REQUEST, true },
	{ "i915", "i915_gem_request_in", GEV_I915_REQUEST, true },
	{ "i915", "i915_gem_request_out", GEV_I915_REQUEST, true },
	{ "i915", "i915_gem_request_retire", GEV_I915_REQUEST, true },
	{ "i915", "i915_gem_request_wait_begin", GEV_I915_REQUEST, true },
	{ "i915", "i915_gem_request_wait_end", GEV_I915_REQUEST, true },
	{ "i915", "i915_gem_request_*", GEV_I915_REQUEST, false },
	{ "xe", "xe_sched_job_create", GEV_XE_JOB, true },
	{ "xe", "xe_sched_job_exec", GEV_XE_JOB, true },
	{ "xe", "xe_sched_job_run", GEV_XE_JOB, true },
	{ "xe", "xe_sched_job_free", GEV_XE_JOB, true },
	{ "xe", "xe_sched_job_*", GEV_XE_JOB, false },
	{ "virtio_gpu", "virtio_gpu_cmd_queue", GEV_VIRTIO_CMD_QUEUE, true },
	{ "virtio_gpu", "virtio_gpu_cmd_response", GEV_VIRTIO_CMD_RESPONSE, true },
	{ "amdkfd", "*", GEV_KFD_EVENT, false },
	{ "kfd", "*", GEV_KFD_EVENT, false },
	{ "ftrace", "function", GEV_FUNC, false },
	{ "ftrace", "funcgraph_entry", GEV_FUNC_ENTRY, false },
	{ "ftrace", "funcgraph_exit", GEV_FUNC_EXIT, false },
};

#define NR_MAP (sizeof(event_map) / sizeof(event_map[0]))

static bool name_matches(const char *pattern, const char *name)
{
	size_t n = strlen(pattern);

	if (n && pattern[n - 1] == '*')
		return !strncmp(pattern, name, n - 1);
	return !strcmp(pattern, name);
}

bool gpu_event_printed_next(size_t *i, const char **system, const char **name)
{
	for (; *i < NR_MAP; (*i)++) {
		if (!event_map[*i].printed)
			continue;
		*system = event_map[*i].system;
		*name = event_map[*i].name;
		(*i)++;
		return true;
	}
	return false;
}

enum gpu_event_kind gpu_event_kind_of(const char *system, const char *name)
{
	size_t i;

	for (i = 0; i < NR_MAP; i++)
		if (!strcmp(event_map[i].system, system) && name_matches(event_map[i].name, name))
			return event_map[i].kind;
	return GEV_NONE;
}

const char *gpu_event_kind_name(enum gpu_event_kind kind)
{
	static const char *const names[GEV_NR_KINDS] = {
		"none", "submit", "queue", "dep_add", "dep_wait", "run", "amdgpu_run",
		"done", "fence_init", "fence_emit", "fence_enable_signal",
		"fence_signaled", "fence_wait_start", "fence_wait_end",
		"fence_destroy", "vblank", "vblank_queued", "vblank_delivered",
		"i915_request", "xe_job", "virtio_cmd_queue", "virtio_cmd_response",
		"isolation", "cleaner_shader", "bo_move", "bo_create", "vm_grab_id", "vm_flush",
		"vm_update_ptes", "vm_bo_map", "vm_bo_unmap", "dma_buf", "amdgpu", "kfd", "function", "funcgraph_entry", "funcgraph_exit",
	};

	return kind < GEV_NR_KINDS ? names[kind] : "?";
}

/*
 * A group of fields read together: any field present reads the group. The
 * union lets the group be scanned as a list; its size check fails the build
 * when a field is added without widening the list.
 */
#define FIELD_GROUP(name, n, ...)						\
	union {									\
		struct { struct tep_format_field __VA_ARGS__; };		\
		struct tep_format_field *all[n];				\
	} name

/* Where each normalised value comes from in one event's format. */
struct event_desc {
	enum gpu_event_kind kind;
	struct tep_event *event;
	struct tep_format_field *ring, *timeline, *driver, *dev;
	/* id, fences, dependency, client, queue depths, IBs */
	FIELD_GROUP(job, 12, *id, *fence_ptr, *ctx, *seqno, *dep_ctx, *dep_seqno, *dep_ptr,
		    *client_id, *job_count, *hw_job_count, *num_ibs, *ring_ptr);
	FIELD_GROUP(vblank, 5, *crtc, *seq, *time, *file, *high_prec);
	/* function tracer */
	FIELD_GROUP(func, 5, *ip, *parent_ip, *depth, *calltime, *rettime);
	/* owner switch, buffers, page tables, dma-buf */
	FIELD_GROUP(mem, 14, *owner_prev, *owner_next, *bo, *bo_size, *pages, *from, *to, *vmid,
		    *vm_hub, *needs_flush, *vm_pid, *va_start, *va_last, *ino);
	/* i915 requests' engine and completion */
	FIELD_GROUP(i915, 5, *klass, *instance, *engine_id, *completed, *minor);
	unsigned int groups;		/* DG_*: the field groups this event has */
	enum gpu_dma_buf_op dma_buf_op;
	/* the same, prepared once as a list of the fields present (prepare()) */
	struct field_op {
		const struct tep_format_field *f;
		unsigned short dst;	/* offsetof(struct gpu_event, ...) */
		unsigned char type;	/* OP_* */
		unsigned char bit;	/* enum gpu_field: its bit in gpu_event.missing */
	} ops[40];
	int nr_ops;
	long long end;			/* where the last field ends: a record this long needs no checks */
};

/* how a field's value lands in struct gpu_event */
enum { OP_STR, OP_ULL, OP_LL, OP_SLL, OP_UINT, OP_SINT, OP_BOOL, OP_PAGES };

#define GROUP_COMPLETE(name)							\
	_Static_assert(sizeof(((struct event_desc *)0)->name) ==			\
		       sizeof(((struct event_desc *)0)->name.all), #name ": all[] misses a field")
GROUP_COMPLETE(job);
GROUP_COMPLETE(vblank);
GROUP_COMPLETE(func);
GROUP_COMPLETE(mem);
GROUP_COMPLETE(i915);

/*
 * Each record reads only the groups of fields its event has: a group whose
 * fields are all absent would read as zeros, so skipping it changes nothing.
 */
enum { DG_JOB = 1 << 0, DG_VBLANK = 1 << 1, DG_FUNC = 1 << 2, DG_MEMORY = 1 << 3, DG_I915 = 1 << 4 };

static bool any_field(struct tep_format_field *const *all, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (all[i])
			return true;
	return false;
}

#define HAS_GROUP(d, name) any_field((d)->name.all, sizeof((d)->name.all) / sizeof((d)->name.all[0]))

static struct tep_format_field *field(struct tep_event *e, const char *name)
{
	return tep_find_field(e, name);
}

static struct tep_format_field *first_field(struct tep_event *e, const char *a,
					    const char *b)
{
	struct tep_format_field *f = field(e, a);

	return f ? f : field(e, b);
}

/*
 * The string one of two fields of one name: amdgpu_vm_grab_id has both a
 * __data_loc char[] ring and a u32 ring (every kernel since 5.x)
 */
static struct tep_format_field *string_field(struct tep_event *e, const char *name)
{
	struct tep_format_field *f;

	for (f = e->format.fields; f; f = f->next)
		if (!strcmp(f->name, name) && (f->flags & TEP_FIELD_IS_STRING))
			return f;
	return NULL;
}

static void describe_scheduler(struct event_desc *d, struct tep_event *e)
{
	d->ring = field(e, "name");
	/* up to 5.1x (5.10) a const char *: the name's address, which stands for the ring */
	if (d->ring && (d->ring->flags & TEP_FIELD_IS_POINTER) &&
	    (d->ring->size == 8 || d->ring->size == 4) &&
	    !(d->ring->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_ARRAY))) {
		d->job.ring_ptr = d->ring;
		d->ring = NULL;
	}
	d->dev = field(e, "dev");
	d->job.id = field(e, "id");
	d->job.client_id = field(e, "client_id");
	d->job.job_count = field(e, "job_count");
	d->job.hw_job_count = field(e, "hw_job_count");
	/* <= 6.16 jobs are a pointer to their finished fence; >= 6.17 ctx:seqno */
	d->job.ctx = field(e, "fence_context");
	d->job.seqno = field(e, "fence_seqno");
	if (d->kind == GEV_DEP_WAIT || d->kind == GEV_DEP_ADD) {
		d->job.dep_ctx = field(e, "ctx");
		d->job.dep_seqno = field(e, "seqno");
		/* 6.1 wait_dep: "fence" is the dependency, not the job */
		if (!d->job.ctx)
			d->job.dep_ptr = field(e, "fence");
	} else if (!d->job.ctx) {
		d->job.fence_ptr = field(e, "fence");
	}
}

enum gpu_dma_buf_op gpu_event_dma_buf_op(const char *name)
{
	static const struct {
		const char *name;
		enum gpu_dma_buf_op op;
	} ops[] = {
		{ "dma_buf_export", DMA_BUF_EXPORT }, { "dma_buf_fd", DMA_BUF_FD },
		{ "dma_buf_get", DMA_BUF_GET }, { "dma_buf_dynamic_attach", DMA_BUF_ATTACH },
		{ "dma_buf_detach", DMA_BUF_DETACH }, { "dma_buf_mmap", DMA_BUF_MMAP },
		{ "dma_buf_mmap_internal", DMA_BUF_MMAP }, { "dma_buf_put", DMA_BUF_PUT },
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(name, ops[i].name))
			return ops[i].op;
	return DMA_BUF_OTHER;
}

static void describe(struct event_desc *d, struct tep_event *e,
		     enum gpu_event_kind kind)
{
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->event = e;
	switch (kind) {
	case GEV_QUEUE: case GEV_RUN: case GEV_DONE: case GEV_DEP_ADD: case GEV_DEP_WAIT:
		describe_scheduler(d, e);
		break;
	case GEV_SUBMIT: case GEV_AMDGPU_RUN:
		d->job.id = field(e, "sched_job_id");
		d->timeline = field(e, "timeline");
		d->ring = first_field(e, "ring", "ring_name");
		d->job.ctx = field(e, "context");
		d->job.seqno = field(e, "seqno");
		/*
		 * The scheduler's finished fence, the address its own events name, only where
		 * it is set: from 4.11 (context and seqno came) the field is declared but never
		 * assigned, and the record holds whatever the ring buffer held there before,
		 * often the address of another job's fence
		 */
		if (!d->job.ctx)
			d->job.fence_ptr = field(e, "fence");
		d->job.num_ibs = field(e, "num_ibs");
		break;
	case GEV_FENCE_INIT: case GEV_FENCE_EMIT: case GEV_FENCE_ENABLE_SIGNAL:
	case GEV_FENCE_SIGNALED: case GEV_FENCE_WAIT_START: case GEV_FENCE_WAIT_END:
	case GEV_FENCE_DESTROY:
		d->driver = field(e, "driver");
		d->timeline = field(e, "timeline");
		d->job.ctx = field(e, "context");
		d->job.seqno = field(e, "seqno");
		break;
	case GEV_VBLANK: case GEV_VBLANK_QUEUED: case GEV_VBLANK_DELIVERED:
		d->vblank.crtc = field(e, "crtc");
		d->vblank.seq = field(e, "seq");
		d->vblank.time = field(e, "time");
		d->vblank.file = field(e, "file");
		d->vblank.high_prec = field(e, "high_prec");
		break;
	case GEV_I915_REQUEST:
		d->job.ctx = field(e, "ctx");
		d->job.seqno = field(e, "seqno");
		d->i915.klass = field(e, "class");
		d->i915.instance = field(e, "instance");
		d->i915.engine_id = field(e, "ring");	/* 4.x: the engine's id */
		d->i915.completed = field(e, "completed");
		d->i915.minor = field(e, "dev");
		break;
	case GEV_XE_JOB:
		d->job.fence_ptr = field(e, "fence");
		d->job.seqno = field(e, "seqno");
		d->job.id = field(e, "guc_id");
		break;
	case GEV_VIRTIO_CMD_QUEUE: case GEV_VIRTIO_CMD_RESPONSE:
		d->timeline = field(e, "name");
		d->job.id = field(e, "fence_id");
		d->job.seqno = field(e, "seqno");
		d->job.ctx = field(e, "ctx_id");
		break;
	case GEV_FUNC:
		d->func.ip = field(e, "ip");
		d->func.parent_ip = field(e, "parent_ip");
		break;
	case GEV_FUNC_ENTRY: case GEV_FUNC_EXIT:
		d->func.ip = field(e, "func");
		d->func.depth = field(e, "depth");
		d->func.calltime = field(e, "calltime");
		d->func.rettime = field(e, "rettime");
		break;
	case GEV_ISOLATION:
		d->mem.owner_prev = field(e, "prev");
		d->mem.owner_next = field(e, "next");
		break;
	case GEV_CLEANER_SHADER:
		d->ring = field(e, "ring");
		d->job.seqno = field(e, "seqno");
		break;
	case GEV_BO_MOVE:
		d->mem.bo = field(e, "bo");
		d->mem.bo_size = field(e, "bo_size");
		d->mem.from = field(e, "old_placement");
		d->mem.to = field(e, "new_placement");
		break;
	case GEV_BO_CREATE:
		d->mem.bo = field(e, "bo");
		d->mem.pages = field(e, "pages");
		d->mem.to = field(e, "prefer");
		break;
	case GEV_VM_GRAB_ID: case GEV_VM_FLUSH:
		d->ring = string_field(e, "ring");
		d->mem.vmid = field(e, "vmid");
		d->mem.vm_hub = field(e, "vm_hub");
		d->mem.needs_flush = field(e, "needs_flush");
		break;
	case GEV_VM_UPDATE_PTES:
		d->mem.va_start = field(e, "start");
		d->mem.va_last = field(e, "end");
		d->mem.vm_pid = field(e, "pid");
		break;
	case GEV_VM_BO_MAP: case GEV_VM_BO_UNMAP:
		d->mem.bo = field(e, "bo");
		d->mem.va_start = field(e, "start");
		d->mem.va_last = field(e, "last");
		break;
	case GEV_DMA_BUF:
		d->dma_buf_op = gpu_event_dma_buf_op(e->name);
		d->driver = field(e, "exp_name");
		d->dev = field(e, "dev_name");
		d->mem.bo_size = field(e, "size");
		d->mem.ino = field(e, "ino");
		d->mem.bo = field(e, "attach");
		break;
	case GEV_AMDGPU_OTHER: case GEV_KFD_EVENT:
		d->ring = first_field(e, "ring", "ring_name");
		d->timeline = field(e, "timeline");
		break;
	default:
		break;
	}
	d->groups = (HAS_GROUP(d, job) ? DG_JOB : 0) | (HAS_GROUP(d, vblank) ? DG_VBLANK : 0) |
		    (HAS_GROUP(d, func) ? DG_FUNC : 0) | (HAS_GROUP(d, mem) ? DG_MEMORY : 0) |
		    (HAS_GROUP(d, i915) ? DG_I915 : 0);
}

/*
 * A field's number through record_field_read() (inlined: every field of every record);
 * false, and 0 in @v, when the format lacks the field or the record does not hold it: the
 * latter is a miss, which sets @bit in ev->missing.
 */
static bool num_read(const struct tep_format_field *f, const struct tep_record *r,
		     struct gpu_event *ev, enum gpu_field bit, unsigned long long *v)
{
	uint64_t x = 0;
	bool read = f && record_field_read(f, r, &x);

	if (f && !read)
		ev->missing |= 1ULL << bit;
	*v = x;
	return read;
}

/* the same, as a value: 0 where the field is absent or missed */
static unsigned long long num(const struct tep_format_field *f, const struct tep_record *r,
			      struct gpu_event *ev, enum gpu_field bit)
{
	unsigned long long v;

	num_read(f, r, ev, bit, &v);
	return v;
}

static long long sign_extend(const struct tep_format_field *f, uint64_t v)
{
	if (!(f->flags & TEP_FIELD_IS_SIGNED) || f->size >= 8)
		return (long long)v;
	if (f->size == 4)
		return (int)v;
	if (f->size == 2)
		return (short)v;
	return (signed char)v;
}

static long long snum(const struct tep_format_field *f, const struct tep_record *r,
		       struct gpu_event *ev, enum gpu_field bit)
{
	return f ? sign_extend(f, num(f, r, ev, bit)) : 0;
}

static void str(const struct tep_format_field *f, const struct tep_record *r, char *out,
		struct gpu_event *ev, enum gpu_field bit)
{
	if (!f)
		out[0] = '\0';
	else if (!record_field_str(f, r, out, GEV_STR_LEN))
		ev->missing |= 1ULL << bit;
}

#define MISSED(ev, bit) ((ev)->missing & (1ULL << (bit)))

static void decode_job(const struct event_desc *d, struct tep_record *r, struct gpu_event *ev)
{
	unsigned long long v;

	ev->id = num(d->job.id, r, ev, GF_ID);
	ev->fence_ptr = num(d->job.fence_ptr, r, ev, GF_FENCE_PTR);
	ev->ctx = num(d->job.ctx, r, ev, GF_CTX);
	ev->seqno = num(d->job.seqno, r, ev, GF_SEQNO);
	ev->dep_ctx = num(d->job.dep_ctx, r, ev, GF_DEP_CTX);
	ev->dep_seqno = num(d->job.dep_seqno, r, ev, GF_DEP_SEQNO);
	ev->dep_ptr = num(d->job.dep_ptr, r, ev, GF_DEP_PTR);
	ev->ring_ptr = num(d->job.ring_ptr, r, ev, GF_RING_PTR);
	ev->client_id = num(d->job.client_id, r, ev, GF_CLIENT_ID);
	ev->job_count = snum(d->job.job_count, r, ev, GF_JOB_COUNT);
	ev->hw_job_count = snum(d->job.hw_job_count, r, ev, GF_HW_JOB_COUNT);
	if (num_read(d->job.num_ibs, r, ev, GF_NUM_IBS, &v))
		ev->num_ibs = (long long)v;
}

static void decode_duration(const struct event_desc *d, struct tep_record *r,
			    struct gpu_event *ev)
{
	unsigned long long call, ret;
	bool has_call = num_read(d->func.calltime, r, ev, GF_CALLTIME, &call);
	bool has_ret = num_read(d->func.rettime, r, ev, GF_RETTIME, &ret);

	if (has_call && has_ret && ret >= call)
		ev->duration = ret - call;
}

static void decode_function(const struct event_desc *d, struct tep_record *r,
			    struct gpu_event *ev)
{
	ev->func_ip = num(d->func.ip, r, ev, GF_FUNC_IP);
	ev->parent_ip = num(d->func.parent_ip, r, ev, GF_PARENT_IP);
	ev->depth = (int)snum(d->func.depth, r, ev, GF_DEPTH);
	decode_duration(d, r, ev);
}

static void decode_memory(const struct event_desc *d, struct tep_record *r,
			  struct gpu_event *ev)
{
	unsigned long long v;

	ev->owner_prev = num(d->mem.owner_prev, r, ev, GF_OWNER_PREV);
	ev->owner_next = num(d->mem.owner_next, r, ev, GF_OWNER_NEXT);
	ev->bo = num(d->mem.bo, r, ev, GF_BO);
	/* a page is 4 KiB on every amdgpu host (x86-64, arm64 with 4K pages) */
	ev->bo_bytes = d->mem.bo_size ? num(d->mem.bo_size, r, ev, GF_BO_BYTES) :
		       num(d->mem.pages, r, ev, GF_BO_BYTES) * 4096ULL;
	ev->placement_from = (unsigned int)num(d->mem.from, r, ev, GF_PLACEMENT_FROM);
	ev->placement_to = (unsigned int)num(d->mem.to, r, ev, GF_PLACEMENT_TO);
	ev->vmid = (unsigned int)num(d->mem.vmid, r, ev, GF_VMID);
	ev->vm_hub = (unsigned int)num(d->mem.vm_hub, r, ev, GF_VM_HUB);
	ev->needs_flush = num(d->mem.needs_flush, r, ev, GF_NEEDS_FLUSH) != 0;
	if (num_read(d->mem.vm_pid, r, ev, GF_VM_PID, &v))
		ev->vm_pid = (int)sign_extend(d->mem.vm_pid, v);
	ev->va_start = num(d->mem.va_start, r, ev, GF_VA_START);
	ev->va_last = num(d->mem.va_last, r, ev, GF_VA_LAST);
	ev->ino = num(d->mem.ino, r, ev, GF_INO);
}

/* The keys a missing field leaves: an event is joined by none of them (gpu_event.missing). */
static void settle_missing(const struct event_desc *d, struct gpu_event *ev)
{
	if (!ev->missing)
		return;
	if (MISSED(ev, GF_ID))
		ev->has_id = false;
	if (MISSED(ev, GF_CTX) || MISSED(ev, GF_SEQNO))
		ev->has_fence = false;
	if (MISSED(ev, GF_CLIENT_ID))
		ev->has_client_id = false;
	ev->has_dep = (d->job.dep_ctx && d->job.dep_seqno && !MISSED(ev, GF_DEP_CTX) &&
		       !MISSED(ev, GF_DEP_SEQNO)) || (d->job.dep_ptr && !MISSED(ev, GF_DEP_PTR));
}

/* What every event has: its identity, its strings, the defaults of fields it may lack. */
static void decode_head(const struct event_desc *d, struct tep_record *r, int pid,
			struct gpu_event *ev)
{
	/*
	 * The strings come last in the struct and str() terminates each. What
	 * is before them is cleared 64 bytes at a time: as one memset() of its
	 * few hundred bytes gcc emits rep stos, whose start-up was most of this
	 * function's time on the reading thread.
	 */
	const size_t head = offsetof(struct gpu_event, ring);
	size_t at;

	for (at = 0; at + 64 <= head; at += 64)
		memset((char *)ev + at, 0, 64);
	memset((char *)ev + at, 0, head - at);
	ev->kind = d->kind;
	ev->name = d->event->name;
	ev->ts = r->ts;
	ev->cpu = r->cpu;
	ev->pid = pid;
	ev->has_id = d->job.id != NULL;
	ev->has_fence = d->job.ctx && d->job.seqno;
	ev->has_dep = (d->job.dep_ctx && d->job.dep_seqno) || d->job.dep_ptr;
	ev->has_client_id = d->job.client_id != NULL;
	ev->num_ibs = -1;
	ev->vm_pid = -1;
	if (d->kind == GEV_I915_REQUEST) {
		ev->engine_class = ev->engine_instance = ev->engine_id = ev->completed = -1;
		ev->drm_minor = -1;
	}
	ev->dma_buf_op = d->dma_buf_op;
}

/*
 * A fence's timeline is its ring; so is an amdgpu job's where ring_name
 * is a pointer (before 5.5) and only the timeline names the ring
 */
static void ring_from_timeline(struct gpu_event *ev)
{
	size_t i;

	if (!ev->ring[0] && ev->timeline[0] &&
	    (gpu_event_is_fence(ev->kind) ||
	     ev->kind == GEV_SUBMIT || ev->kind == GEV_AMDGPU_RUN))
		/*
		 * Byte by byte, as record_field_str() just wrote it: a memcpy's
		 * wide loads of those fresh byte stores stalled the reading
		 * thread (4% of its samples in a profile)
		 */
		for (i = 0; i < sizeof(ev->ring) && (ev->ring[i] = ev->timeline[i]); i++)
			;
}

/*
 * A name record_field_str() has just written, against a literal: byte by
 * byte, as with the ring above (libc's strcmp reads 32 bytes at once and
 * stalled on those fresh stores: 4% of the decoding samples).
 */
static bool fresh_name_is(const char *name, const char *lit)
{
	while (*lit && *name == *lit) {
		name++;
		lit++;
	}
	return *name == *lit;
}

/*
 * An i915 request's engine by the name the driver's tools give it: uabi
 * class:instance (later kernels; a virtual engine, whose requests any of its
 * siblings may run, is class INVALID and instance INVALID_VIRTUAL), or the
 * engine id of kernels before class:instance. That enum grew at 4.17 (RCS,
 * BCS, VCS, VCS2, then VCS3, VCS4, VECS, VECS2; VECS was 4 before): ids past 3
 * are named by number.
 */
static void i915_engine(struct gpu_event *ev)
{
	static const char *const classes[] = { "rcs", "bcs", "vcs", "vecs", "ccs" };
	static const char *const ids[] = { "rcs0", "bcs0", "vcs0", "vcs1" };

	if (ev->drm_minor >= 0)
		snprintf(ev->dev, sizeof(ev->dev), "card%d", ev->drm_minor);
	if (ev->engine_class == 0xffff && ev->engine_instance == 0xfffe) {
		snprintf(ev->ring, sizeof(ev->ring), "virtual");
	} else if (ev->engine_class >= 0 && ev->engine_instance >= 0) {
		if (ev->engine_class < (int)(sizeof(classes) / sizeof(classes[0])))
			snprintf(ev->ring, sizeof(ev->ring), "%s%d", classes[ev->engine_class],
				 ev->engine_instance);
		else
			snprintf(ev->ring, sizeof(ev->ring), "class %d:%d", ev->engine_class,
				 ev->engine_instance);
	} else if (ev->engine_id >= 0) {
		if (ev->engine_id < (int)(sizeof(ids) / sizeof(ids[0])))
			snprintf(ev->ring, sizeof(ev->ring), "%s", ids[ev->engine_id]);
		else
			snprintf(ev->ring, sizeof(ev->ring), "engine %d", ev->engine_id);
	}
}

/* on the decoding side (a second thread in report), so the join compares no names */
static void classify_fence(struct gpu_event *ev)
{
	if (!gpu_event_is_fence(ev->kind))
		return;
	/* most fences are a driver's own: its first letter settles it */
	if ((ev->driver[0] == 'd' && fresh_name_is(ev->driver, "drm_sched")) ||
	    (ev->driver[0] == 'a' && fresh_name_is(ev->driver, "amd_sched")))
		ev->fence_driver = FENCE_DRIVER_SCHEDULER;
	else if (ev->driver[0] == 'v' && fresh_name_is(ev->driver, "virtio_gpu"))
		ev->fence_driver = FENCE_DRIVER_VIRTIO;
}

/* The reference decoder: field by field, each checked (gpu_event_decode_one()). */
static enum gpu_event_kind decode(const struct event_desc *d, struct tep_record *r, int pid,
				  struct gpu_event *ev)
{
	unsigned long long v;

	decode_head(d, r, pid, ev);
	str(d->ring, r, ev->ring, ev, GF_RING);
	str(d->timeline, r, ev->timeline, ev, GF_TIMELINE);
	str(d->driver, r, ev->driver, ev, GF_DRIVER);
	str(d->dev, r, ev->dev, ev, GF_DEV);
	ring_from_timeline(ev);
	classify_fence(ev);
	if (d->groups & DG_JOB)
		decode_job(d, r, ev);
	if (d->groups & DG_VBLANK) {
		ev->crtc = snum(d->vblank.crtc, r, ev, GF_CRTC);
		ev->vblank_seq = (long long)num(d->vblank.seq, r, ev, GF_VBLANK_SEQ);
		ev->vblank_time = snum(d->vblank.time, r, ev, GF_VBLANK_TIME);
		ev->vblank_file = num(d->vblank.file, r, ev, GF_VBLANK_FILE);
		ev->vblank_high_prec = num(d->vblank.high_prec, r, ev, GF_VBLANK_HIGH_PREC) != 0;
	}
	if (d->groups & DG_FUNC)
		decode_function(d, r, ev);
	if (d->groups & DG_MEMORY)
		decode_memory(d, r, ev);
	if (d->groups & DG_I915) {
		/* a missing one stays -1: no completed, not completed=0 (a preemption) */
		if (num_read(d->i915.klass, r, ev, GF_ENGINE_CLASS, &v))
			ev->engine_class = (int)v;
		if (num_read(d->i915.instance, r, ev, GF_ENGINE_INSTANCE, &v))
			ev->engine_instance = (int)v;
		if (num_read(d->i915.engine_id, r, ev, GF_ENGINE_ID, &v))
			ev->engine_id = (int)v;
		if (num_read(d->i915.completed, r, ev, GF_COMPLETED, &v))
			ev->completed = (int)v;
		if (num_read(d->i915.minor, r, ev, GF_DRM_MINOR, &v))
			ev->drm_minor = (int)v;
	}
	settle_missing(d, ev);
	if (ev->kind == GEV_I915_REQUEST)
		i915_engine(ev);
	return ev->kind;
}

static void add_op(struct event_desc *d, const struct tep_format_field *f, size_t dst, int type,
		   enum gpu_field bit)
{
	if (!f || d->nr_ops >= (int)(sizeof(d->ops) / sizeof(d->ops[0])))
		return;
	d->ops[d->nr_ops++] = (struct field_op){ f, (unsigned short)dst, (unsigned char)type,
						 (unsigned char)bit };
	if (type == OP_STR)
		return;		/* record_field_str() checks its own bounds */
	if (f->offset < 0 || f->size < 0)
		d->end = LLONG_MAX;
	else if ((long long)f->offset + f->size > d->end)
		d->end = (long long)f->offset + f->size;
}

#define OP(d, field, member, type, bit) \
	add_op(d, field, offsetof(struct gpu_event, member), type, bit)

/*
 * decode()'s fields as one list, prepared once per event: only those its
 * format has, in the order decode() reads them, each with where and how it
 * lands. The unit tests hold the two to the same result on every format.
 */
static void prepare(struct event_desc *d)
{
	d->nr_ops = 0;
	d->end = 0;
	OP(d, d->ring, ring, OP_STR, GF_RING);
	OP(d, d->timeline, timeline, OP_STR, GF_TIMELINE);
	OP(d, d->driver, driver, OP_STR, GF_DRIVER);
	OP(d, d->dev, dev, OP_STR, GF_DEV);
	OP(d, d->job.id, id, OP_ULL, GF_ID);
	OP(d, d->job.fence_ptr, fence_ptr, OP_ULL, GF_FENCE_PTR);
	OP(d, d->job.ctx, ctx, OP_ULL, GF_CTX);
	OP(d, d->job.seqno, seqno, OP_ULL, GF_SEQNO);
	OP(d, d->job.dep_ctx, dep_ctx, OP_ULL, GF_DEP_CTX);
	OP(d, d->job.dep_seqno, dep_seqno, OP_ULL, GF_DEP_SEQNO);
	OP(d, d->job.dep_ptr, dep_ptr, OP_ULL, GF_DEP_PTR);
	OP(d, d->job.ring_ptr, ring_ptr, OP_ULL, GF_RING_PTR);
	OP(d, d->job.client_id, client_id, OP_ULL, GF_CLIENT_ID);
	OP(d, d->job.job_count, job_count, OP_SLL, GF_JOB_COUNT);
	OP(d, d->job.hw_job_count, hw_job_count, OP_SLL, GF_HW_JOB_COUNT);
	OP(d, d->job.num_ibs, num_ibs, OP_LL, GF_NUM_IBS);
	OP(d, d->vblank.crtc, crtc, OP_SLL, GF_CRTC);
	OP(d, d->vblank.seq, vblank_seq, OP_LL, GF_VBLANK_SEQ);
	OP(d, d->vblank.time, vblank_time, OP_SLL, GF_VBLANK_TIME);
	OP(d, d->vblank.file, vblank_file, OP_ULL, GF_VBLANK_FILE);
	OP(d, d->vblank.high_prec, vblank_high_prec, OP_BOOL, GF_VBLANK_HIGH_PREC);
	OP(d, d->func.ip, func_ip, OP_ULL, GF_FUNC_IP);
	OP(d, d->func.parent_ip, parent_ip, OP_ULL, GF_PARENT_IP);
	OP(d, d->func.depth, depth, OP_SINT, GF_DEPTH);
	OP(d, d->mem.owner_prev, owner_prev, OP_ULL, GF_OWNER_PREV);
	OP(d, d->mem.owner_next, owner_next, OP_ULL, GF_OWNER_NEXT);
	OP(d, d->mem.bo, bo, OP_ULL, GF_BO);
	if (d->mem.bo_size)
		OP(d, d->mem.bo_size, bo_bytes, OP_ULL, GF_BO_BYTES);
	else
		OP(d, d->mem.pages, bo_bytes, OP_PAGES, GF_BO_BYTES);
	OP(d, d->mem.from, placement_from, OP_UINT, GF_PLACEMENT_FROM);
	OP(d, d->mem.to, placement_to, OP_UINT, GF_PLACEMENT_TO);
	OP(d, d->mem.vmid, vmid, OP_UINT, GF_VMID);
	OP(d, d->mem.vm_hub, vm_hub, OP_UINT, GF_VM_HUB);
	OP(d, d->mem.needs_flush, needs_flush, OP_BOOL, GF_NEEDS_FLUSH);
	OP(d, d->mem.vm_pid, vm_pid, OP_SINT, GF_VM_PID);
	OP(d, d->mem.va_start, va_start, OP_ULL, GF_VA_START);
	OP(d, d->mem.va_last, va_last, OP_ULL, GF_VA_LAST);
	OP(d, d->mem.ino, ino, OP_ULL, GF_INO);
	OP(d, d->i915.klass, engine_class, OP_UINT, GF_ENGINE_CLASS);
	OP(d, d->i915.instance, engine_instance, OP_UINT, GF_ENGINE_INSTANCE);
	OP(d, d->i915.engine_id, engine_id, OP_UINT, GF_ENGINE_ID);
	OP(d, d->i915.completed, completed, OP_UINT, GF_COMPLETED);
	OP(d, d->i915.minor, drm_minor, OP_UINT, GF_DRM_MINOR);
}

#define STORE(p, type, value) do { type x_ = (value); memcpy(p, &x_, sizeof(x_)); } while (0)

/* The per-record decoder: the prepared list, one bounds check for the whole record. */
static enum gpu_event_kind decode_prepared(const struct event_desc *d, struct tep_record *r,
					   int pid, struct gpu_event *ev)
{
	const unsigned char *data = r->data;
	bool whole = data && r->size >= d->end;
	int i;

	decode_head(d, r, pid, ev);
	/* the strings the format lacks: empty, as str() leaves them */
	ev->ring[0] = ev->timeline[0] = ev->driver[0] = ev->dev[0] = '\0';
	for (i = 0; i < d->nr_ops; i++) {
		const struct field_op *op = &d->ops[i];
		char *dst = (char *)ev + op->dst;
		uint64_t v;

		if (op->type == OP_STR) {
			str(op->f, r, dst, ev, op->bit);
			continue;
		}
		if (whole) {
			v = record_field_value(op->f, data);	/* the record holds them all */
		} else if (!record_field_read(op->f, r, &v)) {
			/* a miss: the value stays as for an event without the field */
			ev->missing |= 1ULL << op->bit;
			continue;
		}
		switch (op->type) {
		case OP_ULL: STORE(dst, unsigned long long, v); break;
		case OP_LL: STORE(dst, long long, (long long)v); break;
		case OP_SLL: STORE(dst, long long, sign_extend(op->f, v)); break;
		case OP_UINT: STORE(dst, unsigned int, (unsigned int)v); break;
		case OP_SINT: STORE(dst, int, (int)sign_extend(op->f, v)); break;
		case OP_BOOL: STORE(dst, bool, v != 0); break;
		case OP_PAGES: STORE(dst, unsigned long long, v * 4096ULL); break;
		}
	}
	ring_from_timeline(ev);
	classify_fence(ev);
	if (d->groups & DG_FUNC)
		decode_duration(d, r, ev);
	settle_missing(d, ev);
	if (ev->kind == GEV_I915_REQUEST)
		i915_engine(ev);
	return ev->kind;
}

struct gpu_decoder {
	struct tep_handle *tep;
	/* every record's, read in place (NULL: formats without them, a damaged file) */
	struct tep_format_field *common_type, *common_pid;
	int common_end;			/* a record this long holds both; -1: check each */
	int max_id;
	struct event_desc **by_id;	/* indexed by event id; NULL: not ours */
	char **systems;
	int nr_systems, nr_events;
};

static void note_system(struct gpu_decoder *dec, const char *sys)
{
	char **n;
	int i;

	for (i = 0; i < dec->nr_systems; i++)
		if (!strcmp(dec->systems[i], sys))
			return;
	n = realloc(dec->systems, sizeof(*n) * (size_t)(dec->nr_systems + 1));
	if (!n)
		return;
	dec->systems = n;
	dec->systems[dec->nr_systems] = strdup(sys);
	if (dec->systems[dec->nr_systems])
		dec->nr_systems++;
}

/*
 * A common field within the record's first 64 bytes (the kernel's are in
 * its first 8); one a format places further out is checked record by record
 */
static bool near_start(const struct tep_format_field *f)
{
	return f && f->offset >= 0 && f->size >= 0 && f->offset <= 64 && f->size <= 64 - f->offset;
}

struct gpu_decoder *gpu_decoder_new(struct tep_handle *tep)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int nr = tep_get_events_count(tep), i;
	struct gpu_decoder *dec = calloc(1, sizeof(*dec));

	if (!dec || !events) {
		free(dec);
		return NULL;
	}
	dec->tep = tep;
	if (nr > 0) {
		dec->common_type = tep_find_common_field(events[0], "common_type");
		dec->common_pid = tep_find_common_field(events[0], "common_pid");
	}
	dec->common_end = -1;
	if (near_start(dec->common_type) && near_start(dec->common_pid)) {
		dec->common_end = dec->common_type->offset + dec->common_type->size;
		if (dec->common_pid->offset + dec->common_pid->size > dec->common_end)
			dec->common_end = dec->common_pid->offset + dec->common_pid->size;
	}
	for (i = 0; i < nr; i++)
		if (events[i]->id > dec->max_id)
			dec->max_id = events[i]->id;
	dec->by_id = calloc((size_t)dec->max_id + 1, sizeof(*dec->by_id));
	for (i = 0; dec->by_id && i < nr; i++) {
		enum gpu_event_kind kind = gpu_event_kind_of(events[i]->system, events[i]->name);
		struct event_desc *d;

		/* a damaged file can give two formats one id, or a negative one */
		if (kind == GEV_NONE || events[i]->id < 0 || dec->by_id[events[i]->id])
			continue;
		d = malloc(sizeof(*d));
		if (!d)
			continue;
		describe(d, events[i], kind);
		prepare(d);
		dec->by_id[events[i]->id] = d;
		dec->nr_events++;
		note_system(dec, events[i]->system);
	}
	if (!dec->by_id) {
		gpu_decoder_free(dec);
		return NULL;
	}
	return dec;
}

void gpu_decoder_free(struct gpu_decoder *dec)
{
	int i;

	if (!dec)
		return;
	for (i = 0; dec->by_id && i <= dec->max_id; i++)
		free(dec->by_id[i]);
	for (i = 0; i < dec->nr_systems; i++)
		free(dec->systems[i]);
	free(dec->systems);
	free(dec->by_id);
	free(dec);
}

void gpu_decoder_common(const struct gpu_decoder *dec, struct tep_record *rec, int *type,
			int *pid)
{
	/*
	 * libtraceevent finds these in the same first format and fails the
	 * same way without them; asking it would also set its lazy state from
	 * whichever thread came first
	 */
	uint64_t v;

	/* every record but a damaged one: both fields checked at once */
	if (dec->common_end >= 0 && rec->data && rec->size >= dec->common_end) {
		*type = (int)record_field_value(dec->common_type, rec->data);
		*pid = (int)sign_extend(dec->common_pid, record_field_value(dec->common_pid, rec->data));
		return;
	}
	*type = dec->common_type && record_field_read(dec->common_type, rec, &v) ? (int)v : -1;
	*pid = dec->common_pid && record_field_read(dec->common_pid, rec, &v) ?
	       (int)sign_extend(dec->common_pid, v) : -1;
}

enum gpu_event_kind gpu_decoder_decode_as(const struct gpu_decoder *dec, struct tep_record *rec,
					  int type, int pid, struct gpu_event *ev)
{
	if (type < 0 || type > dec->max_id || !dec->by_id[type])
		return GEV_NONE;
	return decode_prepared(dec->by_id[type], rec, pid, ev);
}

enum gpu_event_kind gpu_decoder_kind(const struct gpu_decoder *dec, int type)
{
	if (type < 0 || type > dec->max_id || !dec->by_id[type])
		return GEV_NONE;
	return dec->by_id[type]->kind;
}

/* decode_prepared()'s misses alone: its checks in its order, nothing written */
uint64_t gpu_decoder_missing(const struct gpu_decoder *dec, const struct tep_record *rec, int type)
{
	const struct event_desc *d;
	uint64_t missing = 0, v;
	bool whole;
	int i;

	if (type < 0 || type > dec->max_id || !dec->by_id[type])
		return 0;
	d = dec->by_id[type];
	whole = rec->data && rec->size >= d->end;
	for (i = 0; i < d->nr_ops; i++) {
		const struct field_op *op = &d->ops[i];

		if (op->type == OP_STR ? !record_field_str_whole(op->f, rec) :
		    !whole && !record_field_read(op->f, rec, &v))
			missing |= 1ULL << op->bit;
	}
	if (d->groups & DG_FUNC) {
		if (d->func.calltime && !record_field_read(d->func.calltime, rec, &v))
			missing |= 1ULL << GF_CALLTIME;
		if (d->func.rettime && !record_field_read(d->func.rettime, rec, &v))
			missing |= 1ULL << GF_RETTIME;
	}
	return missing;
}

enum gpu_event_kind gpu_decoder_decode(struct gpu_decoder *dec,
				       struct tep_record *rec,
				       struct gpu_event *ev)
{
	int type, pid;

	gpu_decoder_common(dec, rec, &type, &pid);
	return gpu_decoder_decode_as(dec, rec, type, pid, ev);
}

bool gpu_decoder_has_system(const struct gpu_decoder *dec, const char *system)
{
	int i;

	for (i = 0; i < dec->nr_systems; i++)
		if (!strcmp(dec->systems[i], system))
			return true;
	return false;
}

bool gpu_jobs_from_fences(char *const *systems, int nr_systems)
{
	/* i915 has no DRM scheduler: its request events are its jobs (i915-requests.h) */
	static const char *const job_systems[] = { "gpu_scheduler", "gpu_sched", "amdgpu", "i915" };
	size_t k;
	int i;

	for (i = 0; i < nr_systems; i++)
		for (k = 0; k < sizeof(job_systems) / sizeof(job_systems[0]); k++)
			if (!strcmp(systems[i], job_systems[k]))
				return false;
	return true;
}

bool gpu_decoder_jobs_from_fences(const struct gpu_decoder *dec)
{
	return gpu_jobs_from_fences(dec->systems, dec->nr_systems);
}

bool gpu_fence_kind_joined(enum gpu_event_kind kind, bool jobs_from_fences, bool virtio)
{
	switch (kind) {
	case GEV_FENCE_SIGNALED:
		return true;
	case GEV_FENCE_EMIT:
		return jobs_from_fences || virtio;
	case GEV_FENCE_INIT:
	case GEV_FENCE_DESTROY:
		return jobs_from_fences;
	default:
		return false;
	}
}

int gpu_decoder_nr_events(const struct gpu_decoder *dec)
{
	return dec->nr_events;
}

enum gpu_event_kind gpu_event_decode_one(struct tep_event *event,
					 struct tep_record *rec,
					 struct gpu_event *ev)
{
	enum gpu_event_kind kind = gpu_event_kind_of(event->system, event->name);
	struct event_desc d;

	if (kind == GEV_NONE)
		return GEV_NONE;
	describe(&d, event, kind);
	return decode(&d, rec, tep_data_pid(event->tep, rec), ev);
}

enum gpu_event_kind gpu_decoder_decode_event(const struct gpu_decoder *dec,
					     struct tep_event *event, struct tep_record *rec,
					     struct gpu_event *ev)
{
	const struct event_desc *d = NULL;

	if (dec && event->id >= 0 && event->id <= dec->max_id)
		d = dec->by_id[event->id];
	/* a damaged file's two formats of one id: the prepared one may be the other's */
	if (!d || d->event != event)
		return gpu_event_decode_one(event, rec, ev);
	return decode_prepared(d, rec, tep_data_pid(event->tep, rec), ev);
}

const char *gpu_field_name(enum gpu_field field)
{
	static const char *const names[GF_NR] = {
		"ring", "timeline", "driver", "dev", "id", "fence_ptr", "ctx", "seqno", "dep_ctx",
		"dep_seqno", "dep_ptr", "client_id", "job_count", "hw_job_count", "num_ibs", "crtc",
		"vblank_seq", "vblank_time", "vblank_file", "high_prec", "func_ip", "parent_ip",
		"depth", "calltime", "rettime", "owner_prev", "owner_next", "bo", "bo_bytes",
		"placement_from", "placement_to", "vmid", "vm_hub", "needs_flush", "vm_pid",
		"va_start", "va_last", "ino", "engine_class", "engine_instance", "engine_id",
		"completed", "drm_minor", "ring_ptr",
	};

	return (unsigned int)field < GF_NR ? names[field] : "?";
}

/* the format's field that @bit of gpu_event.missing stands for in event @d; NULL if none */
static const struct tep_format_field *field_of_bit(const struct event_desc *d, int bit)
{
	int i;

	if (bit == GF_CALLTIME)
		return d->func.calltime;
	if (bit == GF_RETTIME)
		return d->func.rettime;
	for (i = 0; i < d->nr_ops; i++)
		if (d->ops[i].bit == bit)
			return d->ops[i].f;
	return NULL;
}

void gpu_decoder_field_names(const struct gpu_decoder *dec, int type, uint64_t missing,
			     char *out, size_t len)
{
	const struct tep_format_field *seen[GF_NR];
	const struct event_desc *d;
	size_t off = 0;
	int bit, nr_seen = 0, k;

	if (!len)
		return;
	out[0] = '\0';
	if (type < 0 || type > dec->max_id || !dec->by_id[type])
		return;
	d = dec->by_id[type];
	for (bit = 0; bit < GF_NR; bit++) {
		const struct tep_format_field *f;
		int n;

		if (!(missing & (1ULL << bit)) || !(f = field_of_bit(d, bit)))
			continue;
		/* one field may give two values (an amdgpu job's ring and timeline) */
		for (k = 0; k < nr_seen && seen[k] != f; k++)
			;
		if (k < nr_seen)
			continue;
		seen[nr_seen++] = f;
		n = snprintf(out + off, len - off, "%s%s", off ? "," : "",
			     f->name ? f->name : gpu_field_name((enum gpu_field)bit));
		if (n < 0 || (size_t)n >= len - off)
			return;		/* cut: snprintf() has terminated it */
		off += (size_t)n;
	}
}
