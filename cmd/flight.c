// SPDX-License-Identifier: GPL-2.0
/*
 * gpu-trace record --flight-recorder: GPU events system-wide read as they
 * come (top's capture and join), the last SIZE bytes of pages kept in memory
 * (lib/capture/flight-ring.h), and a .dat written when something goes wrong
 * (lib/analysis/flight-rules.h): a slow job, a ring timeout, a GPU reset, a
 * job's fence error (xe), an NVIDIA Xid, SIGUSR1, a touched file, or a period. Each dump carries the
 * seconds before the trigger (what the ring holds) and --after it, the
 * host's markers and the trigger's own marker, which report reads back.
 * Runs until SIGTERM or SIGINT (or --duration), leaving tracefs as found.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/flight-rules.h"
#include "analysis/gpu-hangs.h"
#include "analysis/nvidia-calls.h"
#include "capture/flight-dump.h"
#include "capture/flight-ring.h"
#include "capture/live-capture.h"
#include "capture/record-identity.h"
#include "tracefs/buffer-ladder.h"
#include "cmd.h"
#include "record.h"

#define FLIGHT_MAX_RULES	16
#define FLIGHT_TICK_MS		100
/* the default pool: the ladder's top rung per CPU, within the safe share of memory */
#define FLIGHT_DEFAULT_KB_PER_CPU	(16UL * 1024)

struct flight_run {
	struct record_opts *o;
	struct live_capture capture;
	struct analysis *analysis;	/* analysis_new()'s, freed at the teardown */
	bool analysing;
	struct flight_ring ring;
	struct flight_dir dir;
	struct flight_plan plan;
	struct flight_rule rules[FLIGHT_MAX_RULES];
	int nr_rules;
	uint64_t every_ns, next_periodic;
	uint64_t hangs_seen, resets_seen, xids_seen, errors_seen;
	bool file_known;
	struct timespec file_mtime;
	uint64_t dumps, failed;
};

static volatile sig_atomic_t usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1 = 1;
}

/* on the records' clock: a trigger's time is set against the dump's stamps */
static uint64_t now_ns(const struct flight_run *run)
{
	return live_capture_now(&run->capture);
}

/* "2s", "500ms", "10m", "1h": a duration with its unit */
static int parse_span(const char *opt, const char *arg, uint64_t *ns, struct gt_error *err)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "ms", 1e6 }, { "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
	};
	char *end;
	double v = strtod(arg, &end);

	for (size_t i = 0; end != arg && v >= 0 && v <= 1e6 && i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			*ns = (uint64_t)(v * units[i].mult + 0.5);
			return 0;
		}
	}
	return gt_error_set(err, EINVAL, "bad %s '%s': expected a duration with its unit, e.g. 500ms, 2s, 10m or 1h",
			    opt, arg);
}

/* --keep 20 (files) or --keep 2G (bytes: K, M, G) */
static int parse_keep(const char *arg, struct flight_dir *d, struct gt_error *err)
{
	unsigned long kb;
	char *end;
	unsigned long long n = strtoull(arg, &end, 10);

	if (end != arg && !*end && n > 0 && n <= 1000000 && arg[0] != '-') {
		d->keep_files = (unsigned long)n;
		return 0;
	}
	if (cmd_parse_buffer_kb(arg, &kb, err))
		return gt_error_set(err, EINVAL, "bad --keep '%s': a number of files (20) or a size (500M, 2G)",
				    arg);
	d->keep_bytes = (unsigned long long)kb * 1024;
	return 0;
}

static int parse_flight(struct flight_run *run, struct gt_error *err)
{
	const struct record_flight *f = &run->o->flight;
	unsigned long kb = 0;
	uint64_t ns;

	run->plan.after_ns = 2000000000ULL;
	run->plan.min_gap_ns = 60000000000ULL;
	if (f->nr_triggers > FLIGHT_MAX_RULES)
		return gt_error_set(err, EINVAL, "%d --trigger rules; at most %d", f->nr_triggers,
				    FLIGHT_MAX_RULES);
	for (int i = 0; i < f->nr_triggers; i++)
		if (flight_rule_parse(f->triggers[i], &run->rules[run->nr_rules++], err))
			return -1;
	if (f->after && parse_span("--after", f->after, &run->plan.after_ns, err))
		return -1;
	if (f->min_gap && parse_span("--min-gap", f->min_gap, &run->plan.min_gap_ns, err))
		return -1;
	if (f->every) {
		if (parse_span("--every", f->every, &ns, err))
			return -1;
		if (ns < 1000000000ULL)
			return gt_error_set(err, EINVAL, "bad --every '%s': one dump a second at most", f->every);
		run->every_ns = ns;
	}
	if (f->keep && parse_keep(f->keep, &run->dir, err))
		return -1;
	if (f->size && cmd_parse_buffer_kb(f->size, &kb, err))
		return gt_error_set(err, EINVAL, "bad --flight-recorder=%s: the memory to keep, e.g. 256M or 1G",
				    f->size);
	if (f->size && kb < 1024)
		return gt_error_set(err, EINVAL, "--flight-recorder=%s keeps too little; give 1M or more", f->size);
	return 0;
}

