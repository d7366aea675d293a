// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "decode/gpu-ioctl.h"
#include "decode/nvidia-names.h"

#define DRM_COMMAND_BASE	0x40
#define DRM_COMMAND_END		0xa0

struct ioctl_name {
	uint8_t nr;
	const char *name;
};

/* include/uapi/drm/drm.h: the core's numbers every DRM driver answers */
static const struct ioctl_name drm_core[] = {
	{ 0x00, "DRM_IOCTL_VERSION" }, { 0x01, "DRM_IOCTL_GET_UNIQUE" },
	{ 0x02, "DRM_IOCTL_GET_MAGIC" }, { 0x05, "DRM_IOCTL_GET_CLIENT" },
	{ 0x07, "DRM_IOCTL_SET_VERSION" }, { 0x09, "DRM_IOCTL_GEM_CLOSE" },
	{ 0x0a, "DRM_IOCTL_GEM_FLINK" }, { 0x0b, "DRM_IOCTL_GEM_OPEN" },
	{ 0x0c, "DRM_IOCTL_GET_CAP" }, { 0x0d, "DRM_IOCTL_SET_CLIENT_CAP" },
	{ 0x11, "DRM_IOCTL_AUTH_MAGIC" }, { 0x1e, "DRM_IOCTL_SET_MASTER" },
	{ 0x1f, "DRM_IOCTL_DROP_MASTER" }, { 0x2d, "DRM_IOCTL_PRIME_HANDLE_TO_FD" },
	{ 0x2e, "DRM_IOCTL_PRIME_FD_TO_HANDLE" }, { 0x3a, "DRM_IOCTL_WAIT_VBLANK" },
	{ 0xa0, "DRM_IOCTL_MODE_GETRESOURCES" }, { 0xa1, "DRM_IOCTL_MODE_GETCRTC" },
	{ 0xa2, "DRM_IOCTL_MODE_SETCRTC" }, { 0xa7, "DRM_IOCTL_MODE_GETCONNECTOR" },
	{ 0xae, "DRM_IOCTL_MODE_ADDFB" }, { 0xaf, "DRM_IOCTL_MODE_RMFB" },
	{ 0xb0, "DRM_IOCTL_MODE_PAGE_FLIP" }, { 0xb1, "DRM_IOCTL_MODE_DIRTYFB" },
	{ 0xb2, "DRM_IOCTL_MODE_CREATE_DUMB" }, { 0xb3, "DRM_IOCTL_MODE_MAP_DUMB" },
	{ 0xb4, "DRM_IOCTL_MODE_DESTROY_DUMB" }, { 0xb8, "DRM_IOCTL_MODE_ADDFB2" },
	{ 0xbc, "DRM_IOCTL_MODE_ATOMIC" }, { 0xbf, "DRM_IOCTL_SYNCOBJ_CREATE" },
	{ 0xc0, "DRM_IOCTL_SYNCOBJ_DESTROY" }, { 0xc1, "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD" },
	{ 0xc2, "DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE" }, { 0xc3, "DRM_IOCTL_SYNCOBJ_WAIT" },
	{ 0xc4, "DRM_IOCTL_SYNCOBJ_RESET" }, { 0xc5, "DRM_IOCTL_SYNCOBJ_SIGNAL" },
	{ 0xca, "DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT" }, { 0xcb, "DRM_IOCTL_SYNCOBJ_QUERY" },
	{ 0xcc, "DRM_IOCTL_SYNCOBJ_TRANSFER" }, { 0xcd, "DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL" },
	{ 0xcf, "DRM_IOCTL_SYNCOBJ_EVENTFD" },
};

/* include/uapi/drm/amdgpu_drm.h, after DRM_COMMAND_BASE */
static const struct ioctl_name amdgpu[] = {
	{ 0x00, "AMDGPU_GEM_CREATE" }, { 0x01, "AMDGPU_GEM_MMAP" }, { 0x02, "AMDGPU_CTX" },
	{ 0x03, "AMDGPU_BO_LIST" }, { 0x04, "AMDGPU_CS" }, { 0x05, "AMDGPU_INFO" },
	{ 0x06, "AMDGPU_GEM_METADATA" }, { 0x07, "AMDGPU_GEM_WAIT_IDLE" },
	{ 0x08, "AMDGPU_GEM_VA" }, { 0x09, "AMDGPU_WAIT_CS" }, { 0x10, "AMDGPU_GEM_OP" },
	{ 0x11, "AMDGPU_GEM_USERPTR" }, { 0x12, "AMDGPU_WAIT_FENCES" }, { 0x13, "AMDGPU_VM" },
	{ 0x14, "AMDGPU_FENCE_TO_HANDLE" }, { 0x15, "AMDGPU_SCHED" }, { 0x16, "AMDGPU_USERQ" },
	{ 0x17, "AMDGPU_USERQ_SIGNAL" }, { 0x18, "AMDGPU_USERQ_WAIT" },
};

