// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "decode/probe-group.h"
#include "decode/nvidia-names.h"

static const char *const probe_events[NVP_NR] = {
	[NVP_IOCTL] = "ioctl", [NVP_IOCTL_RET] = "ioctl_ret",
	[NVP_OPEN] = "open", [NVP_OPEN_RET] = "open_ret",
	[NVP_CLOSE] = "close", [NVP_CLOSE_RET] = "close_ret",
	[NVP_MMAP] = "mmap", [NVP_MMAP_RET] = "mmap_ret",
	[NVP_ISR] = "isr", [NVP_ISR_RET] = "isr_ret",
	[NVP_ISR_MSIX] = "isr_msix", [NVP_ISR_MSIX_RET] = "isr_msix_ret",
	[NVP_BH] = "bh", [NVP_BH_RET] = "bh_ret",
	[NVP_BH_MSIX] = "bh_msix", [NVP_BH_MSIX_RET] = "bh_msix_ret",
	[NVP_UVM_REPLAYABLE] = "uvm_replayable", [NVP_UVM_REPLAYABLE_RET] = "uvm_replayable_ret",
	[NVP_UVM_NON_REPLAYABLE] = "uvm_non_replayable",
	[NVP_UVM_NON_REPLAYABLE_RET] = "uvm_non_replayable_ret",
};

const char *nv_probe_event(enum nv_probe_kind kind)
{
	return kind < NVP_NR ? probe_events[kind] : NULL;
}

enum nv_probe_kind nv_probe_kind_of(const char *event)
{
	int i;

	for (i = 0; i < NVP_NR; i++)
		if (!strcmp(probe_events[i], event))
			return (enum nv_probe_kind)i;
	return NVP_NR;
}

int nv_probe_group_pid(const char *group)
{
	return probe_group_pid(group, NV_PROBE_GROUP_PREFIX);
}

static const struct {
	uint32_t escape;
	const char *name;
} escapes[] = {
	{ 0x27, "RM_ALLOC_MEMORY" }, { 0x28, "RM_ALLOC_OBJECT" }, { 0x29, "RM_FREE" },
	{ 0x2a, "RM_CONTROL" }, { 0x2b, "RM_ALLOC" }, { 0x34, "RM_DUP_OBJECT" },
	{ 0x35, "RM_SHARE" }, { 0x39, "RM_I2C_ACCESS" }, { 0x41, "RM_IDLE_CHANNELS" },
	{ 0x4a, "RM_VID_HEAP_CONTROL" }, { 0x4d, "RM_ACCESS_REGISTRY" },
	{ 0x4e, "RM_MAP_MEMORY" }, { 0x4f, "RM_UNMAP_MEMORY" }, { 0x52, "RM_GET_EVENT_DATA" },
	{ 0x54, "RM_ALLOC_CONTEXT_DMA2" }, { 0x56, "RM_ADD_VBLANK_CALLBACK" },
	{ 0x57, "RM_MAP_MEMORY_DMA" }, { 0x58, "RM_UNMAP_MEMORY_DMA" },
	{ 0x59, "RM_BIND_CONTEXT_DMA" }, { 0x5c, "RM_EXPORT_OBJECT_TO_FD" },
	{ 0x5d, "RM_IMPORT_OBJECT_FROM_FD" }, { 0x5e, "RM_UPDATE_DEVICE_MAPPING_INFO" },
	{ 0x5f, "RM_LOCKLESS_DIAGNOSTIC" },
	{ 200, "CARD_INFO" }, { 201, "REGISTER_FD" }, { 206, "ALLOC_OS_EVENT" },
	{ 207, "FREE_OS_EVENT" }, { 209, "STATUS_CODE" }, { 210, "CHECK_VERSION_STR" },
	{ 211, "IOCTL_XFER_CMD" }, { 212, "ATTACH_GPUS_TO_FD" }, { 213, "QUERY_DEVICE_INTR" },
	{ 214, "SYS_PARAMS" }, { 217, "EXPORT_TO_DMABUF_FD" }, { 218, "WAIT_OPEN_COMPLETE" },
};

const char *nv_escape_name(uint32_t escape)
{
	size_t i;

	for (i = 0; i < sizeof(escapes) / sizeof(escapes[0]); i++)
		if (escapes[i].escape == escape)
			return escapes[i].name;
	return NULL;
}
