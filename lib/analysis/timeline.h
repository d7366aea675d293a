/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_TIMELINE_H
#define GT_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/gpu-event.h"
#include "analysis/buffer-moves.h"
#include "analysis/vm-activity.h"
#include "analysis/dma-bufs.h"
#include "analysis/latency-stats.h"
#include "analysis/owner-switch.h"
#include "analysis/workload-tree.h"

/*
 * Joins GPU events into jobs (README.md, "report": the joins by kernel):
 *  - amdgpu: (timeline, context, seqno) and the scheduler job id tie the
 *    ioctl, the scheduler and the ring together;
 *  - drm_sched <= 6.16: queue -> run by job id, run -> done by the finished
 *    fence's pointer, in time order (pointers are reused after free);
 *  - drm_sched >= 6.17: (fence_context, fence_seqno) everywhere;
 *  - dma_fence alone (no scheduler events in the file): init/emit ->
 *    signaled on the fence's timeline.
 * Jobs live here only while in flight; a finished job is handed to the
 * caller and folded into fixed-size statistics.
 */

enum job_latency {
	LAT_SUBMIT_TO_QUEUE,	/* ioctl -> scheduler queue */
	LAT_QUEUE_TO_RUN,	/* scheduler wait (dependencies + ring credit) */
	LAT_DEP_WAIT,		/* queue -> last dependency signalled */
	LAT_RUN_TO_HW,		/* hardware queue: run -> hw start */
	LAT_EXEC,		/* hw start -> done */
	LAT_TOTAL,		/* first event -> done */
	LAT_NR
};

#define JOB_UNFINISHED	(1u << 0)	/* no done event in the trace */
#define JOB_LOST	(1u << 1)	/* in flight while events were lost */
#define JOB_DONE_FENCE	(1u << 2)	/* done taken from dma_fence_signaled */
#define JOB_FENCE_ONLY	(1u << 3)	/* a dma_fence, no scheduler events */
#define JOB_DEP_UNKNOWN	(1u << 4)	/* a dependency's signal is not in the trace */
#define JOB_WORKLOAD	(1u << 5)	/* submitted by the recorded workload */
#define JOB_BEHIND_PARTIAL (1u << 6)	/* its wait reaches past the ring history kept */
#define JOB_OWNER_SWITCH (1u << 7)	/* it ran after an owner switch (enforce isolation) */
#define JOB_HANG	(1u << 8)	/* in flight on its ring when the ring timed out */
#define JOB_TRIGGER	(1u << 9)	/* the flight recorder dumped because of it (flight-marks.h) */

/*
 * Whose jobs a job waited behind on its ring: the time between its queue
 * and its hardware start during which the ring executed jobs of others (of
 * processes outside the workload for the workload's jobs, of other pids
 * otherwise), how many such jobs and how many processes they came from.
 */
struct job_behind {
	uint64_t ns;
	unsigned int jobs, procs;
};

struct job {
	int ring;			/* index in timeline.rings */
	int pid;			/* submitter */
	uint64_t serial;		/* in order of creation: jobs of one time are ordered by it */
	bool has_client_id;
	uint64_t client_id;
	bool has_id;
	bool id_keyed;			/* id_key is in by_id: the id came with its ring's name */
	uint64_t id;			/* the scheduler's, unique on its ring only */
	uint64_t id_key;		/* by_id key: ring and id */
	bool has_fence;
	uint64_t ctx, seqno;
	uint64_t fence_ptr;
	uint64_t virtio_fence_id;	/* virtio-gpu: the command's fence_id */
	uint64_t t_submit, t_queue, t_run, t_hw_start, t_done;
	/* a preempted job's stints on the engine (timeline_add_done_exact), 2 or more; 0: [hw start, done] */
	uint64_t hw_stints[GEV_MAX_STINTS][2];
	unsigned int nr_hw_stints;
	uint64_t dep_ready;		/* latest dependency signal seen */
	unsigned int nr_deps, nr_waits;
	unsigned int flags;
	/* measured latencies; has_lat[i] false when an endpoint is missing */
	bool has_lat[LAT_NR];
	uint64_t lat[LAT_NR];
	/* the fences it depended on or waited for, as the trace names them;
	 * their signal times are looked up when the job runs */
	unsigned int nr_dep_fences;
	struct { uint64_t ctx, seqno; } dep_fences[8];
	struct job_behind behind;
	/* JOB_OWNER_SWITCH: when its worker switched owners for it, and that switch */
	uint64_t t_switch;
	size_t switch_idx;		/* in timeline.switches; SIZE_MAX: not kept */
	/* buffer bytes moved between its queue and its run (buffer-moves.h) */
	uint64_t moved_at_queue, moved_in_wait;
	/* GPU address space its VMs' page tables were updated for meanwhile (vm-activity.h) */
	uint64_t vm_at_queue, vm_in_wait;
};

