// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "decode/probe-group.h"
#include "util/pid-ns.h"

int probe_group_pid(const char *group, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(group, prefix, n))
		return 0;
	pid = strtol(group + n, &end, 10);
	if (*end && !pid_ns_of_tail(end, '_'))
		return 0;
	return end != group + n && pid > 0 && pid <= 0x7fffffff ? (int)pid : 0;
}

uint64_t probe_group_ns(const char *group)
{
	const char *tail = strrchr(group, '_');

	return tail ? pid_ns_of_tail(tail, '_') : 0;
}
