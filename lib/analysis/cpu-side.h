/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CPU_SIDE_H
#define GT_CPU_SIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/latency-stats.h"
#include "decode/gpu-ioctl.h"

/*
 * The CPU half of the workload's GPU work, from what record puts in the
 * workload's pid-filtered buffer: its GPU ioctls (syscalls:sys_enter_ioctl
 * filtered to the DRM, KFD and NVIDIA types, and sys_exit_ioctl), its
 * scheduling (sched_switch, sched_wakeup) and the interrupts taken while it
 * ran (irq_handler_entry/exit, softirq_entry/exit: recorded only while one
 * of its threads was current, which is when they cost it time).
 *
 * Each ioctl's time, enter to exit, is split by the thread's state:
 *   on CPU      between a switch in (or the enter) and a switch out, less
 *               the interrupts taken meanwhile;
 *   runnable    switched out still runnable (preempted) until switched back
 *               in, credited to the thread that took the CPU; or woken and
 *               waiting for a CPU (whoever held it is not in the file);
 *   sleeping    switched out asleep until woken (D: uninterruptible, apart);
 *   interrupts  hard and soft interrupts on its CPU while it ran.
 * Every interval is in exactly one state, so the four add up to the
 * ioctl's time. A GPU job queued inside the ioctl (drm_sched_job[_queue],
 * i915_request_add, virtio_gpu_cmd_queue in the submitter's context) gives
 * the ioctl -> queued time with the same split up to that moment.
 *
 * The CPU waiting on the GPU: a thread's dma_fence_wait_start -> _end (the
 * waiting thread's context: a wait ioctl, a syncobj or a driver's own wait),
 * each on the fence it names, which for a scheduler's job is the job's own
 * (context:seqno, the name the job lists give it).
 */

#define CPU_SIDE_MAX_THREADS	1024	/* past them, counted untracked */
/* (thread, ioctl) rows and threads' ioctl -> queued in all, each a distribution (8 KB):
 * past them, a thread's "other" row, or ioctl -> queued not kept */
#define CPU_SIDE_MAX_ROWS	128
#define CPU_SIDE_ROWS_PER_THREAD 8
#define CPU_SIDE_BEHIND		4	/* threads named as having taken the CPU, per row */

/* Where an interval of an ioctl (or of ioctl -> queued) went. */
struct cpu_split {
	uint64_t on_cpu_ns;		/* less interrupts */
	uint64_t runnable_ns;
	uint64_t sleeping_ns;		/* all sleep, D included */
	uint64_t blocked_ns;		/* of which uninterruptible (D) */
	uint64_t irq_ns;
};

/* A thread that took the CPU from a preempted ioctl, and for how long in all. */
struct cpu_behind {
	int pid;
	char comm[16];
	uint64_t ns;
};

/* One thread's ioctls of one number (or, past its rows, of every other number). */
struct cpu_ioctl_row {
	uint64_t cmd;
	bool other;			/* the thread's ioctls past its rows */
	struct latency_stats dur;	/* enter -> exit, ns */
	struct cpu_split split;
	struct cpu_behind behind[CPU_SIDE_BEHIND];
	int nr_behind;
	uint64_t behind_other_ns;	/* preempted by threads past those named */
	/*
	 * runnable after a wakeup until the idle task switched it in (an idle CPU
	 * waking); after a wakeup on a busy CPU the time is behind the thread
	 * that held the CPU until it ran
	 */
	uint64_t waking_ns;
	/*
	 * entered and not left by the file's last record (a thread stuck in the
	 * driver when recording stopped, or one still waiting on the GPU; a
	 * thread is in one at a time: 0 or 1), and how long it had been inside by
	 * then. Not in @dur, @split or @behind, which are of the ioctls that
	 * ended; not one entered before events were lost (its exit may be lost)
	 */
	uint64_t unended, unended_ns;
};

/** cpu_ioctl_row_shown - a row with an ioctl that ended, or one entered and not left */
static inline bool cpu_ioctl_row_shown(const struct cpu_ioctl_row *r)
{
	return r && (r->dur.count || r->unended);
}

/* A thread's waits on fences: how many, how long, and the longest, on which fence. */
struct cpu_waits {
	uint64_t count, ns;
	uint64_t longest_ns;
	uint64_t longest_ctx, longest_seqno;
	char longest_timeline[32];
	uint64_t unended;		/* a start with no end before the next start or the file's end */
};

struct cpu_thread {
	int pid;			/* the thread (a record's common_pid) */
	struct cpu_ioctl_row *rows[CPU_SIDE_ROWS_PER_THREAD];
	int nr_rows;
	struct cpu_ioctl_row *other;
	struct latency_stats *to_queued;	/* ioctl enter -> a job queued, ns (NULL: none) */
	struct cpu_split queued_split;
	struct cpu_waits waits;
	uint64_t first_ns, last_ns;	/* its first and last GPU call (ioctl or fence wait) */
	uint64_t cpu_from, cpu_to;	/* its time on a CPU or runnable, at those two */
};