/**
 * job_flag_letters - "W" the workload's, "U" unfinished, "L" lost, "F" done from a fence, "D"
 * dependency unknown, "I" after an owner switch (isolation), "H" in flight at a ring
 * timeout, "T" the flight recorder's trigger, in that order; "" for none.
 */
const char *job_flag_letters(char *buf, size_t len, unsigned int flags);

/**
 * job_switch_wait - how long a job that ran after an owner switch waited from the switch to its
 * run (the previous owner's work draining); false when it had no switch or did not run
 */
bool job_switch_wait(const struct job *j, uint64_t *ns);

/**
 * job_first_time - the earliest time the trace has for a job (submit, queue, run or done);
 * inline: the statistics ask it of every job the timeline hands them
 */
static inline uint64_t job_first_time(const struct job *j)
{
	return j->t_submit ? j->t_submit : j->t_queue ? j->t_queue : j->t_run ? j->t_run : j->t_done;
}

/*
 * The rings a file's events name, kept apart up to this many; the last one,
 * named TIMELINE_MORE_RINGS, holds every ring past them.
 */
#define TIMELINE_MAX_RINGS	1024
#define TIMELINE_MORE_RINGS	"(more rings)"
/* the ring of jobs whose events name none, not even by its name's address */
#define TIMELINE_UNNAMED_RING	"(unnamed)"

struct ring_stats {
	char name[GEV_STR_LEN];
	char dev[GEV_STR_LEN];		/* 6.17+ events' device ("0000:03:00.0"); "" unknown */
	/* "gfx_0.0.0@c3:00.0" when another device's ring had the name first; "" else */
	char label[2 * GEV_STR_LEN];
	uint64_t jobs;			/* finished */
	uint64_t unfinished;
	uint64_t lost;			/* jobs flagged JOB_LOST */
	uint64_t waits;			/* jobs that waited on a dependency */
	/*
	 * union of [hw start, done]; under a filter the kept jobs' alone,
	 * clipped to its window (kept_* below, folded in at the end)
	 */
	uint64_t busy_ns;
	uint64_t timed_jobs;		/* jobs whose hardware time is known (a run or the driver's) */
	uint64_t last_done;
	int64_t in_flight, max_in_flight;	/* queued, not done; filtered as busy_ns is */
	uint64_t kept_busy_ns;
	struct kept_span { uint64_t from, to; } *kept;	/* kept jobs' [queued, done) */
	size_t nr_kept, cap_kept;
	int64_t hw_in_flight;			/* sent to the hardware, not done */
	/*
	 * Up to 5.1x: the address of its name in the scheduler's events, once known (0: not);
	 * and the jobs handed out, whatever the filter (a ring's name may change until one is)
	 */
	uint64_t name_ptr;
	uint64_t handed_out;
	uint64_t first_ts, last_ts;
	struct latency_stats lat[LAT_NR];
	/* the workload's jobs (all jobs when the file names no workload) */
	uint64_t workload_jobs;
	uint64_t behind_ns;		/* summed job_behind.ns */
	uint64_t behind_jobs;		/* distinct jobs of others they waited behind */
	int behind_pids[32];		/* distinct processes of those jobs */
	int nr_behind_pids;
	bool behind_pids_more;		/* more than behind_pids holds */
	/* enforce isolation: jobs that ran after an owner switch, the waits of
	 * those summarised (as behind_ns), the cleaner shader's runs */
	uint64_t switches;
	uint64_t switch_wait_jobs, switch_wait_ns;
	uint64_t cleaner_shaders;
	uint64_t timeouts;		/* the kernel said it timed out (gpu-hangs.h) */
	/* summarised jobs (as behind_ns) that waited while buffers moved */
	uint64_t moved_wait_jobs, moved_wait_bytes, moved_wait_ns;
	/* the same while page tables were updated */
	uint64_t vm_wait_jobs, vm_wait_bytes, vm_wait_ns;
	bool last_run_switched;		/* the job run last followed a switch */
	size_t last_run_switch;		/* that switch's index (SIZE_MAX: not kept) */
	/* recent executions, newest last, for job_behind */
	struct ring_exec {
		uint64_t hw_start, done;
		int pid;
		bool workload, counted;
	} *history;
	size_t history_head, history_len;
	bool history_dropped;
};

