/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KERNEL_JOIN_H
#define GT_KERNEL_JOIN_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/sched-hist.h"
#include "tracefs/session.h"
#include "util/gt-error.h"

/*
 * gpu-trace top --in-kernel: the GPU scheduler's jobs joined queue -> run ->
 * done by the kernel's hist triggers, as rtla joins its latencies. In our
 * instance gpu-trace-<pid>, each job's queue time is kept under its key (its
 * finished fence: a pointer before 6.17, context and seqno after), its run
 * fires the synthetic event gpu_trace_<pid>_wait (ring, queue -> run us)
 * and its done gpu_trace_<pid>_exec (run -> done us; 6.17+ names the fence
 * context, whose ring the wait event told), and a log2 histogram of each
 * counts the jobs per ring. A second instance, gpu-trace-<pid>.queued,
 * counts the jobs queued per ring (its hist file is read every interval; the
 * first's would print every job's key). No event reaches a ring buffer and
 * nothing runs in user space per job.
 *
 * A histogram never frees an entry and a job's key is new almost every time
 * (the lab's 6.1 guest: 128 fence pointers in 192 jobs), so kernel_join_read()
 * makes the keyed tables anew before they fill, under the other of two sets of
 * variable names, the new before the old go; a job still in the old ones then
 * is not joined. A table cannot be cleared in place where it holds a variable
 * (the kernel answers EINVAL).
 */
enum kernel_join_kind {
	KERNEL_JOIN_NONE,
	KERNEL_JOIN_FENCE,	/* drm_sched_job, drm_run_job, drm_sched_process_job */
	KERNEL_JOIN_SEQNO,	/* 6.17+: drm_sched_job_queue, _run, _done */
};

/* The keyed tables' size, and how many jobs queued before they are made anew. */
#define KERNEL_JOIN_TABLE	32768
#define KERNEL_JOIN_RENEW_AT	(KERNEL_JOIN_TABLE / 2)

/* One trigger or synthetic event: appended to @file in @where, removed by '!'. */
struct kernel_join_step {
	int where;		/* 0: tracefs's top, 1: the join's instance, 2: the queued one */
	char file[128];
	char spec[512];
};

#define KERNEL_JOIN_STEPS	10

struct kernel_join {
	enum kernel_join_kind kind;
	struct trace_session join, queued;
	char wait[48], exec[48];		/* the synthetic events' names */
	struct kernel_join_step steps[KERNEL_JOIN_STEPS];
	int nr_steps;
	bool made[KERNEL_JOIN_STEPS];	/* which steps are in place */
	int set;			/* the keyed steps' names: set 0 or 1, by turns */
	uint64_t renew_at;		/* jobs queued between renewals: KERNEL_JOIN_RENEW_AT */
	uint64_t renewals;
	uint64_t queued_at_renewal;	/* jobs queued (all rings) when the tables were made */
	/* per ring, what the renewals lost: its rings' lost_queued and lost_run */
	struct sched_hist lost;
};

/**
 * kernel_join_detect - which scheduler events @tracing_dir has, KERNEL_JOIN_NONE without
 * them (no DRM scheduler driver loaded)
 */
enum kernel_join_kind kernel_join_detect(const char *tracing_dir);

/**
 * kernel_join_steps - the steps of @kind for the run of @pid, in the order they are made
 * @set:   0 or 1: the keyed tables' variables are named by it (each renewal takes the other)
 * @steps: room for KERNEL_JOIN_STEPS
 *
 * Return: how many.
 */
int kernel_join_steps(enum kernel_join_kind kind, int pid, int set, struct kernel_join_step *steps);

/**
 * kernel_join_open - the instances, synthetic events and triggers of this run (the caller
 * found tracefs with capture_find_tracefs())
 * @renew_at: jobs queued between renewals of the keyed tables, at most KERNEL_JOIN_RENEW_AT
 *            (0: that)
 *
 * Return: 0, or -1 with @err set (what is made is taken down again).
 */
int kernel_join_open(struct kernel_join *j, const char *tracing_dir, uint64_t renew_at,
		     struct gt_error *err);

/**
 * kernel_join_read - every ring's counts since the join began, into @h; makes the keyed
 * tables anew when KERNEL_JOIN_RENEW_AT jobs were queued since they were made
 *
 * Return: 0, or -1 with @err set.
 */
int kernel_join_read(struct kernel_join *j, struct sched_hist *h, struct gt_error *err);

/** kernel_join_close - everything kernel_join_open() made, taken down in reverse */
int kernel_join_close(struct kernel_join *j, struct gt_error *err);

/**
 * kernel_join_remove_stale - the triggers and synthetic events a killed run of @pid left
 * (before its instances can go, for the kernel refuses to remove an instance with them)
 */
void kernel_join_remove_stale(int pid);

#endif
