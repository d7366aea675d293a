// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <unistd.h>

#include "capture/cpu-stats-read.h"
#include "record-progress.h"

static int shown;

void progress_update(const struct recorder *r, const char *buffer_dir,
		     double elapsed)
{
	unsigned long long lost = 0;
	char line[512];
	size_t off;
	int i;

	if (!isatty(STDERR_FILENO))
		return;
	off = (size_t)snprintf(line, sizeof(line), "\r[%6.1fs]", elapsed);
	for (i = 0; i < r->nr_cpus && off < sizeof(line); i++) {
		struct cpu_stats st;
		unsigned long long bytes = atomic_load(&r->cpus[i].bytes);

		if (cpu_stats_read(buffer_dir, i, &st))
			continue;
		lost += cpu_stats_lost(&st);
		/*
		 * What the kernel holds counts too: the readers take whole pages,
		 * so with a large buffer they hold nothing until the end.
		 */
		if (i < 8)
			off += (size_t)snprintf(line + off, sizeof(line) - off,
						" cpu%d %llu ev %.1f MB", i, st.entries + st.read,
						(double)(bytes + st.bytes) / (1 << 20));
		cpu_stats_free(&st);
	}
	if (off < sizeof(line))
		snprintf(line + off, sizeof(line) - off, " | lost %llu\033[K", lost);
	fputs(line, stderr);
	shown = 1;
}

void progress_clear(void)
{
	if (shown)
		fputs("\r\033[K", stderr);
	shown = 0;
}