struct group_stats {			/* per process or per client id */
	uint64_t key;
	uint64_t jobs;
	uint64_t exec_ns;		/* summed hardware time of its jobs */
	struct latency_stats total;
	/*
	 * "who used the GPU": the hardware time of every finished job it
	 * submitted (those touched by lost events too, as the rings' busy
	 * time counts them), clipped to a --from/--to window, in all and by
	 * ring: the processes' add up to the rings' busy time
	 */
	uint64_t gpu_ns;
	struct gpu_share { int ring; uint64_t ns; } *by_ring;
	int nr_by_ring;
};

struct timeline_filter {
	int pid;			/* 0: any */
	const char *comm;		/* NULL: any */
	const char *ring;		/* NULL: any */
	const char *dev;		/* NULL: any; else only rings and events of this device */
	uint64_t from, to;		/* job's first event in [from, to]; 0: open */
	uint64_t min_latency;		/* total >= this */
	bool workload_only;		/* jobs the recorded workload submitted */
};

struct timeline {
	bool fence_mode;		/* no scheduler events: jobs from dma_fence */
	struct timeline_filter filter;
	bool no_groups;			/* no procs/clients summary (analysis_hooks) */
	const char *(*comm_of)(int pid, void *ctx);
	void *comm_ctx;
	const struct workload_tree *workload;	/* NULL: none named */
	/* called for every job that passes the filter, finished or not */
	void (*on_job)(const struct job *job, void *ctx);
	void *job_ctx;

	/* the join's own lookups (jobs in flight, rings and groups by key): timeline-private.h */
	struct timeline_index *ix;
	struct ring_stats **rings;
	int nr_rings;
	int nr_devs;			/* distinct devices the rings name (at most 64 counted) */
	char devs[64][GEV_STR_LEN];
	struct group_stats **procs, **clients;
	int nr_procs, nr_clients;
	/* each client id's finished jobs' hardware time so far, unfiltered (as fdinfo counts) */
	uint64_t *client_hw;
	int nr_client_hw, cap_client_hw;

	struct owner_switches switches;	/* enforce isolation's owner switches */
	struct buffer_moves moves;	/* amdgpu's buffer moves and creations */
	struct vm_activity vm;		/* amdgpu's page-table updates, mappings, VMIDs */
	struct dma_bufs dma_bufs;	/* buffers shared through dma-buf */

	uint64_t jobs_in_flight, max_jobs_in_flight;
	/* bumped with any ring's in_flight: a reader per record can tell nothing moved */
	uint64_t in_flight_changes;
	uint64_t orphans;		/* events of jobs whose start is not in the trace */
	bool rings_capped;		/* the file named more: TIMELINE_MORE_RINGS holds them */
	uint64_t lost_windows;
	/*
	 * When the CPUs' records cover different windows (cpu-coverage.h):
	 * every busy CPU's records cover [cover_from, cover_to]; a job outside
	 * it may miss events and is flagged L. 0, 0: the whole file.
	 */
	uint64_t cover_from, cover_to;
	uint64_t filtered_out;
	/* the flight recorder's triggering jobs, by ring name and done time (timeline_mark_trigger) */
#define TIMELINE_TRIGGERS	8
	struct { char ring[GEV_STR_LEN]; uint64_t done; } triggers[TIMELINE_TRIGGERS];
	int nr_triggers;
};

/**
 * timeline_init - an empty job join; @fence_mode joins by fence context:seqno (dma_fence
 * only), else by the scheduler's job ids
 *
 * Return: 0, or -ENOMEM (nothing held then).
 */
int timeline_init(struct timeline *t, bool fence_mode);

/*
 * A job's time on the engine as its driver knows it (a preempted i915 request's ins and
 * outs): its hardware start, the engine's time on it, its stints in order (nr of them)
 */
struct job_engine_time {
	uint64_t start, ns;
	const uint64_t (*stints)[2];
	int nr;
};

/**
 * timeline_add_done_exact - @ev (GEV_DONE) with the job's own engine time: its hardware start,
 * exec and busy time from @et instead of the ring's order (@et is read, not kept)
 */
void timeline_add_done_exact(struct timeline *t, const struct gpu_event *ev,
			     const struct job_engine_time *et);
