/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RECORD_ENGINE_H
#define GT_RECORD_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "tracefs/buffer-ladder.h"
#include "capture/capture-source.h"
#include "capture/cgroup-scope.h"
#include "capture/cmdlines.h"
#include "capture/cpu-stats-read.h"
#include "tracefs/event-select.h"
#include "capture/dat-writer.h"
#include "capture/hip-capture.h"
#include "util/outfile.h"
#include "dat/page-scan.h"
#include "capture/recorder.h"
#include "tracefs/tracer-setup.h"
#include "capture/stale.h"
#include "capture/workload.h"
#include "capture/print-record.h"

/* --flight-recorder and its options as given; cmd/flight.c reads their values */
struct record_flight {
	bool on;
	const char *size;		/* --flight-recorder=SIZE; NULL: the default */
	const char **triggers;		/* --trigger RING:STAGE>DURATION */
	int nr_triggers;
	const char *after, *every, *min_gap, *keep, *trigger_file;
};

struct record_opts {
	const char *output;
	bool output_given;		/* -o, not the default name */
	unsigned long buffer_kb;	/* 0: the ladder */
	struct event_selection events;
	bool have_explicit_events;
	const char *preset;
	const char *tracer;
	const char **filters;		/* -l */
	int nr_filters;
	const char **graph_funcs;	/* -g */
	int nr_graph_funcs;
	int max_graph_depth;
	bool strict;
	bool ignore_missing;
	bool system_wide;
	bool no_follow;
	bool as_root;
	bool top_level;
	bool force;			/* replace an existing -o */
	bool system_wide_events;	/* non-GPU events too, not only the workload's */
	bool no_cpu_side;		/* not the workload's GPU ioctls, scheduling, interrupts */
	const char *clock;
	double duration;		/* seconds, 0: none */
	pid_t *pids;			/* -P */
	int nr_pids;
	char **command;			/* NULL: none */
	int hip_log;			/* AMD_LOG_LEVEL for the workload; -1: no log */
	const char *cgroup;		/* --cgroup: a cgroup's processes as they come */
	const char *container;		/* --container: a docker/podman container's cgroup */
	int kfd_args;			/* KFD queue probes: 1 on, 0 off, -1 as the preset says */
	long kfd_snapshot_ms;		/* KFD debugfs every so often, 0: start and end only */
	bool nvidia_probes;		/* nvidia.ko's functions as kprobes (--preset nvidia) */
	struct record_flight flight;
};

/* What the engine has to tell the user; cmd/record.c prints it. */
enum record_note_kind {
	RECORD_SAY,		/* a line of the run's story (buffer, events, scope, ...) */
	RECORD_WARN,		/* something went wrong and the run goes on */
};

/**
 * struct record_hooks - how the engine talks back to its caller
 * @note:     every line for the user (already formatted, not escaped)
 * @stale:    a dead run's leftover removed, or not (stale_clean's callback)
 * @progress: every half second while recording, with the seconds so far
 * @tick:     every turn of the wait (a tenth of a second at most): the caller's own checks,
 *            which may set *stop
 * @stop:     non-zero once the caller was asked to stop (the signal's number)
 */
struct record_hooks {
	void (*note)(enum record_note_kind kind, const char *line, void *ctx);
	stale_note stale;
	void (*progress)(const struct recorder *r, const char *buffer_dir, double elapsed,
			 void *ctx);
	void (*tick)(void *ctx);
	volatile sig_atomic_t *stop;
	void *ctx;
};

/*
 * One record, from set-up to the file (lib/capture/record-*.c); cmd/record.c
 * fills opts and hooks, runs the steps below and prints the summary.
 *
 * With a workload (-- cmd or -P), two buffers: `session` records the GPU event
 * systems system-wide (a job runs in the scheduler's kthread or workqueue
 * and completes in interrupts, never in the submitter's context) and the
 * function tracer under set_ftrace_pid; `scoped` records, under
 * set_event_pid with event-fork, the workload's own pid tree
 * (sched_process_fork/exec/exit) and the non-GPU events the user chose.
 * The .dat keeps it as the buffer instance "workload".
 */
struct record_run {
	struct record_opts opts;
	struct record_hooks hooks;
	const char *tracing_dir;
	struct trace_session session;
	struct recorder recorder;
	bool has_scope;			/* a workload: `scoped` is in use */
	struct trace_session scoped;
	struct recorder scoped_rec;
	struct event_selection tree_events;	/* fork/exec/exit: the pid tree */
	struct event_selection cpu_ioctls;	/* its GPU ioctls (record-cpu-side.c) */
	struct event_selection cpu_events;	/* its scheduling and interrupts */
	struct buffer_result scoped_buf;
	struct cpu_stats *scoped_stats;
	pid_t *scope_pids;		/* the command, or -P pids and their threads */
	int nr_scope_pids;
	char *kallsyms;			/* read once: header space, then the .dat */
	struct workload workload;
	struct workload_creds creds;
	struct outfile out;
	struct buffer_result buffer;
	struct tracer_result tracer;
	struct cpu_stats *stats;
	char *trace_clock;		/* read before the instance goes */
	struct pid_comm *attached;	/* -P pids, named while they live */
	struct cgroup_scope cgroup;	/* --cgroup, --container */
	bool has_cgroup;
	bool scoped_waiting;		/* an empty cgroup: `scoped` is off until one joins */
	/* each row of capture_sources[]'s private state (capture-source.h); NULL before set-up */
	void *source_state[CAPTURE_MAX_SOURCES];
#define RECORD_MAX_FORMATS	8
	/* event systems the sources keep for the file (probe groups), read before they go */
	struct dat_event_system formats[RECORD_MAX_FORMATS];
	int nr_formats;
	int wait_status;
	bool workload_exited;
	bool duration_reached;		/* record_wait ended at --duration */
	double elapsed;
	double next_clock;		/* elapsed seconds of the next clock pair (record-identity.c) */
};

