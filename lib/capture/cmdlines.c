// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/cmdlines.h"

static int saved_has(const char *saved, int pid)
{
	const char *line = saved;

	while (line && *line) {
		if (atoi(line) == pid)
			return 1;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return 0;
}

int cmdlines_proc_comm(int pid, char *comm, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(comm, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

static const struct pid_comm *find_known(const struct pid_comm *known, int nr,
					 int pid)
{
	int k;

	for (k = 0; k < nr; k++)
		if (known[k].pid == pid)
			return &known[k];
	return NULL;
}

char *cmdlines_merge(const char *saved, const int *pids, int nr_pids,
		     const struct pid_comm *known, int nr_known)
{
	size_t cap = (saved ? strlen(saved) : 0) + 64 * (size_t)(nr_pids + nr_known + 1);
	char *out = malloc(cap);
	const char *line = saved;
	size_t off = 0;
	int i;

	if (!out)
		return NULL;
	out[0] = '\0';
	/* the cache may name a pid as it was before exec: what we know wins */
	while (line && *line) {
		size_t n = strcspn(line, "\n");

		if (!find_known(known, nr_known, atoi(line)))
			off += (size_t)snprintf(out + off, cap - off, "%.*s\n", (int)n, line);
		line += n;
		if (*line)
			line++;
	}
	for (i = 0; i < nr_known; i++)
		if (known[i].pid > 0)
			off += (size_t)snprintf(out + off, cap - off, "%d %s\n",
						known[i].pid, known[i].comm);
	for (i = 0; i < nr_pids; i++) {
		char comm[64];

		if (pids[i] <= 0 || saved_has(saved, pids[i]) ||
		    find_known(known, nr_known, pids[i]) ||
		    cmdlines_proc_comm(pids[i], comm, sizeof(comm)))
			continue;
		off += (size_t)snprintf(out + off, cap - off, "%d %s\n", pids[i], comm);
	}
	return out;
}
