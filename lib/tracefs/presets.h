/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PRESETS_H
#define GT_PRESETS_H

#include <stdbool.h>

struct preset {
	const char *name;
	const char *description;
	const char *const *events;	/* "system" or "system:event-glob" */
	const char *tracer;		/* NULL: events only */
	const char *function_filter;	/* for the tracer, e.g. ":mod:amdgpu" */
	bool kfd_probes;		/* KFD queue ioctl probes where the kernel allows */
	bool nvidia_probes;		/* nvidia.ko's functions as kprobes */
};

extern const struct preset presets[];	/* ends with a NULL name */

#define DEFAULT_PRESET	"all-gpu"

/* Event systems that matter for GPU work, whichever driver is loaded. */
extern const char *const gpu_event_systems[];	/* ends with NULL */

/**
 * is_gpu_event_system - a GPU job crosses contexts that are never its submitter's (the
 * scheduler's kthread or workqueue runs it, interrupts signal its fences), so these systems
 * are recorded system-wide even when a workload is given.
 */
bool is_gpu_event_system(const char *system);
/**
 * is_gpu_driver_system - one of those that a GPU driver or scheduler brings (gpu_scheduler,
 * amdgpu, i915, ...), not the generic dma_fence, drm and dma_buf every kernel may have:
 * without one, a recording holds no jobs to join.
 */
bool is_gpu_driver_system(const char *system);

/**
 * is_system_wide_system - recorded for every pid even when a workload is given: the GPU event
 * systems, and the kernel's log (printk), whose lines of a hang come from kworkers
 */
bool is_system_wide_system(const char *system);

/** preset_find - the preset so named, or NULL */
const struct preset *preset_find(const char *name);
/** preset_names - "amd, drm, i915, xe, virtio, nvidia, all-gpu" */
const char *preset_names(void);

#endif
