// SPDX-License-Identifier: GPL-2.0
/*
 * What record captures beside the ring buffers, in the order the engine runs each step:
 * the HIP runtime's log (its buffer comes first in the file), KFD's probes and debugfs
 * snapshots, NVIDIA's probes, DRM fdinfo snapshots. Probe formats join the file in this
 * order too.
 */
#include "capture/capture-source.h"
#include "capture/dat-writer.h"

const struct capture_source *const capture_sources[] = {
	&capture_hip_log,
	&capture_kfd,
	&capture_nvidia,
	&capture_drm_fdinfo,
};

const size_t capture_nr_sources = sizeof(capture_sources) / sizeof(capture_sources[0]);
_Static_assert(sizeof(capture_sources) / sizeof(capture_sources[0]) <= CAPTURE_MAX_SOURCES,
	       "struct record_run keeps CAPTURE_MAX_SOURCES sources' states");
/* each source may add a buffer beside the workload's, and the writer takes so many */
_Static_assert(sizeof(capture_sources) / sizeof(capture_sources[0]) + 1 <= DAT_MAX_INSTANCES,
	       "the .dat writer takes DAT_MAX_INSTANCES buffer instances");
