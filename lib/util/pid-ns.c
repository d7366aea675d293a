// SPDX-License-Identifier: GPL-2.0
/* Names that say which PID namespace made them (pid-ns.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/pid-ns.h"

#define INIT_PID_NS_INO	0xEFFFFFFCULL	/* the kernel's PROC_PID_INIT_INO */

uint64_t pid_ns_id(void)
{
	static int known;
	static uint64_t id;
	struct stat st;

	if (!known) {
		known = 1;
		if (!stat("/proc/self/ns/pid", &st) && (uint64_t)st.st_ino != INIT_PID_NS_INO)
			id = (uint64_t)st.st_ino;
	}
	return id;
}

static const char *tag(char *buf, size_t len, char sep)
{
	uint64_t id = pid_ns_id();

	if (!id)
		return "";
	if (!buf[0])
		snprintf(buf, len, "%cns%llu", sep, (unsigned long long)id);
	return buf;
}

const char *pid_ns_instance_tag(void)
{
	static char buf[32];

	return tag(buf, sizeof(buf), '.');
}

const char *pid_ns_group_tag(void)
{
	static char buf[32];

	return tag(buf, sizeof(buf), '_');
}

uint64_t pid_ns_of_tail(const char *tail, char sep)
{
	unsigned long long id;
	char *end;

	if (tail[0] != sep || strncmp(tail + 1, "ns", 2) || tail[3] < '0' || tail[3] > '9')
		return 0;
	id = strtoull(tail + 3, &end, 10);
	return (*end == '\0' || *end == '.') ? id : 0;
}
