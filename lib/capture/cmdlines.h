/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CMDLINES_H
#define GT_CMDLINES_H

#include <stddef.h>

struct pid_comm {
	int pid;
	char comm[16];
};

/** cmdlines_proc_comm - /proc/<pid>/comm without the newline; -1 if the process is gone. */
int cmdlines_proc_comm(int pid, char *comm, size_t len);

/**
 * cmdlines_merge - the kernel's saved_cmdlines is a small shared cache and misses short-lived
 * tasks, and names a pid as it was when cached (before exec), so `known` names (the workload,
 * our readers) replace its entries, and every other pid seen in the data that it lacks is
 * named from /proc/<pid>/comm. Returns "pid comm\n" text.
 */
char *cmdlines_merge(const char *saved, const int *pids, int nr_pids,
		     const struct pid_comm *known, int nr_known);

#endif
