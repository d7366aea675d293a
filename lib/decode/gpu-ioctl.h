/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_GPU_IOCTL_H
#define GT_GPU_IOCTL_H

#include <stddef.h>
#include <stdint.h>

/*
 * A GPU ioctl's name from its number alone, as sys_enter_ioctl carries it:
 * _IOC(dir, type, nr, size) with the type in bits 8-15. The GPU types are
 * DRM's 'd' (every DRM driver: the core's numbers below 0x40 and from 0xa0,
 * the driver's own from DRM_COMMAND_BASE 0x40 to 0x9f), KFD's 'K' and
 * NVIDIA's 'F'. A driver's own numbers mean something only with the
 * driver: the caller says which one the file's GPU events are from (the fd
 * is not in the record).
 */
#define GPU_IOCTL_TYPE(cmd)	(((cmd) >> 8) & 0xff)
#define GPU_IOCTL_NR(cmd)	((cmd) & 0xff)

enum gpu_ioctl_driver {
	GPU_IOCTL_DRIVER_UNKNOWN = 0,	/* none, or several: a DRM driver's number stays a number */
	GPU_IOCTL_DRIVER_AMDGPU,
	GPU_IOCTL_DRIVER_I915,
	GPU_IOCTL_DRIVER_XE,
	GPU_IOCTL_DRIVER_VIRTIO,
};

/**
 * gpu_ioctl_is_gpu - whether @cmd is of a GPU ioctl type ('d', 'K' or 'F')
 * @cmd: the ioctl's number as the syscall got it (only the low 32 bits mean anything)
 *
 * Return: true for DRM, KFD and NVIDIA ioctls.
 */
int gpu_ioctl_is_gpu(uint64_t cmd);

/**
 * gpu_ioctl_name - a GPU ioctl's name, e.g. "DRM_IOCTL_SYNCOBJ_WAIT", "AMDGPU_CS",
 * "AMDKFD_IOC_CREATE_QUEUE", "NV_ESC_RM_CONTROL"; else its family and number
 * ("DRM driver ioctl 0x44", "KFD ioctl 0x7f")
 * @cmd:    the ioctl's number
 * @driver: whose driver-private DRM numbers to name
 * @buf:    where a made-up name is written
 * @len:    @buf's size
 *
 * Return: a static name or @buf.
 */
const char *gpu_ioctl_name(uint64_t cmd, enum gpu_ioctl_driver driver, char *buf, size_t len);

/*
 * The in-kernel filter record puts on sys_enter_ioctl: the GPU types, each as
 * the bits its type byte has set and the ones it has clear (ftrace filters
 * have '&' but no comparison of a masked value), so that only GPU ioctls are
 * written. The exits cannot be filtered so (they carry only ret): report
 * pairs them with the enters.
 */
#define GPU_IOCTL_FILTER \
	"(cmd & 0x4000 && cmd & 0x2000 && cmd & 0x400 && !(cmd & 0x9b00)) || " \
	"(cmd & 0x4000 && cmd & 0x800 && cmd & 0x200 && cmd & 0x100 && !(cmd & 0xb400)) || " \
	"(cmd & 0x4000 && cmd & 0x400 && cmd & 0x200 && !(cmd & 0xb900))"

#endif
