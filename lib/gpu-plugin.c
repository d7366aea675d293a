// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <trace-seq.h>

#include "gpu-event.h"
#include "gpu-plugin.h"

/* The events whose print fmt we replace: one line with the job's keys. */
static const char *const handled[][2] = {
	{ "gpu_scheduler", "drm_sched_job" },
	{ "gpu_scheduler", "drm_sched_job_queue" },
	{ "gpu_scheduler", "drm_run_job" },
	{ "gpu_scheduler", "drm_sched_job_run" },
	{ "gpu_scheduler", "drm_sched_process_job" },
	{ "gpu_scheduler", "drm_sched_job_done" },
	{ "gpu_scheduler", "drm_sched_job_wait_dep" },
	{ "gpu_scheduler", "drm_sched_job_add_dep" },
	{ "gpu_scheduler", "drm_sched_job_unschedulable" },
	{ "amdgpu", "amdgpu_cs_ioctl" },
	{ "amdgpu", "amdgpu_sched_run_job" },
	{ "dma_fence", "dma_fence_init" },
	{ "dma_fence", "dma_fence_emit" },
	{ "dma_fence", "dma_fence_enable_signal" },
	{ "dma_fence", "dma_fence_signaled" },
	{ "dma_fence", "dma_fence_wait_start" },
	{ "dma_fence", "dma_fence_wait_end" },
	{ "dma_fence", "dma_fence_destroy" },
	{ "drm", "drm_vblank_event" },
	{ "drm", "drm_vblank_event_queued" },
	{ "drm", "drm_vblank_event_delivered" },
	{ "i915", "i915_request_add" },
	{ "i915", "i915_request_submit" },
	{ "i915", "i915_request_in" },
	{ "i915", "i915_request_out" },
	{ "i915", "i915_request_retire" },
	{ "i915", "i915_request_queue" },
	{ "xe", "xe_sched_job_create" },
	{ "xe", "xe_sched_job_exec" },
	{ "xe", "xe_sched_job_run" },
	{ "xe", "xe_sched_job_free" },
	{ "virtio_gpu", "virtio_gpu_cmd_queue" },
	{ "virtio_gpu", "virtio_gpu_cmd_response" },
};

#define NR_HANDLED (sizeof(handled) / sizeof(handled[0]))

static int print_gpu_event(struct trace_seq *s, struct tep_record *rec,
			   struct tep_event *event, void *context)
{
	struct gpu_event ev;
	char line[512];

	(void)context;
	/* non-zero would make libtraceevent print the kernel's format too */
	if (gpu_event_decode_one(event, rec, &ev) == GEV_NONE)
		return 1;
	gpu_event_format(&ev, line, sizeof(line));
	trace_seq_puts(s, line);
	return 0;
}

int gpu_plugin_register(struct tep_handle *tep, const char *system)
{
	size_t i;
	int n = 0;

	for (i = 0; i < NR_HANDLED; i++) {
		if (system && strcmp(system, handled[i][0]))
			continue;
		if (!tep_register_event_handler(tep, -1, handled[i][0], handled[i][1],
						print_gpu_event, NULL))
			n++;
	}
	return n;
}

void gpu_plugin_unregister(struct tep_handle *tep, const char *system)
{
	size_t i;

	for (i = 0; i < NR_HANDLED; i++)
		if (!system || !strcmp(system, handled[i][0]))
			tep_unregister_event_handler(tep, -1, handled[i][0], handled[i][1],
						     print_gpu_event, NULL);
}
