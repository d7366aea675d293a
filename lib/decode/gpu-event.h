/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_GPU_EVENT_H
#define GT_GPU_EVENT_H

#include <event-parse.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One GPU driver record, normalised: which stage of a job it is and the keys
 * that join it to the others, read by field NAME from the record's format so
 * that 6.1, 6.12, 6.17+ and 7.x layouts (and kprobe variants) all decode.
 */
enum gpu_event_kind {
	GEV_NONE = 0,
	GEV_SUBMIT,		/* amdgpu_cs_ioctl: the submitting ioctl */
	GEV_QUEUE,		/* drm_sched_job (<= 6.16), drm_sched_job_queue */
	GEV_DEP_ADD,		/* drm_sched_job_add_dep: every dependency, at push */
	GEV_DEP_WAIT,		/* drm_sched_job_wait_dep, drm_sched_job_unschedulable */
	GEV_RUN,		/* drm_run_job (<= 6.16), drm_sched_job_run */
	GEV_AMDGPU_RUN,		/* amdgpu_sched_run_job */
	GEV_DONE,		/* drm_sched_process_job (<= 6.16), drm_sched_job_done */
	GEV_FENCE_INIT,
	GEV_FENCE_EMIT,
	GEV_FENCE_ENABLE_SIGNAL,
	GEV_FENCE_SIGNALED,
	GEV_FENCE_WAIT_START,
	GEV_FENCE_WAIT_END,
	GEV_FENCE_DESTROY,
	GEV_VBLANK,		/* drm_vblank_event */
	GEV_VBLANK_QUEUED,
	GEV_VBLANK_DELIVERED,
	GEV_I915_REQUEST,	/* i915_request_* (stage in ev->name) */
	GEV_XE_JOB,		/* xe_sched_job_* */
	GEV_VIRTIO_CMD_QUEUE,
	GEV_VIRTIO_CMD_RESPONSE,
	GEV_ISOLATION,		/* amdgpu_isolation: a partition changes owner (6.15+) */
	GEV_CLEANER_SHADER,	/* amdgpu_cleaner_shader: run before the new owner's job */
	GEV_BO_MOVE,		/* amdgpu_bo_move: a buffer moves between placements */
	GEV_BO_CREATE,		/* amdgpu_bo_create */
	GEV_VM_GRAB_ID,		/* amdgpu_vm_grab_id: a job gets a VMID (maybe one to flush) */
	GEV_VM_FLUSH,		/* amdgpu_vm_flush: a ring flushes a VMID's TLB before a job */
	GEV_VM_UPDATE_PTES,	/* amdgpu_vm_update_ptes: page-table entries of a process written */
	GEV_VM_BO_MAP,		/* amdgpu_vm_bo_map: a buffer mapped into a GPU VM */
	GEV_VM_BO_UNMAP,	/* amdgpu_vm_bo_unmap */
	GEV_DMA_BUF,		/* dma_buf_*: a shared buffer exported, imported, attached (6.17+) */
	GEV_AMDGPU_OTHER,	/* iv, userq, reg dumps, ... */
	GEV_KFD_EVENT,		/* a kfd/amdkfd tracepoint where a kernel has them */
	GEV_FUNC,		/* function tracer record (order only) */
	GEV_FUNC_ENTRY,		/* funcgraph_entry */
	GEV_FUNC_EXIT,		/* funcgraph_exit (with duration) */
	GEV_NR_KINDS
};

/** gpu_event_is_fence - @kind is one of dma_fence's events (dma_fence_init to _destroy) */
static inline bool gpu_event_is_fence(enum gpu_event_kind kind)
{
	return kind >= GEV_FENCE_INIT && kind <= GEV_FENCE_DESTROY;
}

#define GEV_STR_LEN 64
#define GEV_MAX_STINTS 4	/* a job's stints on the engine kept apart; past them, the last grows */

/* What a dma_buf_* event did, resolved once per event from its name. */
enum gpu_dma_buf_op {
	DMA_BUF_OTHER, DMA_BUF_EXPORT, DMA_BUF_FD, DMA_BUF_GET, DMA_BUF_ATTACH,
	DMA_BUF_DETACH, DMA_BUF_MMAP, DMA_BUF_PUT
};

/** gpu_event_dma_buf_op - what the dma_buf event of that name does; DMA_BUF_OTHER if unknown */
enum gpu_dma_buf_op gpu_event_dma_buf_op(const char *name);

/* Whose a dma_fence is, read once from its driver name where it is decoded. */
enum gpu_fence_driver {
	FENCE_DRIVER_OTHER = 0,
	FENCE_DRIVER_SCHEDULER,		/* drm_sched's finished fence; before 4.16 amd_sched's */
	FENCE_DRIVER_VIRTIO,		/* virtio_gpu: numbered when emitted */
};

/*
 * The normalised values of struct gpu_event that come from a record's fields, one bit each
 * in gpu_event.missing: set where the event's format names the field but the record does
 * not hold it (it lies past the record's end: a damaged or crafted file). The value is
 * then left as for an event without that field (0, -1 or "", has_* false), never read.
 */