/* What the pool may take: the size asked for, else the ladder's top rung per CPU within its safe share */
static size_t pool_bytes(const struct record_flight *f, int nr_cpus)
{
	unsigned long kb = 0, cap;

	if (f->size) {
		cmd_parse_buffer_kb(f->size, &kb, NULL);
		return (size_t)kb * 1024;
	}
	kb = FLIGHT_DEFAULT_KB_PER_CPU * (unsigned long)nr_cpus;
	cap = buffer_mem_available_kb() / BUFFER_SAFE_SHARE_DIV;
	if (cap && kb > cap)
		kb = cap;
	return (size_t)kb * 1024;
}

/* The trigger's marker, then the host's and a clock pair: the dump names itself and its cause */
static void mark(struct flight_run *run, const char *line)
{
	struct gt_error err = { 0 };

	if (live_capture_mark(&run->capture, line, &err) ||
	    identity_mark_host(&run->capture.session, &err) ||
	    identity_mark_clock(&run->capture.session, &err))
		cmd_failf("record", "flight recorder: %s", err.msg);
}

static void fire(struct flight_run *run, enum flight_cause cause, const char *detail)
{
	char line[FLIGHT_DETAIL + 64];

	if (flight_plan_fire(&run->plan, cause, now_ns(run), detail) != FLIGHT_ARMED)
		return;
	snprintf(line, sizeof(line), "gpu-trace trigger: cause=%s%s%s", flight_cause_name(cause),
		 detail && *detail ? " " : "", detail ? detail : "");
	mark(run, line);
	cmd_say("flight recorder: %s%s%s; dumping in %.1f s", flight_cause_name(cause),
		detail && *detail ? ": " : "", detail ? detail : "",
		(double)run->plan.after_ns / 1e9);
}

static void on_job(const struct job *j, void *ctx)
{
	struct flight_run *run = ctx;
	const char *ring;
	char detail[FLIGHT_DETAIL];

	if (!run->nr_rules)
		return;
	ring = timeline_ring_name(timeline_of(run->analysis), j->ring);
	for (int i = 0; i < run->nr_rules; i++) {
		const struct flight_rule *r = &run->rules[i];

		if (!flight_rule_match(r, ring, j))
			continue;
		snprintf(detail, sizeof(detail),
			 "ring=%s stage=%s ns=%" PRIu64 " over_ns=%" PRIu64 " pid=%d done_ns=%" PRIu64,
			 ring, job_latency_key(r->stage), j->lat[r->stage], r->over_ns, j->pid,
			 j->t_done);
		fire(run, FLIGHT_SLOW_JOB, detail);
		return;
	}
}

static void on_page(int cpu, const unsigned char *page, void *ctx)
{
	struct flight_run *run = ctx;
	uint64_t first, last;

	flight_page_times(page, run->ring.page_size, &first, &last);
	flight_ring_push(&run->ring, cpu, page, first, last);
}

static int on_record(struct tep_record *rec, void *ctx)
{
	analysis_record(ctx, rec);
	return 0;
}

/* Timeouts, resets and Xids the joins counted since the last look */
static void check_hangs(struct flight_run *run)
{
	const struct gpu_hangs *h = gpu_hangs_of(run->analysis);
	const struct nvidia_calls *nv = nvidia_calls_of(run->analysis);
	char detail[FLIGHT_DETAIL];
	uint64_t n;

	if (h && (n = h->nr_hangs + h->dropped) > run->hangs_seen) {
		const struct gpu_hang *last = h->nr_hangs ? &h->hangs[h->nr_hangs - 1] : NULL;

		snprintf(detail, sizeof(detail), "ring=%s", last ? last->ring : "?");
		run->hangs_seen = n;
		fire(run, FLIGHT_TIMEOUT, detail);
	}
	if (h && h->nr_resets > run->resets_seen) {
		snprintf(detail, sizeof(detail), "dev=%s", h->resets[h->nr_resets - 1].dev);
		run->resets_seen = h->nr_resets;
		fire(run, FLIGHT_RESET, detail);
	}
	if (h && h->job_errors > run->errors_seen) {
		snprintf(detail, sizeof(detail), "dev=%s guc_id=%d seqno=%u error=%d", h->last_job_error.dev,
			 h->last_job_error.guc_id, h->last_job_error.seqno, h->last_job_error.error);
		run->errors_seen = h->job_errors;
		fire(run, FLIGHT_JOB_ERROR, detail);
	}
	if (nv && (n = (uint64_t)nv->nr_xids + nv->more_xids) > run->xids_seen) {
		const struct nv_xid *x = nv->nr_xids ? &nv->xids[nv->nr_xids - 1] : NULL;

		snprintf(detail, sizeof(detail), "xid=%u dev=%s", x ? x->code : 0, x ? x->dev : "?");
		run->xids_seen = n;
		fire(run, FLIGHT_XID, detail);
	}
}