/*
 * Which side held a thread's GPU work up (cpu_side_verdict), over its active
 * time from its first GPU call to its last: on a CPU or waiting for one, or
 * waiting on the GPU (its fence waits); asleep otherwise (idle, reading a
 * file) is neither. Without sched_switch in the file its states are unknown:
 * then the whole span.
 *   GPU-bound   it waited on the GPU half of its active time or more;
 *   CPU-bound   it waited on the GPU under a tenth of it, and queued jobs: the
 *               GPU never held it, its own path to the ring did;
 *   mixed       between the two.
 */
enum cpu_verdict_kind {
	CPU_VERDICT_NONE,		/* no span, or nothing queued nor waited for */
	CPU_VERDICT_GPU_BOUND,
	CPU_VERDICT_CPU_BOUND,
	CPU_VERDICT_MIXED,
};

struct cpu_verdict {
	enum cpu_verdict_kind kind;
	bool scheduling;		/* active_ns from its states; else the span */
	uint64_t span_ns;
	uint64_t active_ns;		/* on or waiting for a CPU, or on the GPU, in the span */
	uint64_t gpu_wait_ns;		/* its fence waits, summed */
	uint64_t jobs;			/* queued inside its ioctls */
	uint64_t to_queued_p50_ns;
	uint64_t to_queued_ns;		/* ioctl -> queued, summed */
	uint64_t runnable_ns;		/* of which runnable (preempted, or no CPU free) */
	/* the thread that took its CPU longest in its ioctls; pid 0: none */
	struct cpu_behind behind;
};

/**
 * cpu_side_verdict - @t's verdict and the figures it rests on, into @v
 * @t:          a thread of the model
 * @scheduling: the file has its scheduling (struct cpu_side's scheduling)
 * @v:          filled
 */
void cpu_side_verdict(struct cpu_thread *t, bool scheduling, struct cpu_verdict *v);
/** cpu_verdict_name - "GPU-bound", "CPU-bound", "mixed" or NULL (CPU_VERDICT_NONE) */
const char *cpu_verdict_name(enum cpu_verdict_kind kind);

/* A GPU ioctl that ended at the record just read: for an output reading that record. */
struct cpu_ioctl_done {
	int pid;
	uint64_t cmd;
	uint64_t enter, exit;
	struct cpu_split split;
	int preempted_by;		/* the longest preemption's thread, 0: none */
	char preempted_comm[16];
};

/* The join's model: what the outputs read. */
struct cpu_side {
	uint64_t records;		/* ioctl, sched and irq records of the workload read */
	uint64_t ioctls;		/* GPU ioctls entered */
	uint64_t fence_waits;		/* dma_fence waits of the workload's threads */
	uint64_t jobs_queued;		/* jobs queued inside one of them */
	bool scheduling;		/* the file has sched_switch: the split is known */
	bool interrupts;		/* the file has irq_handler_entry/exit */
	enum gpu_ioctl_driver driver;	/* whose DRM driver numbers are named */
	struct cpu_thread **threads;	/* with a GPU ioctl, in order of the first */
	int nr_threads;
	uint64_t untracked;		/* ioctls of threads past CPU_SIDE_MAX_THREADS */
	uint64_t untracked_rows;	/* ioctls in a thread's "other", jobs queued not kept:
					 * past CPU_SIDE_MAX_ROWS */
	uint64_t jobs_untracked;	/* jobs queued in an ioctl past CPU_SIDE_MAX_JOBS */
	uint64_t done_seq;		/* GPU ioctls ended so far: last is the latest */
	struct cpu_ioctl_done last;
};

/* The ioctl a job was queued from, and where its time went until then. */
struct cpu_job_ioctl {
	int pid;			/* the thread */
	uint64_t cmd;
	uint64_t enter;			/* the ioctl entered */
	uint64_t to_queued_ns;		/* enter -> the job queued */
	struct cpu_split split;		/* of enter -> queued: adds up to to_queued_ns */
};

#define CPU_SIDE_MAX_JOBS	(1u << 20)	/* jobs' ioctls kept; past them, counted */

/** cpu_split_total - the four states' time: on CPU + runnable + sleeping + interrupts */
uint64_t cpu_split_total(const struct cpu_split *s);

struct analysis;
/**
 * cpu_side_of - the CPU side join's model in @a (analysis-joins.h), for the outputs
 * @a: the session
 *
 * Return: the model, owned by the session; NULL before analysis_init().
 */
struct cpu_side *cpu_side_of(const struct analysis *a);

struct job;
/**
 * cpu_side_job_ioctl - the ioctl @j was queued from, as the CPU side join saw it
 * @a: the session
 * @j: a job of its timeline (timeline.h), by the names the join kept it under: its fence
 *     context:seqno, virtio-gpu's fence id, or its ring's name and scheduler job id
 *
 * Return: owned by the session, to read only; NULL when the job was not queued inside a
 * GPU ioctl of a thread the file follows (no CPU side recorded, another process's, past
 * CPU_SIDE_MAX_JOBS)
 */
const struct cpu_job_ioctl *cpu_side_job_ioctl(const struct analysis *a, const struct job *j);

#endif
