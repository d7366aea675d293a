// SPDX-License-Identifier: GPL-2.0
/*
 * gpu-trace record: the command line, the terminal and the exit status
 * around the engine (lib/capture/record-*.c), which does the recording.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

#include "cmd.h"
#include "record-progress.h"
#include "record.h"

/* A reader blocked in splice on an old kernel is woken by this signal. */
static void on_wake(int sig)
{
	(void)sig;
}

static void on_note(enum record_note_kind kind, const char *line, void *ctx)
{
	(void)ctx;
	if (kind == RECORD_WARN)
		cmd_failf("record", "%s", line);
	else
		cmd_say("%s", line);
}

/*
 * stale_clean's reports, as reset prints them; but another run that is alive
 * is no news at every start (reset and check still name it)
 */
static void on_stale(const char *name, int pid, enum stale_action what, int err, void *ctx)
{
	static int done;

	(void)ctx;
	if (what != STALE_IN_USE && what != STALE_OTHER_NS)
		cmd_stale_note(name, pid, what, err, &done);
}

static void on_progress(const struct recorder *r, const char *buffer_dir, double elapsed,
			void *ctx)
{
	(void)ctx;
	progress_update(r, buffer_dir, elapsed);
}

static unsigned long long total_lost(const struct cpu_stats *stats, int nr_cpus)
{
	unsigned long long lost = 0;
	int i;

	for (i = 0; stats && i < nr_cpus; i++)
		lost += cpu_stats_lost(&stats[i]);
	return lost;
}

static void print_summary(struct record_run *run, const struct scan_totals *t)
{
	unsigned long long scoped_lost = total_lost(run->scoped_stats, run->scoped_rec.nr_cpus);
	int i;

	cmd_say("recorded %llu event%s on %d CPU%s (%.1f MB) in %.2f s -> %s",
		t->scan.events, t->scan.events == 1 ? "" : "s", run->recorder.nr_cpus,
		run->recorder.nr_cpus == 1 ? "" : "s", (double)t->bytes / (1 << 20), run->elapsed,
		run->out.path);
	if (!total_lost(run->stats, run->recorder.nr_cpus) && !scoped_lost && !t->scan.missed &&
	    !t->scan.missed_unknown) {
		cmd_say("lost: 0 events");
		return;
	}
	fprintf(stderr, "%slost:", cmd_bold());
	for (i = 0; i < run->recorder.nr_cpus; i++)
		fprintf(stderr, " cpu%d %llu (overrun %llu, dropped %llu)%s", i,
			cpu_stats_lost(&run->stats[i]), run->stats[i].overrun +
			run->stats[i].commit_overrun, run->stats[i].dropped,
			i + 1 < run->recorder.nr_cpus ? "," : "");
	if (scoped_lost)
		fprintf(stderr, "; workload buffer %llu", scoped_lost);
	fprintf(stderr, "; in the file: %llu%s dropped%s; try a larger -b or fewer events\n",
		t->scan.missed, t->scan.missed_unknown ? "+" : "", cmd_plain());
}

/* After the file is written: is it worth its name, and what the user hears. */
static int conclude(struct record_run *run, struct scan_totals *totals, struct gt_error *err)
{
	record_check_jobs(run);
	if (outfile_commit(&run->out, run->opts.force, err))
		return -1;
	if (run->out.taken[0])
		cmd_say("%s was written by another run meanwhile (it is kept); this recording is %s",
			run->out.taken, run->out.path);
	print_summary(run, totals);
	record_sources_say(run);
	/* its 143 would read as a failure of its own */
	if (run->duration_reached && run->opts.command)
		cmd_say("--duration %g s reached: the command (pid %d) was sent SIGTERM%s",
			run->opts.duration, (int)run->workload.pid,
			run->workload_exited ? "" : " and is still running");
	if (cmd_stop_signal && run->opts.command && !run->workload_exited)
		cmd_say("the command did not exit after signal %d; it is still running as pid %d",
			(int)cmd_stop_signal, (int)run->workload.pid);
	if (run->workload_exited)
		return workload_exit_code(run->wait_status);
	return cmd_stop_signal && run->opts.command ? 128 + cmd_stop_signal : 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_run run;
	struct scan_totals totals = { 0 };
	struct gt_error err = { 0 }, terr = { 0 };
	int ret = GT_EXIT_FAILURE, i;
	const char *what;

	record_run_init(&run);
	run.hooks = (struct record_hooks){
		.note = on_note, .stale = on_stale, .stop = &cmd_stop_signal,
		.tick = cmd_stop_if_output_gone,
	};
	i = record_opts_parse(argc, argv, &run.opts, &err);
	if (i) {
		record_opts_free(&run.opts);
		return i > 0 ? 0 : cmd_fail("record", &err);
	}
	if (run.opts.flight.on) {
		ret = cmd_flight(&run.opts);
		record_opts_free(&run.opts);
		return ret;
	}
	/* a command writes to this terminal too: a status line would glue onto its lines */
	if (!run.opts.command)
		run.hooks.progress = on_progress;
	/*
	 * A reader of our output gone ends a run that only we end (-a, -P,
	 * --duration); a command's run is the command's, whose own output
	 * meets the same pipe
	 */
	if (run.opts.command)
		run.hooks.tick = NULL;
	/* a command that cannot run is said before any set-up, as a shell would */
	if (run.opts.command &&
	    (i = workload_check_command(run.opts.command[0], run.opts.as_root, &err))) {
		cmd_fail("record", &err);
		record_free(&run, &totals);
		return i;
	}
	cmd_stop_signals_install(SIGUSR2, on_wake);
	if (record_setup(&run, &err))
		goto fail;
	if (cmd_stop_signal) {
		/* never start a workload the user already asked us to stop */
		gt_error_set(&err, EINTR, "interrupted by signal %d before recording started; nothing recorded",
			     (int)cmd_stop_signal);
		ret = 128 + cmd_stop_signal;
		cmd_fail("record", &err);
		goto cleanup;
	}
	if (record_start(&run, &err))
		goto fail;
	if (run.opts.command && workload_release(&run.workload, &err)) {
		waitpid(run.workload.pid, &run.wait_status, 0);
		run.workload_exited = true;
		cmd_fail("record", &err);
		ret = workload_exit_code(run.wait_status);
		goto cleanup;
	}
	record_sources_started(&run);
	what = run.opts.system_wide ? " system-wide" :
	       run.has_cgroup ? " the cgroup's processes as they come" : " the given pids";
	if (!run.opts.command && run.opts.duration > 0)
		cmd_say("recording%s for %g s; Ctrl-C ends it sooner", what, run.opts.duration);
	else if (!run.opts.command)
		cmd_say("recording%s; Ctrl-C to stop", what);
	record_wait(&run);
	progress_clear();
	i = record_finish(&run, &totals, &err);
	if (i > 0) {
		ret = GT_EXIT_FAILURE;	/* kept as .partial, and said so */
		goto out;
	}
	if (!i) {
		ret = conclude(&run, &totals, &err);
		if (ret >= 0)
			goto out;
	}
	ret = GT_EXIT_FAILURE;
fail:
	cmd_fail("record", &err);
cleanup:
	if (record_teardown(&run, &terr))
		cmd_fail("record", &terr);
	record_stop_workload(&run);
	outfile_discard(&run.out);
out:
	record_free(&run, &totals);
	return ret;
}
