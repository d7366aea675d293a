/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PRESETS_H
#define GT_PRESETS_H

struct preset {
	const char *name;
	const char *description;
	const char *const *events;	/* "system" or "system:event-glob" */
	const char *tracer;		/* NULL: events only */
	const char *function_filter;	/* for the tracer, e.g. ":mod:amdgpu" */
};

extern const struct preset presets[];	/* ends with a NULL name */

#define DEFAULT_PRESET	"all-gpu"

/* Event systems that matter for GPU work, whichever driver is loaded. */
extern const char *const gpu_event_systems[];	/* ends with NULL */

const struct preset *preset_find(const char *name);
/* "amd|drm|i915|xe|virtio|all-gpu" */
const char *preset_names(void);

#endif
