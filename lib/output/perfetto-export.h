/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PERFETTO_EXPORT_H
#define GT_PERFETTO_EXPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/keymap.h"
#include "output/protobuf.h"
#include "analysis/analysis.h"

/*
 * The joined timeline as a Perfetto trace (TracePacket / TrackDescriptor /
 * TrackEvent), written while the pipeline runs: jobs as they retire, ring
 * counters, lost-event windows and vblanks as records pass, KFD queue
 * operations and user queues at the end. Nothing is kept per job, so memory stays flat.
 *
 * Tracks, per source file: "GPU" with one track per ring; under each ring
 * "hardware" (a job from its hardware start to done: rings run in order, so
 * these never overlap), "queued N" lanes (from the scheduler queue to the
 * hardware start, with "waiting for dependencies", "waiting for the ring"
 * and "sent to the hardware queue" inside) and the "in flight" counter;
 * "fence signals" (a dependency's signal, with a flow to the job that
 * waited on it); one thread track per submitter (a "submit" instant with a
 * flow to its job, inside the GPU ioctl that queued it where the file has the
 * workload's CPU side); "lost events" per CPU; "vblank" per CRTC; "KFD" per
 * process; "HIP runtime log" per process (an instant per line of the
 * runtime's log, a dispatch named after its kernel); "User queues (amdgpu)"
 * with a track per queue (its states, its fences on lanes), written at the
 * end from the join's bounded spans. Timestamps are the file's trace clock,
 * in nanoseconds, moved by the source's offset. Several sources share one trace: each one's tracks
 * then sit under a group track named after it. Each finished job is also Perfetto's own GPU data
 * (lib/output/perfetto-gpu.c): a render stage event on its ring's hardware queue; each ring's
 * jobs in flight and busy share are GPU counters (perfetto-gpu-counters.c), and the devices are
 * described once (GpuInfo).
 */
#define PF_MAX_GPUS	16

/* A device jobs ran on, by Perfetto gpu_id: numbered across all sources of the trace. */
struct pf_gpu {
	unsigned int source;
	uint32_t machine;		/* its source's (perfetto_source.machine) */
	int id;				/* Perfetto's gpu_id: numbered per machine */
	char dev[2 * GEV_STR_LEN];	/* "" when the events name none */
	char name[160];			/* the device, after its source's group when several */
	char rings[256];		/* its rings' names, for the GPU's description */
};

#define PF_HELD_SAMPLES 16

/* A ring's GPU counters (Perfetto GpuCounterEvent): in flight, and busy per window. */
struct pf_ring_counters {
	uint64_t iid;			/* its interned counter descriptor, or 0 */
	bool in_flight_begun;
	uint64_t in_flight_ts;		/* its last sample */
	uint64_t busy_win;		/* the window being filled (ns / PF_BUSY_WINDOW_NS) */
	uint64_t busy_ns;		/* busy in it so far */
	uint64_t busy_from;		/* nothing before this is counted again */
	bool busy_begun;
	bool run;			/* closed windows of one value, not yet written */
	double run_pct;
	uint64_t run_end;		/* the window after them */
	/*
	 * A ring known by a stand-in name (timeline_ring_stand_in()): its first samples,
	 * held until a later event names it, so that its interned descriptor has the name
	 */
	struct pf_held_sample {
		uint64_t ts;
		double v;
		int counter;
	} held[PF_HELD_SAMPLES];
	int nr_held;
};

struct pf_lanes {
	uint64_t *ends;			/* when each lane is free again */
	int nr;
};

/* A ring's tracks once written: a job names two or three, and the lookup costs more than the event. */
#define PF_RING_TRACK_IDS	32
struct pf_ring_tracks {
	uint64_t id[PF_RING_TRACK_IDS];	/* by ring_track()'s slot; 0: not yet */
	/* its name as a job's argument, measured once: the timeline's, its length, all ASCII */
	const char *name;
	size_t name_len;
	bool name_ascii;
	uint64_t gpu_queue;		/* its GPU render queue: iid | gpu_id << 32; 0: not yet */
	/* its group written without a name (a stand-in's, which may change): named at the end */
	bool named_late;
};

struct cpu_side;
struct write_behind;