/** timeline_add_event - events must arrive in time order (as libtracecmd's iterator gives them). */
void timeline_add_event(struct timeline *t, const struct gpu_event *ev);
/** timeline_lost_events - events were lost on some CPU just before `ts`. */
void timeline_lost_events(struct timeline *t, uint64_t ts);
/** timeline_finish - hands every job still in flight to on_job as unfinished. */
void timeline_finish(struct timeline *t);
/** timeline_free - everything the job join holds, jobs in flight included */
void timeline_free(struct timeline *t);

/*
 * A job in flight on a ring when it timed out, as the hang is listed: its
 * key, submitter, times so far, and where it stood.
 */
struct job_in_flight {
	bool has_fence, has_id;
	uint64_t ctx, seqno, id, fence_ptr;
	int pid;
	uint64_t t_queue, t_run;
	uint64_t since;			/* on the hardware since (0: not sent to the ring) */
};

#define TIMELINE_CLIENT_HW_MAX	4096	/* client ids whose hardware time is counted */

/**
 * timeline_client_hw_ns - the hardware time of client @id's jobs finished so far (every job,
 * whatever the filter: a driver's fdinfo counts them all); at most TIMELINE_CLIENT_HW_MAX
 * clients are counted, a later one reads 0
 */
uint64_t timeline_client_hw_ns(const struct timeline *t, uint64_t id);

/**
 * timeline_mark_trigger - the job on the ring named @ring that finishes at @done is flagged
 * JOB_TRIGGER as it retires (a flight recorder dump's trigger, known before the pass); at most
 * TIMELINE_TRIGGERS are kept
 */
void timeline_mark_trigger(struct timeline *t, const char *ring, uint64_t done);

/**
 * timeline_ring_stand_in - the ring is known so far by its name's address alone, under a
 * stand-in name ("(unnamed N)": up to 5.1x the scheduler's events hold the address, 6.1
 * the name): a later event may name it
 */
bool timeline_ring_stand_in(const struct timeline *t, int ring);
/** timeline_ring_find - the index of the ring so named, -1 when the trace has none */
int timeline_ring_find(const struct timeline *t, const char *name);
/**
 * timeline_ring_find_dev - the ring timeline_ring_index_dev() would answer for @dev's @name,
 * without adding one: -1 when none is so named yet (then it adds one or, past
 * TIMELINE_MAX_RINGS, answers the ring that holds the rest)
 */
int timeline_ring_find_dev(const struct timeline *t, const char *dev, const char *name);

/**
 * timeline_ring_timed_out - the kernel said @ring timed out at @ts: every job in flight on it
 * is flagged JOB_HANG and counted; up to @max of them, oldest first, go to @out (*@more: there
 * were others). The oldest sent to the ring is the one on the hardware: its start is the run
 * or the previous job's end, whichever is later. Returns how many went to @out.
 */
size_t timeline_ring_timed_out(struct timeline *t, int ring, uint64_t ts,
			       struct job_in_flight *out, size_t max, size_t *total);

/**
 * job_latency_name - a stage's name (queue, dependency, hardware, total) as the report prints
 * it
 */
const char *job_latency_name(enum job_latency l);
/** job_latency_key - the same as a JSON key: "queue_to_run" */
const char *job_latency_key(enum job_latency l);
/**
 * timeline_filter_match - the filter's tests, as jobs and single records (--events) share
 * them: ts is a job's first event or the record's time, ring NULL when there is none.
 */
bool timeline_filter_match(const struct timeline *t, uint64_t ts, int pid, const char *ring,
			   const char *dev, bool workload);
/**
 * timeline_fence_signal - when a fence signalled, while the timeline still remembers it (the
 * most recent signals are kept): a retiring job's dependencies are found. The first ask
 * after new signals brings the timeline's own table of them up to date (fence-signals.h):
 * not for two threads at once.
 */
bool timeline_fence_signal(const struct timeline *t, uint64_t ctx, uint64_t seqno, uint64_t *ts);
/**
 * timeline_ring_name - a ring's name by its index (job.ring), "?" if out of range; with its
 * device ("gfx_0.0.0@c3:00.0") when another device's ring had the name first
 */
const char *timeline_ring_name(const struct timeline *t, int ring);

struct analysis;
/**
 * timeline_of - the GPU job join's state in @a (analysis-joins.h): what it
 * found, for the outputs and the joins after it; NULL before analysis_init()
 */
struct timeline *timeline_of(const struct analysis *a);

#endif