/* --trigger-file: its modification time moved (or it appeared) since the last look */
static void check_file(struct flight_run *run)
{
	const char *path = run->o->flight.trigger_file;
	struct stat st;

	if (!path || stat(path, &st))
		return;
	if (run->file_known && st.st_mtim.tv_sec == run->file_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == run->file_mtime.tv_nsec)
		return;
	if (run->file_known)
		fire(run, FLIGHT_FILE, NULL);
	run->file_known = true;
	run->file_mtime = st.st_mtim;
}

static void drain(struct flight_run *run)
{
	live_capture_drain(&run->capture, UINT64_MAX, on_record, run->analysis);
}

/* Triggers of @cause --min-gap held back since its last dump, said once */
static void say_suppressed(struct flight_run *run, enum flight_cause cause)
{
	uint64_t n = run->plan.suppressed[cause];

	if (n)
		cmd_say("flight recorder: %" PRIu64 " %s trigger%s within --min-gap of the last dump %s not dumped",
			n, flight_cause_name(cause), n == 1 ? "" : "s", n == 1 ? "was" : "were");
	run->plan.suppressed[cause] = 0;
}

/* The pending dump of @cause written now: its marker read back in, the file, the journal's line */
static void dump(struct flight_run *run, enum flight_cause cause)
{
	const struct flight_pending *pd = &run->plan.pending[cause];
	struct flight_dump_info info;
	struct gt_error err = { 0 };
	char line[128];
	unsigned int removed = 0;

	snprintf(line, sizeof(line), "gpu-trace flight dump: cause=%s window_from_ns=%" PRIu64,
		 flight_cause_name(cause), run->ring.window_start);
	live_capture_mark(&run->capture, line, NULL);
	drain(run);
	if (flight_dump_write(&run->capture, &run->o->events, &run->ring, &run->dir,
			      flight_cause_name(cause), &info, &err)) {
		run->failed++;
		cmd_failf("record", "flight recorder: the %s dump failed: %s", flight_cause_name(cause),
			  err.msg);
		flight_plan_done(&run->plan, cause);
		return;
	}
	run->dumps++;
	flight_dir_prune(&run->dir, info.path, &removed);
	cmd_say("flight recorder: dumped %s (%s; %.1f s before the trigger, %.1f s after; %.1f MB%s%s)",
		info.path, flight_cause_name(cause),
		info.from_ts && pd->at_ns > info.from_ts ? (double)(pd->at_ns - info.from_ts) / 1e9 : 0.0,
		info.to_ts > pd->at_ns ? (double)(info.to_ts - pd->at_ns) / 1e9 : 0.0,
		(double)info.bytes / (1 << 20), pd->folded ? "; more triggers folded in" : "",
		removed ? "; older dumps removed" : "");
	say_suppressed(run, cause);
	flight_plan_done(&run->plan, cause);
}

static int setup(struct flight_run *run, struct gt_error *err)
{
	struct live_capture_config cfg = {
		.events = &run->o->events,
		.explicit_events = run->o->have_explicit_events,
		.buffer_kb = run->o->buffer_kb,
		.stale = cmd_stale_note,
		.ctx = &(int){ 0 },
	};
	int nr_cpus;

	if (flight_dir_open(&run->dir, run->o->output, err) ||
	    live_capture_open(&run->capture, &cfg, err))
		return -1;
	if (!run->capture.pages)
		return gt_error_set(err, ENOTSUP, "the flight recorder keeps the kernel's pages as read; this kernel's ring-buffer pages are not 64-bit; use record instead");
	if (run->capture.mounted_now)
		cmd_say("tracefs: was not mounted; mounted it on %s (left mounted)",
			run->capture.tracing_dir);
	nr_cpus = live_pages_nr_cpus(run->capture.pages);
	if (flight_ring_init(&run->ring, live_pages_page_size(run->capture.pages),
			     pool_bytes(&run->o->flight, nr_cpus), nr_cpus))
		return gt_error_set(err, ENOMEM, "cannot keep %zu MB for the flight recorder; give a smaller --flight-recorder=SIZE",
				    pool_bytes(&run->o->flight, nr_cpus) >> 20);
	live_pages_on_page(run->capture.pages, on_page, run);
	run->analysis = analysis_new();
	if (!run->analysis)
		return gt_error_set(err, ENOMEM, "out of memory");
	if (analysis_init(run->analysis, run->capture.tep, &(struct analysis_hooks){
				  .on_job = on_job, .ctx = run, .no_groups = true }, err))
		return -1;
	run->analysing = true;
	if (live_capture_start(&run->capture, err) ||
	    identity_mark_host(&run->capture.session, err) ||
	    identity_mark_clock(&run->capture.session, err))
		return -1;
	check_file(run);
	if (run->every_ns)
		run->next_periodic = now_ns(run) + run->every_ns;
	return 0;
}

