/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_NVIDIA_NAMES_H
#define GT_NVIDIA_NAMES_H

#include <stdint.h>

/*
 * NVIDIA's driver (nvidia.ko, open or closed) is no DRM driver: what can be traced are
 * kprobes on its own functions (record --preset nvidia defines them in a group
 * gpu_trace_nv_<pid>, removed at teardown or by `gpu-trace reset`) and its one
 * tracepoint, nvidia:nvidia_dev_xid. The names here are shared by the recorder that
 * defines the probes and the report that reads them.
 *
 * Escapes: an ioctl's number is _IOWR('F', escape, size) (kernel-open/common/inc/
 * nv-ioctl-numbers.h, src/nvidia/arch/nvalloc/unix/include/nv_escape.h). An RM control
 * (NVOS54_PARAMETERS) has its command at +8 and its status at +28; NV_ESC_IOCTL_XFER_CMD
 * carries the real escape at +0 and a pointer to its parameters at +8, as the driver's
 * nvidia_ioctl() unpacks it. Checked against open-gpu-kernel-modules 595.45.04.
 */
#define NV_PROBE_GROUP_PREFIX	"gpu_trace_nv_"
#define NV_IOCTL_MAGIC		'F'
#define NV_ESC_RM_CONTROL	0x2a
#define NV_ESC_IOCTL_XFER_CMD	0xd3

enum nv_probe_kind {
	NVP_IOCTL, NVP_IOCTL_RET,
	NVP_OPEN, NVP_OPEN_RET,
	NVP_CLOSE, NVP_CLOSE_RET,
	NVP_MMAP, NVP_MMAP_RET,
	NVP_ISR, NVP_ISR_RET,
	NVP_ISR_MSIX, NVP_ISR_MSIX_RET,
	NVP_BH, NVP_BH_RET,
	NVP_BH_MSIX, NVP_BH_MSIX_RET,
	NVP_UVM_REPLAYABLE, NVP_UVM_REPLAYABLE_RET,
	NVP_UVM_NON_REPLAYABLE, NVP_UVM_NON_REPLAYABLE_RET,
	NVP_NR
};

/** nv_probe_event - the event name of a probe of the group: "ioctl", "ioctl_ret", ... */
const char *nv_probe_event(enum nv_probe_kind kind);
/** nv_probe_kind_of - the kind of an event of the group by its name; NVP_NR when none */
enum nv_probe_kind nv_probe_kind_of(const char *event);
/** nv_probe_group_pid - the recorder's pid in a group gpu_trace_nv_<pid>, 0 for any other */
int nv_probe_group_pid(const char *group);
/** nv_escape_name - "RM_CONTROL", "CARD_INFO", ...; NULL for an escape the driver does not name */
const char *nv_escape_name(uint32_t escape);

#endif
