/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvidia:nvidia_dev_xid with the fields of NVIDIA's own (open-gpu-kernel-modules
 * kernel-open/nvidia/nv-tracepoint.h): the device's PCI name, the Xid and its
 * text; the stand-in has no pci_dev, so it is handed the name itself.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM nvidia

#if !defined(_GT_NVIDIA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _GT_NVIDIA_TRACE_H

#include <linux/tracepoint.h>

#include "compat.h"

TRACE_EVENT(nvidia_dev_xid,

	TP_PROTO(const char *dev_name, uint32_t error_code, const char *msg),

	TP_ARGS(dev_name, error_code, msg),

	TP_STRUCT__entry(
		__string(dev, dev_name)
		__field(u32, error_code)
		__string(msg, msg)
	),

	TP_fast_assign(
#ifdef GT_ASSIGN_STR_ONE_ARG
		__assign_str(dev);
		__assign_str(msg);
#else
		__assign_str(dev, dev_name);
		__assign_str(msg, msg);
#endif
		__entry->error_code = error_code;
	),

	TP_printk("Xid (PCI:%s): %u, %s", __get_str(dev), __entry->error_code, __get_str(msg))
);

#endif

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE gt_nvidia_trace
#include <trace/define_trace.h>