struct scan_totals {
	struct page_scan scan;		/* events, in-band losses, pids: all CPUs */
	unsigned long long bytes;
};

/** record_run_init - fds and pids that mean "none"; before anything else. */
void record_run_init(struct record_run *run);
/** record_setup - tracefs found and set, the output reserved, the workload spawned (held). */
int record_setup(struct record_run *run, struct gt_error *err);
/** record_start - readers first, then tracing, then the workload's names; then release it. */
int record_start(struct record_run *run, struct gt_error *err);
/** record_wait - until the workload ends, the attached pids exit, hooks.stop or --duration. */
void record_wait(struct record_run *run);
/**
 * record_finish - from a stopped recording to the file, written but not committed: 0. A full
 * disk keeps what was captured as <output>.partial (said as a warning): 1. -1 with err.
 */
int record_finish(struct record_run *run, struct scan_totals *totals, struct gt_error *err);
/** record_teardown - undo tracefs; reap a workload we stopped. Safe on every path. */
int record_teardown(struct record_run *run, struct gt_error *err);
/** record_stop_workload - the workload, if it still runs: the caller's stop signal, or SIGTERM. */
void record_stop_workload(struct record_run *run);
/**
 * record_free - everything the run holds after teardown; the output is discarded unless
 * committed
 */
void record_free(struct record_run *run, struct scan_totals *totals);

/** record_say - a line for the user, through hooks.note. */
void record_say(const struct record_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** record_warn - a warning line for the user, through hooks.note */
void record_warn(const struct record_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** record_write_dat - assembles the .dat from the per-CPU files into run->out (not committed). */
int record_write_dat(struct record_run *run, struct scan_totals *t, struct gt_error *err);

/* record-scope.c: what follows the workload, what is system-wide */
/**
 * record_scoped_user_events - whether the user's non-GPU events follow the workload (a scope,
 * not -a or --system-wide-events)
 */
bool record_scoped_user_events(const struct record_run *run);
/** record_enable_tree_events - fork, exec and exit in the scoped buffer: the workload's pid tree */
int record_enable_tree_events(struct record_run *run, struct gt_error *err);
/**
 * record_enable_cpu_side - the workload's GPU ioctls, scheduling and interrupts in the
 * scoped buffer (record-cpu-side.c), unless --no-cpu-side or nothing is scoped
 * @run: the run, its scoped session set up
 * @err: why not
 *
 * Return: 0, or -1 with @err set.
 */
int record_enable_cpu_side(struct record_run *run, struct gt_error *err);
/**
 * record_follow_workload - the scoped buffer's pid filter set to the workload (command, -P
 * pids and their threads)
 */
int record_follow_workload(struct record_run *run, struct gt_error *err);
/**
 * record_mark_workload - a marker naming each scoped pid, so report knows the workload's pids
 * from the start
 */
int record_mark_workload(struct record_run *run, struct gt_error *err);
/**
 * record_mark_identity - markers in the main buffer naming the host and its DRM devices, and
 * the first clock pair (record-identity.c)
 * @run: the run, tracing on
 * @err: why a marker could not be written
 *
 * Return: 0, or -1 with @err set.
 */
int record_mark_identity(struct record_run *run, struct gt_error *err);
/**
 * record_mark_clock - a pair of CLOCK_REALTIME readings around a marker the trace clock stamps
 * @run: the run, tracing on
 * @err: why a marker could not be written (may be NULL)
 *
 * Return: 0, or -1 with @err set.
 */
int record_mark_clock(struct record_run *run, struct gt_error *err);
/** record_say_scope - a line saying what follows the workload and what is recorded system-wide */
void record_say_scope(struct record_run *run);
/** record_scope_poll - --cgroup: processes that joined since the last call join the scope. */
void record_scope_poll(struct record_run *run);

/* record-formats.c: what the capture sources hand the engine */
/**
 * record_print_format - how a print record (ftrace/print at tracing_mark_write) looks on this
 * kernel, for sources that write their own
 */
struct print_record_format record_print_format(const struct record_run *run);
/**
 * record_keep_formats - @system's event formats read now (before its probes go) for the file;
 * one already kept, or past RECORD_MAX_FORMATS, is left as it is
 */
void record_keep_formats(struct record_run *run, const char *system);

/* record-run.c: the capture sources' steps the caller times */
/** record_sources_started - tracing on and the workload released: each source's first snapshot */
void record_sources_started(struct record_run *run);
/** record_sources_say - each source's lines once the file is written */
void record_sources_say(const struct record_run *run);

/** record_opts_free - what option parsing allocated */
void record_opts_free(struct record_opts *o);

#endif
