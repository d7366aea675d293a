// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/outfile.h"
#include "util/writeback-stream.h"
#include "cmd.h"
#include "output/report-formats.h"
#include "analysis/hip-runtime.h"
#include "analysis/timeline.h"

/* a directory format's temporary file: removed on a stop, as -o FILE's is */
static void remove_on_stop(const char *path)
{
	if (path && !path[0])
		cmd_remove_on_stop_hold();
	else if (path)
		cmd_remove_on_stop(path);
	else
		cmd_remove_on_stop_done();
}

/* Exit status when the file reads fine but holds no GPU events. */
#define REPORT_EXIT_NO_GPU_EVENTS 2

/* Keeps the o.top slowest jobs, slowest first. */
static void note_slow(struct report *rep, const struct job *j)
{
	int i;

	if (!rep->opts.top || !j->has_lat[LAT_TOTAL] || (j->flags & JOB_LOST))
		return;
	if (rep->nr_slow == rep->opts.top &&
	    rep->slow[rep->nr_slow - 1].lat[LAT_TOTAL] >= j->lat[LAT_TOTAL])
		return;
	if (rep->nr_slow < rep->opts.top)
		rep->nr_slow++;
	for (i = rep->nr_slow - 1; i > 0 && rep->slow[i - 1].lat[LAT_TOTAL] < j->lat[LAT_TOTAL]; i--)
		rep->slow[i] = rep->slow[i - 1];
	rep->slow[i] = *j;
}


/*
 * Before each record's own hook (--events, a format's): once the pager is
 * quit, the listing has no reader left and the pass ends there.
 */
static int (*record_hook)(struct analysis *a, struct tep_record *rec,
			  const struct gpu_event *ev, void *ctx);

static int unless_pager_quit(struct analysis *a, struct tep_record *rec,
			     const struct gpu_event *ev, void *ctx)
{
	struct report *rep = ctx;

	if (cmd_pager_active() && rep->stream && ferror(rep->stream))
		return -1;
	return record_hook ? record_hook(a, rec, ev, ctx) : 0;
}

static void on_job(const struct job *j, void *ctx)
{
	struct report *rep = ctx;
	uint64_t key = (uint64_t)j->pid << 20 | (uint64_t)j->ring;

	if (j->pid > 0 && j->ring >= 0 && j->ring < (1 << 20))
		keymap_put(&rep->ring_jobs, key, (void *)((uintptr_t)keymap_get(&rep->ring_jobs, key) + 1));
	rep->jobs_shown++;
	note_slow(rep, j);
	if ((rep->opts.jobs || rep->format->every_job) && rep->format->job) {
		/* after the --events lines before it */
		report_events_flush(rep);
		rep->format->job(rep, j);
	}
}

