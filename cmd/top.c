// SPDX-License-Identifier: GPL-2.0
/*
 * gpu-trace top: the GPU event systems of a private instance read as a
 * stream, joined into jobs by the same pipeline report uses (records go to
 * analysis_record(), jobs retire as they finish), redrawn every interval.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "capture/live-capture.h"
#include "tracefs/presets.h"
#include "capture/workload.h"
#include "cmd.h"
#include "top.h"
#include "analysis/gpu-hangs.h"
#include "analysis/timeline.h"

/* Exit status when the kernel has no GPU event system to watch. */
#define TOP_EXIT_NO_GPU_EVENTS 2

static volatile sig_atomic_t resized;

static void on_resize(int sig)
{
	(void)sig;
	resized = 1;
}

enum { OPT_SORT = OPT_CAPTURE_FIRST, OPT_JSON };

static const struct option long_options[] = {
	CAPTURE_LONG_OPTIONS,
	{ "delay", required_argument, NULL, 'd' },
	{ "count", required_argument, NULL, 'n' },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 }
};

static int parse_sort(const char *arg, enum live_sort *sort, struct gt_error *err)
{
	static const char *const keys[LIVE_SORT_NR] = { "jobs", "busy", "wait", "name" };
	int i;

	for (i = 0; i < LIVE_SORT_NR; i++)
		if (!strcmp(arg, keys[i])) {
			*sort = (enum live_sort)i;
			return 0;
		}
	return gt_error_set(err, EINVAL, "bad --sort '%s': use jobs, busy, wait or name", arg);
}

static int parse_number(const char *opt, const char *arg, double min, double *out,
			struct gt_error *err)
{
	char *end;

	*out = strtod(arg, &end);
	/* "nan" and "inf" too: -n's count is a long */
	if (end == arg || *end || !(*out >= min && *out <= 1e9))
		return gt_error_set(err, EINVAL, "bad %s '%s': expected a number from %g to 1000000000",
				    opt, arg, min);
	return 0;
}

/* 0 ok, 1 help printed, -1 error */
static int parse(int argc, char **argv, struct top_opts *o, struct gt_error *err)
{
	bool help = false;
	int c, shared;
	double v;

	memset(o, 0, sizeof(*o));
	o->cap.events = &o->events;
	o->interval_s = 1.0;
	optind = 0;	/* a full restart of getopt, also when called again in one process */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:" CAPTURE_SHORT_OPTIONS "d:n:",
				long_options, NULL)) != -1) {
		shared = cmd_capture_option("top", c, optarg, &o->cap, &help, err);
		if (shared < 0)
			return -1;
		if (help)
			return 1;
		if (shared)
			continue;
		switch (c) {
		case 'd':
			if (parse_number("-d", optarg, 0.1, &o->interval_s, err))
				return -1;
			break;
		case 'n':
			if (parse_number("-n", optarg, 1, &v, err))
				return -1;
			o->count = (long)v;
			break;
		case OPT_SORT:
			if (parse_sort(optarg, &o->sort, err))
				return -1;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		default:	/* ':' a value missing, '?' unknown */
			return cmd_option_error("top", c, argv[optind - 1], err);
		}
	}
	if (optind < argc)
		o->command = argv + optind;
	if (o->command && o->cap.nr_pids)
		return gt_error_set(err, EINVAL, "-P watches running processes; it cannot be combined with a command");
	/* top follows GPU jobs; NVIDIA's driver has none to follow */
	if (o->cap.preset && o->cap.preset->nvidia_probes)
		return gt_error_set(err, EINVAL, "--preset nvidia: top follows GPU jobs, which NVIDIA's driver does not trace; record --preset nvidia and report the file instead");
	/* the function tracer has no place in a live job view: the preset's events only */
	if (cmd_capture_events(&o->cap, err))
		return -1;
	o->preset = o->cap.preset ? o->cap.preset->name : NULL;
	return 0;
}

