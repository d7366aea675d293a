// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "decode/probe-group.h"

int probe_group_pid(const char *group, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(group, prefix, n))
		return 0;
	pid = strtol(group + n, &end, 10);
	return end != group + n && !*end && pid > 0 && pid <= 0x7fffffff ? (int)pid : 0;
}
