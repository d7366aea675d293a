/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_STALE_H
#define GT_STALE_H

#include <stdbool.h>

/*
 * What a gpu-trace killed by SIGKILL leaves: its instance gpu-trace-<pid>
 * and, after --top-level, a journal of the top-level files to restore.
 * Whatever carries the pid of a gpu-trace that still runs is left alone.
 */
enum stale_action { STALE_REMOVED, STALE_RESTORED, STALE_IN_USE, STALE_FAILED, STALE_OTHER_NS };

typedef void (*stale_note)(const char *name, int pid, enum stale_action what,
			   int err, void *ctx);

/** stale_owner_pid - the pid in "gpu-trace-<pid>" (or "gpu-trace-probe-<pid>"), 0 if not ours. */
int stale_owner_pid(const char *name);
/**
 * stale_owner_ns - the PID namespace a name carries after its pid (pid-ns.h): 0 for none,
 * the initial namespace's names
 */
unsigned long long stale_owner_ns(const char *name);
/** stale_owner_running - whether the gpu-trace run with this pid is alive (its run lock is held) */
bool stale_owner_running(int pid);
/** stale_clean - returns the number of failures; note() hears about every item. */
int stale_clean(const char *tracing_dir, stale_note note, void *ctx);

#endif