struct top_run {
	struct top_opts opts;
	struct live_capture capture;
	struct analysis *analysis;	/* analysis_new()'s, freed at the teardown */
	bool analysing;
	struct live_stats live;
	struct workload workload;
	struct workload_creds creds;
	bool workload_exited;
	int wait_status;
	struct termios saved_tty;
	bool tty_raw;
};

static int setup(struct top_run *run, struct gt_error *err)
{
	struct live_capture_config cfg = {
		.events = &run->opts.events,
		.explicit_events = run->opts.cap.explicit_events,
		.buffer_kb = run->opts.cap.buffer_kb,
		.stale = cmd_stale_note,
		.ctx = &(int){ 0 },
	};

	if (live_capture_open(&run->capture, &cfg, err))
		return -1;
	if (run->capture.mounted_now)
		cmd_say("tracefs: was not mounted; mounted it on %s (left mounted)",
			run->capture.tracing_dir);
	run->analysis = analysis_new();
	if (!run->analysis)
		return gt_error_set(err, ENOMEM, "out of memory");
	if (analysis_init(run->analysis, run->capture.tep, &(struct analysis_hooks){
				  .on_job = live_stats_on_job, .ctx = &run->live, .no_groups = true },
			  err))
		return -1;
	run->analysing = true;
	if (run->opts.command &&
	    (workload_creds_from_env(&run->creds, false, err) ||
	     workload_spawn(&run->workload, run->opts.command, &run->creds, err)))
		return -1;
	return live_capture_start(&run->capture, err);
}

static int on_record(struct tep_record *rec, void *ctx)
{
	analysis_record(ctx, rec);
	return 0;
}

/*
 * What the kernel stamped up to @until, into the join. An interval that ends
 * at @until then holds the jobs that ended before it however late this read
 * comes (a preempted top, a slow terminal): the rest is held for the next one.
 */
static void drain(struct top_run *run, uint64_t until)
{
	live_capture_drain(&run->capture, until, on_record, run->analysis);
}

static bool watched_ended(struct top_run *run)
{
	int i;

	if (run->workload.pid > 0 && !run->workload_exited &&
	    waitpid(run->workload.pid, &run->wait_status, WNOHANG) == run->workload.pid)
		run->workload_exited = true;
	if (run->opts.command)
		return run->workload_exited;
	for (i = 0; i < run->opts.cap.nr_pids; i++)
		if (!kill(run->opts.cap.pids[i], 0) || errno != ESRCH)
			return false;
	return run->opts.cap.nr_pids > 0;
}

static void tty_raw(struct top_run *run)
{
	struct termios raw;

	if (run->opts.json || !isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &run->saved_tty))
		return;
	raw = run->saved_tty;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	run->tty_raw = !tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	if (run->tty_raw)
		fputs("\033[?25l\033[2J", stdout);	/* hide the cursor, clear once */
}

static void tty_restore(struct top_run *run)
{
	if (!run->tty_raw)
		return;
	tcsetattr(STDIN_FILENO, TCSANOW, &run->saved_tty);
	/* the last frame goes with top, as the shell's screen comes back */
	fputs("\033[?25h\033[H\033[2J", stdout);
	run->tty_raw = false;
}

/* A key, if one was pressed within `timeout_ms`; 0 otherwise. */
static int key(struct top_run *run, int timeout_ms)
{
	struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
	char c;

	if (!run->tty_raw) {
		poll(NULL, 0, timeout_ms);
		return 0;
	}
	if (poll(&p, 1, timeout_ms) <= 0 || read(STDIN_FILENO, &c, 1) != 1)
		return 0;
	return c;
}

static void show(struct top_run *run, struct top_view *view, double interval)
{
	struct live_snapshot snap;

	if (live_stats_tick(&run->live, timeline_of(run->analysis), interval,
			    analysis_totals(run->analysis)->missed, run->opts.sort, &snap))
		return;
	live_snapshot_hangs(&snap, gpu_hangs_of(run->analysis));
	if (run->opts.json)
		top_view_json(view, &snap);
	else
		top_view_text(view, &snap, run->opts.sort);
	live_snapshot_free(&snap);
}

