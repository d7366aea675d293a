// SPDX-License-Identifier: GPL-2.0
/*
 * The joins the pipeline runs, in the order each record meets them (enum
 * analysis_join_id): each is defined beside its state, in its own file.
 */
#include "analysis/analysis-joins.h"

const struct analysis_join *const analysis_joins[JOIN_NR] = {
	[JOIN_WORKLOAD] = &workload_tree_join,
	[JOIN_JOBS] = &timeline_join,
	[JOIN_I915] = &i915_requests_join,
	[JOIN_XE] = &xe_engines_join,
	[JOIN_HANGS] = &gpu_hangs_join,
	[JOIN_KFD_FUNCTIONS] = &kfd_queues_join,
	[JOIN_KFD_PROBES] = &kfd_queue_table_join,
	[JOIN_NVIDIA] = &nvidia_calls_join,
	[JOIN_USER_QUEUES] = &user_queues_join,
	[JOIN_VBLANKS] = &vblanks_join,
	[JOIN_CPU_SIDE] = &cpu_side_join,
	[JOIN_HOST] = &host_clock_join,
	[JOIN_FLIGHT] = &flight_marks_join,
	[JOIN_KFD_SNAPSHOTS] = &kfd_snapshots_join,
	[JOIN_DRM_CLIENTS] = &drm_clients_join,
	[JOIN_HIP] = &hip_runtime_join,
};
