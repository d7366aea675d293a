// SPDX-License-Identifier: GPL-2.0
/*
 * A flight recorder dump's trigger marker follows the job that fired it
 * (the recorder sees the job only once it is done), while report hands each
 * job to the output as it retires: so a dump's markers are read by a pass
 * of their own first, and the job join flags the job T when it meets it.
 * Only files the flight recorder wrote (bounded by its memory) get that pass.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "output/report-formats.h"
#include "analysis/flight-marks.h"

int report_flight_triggers(struct report *rep, struct gt_error *err)
{
	struct analysis_hooks hooks = { 0 };
	struct dat_meta *m;
	struct analysis a;
	int ret = -1;

	if (!strstr(rep->meta->writer, "(flight recorder)"))
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m)
		return gt_error_set(err, ENOMEM, "out of memory");
	if (analysis_open_dat(&a, rep->opts.file, m, &hooks, err))
		goto out;
	if (!analysis_run(&a, err)) {
		flight_marks_known(&rep->analysis, flight_marks_of(&a));
		ret = 0;
	}
	analysis_close(&a);
out:
	free(m);
	return ret;
}
