/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_NAMES_H
#define GT_KFD_NAMES_H

#include <stddef.h>
#include <stdint.h>

/**
 * kfd_queue_type_name - "compute", "sdma", "compute-aql", "sdma-xgmi", "sdma-by-eng-id", NULL
 * if unknown
 */
const char *kfd_queue_type_name(uint32_t type);
/** kfd_trigger_name - "svm", "userptr", "ttm", "suspend", "criu-checkpoint", "criu-restore" */
const char *kfd_trigger_name(uint32_t trigger);
/** kfd_errno_name - "EINVAL" for -22; "error -N" when unnamed */
const char *kfd_errno_name(int ret, char *buf, size_t len);

/*
 * record's KFD probes live in a group of their own, gpu_trace_<pid>: the
 * probe writer names it, report and reset recognise it.
 */
#define KFD_PROBE_GROUP_PREFIX	"gpu_trace_"

/* Each line of a KFD debugfs snapshot, as record stores it in a print record */
#define KFD_DEBUGFS_PREFIX	"kfd-debugfs "

/** kfd_probe_group_pid - the pid in a gpu_trace_<pid> group name, 0 if not ours. */
int kfd_probe_group_pid(const char *group);

#endif
