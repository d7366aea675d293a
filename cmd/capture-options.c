// SPDX-License-Identifier: GPL-2.0
/* What record and top read the same way from their command lines. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"

#define MAX_BUFFER_KB	(1ULL << 40)

int cmd_parse_pids(const char *arg, pid_t **pids, int *nr, struct gt_error *err)
{
	const char *p = arg;

	if (!*p)
		return gt_error_set(err, EINVAL, "bad -P '': expected PID[,PID...]");
	while (*p) {
		char *end;
		long pid = strtol(p, &end, 10);
		pid_t *n;

		if (end == p || pid <= 0 || (*end && *end != ','))
			return gt_error_set(err, EINVAL, "bad -P '%s': expected PID[,PID...]", arg);
		if (kill((pid_t)pid, 0) && errno == ESRCH)
			return gt_error_set(err, ESRCH, "-P %ld: no such process; check the pid with ps", pid);
		n = realloc(*pids, sizeof(*n) * (size_t)(*nr + 1));
		if (!n)
			return gt_error_set(err, ENOMEM, "out of memory");
		*pids = n;
		(*pids)[(*nr)++] = (pid_t)pid;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/*
 * trace-cmd's -b is KB per CPU; people also type the unit: 64M, 1G, 512K
 * (K, M, G, with or without B or iB, any case).
 */
int cmd_parse_buffer_kb(const char *arg, unsigned long *kb, struct gt_error *err)
{
	static const struct {
		char unit;
		unsigned long long kb;
	} units[] = { { 'k', 1 }, { 'm', 1024 }, { 'g', 1024 * 1024 } };
	unsigned long long v, scale = 1;
	char *end;
	size_t i;

	errno = 0;
	v = isdigit((unsigned char)arg[0]) ? strtoull(arg, &end, 10) : 0;
	if (v && !errno && *end) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (tolower((unsigned char)*end) == units[i].unit)
				scale = units[i].kb;
		if (scale == 1 && tolower((unsigned char)*end) != 'k')
			v = 0;
		else if (end[1] && strcasecmp(end + 1, "b") && strcasecmp(end + 1, "ib"))
			v = 0;
	}
	if (!v || errno || v > MAX_BUFFER_KB / scale)
		return gt_error_set(err, EINVAL, "bad -b '%s': a size per CPU in KB (65536) or with a unit (64M, 1G), at most %llu KB",
				    arg, MAX_BUFFER_KB);
	*kb = (unsigned long)(v * scale);
	return 0;
}
