// SPDX-License-Identifier: GPL-2.0
/* Names of KFD's uapi values: shared by report and the probe events' plugin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/probe-group.h"
#include "decode/kfd-names.h"

const char *kfd_queue_type_name(uint32_t type)
{
	/* KFD_IOC_QUEUE_TYPE_* in include/uapi/linux/kfd_ioctl.h */
	static const char *const names[] = {
		"compute", "sdma", "compute-aql", "sdma-xgmi", "sdma-by-eng-id"
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

const char *kfd_trigger_name(uint32_t trigger)
{
	/* enum KFD_QUEUE_EVICTION_TRIGGERS */
	static const char *const names[] = {
		"svm", "userptr", "ttm", "suspend", "criu-checkpoint", "criu-restore"
	};

	return trigger < sizeof(names) / sizeof(names[0]) ? names[trigger] : "unknown";
}

const char *kfd_errno_name(int ret, char *buf, size_t len)
{
	const char *name = ret < 0 ? strerrorname_np(-ret) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "error %d", ret);
	return buf;
}

int kfd_probe_group_pid(const char *group)
{
	return probe_group_pid(group, KFD_PROBE_GROUP_PREFIX);
}