static void say_start(const struct flight_run *run)
{
	char keep[64] = "all";

	if (run->dir.keep_files)
		snprintf(keep, sizeof(keep), "the newest %lu", run->dir.keep_files);
	else if (run->dir.keep_bytes)
		snprintf(keep, sizeof(keep), "the newest %llu MB", run->dir.keep_bytes >> 20);
	cmd_say("flight recorder: keeping the last %.0f MB of GPU events in memory (%s); dumps to %s (keeping %s), %.1f s after each trigger",
		(double)(run->ring.cap * run->ring.page_size) / (1 << 20),
		run->o->events.wide_systems ? run->o->events.wide_systems : "the selected events",
		run->dir.path, keep, (double)run->plan.after_ns / 1e9);
	cmd_say("flight recorder: triggers: %d slow-job rule%s, ring timeouts, GPU resets, job errors, NVIDIA Xids, SIGUSR1 (kill -USR1 %d)%s%s%s",
		run->nr_rules, run->nr_rules == 1 ? "" : "s", (int)getpid(),
		run->o->flight.trigger_file ? ", touching " : "",
		run->o->flight.trigger_file ? run->o->flight.trigger_file : "",
		run->every_ns ? ", a periodic dump" : "");
}

/* Until SIGTERM or SIGINT (or --duration): read, look for triggers, write what is due */
static void watch(struct flight_run *run)
{
	uint64_t start = now_ns(run), end = run->o->duration > 0 ?
		start + (uint64_t)(run->o->duration * 1e9) : 0;
	enum flight_cause due;

	while (!cmd_stop_signal && (!end || now_ns(run) < end)) {
		usleep(FLIGHT_TICK_MS * 1000);
		drain(run);
		check_hangs(run);
		check_file(run);
		if (usr1) {
			usr1 = 0;
			fire(run, FLIGHT_SIGNAL, NULL);
		}
		if (run->every_ns && now_ns(run) >= run->next_periodic) {
			run->next_periodic += run->every_ns;
			fire(run, FLIGHT_PERIODIC, NULL);
		}
		while ((due = flight_plan_next_due(&run->plan, now_ns(run))) != FLIGHT_NR)
			dump(run, due);
	}
	/* asked to stop: what is pending is written with the seconds after it it has */
	drain(run);
	while ((due = flight_plan_next_due(&run->plan, UINT64_MAX)) != FLIGHT_NR)
		dump(run, due);
	for (int c = 0; c < FLIGHT_NR; c++)
		say_suppressed(run, (enum flight_cause)c);
}

static void teardown(struct flight_run *run)
{
	struct gt_error err = { 0 };

	analysis_free(run->analysis);
	run->analysis = NULL;
	run->analysing = false;
	if (live_capture_close(&run->capture, &err))
		cmd_fail("record", &err);
	flight_ring_free(&run->ring);
	flight_dir_close(&run->dir);
}

int cmd_flight(struct record_opts *o)
{
	struct flight_run run = { .o = o, .dir.fd = -1 };
	struct gt_error err = { 0 };

	if (parse_flight(&run, &err))
		return cmd_fail("record", &err);
	cmd_stop_signals_install(SIGUSR1, on_usr1);
	if (setup(&run, &err)) {
		cmd_fail("record", &err);
		teardown(&run);
		return GT_EXIT_FAILURE;
	}
	say_start(&run);
	watch(&run);
	cmd_say("flight recorder: stopped after %" PRIu64 " dump%s%s", run.dumps,
		run.dumps == 1 ? "" : "s", run.failed ? " (some failed: see above)" : "");
	teardown(&run);
	return run.failed ? GT_EXIT_FAILURE : 0;
}
