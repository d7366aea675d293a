// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture-setup.h"
#include "capture/partial-output.h"
#include "capture/record-engine.h"
#include "tracefs/saved-files.h"

/*
 * The capture sources (capture-source.h), each step in table order: a source's own state
 * is handed only to it.
 */
enum source_step {
	SOURCE_PROBES, SOURCE_PREPARE, SOURCE_STARTED, SOURCE_STOPPED, SOURCE_TEARDOWN,
	SOURCE_COLLECT,
};

static int sources_alloc(struct record_run *run, struct gt_error *err)
{
	for (size_t i = 0; i < capture_nr_sources; i++) {
		const struct capture_source *src = capture_sources[i];

		run->source_state[i] = calloc(1, src->state_size ? src->state_size : 1);
		if (!run->source_state[i])
			return gt_error_set(err, ENOMEM, "out of memory setting up %s", src->name);
		if (src->init)
			src->init(run->source_state[i]);
	}
	return 0;
}

/* PROBES and PREPARE end at the first failure; every other step runs every source */
static int sources_step(struct record_run *run, enum source_step step, struct gt_error *err)
{
	int ret = 0;

	for (size_t i = 0; i < capture_nr_sources; i++) {
		const struct capture_source *src = capture_sources[i];
		void *st = run->source_state[i];
		struct gt_error serr = { 0 };

		if (!st)
			continue;
		switch (step) {
		case SOURCE_PROBES:
			if (src->probes && src->probes(run, st, err))
				return -1;
			break;
		case SOURCE_PREPARE:
			if (src->prepare && src->prepare(run, st, err))
				return -1;
			break;
		case SOURCE_STARTED:
			if (src->started)
				src->started(run, st);
			break;
		case SOURCE_STOPPED:
			if (src->stopped)
				src->stopped(run, st);
			break;
		case SOURCE_TEARDOWN:
			/* the first failure is the one said; every source still cleans up */
			if (src->teardown && src->teardown(run, st, &serr) && !ret)
				ret = err ? gt_error_set(err, serr.errnum, "%s", serr.msg) : -1;
			break;
		case SOURCE_COLLECT:
			if (src->collect)
				src->collect(run, st);
			break;
		}
	}
	return ret;
}

/* every source's turn of the wait; how long the wait may sleep (ms) */
static long sources_poll(struct record_run *run)
{
	long ms = 100;

	for (size_t i = 0; i < capture_nr_sources; i++) {
		const struct capture_source *src = capture_sources[i];
		long want;

		if (!run->source_state[i] || !src->poll)
			continue;
		want = src->poll(run, run->source_state[i]);
		if (want > 0 && want < ms)
			ms = want;
	}
	return ms;
}

static void sources_free(struct record_run *run)
{
	for (size_t i = 0; i < capture_nr_sources; i++) {
		if (run->source_state[i] && capture_sources[i]->free)
			capture_sources[i]->free(run, run->source_state[i]);
		free(run->source_state[i]);
		run->source_state[i] = NULL;
	}
}

void record_sources_started(struct record_run *run)
{
	sources_step(run, SOURCE_STARTED, NULL);
}

void record_sources_say(const struct record_run *run)
{
	for (size_t i = 0; i < capture_nr_sources; i++)
		if (run->source_state[i] && capture_sources[i]->say)
			capture_sources[i]->say(run, run->source_state[i]);
}

void record_run_init(struct record_run *run)
{
	memset(run, 0, sizeof(*run));
	run->out.fd = -1;
	run->workload.go_fd = run->workload.status_fd = -1;
}