/* include/uapi/drm/i915_drm.h */
static const struct ioctl_name i915[] = {
	{ 0x06, "I915_GETPARAM" }, { 0x17, "I915_GEM_BUSY" }, { 0x1b, "I915_GEM_CREATE" },
	{ 0x1c, "I915_GEM_PREAD" }, { 0x1d, "I915_GEM_PWRITE" }, { 0x1e, "I915_GEM_MMAP" },
	{ 0x1f, "I915_GEM_SET_DOMAIN" }, { 0x24, "I915_GEM_MMAP_OFFSET" },
	{ 0x29, "I915_GEM_EXECBUFFER2" }, { 0x2c, "I915_GEM_WAIT" },
	{ 0x2d, "I915_GEM_CONTEXT_CREATE" }, { 0x2e, "I915_GEM_CONTEXT_DESTROY" },
	{ 0x34, "I915_GEM_CONTEXT_GETPARAM" }, { 0x35, "I915_GEM_CONTEXT_SETPARAM" },
	{ 0x39, "I915_QUERY" },
};

/* include/uapi/drm/xe_drm.h */
static const struct ioctl_name xe[] = {
	{ 0x00, "XE_DEVICE_QUERY" }, { 0x01, "XE_GEM_CREATE" }, { 0x02, "XE_GEM_MMAP_OFFSET" },
	{ 0x03, "XE_VM_CREATE" }, { 0x04, "XE_VM_DESTROY" }, { 0x05, "XE_VM_BIND" },
	{ 0x06, "XE_EXEC_QUEUE_CREATE" }, { 0x07, "XE_EXEC_QUEUE_DESTROY" },
	{ 0x08, "XE_EXEC_QUEUE_GET_PROPERTY" }, { 0x09, "XE_EXEC" },
	{ 0x0a, "XE_WAIT_USER_FENCE" },
};

/* include/uapi/drm/virtgpu_drm.h */
static const struct ioctl_name virtio[] = {
	{ 0x01, "VIRTGPU_MAP" }, { 0x02, "VIRTGPU_EXECBUFFER" }, { 0x03, "VIRTGPU_GETPARAM" },
	{ 0x04, "VIRTGPU_RESOURCE_CREATE" }, { 0x05, "VIRTGPU_RESOURCE_INFO" },
	{ 0x06, "VIRTGPU_TRANSFER_FROM_HOST" }, { 0x07, "VIRTGPU_TRANSFER_TO_HOST" },
	{ 0x08, "VIRTGPU_WAIT" }, { 0x09, "VIRTGPU_GET_CAPS" },
	{ 0x0a, "VIRTGPU_RESOURCE_CREATE_BLOB" }, { 0x0b, "VIRTGPU_CONTEXT_INIT" },
};