/* "622.85" absolute, or "+1.5" seconds after the first record */
static int resolve_time(const char *arg, uint64_t *ns, bool *relative, struct gt_error *err)
{
	char *end;
	double v;

	if (!arg)
		return 0;
	*relative = arg[0] == '+';
	v = strtod(arg + *relative, &end);
	if (end == arg + *relative || *end || !(v >= 0 && v < 1.8e10))	/* nan, inf, past 2^64 ns */
		return gt_error_set(err, EINVAL, "bad time '%s': seconds as trace-cmd prints them (622.85) or +SECONDS from the start",
				    arg);
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

static const char no_gpu_events[] =
	"has no GPU events (looked for gpu_scheduler, amdgpu, dma_fence, drm vblank, i915, xe, virtio_gpu and KFD function records); record them where the GPU driver is loaded (gpu-trace check there says so): sudo gpu-trace record --preset amd -- ./app (or --preset drm|i915|xe|virtio)";

/* -o FILE: written under a private name beside it, renamed once complete */
static int open_output(struct report *rep, struct outfile *of, struct gt_error *err)
{
	int fd;

	if (rep->format->directory) {
		/* the format writes its own files under -o DIR: nothing goes to the stream */
		rep->raw = stdout;
	} else if (!rep->opts.output) {
		if (rep->format->not_to_terminal && isatty(STDOUT_FILENO))
			return gt_error_set(err, EINVAL, "%s", rep->format->not_to_terminal);
		/* a job or event listing on a terminal: as wide as the terminal, paged */
		if (rep->format == &report_text && isatty(STDOUT_FILENO) &&
		    (rep->opts.jobs || rep->opts.events)) {
			if (!rep->opts.wide)
				rep->opts.width = cmd_terminal_columns();
			if (!rep->opts.no_pager)
				cmd_pager_start();
		}
		rep->raw = stdout;
	} else {
		cmd_remove_on_stop_hold();
		if (outfile_create(of, rep->opts.output, rep->opts.force, NULL, err)) {
			cmd_remove_on_stop_done();
			return -1;
		}
		/* a ^C or SIGTERM while it is written: removed, as an error would */
		cmd_remove_on_stop(of->tmp_path);
		fd = dup(of->fd);
		rep->raw = fd < 0 ? NULL : writeback_stream(fd);
		if (!rep->raw) {
			gt_error_set(err, errno, "cannot write %s: %s", rep->opts.output, strerror(errno));
			if (fd >= 0)
				close(fd);
			outfile_discard(of);
			cmd_remove_on_stop_done();
			return -1;
		}
	}
	rep->stream = rep->raw;
	/* text and CSV carry the file's strings as they are: escape what a terminal obeys */
	if (rep->format->escaped) {
		rep->stream = term_safe_stream(rep->raw);
		if (!rep->stream) {
			rep->stream = rep->raw;
			return gt_error_set(err, ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* A full disk or a closed pipe loses the report: never exit 0 then. */
static int close_output(struct report *rep, struct outfile *of, bool ok)
{
	const char *where = rep->opts.output ? rep->opts.output : "standard output";
	struct gt_error err = { 0 };
	int failed = fflush(rep->stream) || ferror(rep->stream);
	int saved = errno ? errno : EIO;

	/* the escaping stream first: it writes into raw */
	if (rep->stream && rep->stream != rep->raw && fclose(rep->stream) && !failed) {
		failed = 1;
		saved = errno ? errno : EIO;
	}
	rep->stream = rep->raw;
	if (rep->raw && (fflush(rep->raw) || ferror(rep->raw)) && !failed) {
		failed = 1;
		saved = errno ? errno : EIO;
	}
	if (rep->raw != stdout && rep->raw && fclose(rep->raw) && !failed) {
		failed = 1;
		saved = errno;
	}
	/* q in the pager before the end: the listing was read as far as wanted */
	if (rep->raw == stdout && cmd_pager_active())
		failed = 0;
	if (rep->raw == stdout || !rep->raw)
		goto out;
	if (!ok || failed) {
		outfile_discard(of);
	} else if (outfile_commit(of, rep->opts.force, &err)) {
		outfile_discard(of);
		cmd_remove_on_stop_done();
		return cmd_fail("report", &err);
	} else if (of->taken[0]) {
		cmd_say("gpu-trace report: %s was written by another run meanwhile (it is kept); this report is %s",
			of->taken, of->path);
		rep->opts.output = of->path;	/* the format's note names where it is */
	}
	cmd_remove_on_stop_done();
out:
	if (failed && ok)
		return cmd_failf("report", "writing the report to %s failed: %s; check the disk or pipe it goes to",
				 where, strerror(saved));
	return 0;
}

/*
 * Filters that left no job would print an empty table and say nothing:
 * say what matched nothing, and what the file has instead. @rings gets the
 * file's ring names; true when the filters left every job out.
 */
static bool unmatched(const struct report *rep, char *rings, size_t size, bool *named,
		      bool *dev_named)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	const struct timeline_filter *f = &rep->opts.filter;
	size_t len = 0;
	int i;

	rings[0] = '\0';
	*named = *dev_named = false;
	if (rep->jobs_shown || !tl->filtered_out)
		return false;
	for (i = 0; i < tl->nr_devs; i++)
		*dev_named |= f->dev && !strcmp(tl->devs[i], f->dev);
	for (i = 0; i < tl->nr_rings && len < size; i++) {
		const char *name = timeline_ring_name(tl, i);

		*named |= f->ring && !strcmp(tl->rings[i]->name, f->ring);
		len += (size_t)snprintf(rings + len, size - len, "%s%s", len ? ", " : "",
					name ? name : "?");
	}
	return true;
}

/*
 * A ring or device the file does not have is a wrong option (exit 125, as a
 * script that typed the name wants to know), unless other inputs of one
 * timeline may have it. Asked before the format writes its report: a wrong
 * option prints no report (JSON: its error in the document, as for any).
 */
static int check_unmatched(const struct report *rep, struct gt_error *err)
{
	const struct timeline_filter *f = &rep->opts.filter;
	bool named, dev_named;
	char rings[512];

	if (!unmatched(rep, rings, sizeof(rings), &named, &dev_named) || rep->opts.nr_inputs != 1)
		return 0;
	if (f->ring && !named)
		return gt_error_set(err, ENOENT, "%s has no ring named '%s'; its rings: %s",
				    rep->opts.file, f->ring, rings);
	if (f->dev && !dev_named)
		return gt_error_set(err, ENOENT, "%s has no ring of device '%s' (the scheduler's events name devices from 6.17 on); its rings: %s",
				    rep->opts.file, f->dev, rings);
	return 0;
}

/* after the report: what matched nothing, in one line */
static void say_unmatched(const struct report *rep)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	const struct timeline_filter *f = &rep->opts.filter;
	bool named, dev_named;
	char rings[512];

	if (!unmatched(rep, rings, sizeof(rings), &named, &dev_named))
		return;
	fflush(rep->stream);
	if (f->ring && !named)
		cmd_say("gpu-trace report: %s has no ring named '%s'; its rings: %s",
			rep->opts.file, f->ring, rings);
	else if (f->dev && !dev_named)
		cmd_say("gpu-trace report: %s has no ring of device '%s' (the scheduler's events name devices from 6.17 on); its rings: %s",
			rep->opts.file, f->dev, rings);
	else if (f->workload_only && !report_has_workload(rep))
		cmd_say("gpu-trace report: %s names no workload (recorded without a command or -P), so --workload-only leaves none of its %llu job%s",
			rep->opts.file, (unsigned long long)tl->filtered_out, report_plural(tl->filtered_out));
	else
		cmd_say("gpu-trace report: no job of %s matched the filters (%llu left out); --rings without them lists what it has",
			rep->opts.file, (unsigned long long)tl->filtered_out);
}

/* --hip-log FILE: runtime logs captured apart join the summary */
static int add_hip_logs(struct report *rep, struct gt_error *err)
{
	int i, ret;

	for (i = 0; i < rep->opts.nr_hip_logs; i++) {
		ret = hip_runtime_add_file(rep->analysis, rep->opts.hip_logs[i]);
		if (ret)
			return gt_error_set(err, -ret, "cannot read the HIP log %s: %s", rep->opts.hip_logs[i],
					    strerror(-ret));
	}
	return 0;
}

/* --events printed damaged records field by field: one line for the file */
static void say_damaged_events(struct report *rep)
{
	char line[PATH_MAX + 512];

	if (!rep->opts.events || !report_events_note(rep, line, sizeof(line)))
		return;
	fflush(rep->stream);
	fputs("gpu-trace report: ", stderr);
	term_safe_puts(stderr, line);
	fputc('\n', stderr);
	rep->events.damaged = 0;
}

/*
 * Several files: each one's header, options and sections checked before
 * anything is written, so that a truncated file or one that is no .dat,
 * wherever it comes, fails the run with no report begun (its records are
 * read once, by its own pass).
 */
static int check_inputs(const struct report_opts *o, struct gt_error *err)
{
	int i;

	for (i = 0; o->nr_inputs > 1 && i < o->nr_inputs; i++)
		if (analysis_check_dat(o->inputs[i].file, err))
			return -1;
	return 0;
}

/*
 * One input file through the pipeline into the output, which the first
 * file opens: a file that cannot be read leaves nothing behind.
 * 1 when it holds no GPU events, -1 on an error.
 */
static int report_one(struct report *rep, const struct analysis_hooks *hooks, struct outfile *of,
		      struct gt_error *err)
{
	static char outbuf[1 << 16];
	bool first = !rep->stream;
	int ret = 0, run;

	memset(rep->meta, 0, sizeof(*rep->meta));
	keymap_free(&rep->ring_jobs);
	rep->nr_slow = 0;
	rep->jobs_shown = 0;
	if (analysis_open_dat(rep->analysis, rep->opts.file, rep->meta, hooks, err))
		return -1;
	cmd_say_instances_absent("report", rep->opts.file, rep->meta->v6_instances_absent,
				 rep->meta->nr_v6_instances);
	if (report_prepass(rep, err))
		goto fail;
	if (first) {
		if (open_output(rep, of, err))
			goto fail;
		/*
		 * A crash opening a later file would now leave the output's
		 * temporary file behind: those are tried in a child first
		 */
		analysis_set_open_guard(-1);
		setvbuf(rep->stream, outbuf, _IOFBF, sizeof(outbuf));
		if (rep->format->open && rep->format->open(rep, err))
			goto fail;
		rep->opened = true;
	}
	if (rep->format->begin(rep, err))
		goto fail;
	rep->begun = true;
	/* a write of the format's own that failed ends the pass early: its error says why */
	run = analysis_run(rep->analysis, err);
	report_events_flush(rep);
	if (run && !(rep->format->write_error && rep->format->write_error(rep)))
		goto fail;
	if (check_unmatched(rep, err) || add_hip_logs(rep, err) || rep->format->end(rep, err))
		goto fail;
	rep->begun = false;
	say_unmatched(rep);
	fflush(rep->stream);
	cmd_say_damage("report", rep->opts.file, &analysis_totals(rep->analysis)->damage);
	say_damaged_events(rep);
	rep->rings_seen += timeline_of(rep->analysis)->nr_rings;
	if (!analysis_has_gpu_data(rep->analysis)) {
		fflush(rep->stream);
		cmd_say("gpu-trace report: %s %s", rep->opts.file, no_gpu_events);
		ret = 1;
	}
	goto out;
fail:
	report_name_input(&rep->opts, rep->input, err);
	ret = -1;
out:
	analysis_close(rep->analysis);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report rep = { 0 };
	struct outfile of = { .fd = -1 };
	struct gt_error err = { 0 };
	struct analysis_hooks hooks = { .on_job = on_job, .ctx = &rep };
	int ret = GT_EXIT_FAILURE, parsed, closed, with_events = 0, r;
	char note[PATH_MAX + 256];

	parsed = report_opts_parse(argc, argv, &rep.opts, &err);
	if (parsed) {
		free(rep.opts.hip_logs);
		return parsed > 0 ? 0 : cmd_fail("report", &err);
	}
	rep.summary = !rep.opts.jobs && !rep.opts.events && !rep.opts.rings && !rep.opts.queues;
	rep.temp_file = remove_on_stop;
	rep.format = rep.opts.format;
	rep.meta = calloc(1, sizeof(*rep.meta));
	rep.slow = calloc((size_t)rep.opts.top + 1, sizeof(*rep.slow));
	rep.analysis = analysis_new();
	if (!rep.meta || !rep.slow || !rep.analysis) {
		gt_error_set(&err, ENOMEM, "out of memory");
		goto fail;
	}
	hooks.filter = rep.opts.filter;
	/* --events is text's alone (report_opts_parse) */
	hooks.on_record = rep.opts.events ? report_events_record : rep.format->on_record;
	hooks.kinds_unread = rep.opts.events ? 0 : rep.format->kinds_unread;
	if (rep.format == &report_text && (rep.opts.jobs || rep.opts.events) && !rep.opts.no_pager &&
	    !rep.opts.output && isatty(STDOUT_FILENO)) {
		record_hook = hooks.on_record;
		hooks.on_record = unless_pager_quit;
		if (!record_hook)
			hooks.kinds_unread = ~0ULL;	/* it reads no event */
	}
	if (resolve_time(rep.opts.from_arg, &hooks.filter.from, &hooks.from_relative, &err) ||
	    resolve_time(rep.opts.to_arg, &hooks.filter.to, &hooks.to_relative, &err))
		goto fail;
	if (check_inputs(&rep.opts, &err))
		goto fail;
	cmd_open_guard("report");
	if (report_align_utc(&rep.opts, &err))
		goto fail;
	for (rep.input = 0; rep.input < rep.opts.nr_inputs; rep.input++) {
		rep.opts.file = rep.opts.inputs[rep.input].file;
		r = report_one(&rep, &hooks, &of, &err);
		if (r < 0)
			goto fail;
		with_events += !r;
	}
	rep.input--;
	if (rep.format->finish)
		rep.format->finish(&rep);
	ret = with_events ? 0 : REPORT_EXIT_NO_GPU_EVENTS;
	goto out;
fail:
	/* what the output holds so far closed as its format wants (JSON: valid, the error in it) */
	if (rep.opened && rep.format->failed)
		rep.format->failed(&rep, &err);
	if (rep.stream)
		fflush(rep.stream);
	cmd_fail("report", &err);
out:
	if (rep.format->close)
		rep.format->close(&rep);
	if (rep.stream) {
		closed = close_output(&rep, &of, ret != GT_EXIT_FAILURE);
		if (closed)
			ret = closed;
		else if (ret != GT_EXIT_FAILURE && rep.format->note &&
			 rep.format->note(&rep, note, sizeof(note)))
			cmd_say("gpu-trace report: %s", note);
	}
	if (rep.format->done)
		rep.format->done(&rep);
	report_events_done(&rep);
	cmd_pager_finish();
	keymap_free(&rep.ring_jobs);
	free(rep.opts.hip_logs);
	analysis_free(rep.analysis);
	free(rep.meta);
	free(rep.slow);
	return ret;
}
