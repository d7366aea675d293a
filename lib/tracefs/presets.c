// SPDX-License-Identifier: GPL-2.0
#include <stddef.h>
#include <string.h>

#include "tracefs/presets.h"

/*
 * amdgpu_device_rreg/wreg trace every register access and would drown the
 * job events, hence amdgpu_[!d]* rather than the whole system. The kernel's
 * log (printk:console) is where ring timeouts, xe's job timeouts and GPU
 * resets are told. xe's system also holds the display's events and some
 * that fire on every register access (xe_reg_rw), GuC message (xe_guc_ctb_*)
 * or runtime-PM reference; its preset takes jobs, exec queues, fences,
 * buffers, VMs and TLB invalidations only.
 */
static const char *const amd_events[] = {
	"kfd", "amdkfd", "amdgpu:amdgpu_[!d]*", "gpu_scheduler", "gpu_sched", "dma_fence",
	"dma_buf", "drm:drm_vblank_event*", "printk:console", NULL
};
static const char *const drm_events[] = {
	"drm", "gpu_scheduler", "dma_fence", "dma_buf", "printk:console", NULL
};
static const char *const i915_events[] = {
	"i915", "dma_fence", "drm:drm_vblank_event*", NULL
};
static const char *const xe_events[] = {
	"xe:xe_sched_*", "xe:xe_exec_queue_*", "xe:xe_hw_fence_[cs]*", "xe:xe_bo_*", "xe:xe_vm_*",
	"xe:xe_vma_*", "xe:xe_*tlb_inval*", "xe:xe_guc_uncorrectable_error", "gpu_scheduler", "dma_fence", "drm:drm_vblank_event*", "printk:console", NULL
};
static const char *const virtio_events[] = {
	"virtio_gpu", "gpu_scheduler", "dma_fence", "dma_buf", "drm:drm_vblank_event*", NULL
};
/* NVIDIA's driver has one tracepoint; the rest are probes (lib/capture/nvidia-probes.c) */
static const char *const nvidia_events[] = {
	"nvidia:nvidia_dev_xid", "printk:console", NULL
};
static const char *const all_gpu_events[] = {
	"kfd", "amdkfd", "amdgpu:amdgpu_[!d]*", "gpu_scheduler", "gpu_sched", "dma_fence",
	"dma_buf", "drm", "i915", "xe", "virtio_gpu", "nouveau", "msm", "panfrost", "v3d",
	"nvidia", "printk:console", NULL
};

const char *const gpu_event_systems[] = {
	"amdgpu", "amdgpu_dm", "amdkfd", "kfd", "gpu_scheduler", "gpu_sched", "dma_fence",
	"dma_buf", "drm", "i915", "xe", "nouveau", "msm", "panfrost", "panthor",
	"v3d", "lima", "etnaviv", "virtio_gpu", "vgem", "nvidia", NULL
};

bool is_gpu_event_system(const char *system)
{
	int i;

	for (i = 0; gpu_event_systems[i]; i++)
		if (!strcmp(gpu_event_systems[i], system))
			return true;
	return false;
}

bool is_system_wide_system(const char *system)
{
	return is_gpu_event_system(system) || !strcmp(system, "printk");
}

bool is_gpu_driver_system(const char *system)
{
	return is_gpu_event_system(system) && strcmp(system, "dma_fence") &&
	       strcmp(system, "drm") && strcmp(system, "dma_buf");
}

const struct preset presets[] = {
	{ "amd", "ROCm/amdgpu: KFD (queue ioctl probes), amdgpu, GPU scheduler, fences, vblank, the kernel's log (hangs); function_graph under :mod:amdgpu",
	  amd_events, "function_graph", ":mod:amdgpu", true, false },
	{ "drm", "any DRM-scheduler driver: drm, gpu_scheduler, dma_fence, the kernel's log",
	  drm_events, NULL, NULL, false, false },
	{ "i915", "Intel i915: request events, fences, vblank",
	  i915_events, NULL, NULL, false, false },
	{ "xe", "Intel xe: jobs, exec queues, buffers, VMs (not register or GuC-message events), GPU scheduler, fences, vblank, the kernel's log",
	  xe_events, NULL, NULL, false, false },
	{ "virtio", "virtio-gpu: command queue, GPU scheduler, fences, vblank",
	  virtio_events, NULL, NULL, false, false },
	{ "nvidia", "NVIDIA's driver (no DRM jobs): kprobes on nvidia.ko's ioctl, open/close, mmap, interrupts and bottom halves, nvidia-uvm's fault service; Xids; the kernel's log",
	  nvidia_events, NULL, NULL, false, true },
	{ "all-gpu", "every GPU event system this kernel has, the kernel's log (the default)",
	  all_gpu_events, NULL, NULL, false, false },
	{ NULL, NULL, NULL, NULL, NULL, false, false }
};

const struct preset *preset_find(const char *name)
{
	int i;

	for (i = 0; presets[i].name; i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

const char *preset_names(void)
{
	return "amd, drm, i915, xe, virtio, nvidia, all-gpu";
}
