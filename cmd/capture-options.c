// SPDX-License-Identifier: GPL-2.0
/* What record and top read the same way from their command lines. */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tracefs/presets.h"
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

int cmd_capture_option(const char *cmd, int c, const char *arg, struct capture_args *a,
		       bool *help, struct gt_error *err)
{
	const struct preset *preset;

	switch (c) {
	case 'e':
		if (event_selection_add(a->events, arg, false, err))
			return -1;
		a->explicit_events = true;
		return 1;
	case 'b':
		return cmd_parse_buffer_kb(arg, &a->buffer_kb, err) ? -1 : 1;
	case 'P':
		return cmd_parse_pids(arg, &a->pids, &a->nr_pids, err) ? -1 : 1;
	case 'a':
		a->system_wide = true;
		return 1;
	case 'h':
		fputs(cmd_usage(cmd), stdout);
		*help = true;
		return 1;
	case OPT_CAPTURE_PRESET:
		preset = preset_find(arg);
		if (!preset)
			return gt_error_set(err, EINVAL, "unknown preset '%s'; presets are %s",
					    arg, preset_names());
		if (a->preset && a->preset != preset)
			return gt_error_set(err, EINVAL, "one --preset at a time (got %s and %s); add more with -e",
					    a->preset->name, arg);
		a->preset = preset;
		return 1;
	default:
		return 0;
	}
}

int cmd_capture_events(struct capture_args *a, struct gt_error *err)
{
	int i;

	/* a preset adds to explicit -e; without either, every GPU system */
	if (!a->preset && !a->explicit_events)
		a->preset = preset_find(DEFAULT_PRESET);
	for (i = 0; a->preset && a->preset->events[i]; i++)
		if (event_selection_add(a->events, a->preset->events[i], true, err))
			return -1;
	return 0;
}