static int stop_asked(const struct record_run *run)
{
	return run->hooks.stop ? *run->hooks.stop : 0;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The ladder on one buffer; `share` buffers split the safe share of
 * MemAvailable between them.
 */
static int setup_buffer(struct record_run *run, struct trace_session *s,
			struct buffer_result *res, const char *label, int share,
			struct gt_error *err)
{
	char line[512];

	if (capture_buffer_setup(s, run->opts.buffer_kb, share, res, err))
		return -1;
	buffer_result_describe(res, (int)sysconf(_SC_NPROCESSORS_CONF), line, sizeof(line));
	record_say(run, "%s%s", label, line);
	if (run->opts.buffer_kb && run->opts.buffer_kb > res->cap_kb)
		record_say(run, "buffer: note: -b %lu KB is above the safe share (%lu KB per CPU); the kernel only refuses sizes beyond MemAvailable",
			run->opts.buffer_kb, res->cap_kb);
	return 0;
}

static int setup_tracer(struct record_run *run, struct gt_error *err)
{
	struct tracer_request rq = {
		.tracer = run->opts.tracer,
		.filters = run->opts.filters,
		.nr_filters = run->opts.nr_filters,
		.graph_funcs = run->opts.graph_funcs,
		.nr_graph_funcs = run->opts.nr_graph_funcs,
		.max_graph_depth = run->opts.max_graph_depth,
		.strict = run->opts.strict,
	};
	int i;

	if (tracer_setup(&run->session, &rq, &run->tracer, err))
		return -1;
	for (i = 0; i < run->tracer.nr_notes; i++)
		record_say(run, "%s", run->tracer.notes[i]);
	return 0;
}

/*
 * What a preset asked for and this kernel lacks: a preset of every GPU's
 * events names 15 systems on a machine with one GPU (or none); the first
 * three and a count tell as much, and gpu-trace list names them all.
 */
static void say_missing(struct record_run *run, const char *missing)
{
	const char *p = missing;
	int n = 1, shown = 0;
	size_t len = 0;

	for (; *p; p++)
		n += *p == ',';
	if (n <= 4 || !run->opts.preset) {
		record_say(run, "events: not on this kernel%s%s: %s", run->opts.preset ? ", preset " : "",
			   run->opts.preset ? run->opts.preset : "", missing);
		return;
	}
	for (p = missing; *p && shown < 3; p++)
		if (*p == ',' && ++shown == 3)
			len = (size_t)(p - missing);
	record_say(run, "events: not on this kernel, preset %s: %.*s and %d more (gpu-trace list names what is here)",
		   run->opts.preset, (int)len, missing, n - 3);
}

static int setup_events(struct record_run *run, struct gt_error *err)
{
	struct event_selection *sel = &run->opts.events;

	if (event_selection_apply(sel, &run->session,
				  record_scoped_user_events(run) ? &run->scoped : NULL,
				  run->opts.ignore_missing, err))
		return -1;
	if (sel->missing)
		say_missing(run, sel->missing);
	if (!sel->nr_enabled && !strcmp(run->tracer.used, "nop"))
		return gt_error_set(err, ENOENT,
				    "nothing to record: none of the selected events exist on this kernel and no tracer is active; see gpu-trace list");
	record_say(run, "events: %d enabled in %d system%s%s", sel->nr_enabled, sel->nr_systems,
		sel->nr_systems == 1 ? "" : "s", run->session.top_level ? " (top-level buffer)" : "");
	if (run->opts.preset && !run->opts.nvidia_probes && !capture_selects_gpu_jobs(sel, false))
		record_say(run, "events: no GPU driver's or scheduler's events on this kernel: the file will hold no GPU jobs; load the GPU driver first (modprobe amdgpu, i915, xe or virtio-gpu; gpu-trace check says what is there)");
	if (!run->has_scope)
		return 0;
	return record_enable_tree_events(run, err) || record_enable_cpu_side(run, err) ? -1 : 0;
}

/* kallsyms dominates the header; formats and cmdlines fit in the margin */
static off_t header_estimate(struct record_run *run)
{
	char *printk = trace_file_read(run->tracing_dir, "printk_formats");
	off_t n = (off_t)(run->kallsyms ? strlen(run->kallsyms) : 0) +
		  (off_t)(printk ? strlen(printk) : 0);

	free(printk);
	return n + (4 << 20);
}

/* -P processes may exit before the file is written: name them now. */
static void name_attached(struct record_run *run)
{
	int i;

	run->attached = calloc((size_t)run->opts.nr_pids, sizeof(*run->attached));
	for (i = 0; run->attached && i < run->opts.nr_pids; i++) {
		char comm[64] = "";

		cmdlines_proc_comm((int)run->opts.pids[i], comm, sizeof(comm));
		run->attached[i].pid = run->opts.pids[i];
		snprintf(run->attached[i].comm, sizeof(run->attached[i].comm), "%.15s",
			 comm[0] ? comm : "<...>");
	}
}

static int create_sessions(struct record_run *run, struct gt_error *err)
{
	if (capture_instance_create(&run->session, run->tracing_dir, "", err))
		return -1;
	if (run->opts.top_level) {
		if (session_move_to_top_level(&run->session, err) ||
		    session_set_tracing(&run->session, false, err))
			return -1;
		record_say(run, "recording in the top-level buffer (--top-level); its settings are restored afterwards");
	}
	/* "<prefix><pid>.workload": reset and the stale cleanup know it */
	return run->has_scope ? capture_instance_create(&run->scoped, run->tracing_dir, ".workload", err) : 0;
}

/* The pid-tree-only buffer sees a few events per fork: keep it small. */
#define SCOPED_TREE_KB	256

static int setup_buffers(struct record_run *run, struct gt_error *err)
{
	bool scoped_events = run->has_scope && run->opts.events.nr_scoped;

	if (setup_buffer(run, &run->session, &run->buffer, "", scoped_events ? 2 : 1, err))
		return -1;
	if (scoped_events)
		return setup_buffer(run, &run->scoped, &run->scoped_buf, "workload ", 2, err);
	if (run->has_scope)
		session_set_buffer_kb(&run->scoped, SCOPED_TREE_KB, NULL);
	return 0;
}

/* --cgroup PATH, or --container NAME through docker/podman */
static int open_cgroup(struct record_run *run, struct gt_error *err)
{
	char dir[512];

	if (run->opts.container) {
		if (cgroup_of_container(run->opts.container, dir, sizeof(dir), err) ||
		    cgroup_scope_open(&run->cgroup, dir, err))
			return -1;
	} else if (run->opts.cgroup) {
		if (cgroup_scope_open(&run->cgroup, run->opts.cgroup, err))
			return -1;
	} else {
		return 0;
	}
	run->has_cgroup = true;
	return 0;
}

int record_setup(struct record_run *run, struct gt_error *err)
{
	bool mounted_now = false;

	if (capture_find_tracefs(&run->tracing_dir, &mounted_now, run->hooks.stale, run->hooks.ctx,
				 err))
		return -1;
	if (mounted_now)
		record_say(run, "tracefs: was not mounted; mounted it on %s (left mounted)", run->tracing_dir);
	run->kallsyms = trace_file_read("/proc", "kallsyms");
	/* under sudo (or Slurm's plugin) the file is the invoking user's, with or without a command */
	if (workload_creds_from_env(&run->creds, run->opts.as_root, err))
		return -1;
	if (sources_alloc(run, err))
		return -1;
	if (outfile_create(&run->out, run->opts.output, run->opts.force,
			   run->creds.drop ? &(struct outfile_user){
				   run->creds.uid, run->creds.gid,
				   run->creds.user[0] ? run->creds.user : NULL } : NULL, err) ||
	    outfile_reserve(&run->out, header_estimate(run), err) ||
	    partial_output_remember(&run->out, err))
		return -1;
	if (open_cgroup(run, err))
		return -1;
	run->has_scope = run->opts.command || run->opts.nr_pids || run->has_cgroup;
	if (create_sessions(run, err) || setup_tracer(run, err) ||
	    session_set_clock(&run->session, run->opts.clock, err) ||
	    (run->has_scope && session_set_clock(&run->scoped, run->opts.clock, err)) ||
	    setup_events(run, err) || sources_step(run, SOURCE_PROBES, err) ||
	    setup_buffers(run, err) || sources_step(run, SOURCE_PREPARE, err))
		return -1;
	if (run->opts.command && workload_spawn(&run->workload, run->opts.command, &run->creds, err))
		return -1;
	if (run->opts.nr_pids)
		name_attached(run);
	if (run->has_scope && record_follow_workload(run, err))
		return -1;
	record_say_scope(run);
	if (recorder_open(&run->recorder, &run->session, run->out.dir, err))
		return -1;
	return run->has_scope ? recorder_open(&run->scoped_rec, &run->scoped, run->out.dir, err) : 0;
}

static bool pids_alive(const struct record_opts *o)
{
	int i;

	for (i = 0; i < o->nr_pids; i++)
		if (!kill(o->pids[i], 0) || errno != ESRCH)
			return true;
	return false;
}

void record_wait(struct record_run *run)
{
	double t0 = now_seconds(), last_progress = 0;

	while (!stop_asked(run)) {
		struct timespec nap = { 0, 0 };
		long ms;

		run->elapsed = now_seconds() - t0;
		if (run->workload.pid > 0 && workload_reap(&run->workload, &run->wait_status)) {
			run->workload_exited = true;
			break;
		}
		if (run->opts.nr_pids && !pids_alive(&run->opts))
			break;
		record_scope_poll(run);
		ms = sources_poll(run);
		nap.tv_nsec = ms * 1000 * 1000;
		if (run->opts.duration > 0 && run->elapsed >= run->opts.duration) {
			run->duration_reached = true;
			break;
		}
		if (run->hooks.tick) {
			run->hooks.tick(run->hooks.ctx);
			if (stop_asked(run))
				break;
		}
		/* a marker that cannot be written now costs that pair only */
		if (run->elapsed >= run->next_clock)
			record_mark_clock(run, NULL);
		if (run->elapsed - last_progress >= 0.5 && run->hooks.progress) {
			run->hooks.progress(&run->recorder, run->session.dir, run->elapsed,
					    run->hooks.ctx);
			last_progress = run->elapsed;
		}
		nanosleep(&nap, NULL);
	}
	run->elapsed = now_seconds() - t0;
}

static struct cpu_stats *read_stats(const char *dir, int nr_cpus)
{
	struct cpu_stats *stats = calloc((size_t)nr_cpus, sizeof(*stats));
	int i;

	for (i = 0; stats && i < nr_cpus; i++)
		cpu_stats_read(dir, i, &stats[i]);
	return stats;
}

static void free_stats(struct cpu_stats *stats, int nr_cpus)
{
	int i;

	for (i = 0; stats && i < nr_cpus; i++)
		cpu_stats_free(&stats[i]);
	free(stats);
}

/* What the .dat needs from the instances, read before they are removed. */
static int read_final_state(struct record_run *run)
{
	run->trace_clock = session_read(&run->session, "trace_clock");
	run->stats = read_stats(run->session.dir, run->recorder.nr_cpus);
	if (run->has_scope)
		run->scoped_stats = read_stats(run->scoped.dir, run->scoped_rec.nr_cpus);
	return run->stats && (!run->has_scope || run->scoped_stats) ? 0 : -1;
}


int record_teardown(struct record_run *run, struct gt_error *err)
{
	struct gt_error scoped_err = { 0 };
	int ret;

	if (run->recorder.cpus)
		recorder_stop(&run->recorder, NULL);
	if (run->scoped_rec.cpus)
		recorder_stop(&run->scoped_rec, NULL);
	if (run->workload.pid > 0 && !run->workload_exited && run->workload.go_fd >= 0)
		workload_abort(&run->workload);
	ret = session_teardown(&run->session, err);
	if (session_teardown(&run->scoped, &scoped_err) && !ret)
		ret = gt_error_set(err, scoped_err.errnum, "%s", scoped_err.msg);
	/* after the instance: an enabled probe cannot be removed */
	if (sources_step(run, SOURCE_TEARDOWN, &scoped_err) && !ret)
		ret = gt_error_set(err, scoped_err.errnum, "%s", scoped_err.msg);
	return ret;
}

void record_stop_workload(struct record_run *run)
{
	if (run->workload.pid <= 0 || run->workload_exited)
		return;
	if (workload_stop(&run->workload, stop_asked(run) ? stop_asked(run) : SIGTERM,
			  &run->wait_status))
		run->workload_exited = true;
}

static int set_tracing(struct record_run *run, bool on, struct gt_error *err)
{
	if (session_set_tracing(&run->session, on, err))
		return -1;
	/* an empty pid filter filters nothing: an empty cgroup's scope waits */
	run->scoped_waiting = on && run->has_cgroup && !run->nr_scope_pids;
	if (run->scoped_waiting)
		return 0;
	return run->has_scope ? session_set_tracing(&run->scoped, on, err) : 0;
}

int record_start(struct record_run *run, struct gt_error *err)
{
	if (recorder_start(&run->recorder, err) ||
	    (run->has_scope && recorder_start(&run->scoped_rec, err)) ||
	    set_tracing(run, true, err) ||
	    record_mark_identity(run, err) ||
	    (run->has_scope && record_mark_workload(run, err)))
		return -1;
	return 0;
}

int record_finish(struct record_run *run, struct scan_totals *totals, struct gt_error *err)
{
	struct gt_error terr = { 0 };
	bool partial;

	/* the last pair: drift over the whole recording */
	record_mark_clock(run, NULL);
	set_tracing(run, false, NULL);
	/* a full disk stops the readers: what they wrote is still worth keeping */
	partial = recorder_stop(&run->recorder, err) != 0;
	if (run->has_scope && recorder_stop(&run->scoped_rec, partial ? NULL : err))
		partial = true;
	if (read_final_state(run)) {
		record_stop_workload(run);
		return gt_error_set(err, ENOMEM, "out of memory reading the CPU statistics");
	}
	sources_step(run, SOURCE_STOPPED, NULL);
	if (record_teardown(run, &terr))
		record_warn(run, "%s", terr.msg);
	record_stop_workload(run);
	sources_step(run, SOURCE_COLLECT, NULL);
	if (record_write_dat(run, totals, &terr)) {
		char first[sizeof(err->msg)];

		snprintf(first, sizeof(first), "%s", partial ? err->msg : "");
		return gt_error_set(err, terr.errnum, "%s%s%s; free space on %s or use -o elsewhere",
				    first, partial ? "; then " : "", terr.msg, run->out.dir);
	}
	if (partial) {
		struct gt_error cerr = { 0 };

		if (outfile_commit_partial(&run->out, run->opts.force, &cerr))
			record_warn(run, "%s; kept what was recorded in %s (gpu-trace report reads it); free space and record again",
				    err->msg, run->out.tmp_path);
		else
			record_warn(run, "%s; kept what was recorded up to then in %s (%llu events; gpu-trace report reads it); free space and record again",
				    err->msg, run->out.path, totals->scan.events);
		run->out.tmp_path[0] = '\0';	/* kept, not discarded */
		return 1;
	}
	return 0;
}

void record_free(struct record_run *run, struct scan_totals *totals)
{
	free_stats(run->stats, run->recorder.nr_cpus);
	free_stats(run->scoped_stats, run->scoped_rec.nr_cpus);
	free(run->trace_clock);
	free(run->attached);
	free(run->scope_pids);
	free(run->kallsyms);
	sources_free(run);
	for (int i = 0; i < run->nr_formats; i++)
		dat_event_system_free(&run->formats[i]);
	cgroup_scope_free(&run->cgroup);
	recorder_close(&run->recorder);
	recorder_close(&run->scoped_rec);
	outfile_discard(&run->out);
	partial_output_forget();
	page_scan_free(&totals->scan);
	event_selection_free(&run->tree_events);
	event_selection_free(&run->cpu_ioctls);
	event_selection_free(&run->cpu_events);
	record_opts_free(&run->opts);
}

void record_opts_free(struct record_opts *o)
{
	event_selection_free(&o->events);
	free(o->filters);
	free(o->graph_funcs);
	free(o->pids);
	free(o->flight.triggers);
}