/* Until -n intervals, the watched processes end, q, or a signal. */
static void watch(struct top_run *run)
{
	struct top_view view = { .out = stdout, .json = run->opts.json,
				 .analysis = run->analysis };
	uint64_t start = live_capture_now(&run->capture), last = start;
	uint64_t interval = (uint64_t)(run->opts.interval_s * 1e9);
	long shown = 0;

	top_view_measure(&view);
	while (!cmd_stop_signal) {
		int c = key(run, 100);
		uint64_t t = live_capture_now(&run->capture);
		bool ended;

		drain(run, t);
		if (resized) {
			resized = 0;
			top_view_measure(&view);
		}
		if (c == 'q')
			break;
		if (c == 's')
			run->opts.sort = (run->opts.sort + 1) % LIVE_SORT_NR;
		if (c == 'p')
			view.paused = !view.paused;
		if (c == 'r')
			live_stats_reset(&run->live, timeline_of(run->analysis));
		ended = watched_ended(run);
		/* keys show at the next draw: an interval is never cut short */
		if (t - last < interval && !ended)
			continue;
		if (ended) {
			t = live_capture_now(&run->capture);
			drain(run, t);
		}
		view.elapsed_s = (double)(t - start) / 1e9;
		view.clock_ns = t;
		show(run, &view, (double)(t - last) / 1e9);
		last = t;
		if (ferror(stdout) || (run->opts.count && ++shown >= run->opts.count) || ended)
			break;
	}
}

/* q or a signal while the command runs: pass it on, wait two seconds at most */
static void stop_command(struct top_run *run)
{
	if (!run->workload_exited &&
	    workload_stop(&run->workload, cmd_stop_signal ? cmd_stop_signal : SIGTERM, &run->wait_status))
		run->workload_exited = true;
	if (!run->workload_exited)
		fprintf(stderr, "gpu-trace top: the command did not exit; it is still running as pid %d\n",
			(int)run->workload.pid);
}

static void teardown(struct top_run *run)
{
	struct gt_error err = { 0 };

	tty_restore(run);
	if (run->workload.pid > 0 && !run->workload_exited && run->workload.go_fd >= 0)
		workload_abort(&run->workload);
	/* the join reads the formats: it goes before the capture frees them */
	analysis_free(run->analysis);
	run->analysis = NULL;
	run->analysing = false;
	if (live_capture_close(&run->capture, &err))
		cmd_fail("top", &err);
	live_stats_free(&run->live);
	event_selection_free(&run->opts.events);
	free(run->opts.cap.pids);
}

int cmd_top(int argc, char **argv)
{
	struct top_run run = { 0 };
	struct gt_error err = { 0 };
	int ret, parsed;

	run.workload.go_fd = run.workload.status_fd = -1;
	parsed = parse(argc, argv, &run.opts, &err);
	if (parsed) {
		event_selection_free(&run.opts.events);
		free(run.opts.cap.pids);
		return parsed > 0 ? 0 : cmd_fail("top", &err);
	}
	if (run.opts.command && (ret = workload_check_command(run.opts.command[0], false, &err))) {
		cmd_fail("top", &err);
		event_selection_free(&run.opts.events);
		free(run.opts.cap.pids);
		return ret;
	}
	cmd_stop_signals_install(SIGWINCH, on_resize);
	if (setup(&run, &err)) {
		ret = run.capture.no_gpu_events ? TOP_EXIT_NO_GPU_EVENTS : GT_EXIT_FAILURE;
		cmd_fail("top", &err);
		teardown(&run);
		return ret;
	}
	if (run.opts.command && workload_release(&run.workload, &err)) {
		waitpid(run.workload.pid, &run.wait_status, 0);
		run.workload_exited = true;
		cmd_fail("top", &err);
		teardown(&run);
		return workload_exit_code(run.wait_status);
	}
	tty_raw(&run);
	watch(&run);
	ret = ferror(stdout) ? GT_EXIT_FAILURE : 0;
	if (run.opts.command && !run.workload_exited)
		stop_command(&run);
	if (run.workload_exited)
		ret = workload_exit_code(run.wait_status);
	teardown(&run);
	return ret;
}
