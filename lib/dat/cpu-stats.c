// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat/cpu-stats.h"

void cpu_stats_parse(const char *text, struct cpu_stats *st)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "entries:", offsetof(struct cpu_stats, entries) },
		{ "bytes:", offsetof(struct cpu_stats, bytes) },
		{ "overrun:", offsetof(struct cpu_stats, overrun) },
		{ "commit overrun:", offsetof(struct cpu_stats, commit_overrun) },
		{ "dropped events:", offsetof(struct cpu_stats, dropped) },
		{ "read events:", offsetof(struct cpu_stats, read) },
		{ "buffer_size_kb:", offsetof(struct cpu_stats, buffer_kb) },
	};
	const char *line = text;
	size_t i;

	while (line && *line) {
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			size_t n = strlen(keys[i].key);

			if (!strncmp(line, keys[i].key, n))
				*(unsigned long long *)((char *)st + keys[i].off) =
					strtoull(line + n, NULL, 10);
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
}

unsigned long long cpu_stats_lost(const struct cpu_stats *st)
{
	return st->overrun + st->commit_overrun + st->dropped;
}

void cpu_stats_free(struct cpu_stats *st)
{
	free(st->text);
	st->text = NULL;
}
