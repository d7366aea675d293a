// SPDX-License-Identifier: GPL-2.0
/*
 * What a file lacks that report and compare read around, each said in one
 * line on stderr, in every output format: a CPU whose time stepped back
 * (those records set aside, dat-stream.h), pages zeroed amid a CPU's data,
 * buffer instances whose pages the file does not hold (only the top buffer read).
 */
#include <stdio.h>

#include "cmd.h"
#include "output/report-formats.h"

static void say_zeroed_pages(const char *cmd, const char *file, const struct dat_stream_damage *d)
{
	char what[256];

	if (!d->zeroed_pages)
		return;
	fflush(stdout);
	fprintf(stderr, "gpu-trace %s: ", cmd);
	cmd_say("%s is damaged: %s (jobs then in flight are flagged L)", file,
		report_zeroed_pages(what, sizeof(what), d));
}

void cmd_say_damage(const char *cmd, const char *file, const struct dat_stream_damage *d)
{
	char from[32], to[32];

	say_zeroed_pages(cmd, file, d);
	if (!d->records)
		return;
	fflush(stdout);
	fprintf(stderr, "gpu-trace %s: ", cmd);
	cmd_say("%s is damaged: CPU %d's time steps back from %s to %s; %llu record%s set aside and counted as lost (jobs then in flight are flagged L)",
		file, d->cpu, report_ts(from, sizeof(from), d->from_ts),
		report_ts(to, sizeof(to), d->to_ts), (unsigned long long)d->records,
		report_plural(d->records));
}

void cmd_say_instances_absent(const char *cmd, const char *file, int n, int read)
{
	if (!n)
		return;
	fflush(stdout);
	fprintf(stderr, "gpu-trace %s: ", cmd);
	cmd_say("%s names %d buffer instance%s whose pages it does not hold (a trace-cmd split, or a recording cut short before them): %s",
		file, n, report_plural((unsigned long long)n), report_instances_absent(n, read));
}