struct perfetto_export {
	FILE *out;
	/* out written on a thread of its own (write-behind.h), or NULL: here */
	struct write_behind *wb;
	struct analysis *a;
	/* a's jobs and NVIDIA joins, asked of it once a file (every record reads them) */
	const struct timeline *tl;
	const struct nvidia_calls *nv;	/* NULL: no NVIDIA probe in the file */
	const struct cpu_side *cpu;	/* the workload's GPU ioctls (cpu-side.h) */
	uint64_t cpu_done_seq;		/* its ioctls already written */
	unsigned int source;		/* which input file: tracks and flows of each apart */
	uint32_t machine;		/* the source's host as Perfetto's machine_id, 0: the trace's own */
	int64_t offset;			/* added to every timestamp of the source */
	uint64_t root;			/* the source's group track, or 0 */
	struct pb_buf buf;
	struct keymap tracks;		/* identity -> the uuid written */
	uint64_t nr_tracks;
	struct keymap kfd_lanes;	/* pid + 1 -> struct pf_lanes * */
	struct pf_lanes *ring_lanes;	/* per timeline ring */
	int64_t *ring_in_flight;	/* last counter value written, per ring */
	/* the timeline's in_flight_changes and rings when they were last compared */
	uint64_t in_flight_seen;
	int in_flight_rings;
	struct pf_ring_counters *ring_counters;	/* per ring */
	struct pf_ring_tracks *ring_tracks;	/* per ring */
	int nr_rings;
	uint64_t flow_seq;
	bool interned;
	const char *label;		/* the source's group, or NULL */
	struct keymap gpu_interned;	/* ring queues and contexts interned for GPU events */
	/* the last job's submitter: its context interned, its thread's track (this source's) */
	int gpu_context_pid;
	int submit_pid;
	uint64_t submit_track;
	uint64_t gpu_queues;
	bool gpu_stages;		/* the render stages are interned */
	struct pf_gpu gpus[PF_MAX_GPUS];	/* the trace's devices, by gpu_id */
	int nr_gpus;
	bool gpus_more;			/* past PF_MAX_GPUS: the last stands for the rest */
	uint64_t gpu_counter_descs;
	/* what was written, for the summary line and the tests */
	uint64_t packets, slices, flows, dropped, gpu_slices;
	int error;			/* first errno: out of memory or a write that failed */
};

/* One input file of several written into one trace. */
struct perfetto_source {
	unsigned int index;		/* 0, 1, ...: tracks and flows of each apart */
	/*
	 * its host, as Perfetto's machine_id on every packet: 0 the first host
	 * (and every file when they are one host's), 1, 2, ... the others
	 */
	uint32_t machine;
	const char *label;		/* non-NULL: every track under one group so named */
	const char *description;	/* the group's description (the file's whole path) */
	int64_t offset;			/* ns added to the source's timestamps */
};

/**
 * perfetto_export_begin - starts a source: tracks and interned names are written on first use.
 * An offset that moves a timestamp below 0 fails with ERANGE.
 */
void perfetto_export_begin(struct perfetto_export *p, FILE *out, struct analysis *a,
			   const struct perfetto_source *src);
/*
 * The GPU events perfetto_export_record() reads more of than the kind (every one's kind
 * and time draw the rings' counters): the others need not be decoded
 */
#define PERFETTO_KINDS_UNREAD \
	(~((1ULL << GEV_VBLANK) | (1ULL << GEV_VBLANK_QUEUED) | (1ULL << GEV_VBLANK_DELIVERED) | \
	   (1ULL << GEV_BO_MOVE) | (1ULL << GEV_VM_UPDATE_PTES) | (1ULL << GEV_VM_FLUSH) | \
	   (1ULL << GEV_DMA_BUF)))
/** perfetto_export_job - hooks for the pipeline (analysis_hooks.on_job / .on_record, ctx = p). */
void perfetto_export_job(const struct job *j, void *ctx);
/**
 * perfetto_export_record - one record into the Perfetto packets (analysis hook: function_graph
 * and KFD slices)
 */
int perfetto_export_record(struct analysis *a, struct tep_record *rec,
			   const struct gpu_event *ev, void *ctx);
/**
 * perfetto_export_end - after the pipeline ran and the sections' Perfetto writers
 * (report_sections_write_perfetto): the GPU counters' last samples and the devices, then
 * the packets flushed; 0 or the first errno.
 */
int perfetto_export_end(struct perfetto_export *p);

/*
 * The sections' tracks written once a file's records are read (each a row's Perfetto writer in
 * report-sections.c; the others go into the trace as the records pass).
 */
/**
 * perfetto_kfd_ops - the KFD queue operations the function(-graph) records made, per process
 * on lanes under "KFD queue operations", their steps inside
 */
void perfetto_kfd_ops(struct perfetto_export *p);
/**
 * perfetto_user_queues - amdgpu's user queues: under each, its states one after another, and
 * its fences from emit to signal on as many lanes as were in flight at once
 */
void perfetto_user_queues(struct perfetto_export *p);
/**
 * perfetto_owner_switches - enforce isolation: on the ring of the job each switch was for, the
 * switch until that job ran, then the cleaner shader as an instant
 */
void perfetto_owner_switches(struct perfetto_export *p);
/**
 * perfetto_gpu_hangs - the kernel's ring timeouts as instants on the ring (or the GPU's, for a
 * ring without jobs in the file), its GPU resets as slices
 */
void perfetto_gpu_hangs(struct perfetto_export *p);
/**
 * perfetto_export_stop - the packets handed to the writing thread written and the thread
 * ended, before the stream closes: perfetto_export_end() does it for a file read
 * whole; a report that failed half-way calls this; 0 or the first errno
 */
int perfetto_export_stop(struct perfetto_export *p);
/** perfetto_export_free - the packets and tracks held (the writing thread stopped first) */
void perfetto_export_free(struct perfetto_export *p);

#endif
