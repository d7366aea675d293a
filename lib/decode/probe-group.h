/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PROBE_GROUP_H
#define GT_PROBE_GROUP_H

#include <stdint.h>

/*
 * record's kprobe groups are named PREFIX<pid> (gpu_trace_<pid> for KFD's,
 * gpu_trace_nv_<pid> for NVIDIA's): the pid says whose they are, for reset and for the
 * report that finds their events in a file.
 */

/**
 * probe_group_pid - the pid in @group named @prefix<pid> (outside the initial PID namespace
 * @prefix<pid>_ns<id>, pid-ns.h), or 0 when it is not one
 */
int probe_group_pid(const char *group, const char *prefix);
/** probe_group_ns - the PID namespace @group's name carries: 0 for none (the initial one's) */
uint64_t probe_group_ns(const char *group);

#endif