/* include/uapi/linux/kfd_ioctl.h: AMDKFD_IOC_* */
static const struct ioctl_name kfd[] = {
	{ 0x01, "AMDKFD_IOC_GET_VERSION" }, { 0x02, "AMDKFD_IOC_CREATE_QUEUE" },
	{ 0x03, "AMDKFD_IOC_DESTROY_QUEUE" }, { 0x04, "AMDKFD_IOC_SET_MEMORY_POLICY" },
	{ 0x05, "AMDKFD_IOC_GET_CLOCK_COUNTERS" }, { 0x06, "AMDKFD_IOC_GET_PROCESS_APERTURES" },
	{ 0x07, "AMDKFD_IOC_UPDATE_QUEUE" }, { 0x08, "AMDKFD_IOC_CREATE_EVENT" },
	{ 0x09, "AMDKFD_IOC_DESTROY_EVENT" }, { 0x0a, "AMDKFD_IOC_SET_EVENT" },
	{ 0x0b, "AMDKFD_IOC_RESET_EVENT" }, { 0x0c, "AMDKFD_IOC_WAIT_EVENTS" },
	{ 0x11, "AMDKFD_IOC_SET_SCRATCH_BACKING_VA" }, { 0x12, "AMDKFD_IOC_GET_TILE_CONFIG" },
	{ 0x13, "AMDKFD_IOC_SET_TRAP_HANDLER" },
	{ 0x14, "AMDKFD_IOC_GET_PROCESS_APERTURES_NEW" }, { 0x15, "AMDKFD_IOC_ACQUIRE_VM" },
	{ 0x16, "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU" }, { 0x17, "AMDKFD_IOC_FREE_MEMORY_OF_GPU" },
	{ 0x18, "AMDKFD_IOC_MAP_MEMORY_TO_GPU" }, { 0x19, "AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU" },
	{ 0x1a, "AMDKFD_IOC_SET_CU_MASK" }, { 0x1b, "AMDKFD_IOC_GET_QUEUE_WAVE_STATE" },
	{ 0x1c, "AMDKFD_IOC_GET_DMABUF_INFO" }, { 0x1d, "AMDKFD_IOC_IMPORT_DMABUF" },
	{ 0x1e, "AMDKFD_IOC_ALLOC_QUEUE_GWS" }, { 0x1f, "AMDKFD_IOC_SMI_EVENTS" },
	{ 0x20, "AMDKFD_IOC_SVM" }, { 0x21, "AMDKFD_IOC_SET_XNACK_MODE" },
	{ 0x22, "AMDKFD_IOC_CRIU_OP" }, { 0x23, "AMDKFD_IOC_AVAILABLE_MEMORY" },
	{ 0x24, "AMDKFD_IOC_EXPORT_DMABUF" }, { 0x25, "AMDKFD_IOC_RUNTIME_ENABLE" },
	{ 0x26, "AMDKFD_IOC_DBG_TRAP" },
};

static const char *lookup(const struct ioctl_name *t, size_t n, unsigned int nr)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].nr == nr)
			return t[i].name;
	return NULL;
}

#define LOOKUP(t, nr)	lookup(t, sizeof(t) / sizeof(t[0]), nr)

int gpu_ioctl_is_gpu(uint64_t cmd)
{
	unsigned int type = GPU_IOCTL_TYPE(cmd);

	return type == 'd' || type == 'K' || type == NV_IOCTL_MAGIC;
}

static const char *drm_driver_name(unsigned int nr, enum gpu_ioctl_driver driver)
{
	switch (driver) {
	case GPU_IOCTL_DRIVER_AMDGPU:
		return LOOKUP(amdgpu, nr);
	case GPU_IOCTL_DRIVER_I915:
		return LOOKUP(i915, nr);
	case GPU_IOCTL_DRIVER_XE:
		return LOOKUP(xe, nr);
	case GPU_IOCTL_DRIVER_VIRTIO:
		return LOOKUP(virtio, nr);
	default:
		return NULL;
	}
}

const char *gpu_ioctl_name(uint64_t cmd, enum gpu_ioctl_driver driver, char *buf, size_t len)
{
	unsigned int type = GPU_IOCTL_TYPE(cmd), nr = GPU_IOCTL_NR(cmd);
	const char *name = NULL;

	if (type == 'd' && nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) {
		name = drm_driver_name(nr - DRM_COMMAND_BASE, driver);
		if (!name)
			snprintf(buf, len, "DRM driver ioctl 0x%02x", nr);
	} else if (type == 'd') {
		name = LOOKUP(drm_core, nr);
		if (!name)
			snprintf(buf, len, "DRM ioctl 0x%02x", nr);
	} else if (type == 'K') {
		name = LOOKUP(kfd, nr);
		if (!name)
			snprintf(buf, len, "KFD ioctl 0x%02x", nr);
	} else if (type == NV_IOCTL_MAGIC) {
		name = nv_escape_name(nr);
		if (name)
			snprintf(buf, len, "NV_ESC_%s", name);
		else
			snprintf(buf, len, "NVIDIA ioctl 0x%02x", nr);
		return buf;
	} else {
		snprintf(buf, len, "ioctl 0x%llx", (unsigned long long)(cmd & 0xffffffffu));
	}
	return name ? name : buf;
}