enum gpu_field {
	GF_RING, GF_TIMELINE, GF_DRIVER, GF_DEV,
	GF_ID, GF_FENCE_PTR, GF_CTX, GF_SEQNO, GF_DEP_CTX, GF_DEP_SEQNO, GF_DEP_PTR,
	GF_CLIENT_ID, GF_JOB_COUNT, GF_HW_JOB_COUNT, GF_NUM_IBS,
	GF_CRTC, GF_VBLANK_SEQ, GF_VBLANK_TIME, GF_VBLANK_FILE, GF_VBLANK_HIGH_PREC,
	GF_FUNC_IP, GF_PARENT_IP, GF_DEPTH, GF_CALLTIME, GF_RETTIME,
	GF_OWNER_PREV, GF_OWNER_NEXT, GF_BO, GF_BO_BYTES, GF_PLACEMENT_FROM, GF_PLACEMENT_TO,
	GF_VMID, GF_VM_HUB, GF_NEEDS_FLUSH, GF_VM_PID, GF_VA_START, GF_VA_LAST, GF_INO,
	GF_ENGINE_CLASS, GF_ENGINE_INSTANCE, GF_ENGINE_ID, GF_COMPLETED, GF_DRM_MINOR,
	GF_RING_PTR,
	GF_NR
};
_Static_assert(GF_NR <= 64, "gpu_event.missing holds a bit per field");

struct gpu_event {
	/*
	 * What the frequent events' joins read, first: in a join_record (which holds the
	 * event from byte 56) the kind and the fence's driver share the record's first
	 * cache line, the rest its second, so that a fence's signal or wait costs the
	 * joining thread two lines written on the reading one (it cost five).
	 */
	enum gpu_event_kind kind;
	enum gpu_fence_driver fence_driver;	/* dma_fence_* events */
	/*
	 * 1 << GF_*: the fields outside the record (enum gpu_field). The session hands
	 * no join an event with any (gpu_decoder_field_names() names them for the report).
	 * Every record's take reads it, with the kind.
	 */
	uint64_t missing;
	unsigned long long ts;
	unsigned long long ctx, seqno;	/* finished fence context:seqno */
	unsigned long long id;		/* drm_sched job id (<= 6.16) */
	unsigned long long fence_ptr;	/* finished fence pointer (<= 6.16) */
	int pid;
	int cpu;
	bool has_id;
	bool has_fence;
	bool has_dep;
	bool has_client_id;
	const char *name;		/* the tracepoint's name */
	unsigned long long dep_ctx, dep_seqno;
	unsigned long long dep_ptr;	/* dependency fence pointer (<= 6.16) */
	/*
	 * Up to 5.1x (5.10) the scheduler's events hold the address of their ring's name, not the
	 * name: the same address for every event of one ring while the kernel runs (0: none)
	 */
	unsigned long long ring_ptr;
	unsigned long long client_id;
	long long job_count, hw_job_count;
	long long crtc, vblank_seq, vblank_time;
	unsigned long long vblank_file;	/* queued, delivered: the client's struct drm_file */
	bool vblank_high_prec;		/* drm_vblank_event: the hardware's timestamp */
	unsigned long long func_ip;	/* function records */
	unsigned long long parent_ip;
	int depth;
	unsigned long long duration;	/* funcgraph_exit: rettime - calltime */
	long long num_ibs;
	unsigned long long owner_prev, owner_next;	/* amdgpu_isolation */
	unsigned long long bo, bo_bytes;	/* amdgpu_bo_move, amdgpu_bo_create */
	unsigned int placement_from, placement_to;	/* move: TTM placements; create: domains */
	unsigned int vmid, vm_hub;	/* amdgpu_vm_grab_id, amdgpu_vm_flush */
	bool needs_flush;		/* amdgpu_vm_grab_id */
	int vm_pid;			/* amdgpu_vm_update_ptes: the process whose VM it is */
	unsigned long long va_start, va_last;	/* GPU pages: bo_map/unmap, update_ptes (end) */
	unsigned long long ino;		/* dma_buf_*: the buffer's inode (its size in bo_bytes,
					 * exporter in driver, attaching device in dev) */
	enum gpu_dma_buf_op dma_buf_op;
	/* i915 requests: the engine as uabi class:instance (4.16+) or engine id (4.x), and
	 * out's completed? (0: preempted); -1 where the request's event has none (other
	 * events: 0, never read). The engine's name
	 * (rcs0, vcs1, ...) is in ring, its device's DRM minor as "cardN" in dev. */
	int engine_class, engine_instance, engine_id, completed, drm_minor;
	/* strings last: decoding clears what is before them, not the strings (str() ends each) */
	char ring[GEV_STR_LEN];		/* scheduler ring / fence timeline */
	char timeline[GEV_STR_LEN];	/* amdgpu timeline, dma_fence timeline */
	char driver[GEV_STR_LEN];	/* dma_fence driver */
	char dev[GEV_STR_LEN];		/* device name (6.17+) */
};

struct gpu_decoder;

