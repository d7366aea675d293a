// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/time-ns.h"

/* no clock of the kernel's goes past KTIME_SEC_MAX / 2 s; within it, s * 10^9 + ns fits */
#define OFFSET_MAX_S	4611686018LL

int time_ns_parse_monotonic(const char *text, int64_t *ns)
{
	const char *line = text;

	*ns = 0;
	while (line && *line) {
		char name[16];
		long long s;
		long n;
		int used = 0;

		/* "monotonic -100 0" since 5.7; "1 -100 0" (CLOCK_MONOTONIC's id) in 5.6 */
		if (sscanf(line, "%15s %lld %ld%n", name, &s, &n, &used) == 3 && used &&
		    (!strcmp(name, "monotonic") || !strcmp(name, "1"))) {
			if (s < -OFFSET_MAX_S || s > OFFSET_MAX_S || n < 0 || n >= 1000000000L)
				return -1;
			*ns = (int64_t)s * 1000000000LL + n;
			return 0;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -1;
}

/*
 * timens_offsets shows the namespace the process's children get. That is its
 * own but where it unshared the time namespace and did not move in (exec moves
 * it from 6.0 on; before, unshare -T without --fork runs its command there).
 */
static bool in_its_children_namespace(const char *pid)
{
	char own[64], children[64];
	struct stat a, b;

	snprintf(own, sizeof(own), "/proc/%s/ns/time", pid);
	snprintf(children, sizeof(children), "/proc/%s/ns/time_for_children", pid);
	if (stat(own, &a) || stat(children, &b))
		return true;	/* no time namespaces: the file says 0, or is not there */
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* /proc/WHO/timens_offsets' monotonic offset: the namespace WHO's children get */
static int children_offset(const char *who, int64_t *ns)
{
	char path[64], buf[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/timens_offsets", who);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return time_ns_parse_monotonic(buf, ns);
}

int64_t time_ns_monotonic_offset_of(int pid)
{
	char who[16];
	int64_t ns;

	if (pid > 0)
		snprintf(who, sizeof(who), "%d", pid);
	else
		snprintf(who, sizeof(who), "self");
	/* not its own offsets: the best guess is none */
	if (!in_its_children_namespace(who))
		return 0;
	return children_offset(who, &ns) ? 0 : ns;
}

static bool same_file(const char *a, const char *b)
{
	struct stat x, y;

	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int time_ns_monotonic_offset_known(int pid, int64_t *ns)
{
	char own[64], children[64], who[16];

	*ns = 0;
	/* a kernel without time namespaces (before 5.6, or built without): one clock for all */
	if (access("/proc/self/ns/time", F_OK) && errno == ENOENT)
		return 0;
	snprintf(who, sizeof(who), "%d", pid);
	snprintf(own, sizeof(own), "/proc/%d/ns/time", pid);
	snprintf(children, sizeof(children), "/proc/%d/ns/time_for_children", pid);
	if (same_file(own, "/proc/self/ns/time")) {
		*ns = time_ns_monotonic_offset();
		return 0;
	}
	/* its timens_offsets are the namespace its children get: its own only when that is it */
	if (!same_file(own, children))
		return -1;
	return children_offset(who, ns);
}

int time_ns_children_offset(int pid, int64_t *ns)
{
	char children[64], who[16];

	*ns = 0;
	snprintf(who, sizeof(who), "%d", pid);
	snprintf(children, sizeof(children), "/proc/%d/ns/time_for_children", pid);
	if (access(children, F_OK) || same_file(children, "/proc/self/ns/time"))
		return -1;
	return children_offset(who, ns);
}

int64_t time_ns_monotonic_offset(void)
{
	return time_ns_monotonic_offset_of(0);
}

uint64_t time_ns_kernel_mono(int64_t offset)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec - (uint64_t)offset;
}
