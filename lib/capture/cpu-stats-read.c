// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/cpu-stats-read.h"
#include "tracefs/trace-file.h"

int cpu_stats_read(const char *buffer_dir, int cpu, struct cpu_stats *st)
{
	char name[64], *stats, *kb;

	memset(st, 0, sizeof(*st));
	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
	stats = trace_file_read(buffer_dir, name);
	if (!stats)
		return -errno;
	snprintf(name, sizeof(name), "per_cpu/cpu%d/buffer_size_kb", cpu);
	kb = trace_file_read(buffer_dir, name);
	/*
	 * The CPU's granted buffer size rides in its stats text, where
	 * trace-cmd report --stat shows it, rather than in an option of our
	 * own that readers do not know.
	 */
	if (kb && strtoul(kb, NULL, 10) && asprintf(&st->text, "%sbuffer_size_kb: %lu\n", stats,
						   strtoul(kb, NULL, 10)) > 0)
		free(stats);
	else
		st->text = stats;
	free(kb);
	cpu_stats_parse(st->text, st);
	return 0;
}
