// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/saved-files.h"
#include "cmd.h"
#include "record-progress.h"
#include "record.h"


static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

/* A reader blocked in splice on an old kernel is woken by this signal. */
static void on_wake(int sig)
{
	(void)sig;
}

static void install_signals(void)
{
	struct sigaction sa = { 0 };

	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_wake;
	sigaction(SIGUSR2, &sa, NULL);
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- buffer size through the session (so the top level is restored) ---- */

static int session_set_kb(void *ctx, unsigned long kb)
{
	struct gt_error e = { 0 };
	char val[32];

	snprintf(val, sizeof(val), "%lu", kb);
	if (session_write(ctx, "buffer_size_kb", val, &e))
		return -(e.errnum ? e.errnum : EIO);
	return 0;
}

static long session_get_kb(void *ctx)
{
	char *v = session_read(ctx, "per_cpu/cpu0/buffer_size_kb");
	long kb;

	if (!v)
		return -errno;
	kb = strtol(v, NULL, 10);
	free(v);
	return kb;
}

static int setup_buffer(struct record_run *run, struct gt_error *err)
{
	struct buffer_ops ops = { session_set_kb, session_get_kb, &run->s };
	int ncpus = run->r.nr_cpus ? run->r.nr_cpus : (int)sysconf(_SC_NPROCESSORS_CONF);
	unsigned long cap = buffer_safe_cap_kb(buffer_mem_available_kb(), ncpus);
	char line[512];

	if (buffer_ladder_apply(&ops, run->o.buffer_kb, cap, &run->buf, err))
		return -1;
	buffer_result_describe(&run->buf, ncpus, line, sizeof(line));
	cmd_say("%s", line);
	if (run->o.buffer_kb && run->o.buffer_kb > cap)
		cmd_say("buffer: note: -b %lu KB is above the safe share (%lu KB per CPU); the kernel only refuses sizes beyond MemAvailable",
			run->o.buffer_kb, cap);
	return 0;
}

static int setup_clock(struct record_run *run, struct gt_error *err)
{
	char *avail = session_read(&run->s, "trace_clock");
	char *tok, *save = NULL;
	int found = 0;

	for (tok = avail ? strtok_r(avail, " \n", &save) : NULL; tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		size_t n = strlen(tok);

		if (tok[0] == '[' && n > 2 && tok[n - 1] == ']') {
			tok[n - 1] = '\0';
			tok++;
		}
		if (!strcmp(tok, run->o.clock))
			found = 1;
	}
	free(avail);
	if (!found)
		return gt_error_set(err, EINVAL,
				    "clock '%s' is not offered by this kernel; pick one of %s/trace_clock (e.g. -C mono)",
				    run->o.clock, run->tracing_dir);
	return session_write(&run->s, "trace_clock", run->o.clock, err);
}

static int setup_tracer(struct record_run *run, struct gt_error *err)
{
	struct tracer_request rq = {
		.tracer = run->o.tracer,
		.filters = run->o.filters,
		.nr_filters = run->o.nr_filters,
		.graph_funcs = run->o.graph_funcs,
		.nr_graph_funcs = run->o.nr_graph_funcs,
		.max_graph_depth = run->o.max_graph_depth,
		.strict = run->o.strict,
	};
	int i;

	if (tracer_setup(&run->s, &rq, &run->tr, err))
		return -1;
	for (i = 0; i < run->tr.nr_notes; i++)
		cmd_say("%s", run->tr.notes[i]);
	return 0;
}

static int setup_events(struct record_run *run, struct gt_error *err)
{
	struct event_selection *sel = &run->o.events;

	if (event_selection_apply(sel, &run->s, run->o.ignore_missing, err))
		return -1;
	if (sel->missing)
		cmd_say("events: not on this kernel%s%s: %s", run->o.preset ? ", preset " : "",
			run->o.preset ? run->o.preset : "", sel->missing);
	if (!sel->nr_enabled && !strcmp(run->tr.used, "nop"))
		return gt_error_set(err, ENOENT,
				    "nothing to record: none of the selected events exist on this kernel and no tracer is active; see gpu-trace list");
	cmd_say("events: %d enabled in %d system%s%s", sel->nr_enabled, sel->nr_systems,
		sel->nr_systems == 1 ? "" : "s", run->s.top_level ? " (top-level buffer)" : "");
	return 0;
}

static int write_pids(struct record_run *run, const pid_t *pids, int nr,
		      struct gt_error *err)
{
	bool functions = strcmp(run->tr.used, "nop") != 0;
	char list[4096] = "";
	size_t off = 0;
	int i;

	for (i = 0; i < nr && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%d\n", (int)pids[i]);
	if (session_write(&run->s, "set_event_pid", list, err))
		return -1;
	if (!run->o.no_follow && session_write(&run->s, "options/event-fork", "1", err))
		return -1;
	if (functions) {
		if (session_write(&run->s, "set_ftrace_pid", list, err))
			return -1;
		if (!run->o.no_follow && session_has_file(&run->s, "options/function-fork") &&
		    session_write(&run->s, "options/function-fork", "1", err))
			return -1;
	}
	return 0;
}

/* kallsyms dominates the header; formats and cmdlines fit in the margin */
static off_t header_estimate(const char *tracing_dir)
{
	char *kallsyms = tracefs_path_read("/proc", "kallsyms");
	char *printk = tracefs_path_read(tracing_dir, "printk_formats");
	off_t n = (off_t)(kallsyms ? strlen(kallsyms) : 0) + (off_t)(printk ? strlen(printk) : 0);

	free(kallsyms);
	free(printk);
	return n + (4 << 20);
}

/* -P processes may exit before the file is written: name them now. */
static void name_attached(struct record_run *run)
{
	int i;

	run->attached = calloc((size_t)run->o.nr_pids, sizeof(*run->attached));
	for (i = 0; run->attached && i < run->o.nr_pids; i++) {
		char comm[64] = "";

		cmdlines_proc_comm((int)run->o.pids[i], comm, sizeof(comm));
		run->attached[i].pid = run->o.pids[i];
		snprintf(run->attached[i].comm, sizeof(run->attached[i].comm), "%.15s",
			 comm[0] ? comm : "<...>");
	}
}

static int setup(struct record_run *run, struct gt_error *err)
{
	bool mounted_now = false;
	char name[64];
	int stale = 0;

	if (session_find_tracing_dir(&run->tracing_dir, &mounted_now, err))
		return -1;
	if (mounted_now)
		cmd_say("tracefs: was not mounted; mounted it on %s (left mounted)", run->tracing_dir);
	/* a gpu-trace killed by SIGKILL could not clean up: do it now */
	stale_clean(run->tracing_dir, cmd_stale_note, &stale);
	if (outfile_create(&run->out, run->o.output, run->o.force, err) ||
	    outfile_reserve(&run->out, header_estimate(run->tracing_dir), err))
		return -1;
	snprintf(name, sizeof(name), "%s%d", GT_INSTANCE_PREFIX, (int)getpid());
	if (session_create_instance(&run->s, run->tracing_dir, name, err))
		return -1;
	if (run->o.top_level) {
		if (session_move_to_top_level(&run->s, err))
			return -1;
		cmd_say("recording in the top-level buffer (--top-level); its settings are restored afterwards");
	}
	/* a new instance traces at once: hold it until everything is set */
	if (session_write(&run->s, "tracing_on", "0", err))
		return -1;
	if (setup_tracer(run, err) || setup_clock(run, err) || setup_events(run, err) ||
	    setup_buffer(run, err))
		return -1;
	if (run->o.command) {
		if (workload_creds_from_env(&run->creds, run->o.as_root, err) ||
		    workload_spawn(&run->w, run->o.command, &run->creds, err))
			return -1;
		if (!run->o.system_wide && write_pids(run, &run->w.pid, 1, err))
			return -1;
	} else if (run->o.nr_pids) {
		name_attached(run);
		if (write_pids(run, run->o.pids, run->o.nr_pids, err))
			return -1;
	}
	return recorder_open(&run->r, &run->s, run->out.dir, err);
}

static bool pids_alive(const struct record_opts *o)
{
	int i;

	for (i = 0; i < o->nr_pids; i++)
		if (!kill(o->pids[i], 0) || errno != ESRCH)
			return true;
	return false;
}

/* Until the workload ends, the attached pids exit, a signal or --duration. */
static void wait_for_end(struct record_run *run, double t0)
{
	double last_progress = 0;

	while (!stop_signal) {
		struct timespec nap = { 0, 100 * 1000 * 1000 };

		run->elapsed = now_seconds() - t0;
		if (run->w.pid > 0 && waitpid(run->w.pid, &run->wait_status, WNOHANG) == run->w.pid) {
			run->workload_exited = true;
			break;
		}
		if (run->o.nr_pids && !pids_alive(&run->o))
			break;
		if (run->o.duration > 0 && run->elapsed >= run->o.duration)
			break;
		if (run->elapsed - last_progress >= 0.5) {
			progress_update(&run->r, run->s.dir, run->elapsed);
			last_progress = run->elapsed;
		}
		nanosleep(&nap, NULL);
	}
	run->elapsed = now_seconds() - t0;
	progress_clear();
}

/* What the .dat needs from the instance, read before it is removed. */
static int read_final_state(struct record_run *run)
{
	int i;

	run->trace_clock = session_read(&run->s, "trace_clock");
	run->stats = calloc((size_t)run->r.nr_cpus, sizeof(*run->stats));
	if (!run->stats)
		return -1;
	for (i = 0; i < run->r.nr_cpus; i++)
		cpu_stats_read(run->s.dir, i, &run->stats[i]);
	return 0;
}

static void print_summary(struct record_run *run, const struct scan_totals *t)
{
	unsigned long long lost = 0;
	int i;

	cmd_say("recorded %llu event%s on %d CPUs (%.1f MB) in %.2f s -> %s",
		t->scan.events, t->scan.events == 1 ? "" : "s", run->r.nr_cpus, (double)t->bytes / (1 << 20), run->elapsed,
		run->o.output);
	for (i = 0; i < run->r.nr_cpus; i++)
		lost += cpu_stats_lost(&run->stats[i]);
	if (!lost && !t->scan.missed && !t->scan.missed_unknown) {
		cmd_say("lost: 0 events");
		return;
	}
	fprintf(stderr, "%slost:", cmd_bold());
	for (i = 0; i < run->r.nr_cpus; i++)
		fprintf(stderr, " cpu%d %llu (overrun %llu, dropped %llu)%s", i,
			cpu_stats_lost(&run->stats[i]), run->stats[i].overrun +
			run->stats[i].commit_overrun, run->stats[i].dropped,
			i + 1 < run->r.nr_cpus ? "," : "");
	fprintf(stderr, "; in the file: %llu%s dropped%s; try a larger -b or fewer events\n",
		t->scan.missed, t->scan.missed_unknown ? "+" : "", cmd_plain());
}

/* Undo tracefs; reap a workload we stopped. Safe on every path. */
static int teardown(struct record_run *run, struct gt_error *err)
{
	if (run->r.cpus)
		recorder_stop(&run->r, NULL);
	if (run->w.pid > 0 && !run->workload_exited && run->w.go_fd >= 0)
		workload_abort(&run->w);
	return session_teardown(&run->s, err);
}

static void stop_workload(struct record_run *run)
{
	int i;

	if (run->w.pid <= 0 || run->workload_exited)
		return;
	kill(run->w.pid, stop_signal ? stop_signal : SIGTERM);
	/* give it two seconds to go; gpu-trace does not outlive it forever */
	for (i = 0; i < 20; i++) {
		struct timespec nap = { 0, 100 * 1000 * 1000 };

		if (waitpid(run->w.pid, &run->wait_status, WNOHANG) == run->w.pid) {
			run->workload_exited = true;
			return;
		}
		nanosleep(&nap, NULL);
	}
}

int cmd_record(int argc, char **argv)
{
	struct record_run run = { 0 };
	struct scan_totals totals = { 0 };
	struct gt_error err = { 0 }, terr = { 0 };
	int ret = GT_EXIT_FAILURE, i;
	bool partial;
	uid_t owner;
	double t0;

	run.out.fd = -1;
	run.w.go_fd = run.w.status_fd = -1;
	i = record_opts_parse(argc, argv, &run.o, &err);
	if (i) {
		record_opts_free(&run.o);
		return i > 0 ? 0 : cmd_fail("record", &err);
	}
	install_signals();
	if (setup(&run, &err))
		goto fail;
	owner = run.creds.drop ? run.creds.uid : (uid_t)-1;
	if (stop_signal) {
		/* never start a workload the user already asked us to stop */
		gt_error_set(&err, EINTR, "interrupted by signal %d before recording started; nothing recorded",
			     (int)stop_signal);
		ret = 128 + stop_signal;
		cmd_fail("record", &err);
		goto cleanup;
	}
	if (recorder_start(&run.r, &err) || session_write(&run.s, "tracing_on", "1", &err))
		goto fail;
	t0 = now_seconds();
	if (run.o.command && workload_release(&run.w, &err)) {
		waitpid(run.w.pid, &run.wait_status, 0);
		run.workload_exited = true;
		cmd_fail("record", &err);
		ret = workload_exit_code(run.wait_status);
		goto cleanup;
	}
	if (!run.o.command)
		cmd_say("recording%s; Ctrl-C to stop", run.o.system_wide ? " system-wide" :
			" the given pids");
	wait_for_end(&run, t0);

	session_write(&run.s, "tracing_on", "0", NULL);
	/* a full disk stops the readers: what they wrote is still worth keeping */
	partial = recorder_stop(&run.r, &err) != 0;
	if (read_final_state(&run)) {
		gt_error_set(&err, ENOMEM, "out of memory reading the CPU statistics");
		stop_workload(&run);
		goto fail;
	}
	if (teardown(&run, &terr))
		cmd_fail("record", &terr);
	stop_workload(&run);
	if (record_write_dat(&run, &totals, &terr)) {
		char first[sizeof(err.msg)];

		snprintf(first, sizeof(first), "%s", partial ? err.msg : "");
		gt_error_set(&err, terr.errnum, "%s%s%s; free space on %s or use -o elsewhere",
			     first, partial ? "; then " : "", terr.msg, run.out.dir);
		goto fail;
	}
	if (partial) {
		struct gt_error cerr = { 0 };

		if (outfile_commit_partial(&run.out, owner, run.creds.gid, run.o.force, &cerr))
			cmd_failf("record", "%s; kept what was recorded in %s (gpu-trace report reads it); free space and record again",
				  err.msg, run.out.tmp_path);
		else
			cmd_failf("record", "%s; kept what was recorded up to then in %s (%llu events; gpu-trace report reads it); free space and record again",
				  err.msg, run.out.path, totals.scan.events);
		run.out.tmp_path[0] = '\0';	/* kept, not discarded */
		ret = GT_EXIT_FAILURE;
		goto out;
	}
	if (outfile_commit(&run.out, owner, run.creds.gid, run.o.force, &err))
		goto fail;
	print_summary(&run, &totals);
	if (stop_signal && run.o.command && !run.workload_exited)
		cmd_say("the command did not exit after signal %d; it is still running as pid %d",
			(int)stop_signal, (int)run.w.pid);
	if (run.workload_exited)
		ret = workload_exit_code(run.wait_status);
	else
		ret = stop_signal && run.o.command ? 128 + stop_signal : 0;
	goto out;

fail:
	cmd_fail("record", &err);
cleanup:
	if (teardown(&run, &terr))
		cmd_fail("record", &terr);
	stop_workload(&run);
	outfile_discard(&run.out);
out:
	if (run.stats)
		for (i = 0; i < run.r.nr_cpus; i++)
			cpu_stats_free(&run.stats[i]);
	free(run.stats);
	free(run.trace_clock);
	free(run.attached);
	recorder_close(&run.r);
	outfile_discard(&run.out);
	page_scan_free(&totals.scan);
	record_opts_free(&run.o);
	return ret;
}
