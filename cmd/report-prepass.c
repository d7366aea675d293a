// SPDX-License-Identifier: GPL-2.0
/*
 * What a report needs before its pass, read by a pass of its own:
 * - a flight recorder dump's triggers: the trigger's marker follows the job
 *   that fired it (the recorder sees the job only once it is done), while
 *   report hands each job to the output as it retires, so the job join is
 *   told first and flags the job T when it meets it. Only files the flight
 *   recorder wrote (bounded by its memory) get that pass for it;
 * - for a format whose rows carry UTC as they are written (Parquet), the
 *   file's clock offset from its narrowest clock pair, which may be read
 *   after the rows it dates.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "output/report-formats.h"
#include "analysis/flight-marks.h"
#include "analysis/host-clock.h"

int report_prepass(struct report *rep, struct gt_error *err)
{
	bool dump = strstr(rep->meta->writer, "(flight recorder)") != NULL;
	struct analysis_hooks hooks = { 0 };
	struct dat_meta *m;
	struct analysis *a;
	uint64_t unc;
	int ret = -1;

	rep->utc_known = false;
	if (!dump && !rep->format->utc_first)
		return 0;
	m = calloc(1, sizeof(*m));
	a = analysis_new();
	if (!m || !a) {
		gt_error_set(err, ENOMEM, "out of memory");
		goto out;
	}
	if (analysis_open_dat(a, rep->opts.file, m, &hooks, err))
		goto out;
	if (!analysis_run(a, err)) {
		if (dump)
			flight_marks_known(rep->analysis, flight_marks_of(a));
		if (rep->format->utc_first)
			rep->utc_known = host_clock_offset(host_clock_of(a), &rep->utc_offset,
							      &unc);
		ret = 0;
	}
out:
	analysis_free(a);
	free(m);
	return ret;
}