/** gpu_decoder_new - resolves the GPU events the file's formats know, once. */
struct gpu_decoder *gpu_decoder_new(struct tep_handle *tep);
/** gpu_decoder_free - the decoder and its per-event field offsets */
void gpu_decoder_free(struct gpu_decoder *dec);
/** gpu_decoder_decode - GEV_NONE for records that are not GPU events (cheap: one array lookup). */
enum gpu_event_kind gpu_decoder_decode(struct gpu_decoder *dec,
				       struct tep_record *rec,
				       struct gpu_event *ev);
/**
 * gpu_decoder_common - a record's event id and pid, read where the file's common fields put
 * them (no lookup; only reads the decoder, so a second thread may call it)
 */
void gpu_decoder_common(const struct gpu_decoder *dec, struct tep_record *rec, int *type,
			int *pid);
/** gpu_decoder_decode_as - gpu_decoder_decode() of a record whose id and pid are read */
enum gpu_event_kind gpu_decoder_decode_as(const struct gpu_decoder *dec, struct tep_record *rec,
					  int type, int pid, struct gpu_event *ev);
/**
 * gpu_decoder_kind - what a record of event id @type decodes to, read from the table alone
 * (GEV_NONE: no GPU event)
 */
enum gpu_event_kind gpu_decoder_kind(const struct gpu_decoder *dec, int type);
/**
 * gpu_decoder_missing - the fields (1 << GF_*) gpu_decoder_decode_as() would find outside
 * the record, nothing decoded: for records no one reads but whose misses are counted
 */
uint64_t gpu_decoder_missing(const struct gpu_decoder *dec, const struct tep_record *rec,
			     int type);
/**
 * gpu_decoder_has_system - the event systems the decoder found in the file, e.g.
 * "gpu_scheduler".
 */
bool gpu_decoder_has_system(const struct gpu_decoder *dec, const char *system);
/**
 * gpu_jobs_from_fences - whether jobs are the dma_fences themselves: none of @systems (a
 * file's, or what a capture enables) gives jobs of its own (a scheduler's, amdgpu's, i915's
 * requests)
 */
bool gpu_jobs_from_fences(char *const *systems, int nr_systems);
/** gpu_decoder_jobs_from_fences - gpu_jobs_from_fences() of the systems in the decoder's file */
bool gpu_decoder_jobs_from_fences(const struct gpu_decoder *dec);
/**
 * gpu_fence_kind_joined - whether the job join reads this kind of dma_fence event: the
 * signals always, inits, emits and destroys only where jobs are the fences, and the emits
 * of virtio-gpu (which numbers its fences then); a live capture leaves the others off in
 * the kernel
 */
bool gpu_fence_kind_joined(enum gpu_event_kind kind, bool jobs_from_fences, bool virtio);
/** gpu_decoder_nr_events - how many GPU events of @dec's tep it knows */
int gpu_decoder_nr_events(const struct gpu_decoder *dec);
/**
 * gpu_decoder_field_names - the format's names of the fields @missing (gpu_event.missing)
 * of event @type, comma-separated, into @out (cut to @len - 1 bytes; "" when @type is no
 * GPU event of @dec); the same field named once
 */
void gpu_decoder_field_names(const struct gpu_decoder *dec, int type, uint64_t missing,
			     char *out, size_t len);
/** gpu_field_name - a normalised value's name ("ctx", "completed", ...); "?" past GF_NR */
const char *gpu_field_name(enum gpu_field field);

/** gpu_event_decode_one - slow path for plugins: decode one record of a given event. */
enum gpu_event_kind gpu_event_decode_one(struct tep_event *event,
					 struct tep_record *rec,
					 struct gpu_event *ev);

/**
 * gpu_decoder_decode_event - gpu_event_decode_one() of a record of @event, through @dec's
 * prepared decoder where @dec holds that very format (the unit tests hold the two to one
 * result), else through gpu_event_decode_one(); @dec may be NULL
 */
enum gpu_event_kind gpu_decoder_decode_event(const struct gpu_decoder *dec,
					     struct tep_event *event, struct tep_record *rec,
					     struct gpu_event *ev);

/**
 * gpu_event_printed_next - the events the plugins print as one decoded line, from the one
 * table of GPU events: for (i = 0; gpu_event_printed_next(&i, &sys, &name); )
 */
bool gpu_event_printed_next(size_t *i, const char **system, const char **name);

/** gpu_event_kind_of - the kind a tracepoint decodes to, GEV_NONE if none. */
enum gpu_event_kind gpu_event_kind_of(const char *system, const char *name);
/** gpu_event_kind_name - a decoded event's kind ("queue", "run", "done", "fence_signaled", ...) */
const char *gpu_event_kind_name(enum gpu_event_kind kind);

/**
 * bo_placement_name - a buffer's placement as amdgpu_bo_move gives it: "system", "GTT",
 * "VRAM", ... ("?" past those the kernel defines)
 */
const char *bo_placement_name(unsigned int placement);

/** gpu_event_format - one line, like a trace-cmd plugin prints it (no newline). */
size_t gpu_event_format(const struct gpu_event *ev, char *buf, size_t len);

#endif
