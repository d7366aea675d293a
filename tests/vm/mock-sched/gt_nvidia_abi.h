/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of nvidia.ko's ioctl interface the lab's stand-in and its client
 * share, as NVIDIA's open-gpu-kernel-modules defines them: the numbering
 * (kernel-open/common/inc/nv-ioctl-numbers.h, src/nvidia/arch/nvalloc/unix/
 * include/nv_escape.h), an RM control's parameters (src/common/sdk/nvidia/
 * inc/nvos.h NVOS54_PARAMETERS) and a transfer (nv-ioctl.h nv_ioctl_xfer_t).
 * For the kernel module and user space alike.
 */
#ifndef GT_NVIDIA_ABI_H
#define GT_NVIDIA_ABI_H

#include <linux/types.h>

#define NV_IOCTL_MAGIC		'F'
#define NV_IOCTL_BASE		200
#define NV_ESC_CARD_INFO	(NV_IOCTL_BASE + 0)
#define NV_ESC_IOCTL_XFER_CMD	(NV_IOCTL_BASE + 11)
#define NV_ESC_RM_FREE		0x29
#define NV_ESC_RM_CONTROL	0x2A
#define NV_ESC_RM_ALLOC		0x2B
#define NV_ESC_RM_MAP_MEMORY	0x4E

/* NVOS54_PARAMETERS: cmd at 8, status at 28 */
struct nvos54 {
	__u32 hClient, hObject, cmd, flags;
	__u64 params;
	__u32 paramsSize, status;
};

/* nv_ioctl_xfer_t: the escape run, its parameters' size and address */
struct nv_ioctl_xfer {
	__u32 cmd, size;
	__u64 ptr;
};

#endif
