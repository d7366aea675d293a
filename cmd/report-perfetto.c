// SPDX-License-Identifier: GPL-2.0
/* --format perfetto: the timeline as a Perfetto trace (lib/output/perfetto-export.c). */
#include "report.h"

/* One input is the whole trace; several each get a group named after the file. */
static void perfetto_begin(struct report *rep)
{
	const struct report_input *in = &rep->opts.inputs[rep->input];
	struct perfetto_source src = { .index = (unsigned int)rep->input, .offset = in->offset };

	if (rep->opts.nr_inputs > 1)
		src.label = in->file;
	perfetto_export_begin(rep->perfetto, rep->stream, &rep->analysis, &src);
}

static void perfetto_job(struct report *rep, const struct job *j)
{
	perfetto_export_job(j, rep->perfetto);
}

static void perfetto_end(struct report *rep)
{
	perfetto_export_end(rep->perfetto);
}

int report_perfetto_record(struct analysis *a, struct tep_record *rec,
			   const struct gpu_event *ev, void *ctx)
{
	struct report *rep = ctx;

	return perfetto_export_record(a, rec, ev, rep->perfetto);
}

const struct report_output report_perfetto = {
	.begin = perfetto_begin,
	.job = perfetto_job,
	.end = perfetto_end,
	.every_job = true,
};
