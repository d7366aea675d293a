// SPDX-License-Identifier: GPL-2.0
/* --format perfetto: the timeline as a Perfetto trace (lib/output/perfetto-export.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/perfetto-export.h"
#include "output/report-formats.h"

/* Perfetto's timestamps are unsigned: nothing may land before 0 */
static int before_zero(const struct report *rep, struct gt_error *err)
{
	return gt_error_set(err, ERANGE, "--ts-offset %.9g s moves records of %s before time 0, where Perfetto's clock starts; move the other files forward instead",
			    (double)rep->opts.inputs[rep->input].offset / 1e9, rep->opts.file);
}

static int perfetto_open(struct report *rep, struct gt_error *err)
{
	rep->out = calloc(1, sizeof(struct perfetto_export));
	return rep->out ? 0 : gt_error_set(err, ENOMEM, "out of memory");
}

/* The last n '/'-separated parts of path, or all of it. */
static const char *path_tail(const char *path, int n)
{
	const char *s = path + strlen(path);

	while (s > path && !(s[-1] == '/' && --n == 0))
		s--;
	return s;
}

/*
 * A file's group: the fewest trailing parts of its path that no other input
 * ends in (runs/a/1/trace.dat and runs/b/1/trace.dat are "a/1/trace.dat" and
 * "b/1/trace.dat"); the UI cuts long names short.
 */
static const char *group_name(const struct report_opts *o, int i)
{
	const char *mine = o->inputs[i].file, *t;
	bool unique;
	int n, j;

	for (n = 1;; n++) {
		t = path_tail(mine, n);
		if (t == mine)
			return mine;
		for (unique = true, j = 0; j < o->nr_inputs && unique; j++)
			if (j != i && !strcmp(t, path_tail(o->inputs[j].file, n)))
				unique = false;
		if (unique)
			return t;
	}
}

/*
 * One input is the whole trace; several each get a group named after the
 * file, its whole path as the description. A file moved before 0 is refused
 * before its records are read.
 */
static int perfetto_begin(struct report *rep, struct gt_error *err)
{
	const struct report_input *in = &rep->opts.inputs[rep->input];
	struct perfetto_source src = { .index = (unsigned int)rep->input, .offset = in->offset,
				       .machine = in->machine };
	uint64_t first = analysis_first_ts(rep->analysis);

	if (in->offset < 0 && first && first < (uint64_t)-in->offset)
		return before_zero(rep, err);
	if (rep->opts.nr_inputs > 1) {
		src.label = group_name(&rep->opts, rep->input);
		src.description = in->file;
	}
	perfetto_export_begin(rep->out, rep->stream, rep->analysis, &src);
	return 0;
}

static int perfetto_record(struct analysis *a, struct tep_record *rec,
			   const struct gpu_event *ev, void *ctx)
{
	struct report *rep = ctx;

	return perfetto_export_record(a, rec, ev, rep->out);
}

static void perfetto_job(struct report *rep, const struct job *j)
{
	perfetto_export_job(j, rep->out);
}

static int perfetto_write_error(const struct report *rep)
{
	const struct perfetto_export *p = rep->out;

	return p->error;
}

static int perfetto_end(struct report *rep, struct gt_error *err)
{
	struct perfetto_export *p = rep->out;

	report_sections_write_perfetto(p);
	perfetto_export_end(p);
	if (p->error == ERANGE)
		return before_zero(rep, err);
	if (p->error)
		return gt_error_set(err, p->error, "writing the Perfetto trace failed: %s; check the disk it goes to",
				    strerror(p->error));
	return 0;
}

static int perfetto_note(const struct report *rep, char *buf, size_t len)
{
	const struct perfetto_export *p = rep->out;

	if (!p || !rep->opts.output)
		return 0;
	snprintf(buf, len, "wrote %s: %" PRIu64 " slice%s, %" PRIu64 " flow%s on %d ring%s%s%s; open it in ui.perfetto.dev",
		 rep->opts.output, p->slices, report_plural(p->slices), p->flows,
		 report_plural(p->flows), rep->rings_seen, report_plural((uint64_t)rep->rings_seen),
		 rep->opts.nr_inputs > 1 ? ", one group per file" : "",
		 p->dropped ? " (some slices past 256 overlapping lanes left out)" : "");
	return 1;
}

/* a report that failed half-way: the writing thread done with the stream before it closes */
static void perfetto_close(struct report *rep)
{
	if (rep->out)
		perfetto_export_stop(rep->out);
}

static void perfetto_done(struct report *rep)
{
	if (rep->out)
		perfetto_export_free(rep->out);
	free(rep->out);
	rep->out = NULL;
}

const struct report_output report_perfetto = {
	.name = "perfetto",
	.every_job = true,
	.timeline = true,
	.not_to_terminal = "--format perfetto writes a binary trace; give -o FILE.pftrace and open it in ui.perfetto.dev",
	.open = perfetto_open,
	.begin = perfetto_begin,
	.on_record = perfetto_record,
	.kinds_unread = PERFETTO_KINDS_UNREAD,
	.job = perfetto_job,
	.end = perfetto_end,
	.write_error = perfetto_write_error,
	.close = perfetto_close,
	.note = perfetto_note,
	.done = perfetto_done,
};
