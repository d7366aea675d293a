// SPDX-License-Identifier: GPL-2.0
/*
 * A file whose CPU's time stepped back was read with those records set
 * aside (dat-stream.h): report and compare each say so in one line, in every
 * output format, since only the text summary has a line of its own for it.
 */
#include <stdio.h>

#include "cmd.h"
#include "output/report-formats.h"

void cmd_say_time_damage(const char *cmd, const char *file, const struct dat_stream_damage *d)
{
	char from[32], to[32];

	if (!d->records)
		return;
	fflush(stdout);
	fprintf(stderr, "gpu-trace %s: ", cmd);
	cmd_say("%s is damaged: CPU %d's time steps back from %s to %s; %llu record%s set aside and counted as lost (jobs then in flight are flagged L)",
		file, d->cpu, report_ts(from, sizeof(from), d->from_ts),
		report_ts(to, sizeof(to), d->to_ts), (unsigned long long)d->records,
		report_plural(d->records));
}
