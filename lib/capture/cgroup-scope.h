/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CGROUP_SCOPE_H
#define GT_CGROUP_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/gt-error.h"
#include "util/keymap.h"

/*
 * A workload that is not our child: the processes of a cgroup (a
 * container's), as they come and go. Each poll reads cgroup.procs and hands
 * back the threads of the processes not seen before, and notes their pid
 * in their own pid namespace (NSpid: what a containerized runtime prints).
 */
struct cgroup_scope {
	char dir[512];			/* the cgroup's directory */
	struct cgroup_pid { pid_t pid, nspid; } *seen;
	int nr_seen, cap;
	/* a workload can fork thousands: pid + 1 -> 1, nspid + 1 -> index + 1 */
	struct keymap by_pid, by_nspid;
};

/**
 * cgroup_scope_open - path: a cgroup directory, absolute or under the cgroup2 mount; it must
 * have cgroup.procs. 0, or -1 with err.
 */
int cgroup_scope_open(struct cgroup_scope *c, const char *path, struct gt_error *err);
/**
 * cgroup_of_container - a docker or podman container's cgroup directory, through their own CLI
 * (inspect: the container's first process, then its /proc/PID/cgroup).
 */
int cgroup_of_container(const char *name, char *dir, size_t len, struct gt_error *err);
/**
 * cgroup_scope_poll - appends the threads of processes new since the last poll; how many were
 * new, -1 on ENOMEM.
 */
int cgroup_scope_poll(struct cgroup_scope *c, pid_t **tids, int *nr);
/**
 * cgroup_scope_host_pid - the host pid of a pid as the cgroup's own namespace numbers it; 0 if
 * unseen.
 */
pid_t cgroup_scope_host_pid(const struct cgroup_scope *c, pid_t nspid);
/** cgroup_scope_free - the pids seen and their maps */
void cgroup_scope_free(struct cgroup_scope *c);

#endif
