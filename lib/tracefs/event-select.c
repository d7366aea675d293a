// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefs/event-select.h"
#include "tracefs/presets.h"

int event_spec_parse(const char *arg, bool from_preset, struct event_spec *out,
		     struct gt_error *err)
{
	size_t n = strcspn(arg, ":/");

	memset(out, 0, sizeof(*out));
	if (!n || (arg[n] && !arg[n + 1]) || strchr(arg + n + (arg[n] ? 1 : 0), ':'))
		return gt_error_set(err, EINVAL,
				    "bad event '%s': expected SYSTEM or SYSTEM:EVENT (globs allowed), e.g. -e gpu_scheduler or -e sched:sched_switch",
				    arg);
	out->system = strndup(arg, n);
	out->event = strdup(arg[n] ? arg + n + 1 : "*");
	out->from_preset = from_preset;
	if (!out->system || !out->event)
		return gt_error_set(err, ENOMEM, "out of memory");
	return 0;
}

int event_selection_add(struct event_selection *sel, const char *arg,
			bool from_preset, struct gt_error *err)
{
	struct event_spec *n;

	n = realloc(sel->specs, sizeof(*n) * (size_t)(sel->nr_specs + 1));
	if (!n)
		return gt_error_set(err, ENOMEM, "out of memory");
	sel->specs = n;
	if (event_spec_parse(arg, from_preset, &sel->specs[sel->nr_specs], err))
		return -1;
	sel->nr_specs++;
	return 0;
}

int event_selection_set_filter(struct event_selection *sel, const char *filter,
			       struct gt_error *err)
{
	struct event_spec *last;

	if (!sel->nr_specs || sel->specs[sel->nr_specs - 1].from_preset)
		return gt_error_set(err, EINVAL,
				    "-f '%s' has no event: put it right after the -e it filters, e.g. -e sched:sched_switch -f 'prev_pid != 0'",
				    filter);
	last = &sel->specs[sel->nr_specs - 1];
	free(last->filter);
	last->filter = strdup(filter);
	return last->filter ? 0 : gt_error_set(err, ENOMEM, "out of memory");
}

void event_string_list_free(char **list, int count)
{
	int i;

	for (i = 0; list && i < count; i++)
		free(list[i]);
	free(list);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **event_glob_expand(const char *system_glob, const char *event_glob,
			 int *count)
{
	char **systems = tracefs_event_systems(NULL);
	char **out = NULL;
	int i, j, nr = 0;

	for (i = 0; systems && systems[i]; i++) {
		char **events;

		if (fnmatch(system_glob, systems[i], 0) || !strcmp(systems[i], "ftrace"))
			continue;
		events = tracefs_system_events(NULL, systems[i]);
		for (j = 0; events && events[j]; j++) {
			char **n;

			if (fnmatch(event_glob, events[j], 0))
				continue;
			n = realloc(out, sizeof(*n) * (size_t)(nr + 1));
			if (!n)
				break;
			out = n;
			if (asprintf(&out[nr], "%s:%s", systems[i], events[j]) < 0)
				break;
			nr++;
		}
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	if (nr)
		qsort(out, (size_t)nr, sizeof(*out), cmp_str);
	*count = nr;
	return out;
}

static int note_system(struct event_selection *sel, const char *sys)
{
	char **n;
	int i;

	for (i = 0; i < sel->nr_systems; i++)
		if (!strcmp(sel->systems[i], sys))
			return 0;
	n = realloc(sel->systems, sizeof(*n) * (size_t)(sel->nr_systems + 1));
	if (!n)
		return -1;
	sel->systems = n;
	sel->systems[sel->nr_systems] = strdup(sys);
	return sel->systems[sel->nr_systems++] ? 0 : -1;
}

/* Appends `item` to a ", "-separated list unless it is there already. */
static int list_add_unique(char **list, const char *item)
{
	const char *p = *list;
	size_t n = strlen(item);
	char *joined;

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, item, n))
			return 0;
		p += len;
		p += strspn(p, ", ");
	}
	if (asprintf(&joined, "%s%s%s", *list ? *list : "", *list ? ", " : "", item) < 0)
		return -1;
	free(*list);
	*list = joined;
	return 0;
}

/*
 * A system the kernel lacks is named alone: "amdgpu", not the preset's
 * "amdgpu:amdgpu_[!d]*"; the pattern only where the system is there.
 */
const char *event_spec_missing_name(const struct event_spec *sp, char *buf, size_t len)
{
	int nr = 0;
	char **any = event_glob_expand(sp->system, "*", &nr);
	bool part = nr && strcmp(sp->event, "*");

	event_string_list_free(any, nr);
	snprintf(buf, len, "%s%s%s", sp->system, part ? ":" : "", part ? sp->event : "");
	return buf;
}

bool event_name_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; p && (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* A preset's several patterns of one missing system name it once. */
static void note_missing(struct event_selection *sel, const struct event_spec *sp)
{
	char name[256];
	char *n;

	event_spec_missing_name(sp, name, sizeof(name));
	if (event_name_listed(sel->missing, name))
		return;
	if (asprintf(&n, "%s%s%s", sel->missing ? sel->missing : "", sel->missing ? ", " : "",
		     name) < 0)
		return;
	free(sel->missing);
	sel->missing = n;
}

/* The kernel explains a rejected filter in error_log; take its last reason. */
static void filter_reason(struct trace_session *s, char *buf, size_t len)
{
	char *log = session_read(s, "error_log");
	char *p, *last = NULL;

	snprintf(buf, len, "invalid filter");
	for (p = log ? strstr(log, "error: ") : NULL; p; p = strstr(p + 1, "error: "))
		last = p + 7;
	if (last)
		snprintf(buf, len, "%.*s", (int)strcspn(last, "\n"), last);
	free(log);
}

static int enable_one(struct event_selection *sel, struct trace_session *wide,
		      struct trace_session *scoped, const struct event_spec *sp,
		      const char *sysev, struct gt_error *err)
{
	const char *colon = strchr(sysev, ':');
	struct trace_session *s = wide;
	char file[512], sys[256];

	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - sysev), sysev);
	if (scoped && !is_system_wide_system(sys))
		s = scoped;
	if (sp->filter) {
		snprintf(file, sizeof(file), "events/%s/%s/filter", sys, colon + 1);
		if (session_write(s, file, sp->filter, err)) {
			char why[256];

			filter_reason(s, why, sizeof(why));
			return gt_error_set(err, EINVAL,
					    "filter '%s' rejected by the kernel for %s: %s; field names are in %s/events/%s/%s/format",
					    sp->filter, sysev, why, s->tracing_dir, sys,
					    colon + 1);
		}
	}
	snprintf(file, sizeof(file), "events/%s/%s/enable", sys, colon + 1);
	if (session_write(s, file, "1", err))
		return -1;
	sel->nr_enabled++;
	if (s == scoped)
		sel->nr_scoped++;
	if (note_system(sel, sys) ||
	    list_add_unique(s == scoped ? &sel->scoped_systems : &sel->wide_systems, sys))
		return gt_error_set(err, ENOMEM, "out of memory");
	return 0;
}

int event_selection_apply(struct event_selection *sel, struct trace_session *wide,
			  struct trace_session *scoped, bool ignore_missing,
			  struct gt_error *err)
{
	int i, j;

	for (i = 0; i < sel->nr_specs; i++) {
		const struct event_spec *sp = &sel->specs[i];
		int nr = 0, ret = 0;
		char **found = event_glob_expand(sp->system, sp->event, &nr);

		if (!nr) {
			if (!sp->from_preset && !ignore_missing)
				return gt_error_set(err, ENOENT,
						    "event %s:%s does not exist on this kernel; list them with: gpu-trace list -e (or add --ignore-missing)",
						    sp->system, sp->event);
			note_missing(sel, sp);
		}
		for (j = 0; j < nr && !ret; j++)
			ret = enable_one(sel, wide, scoped, sp, found[j], err);
		event_string_list_free(found, nr);
		if (ret)
			return -1;
	}
	return 0;
}

void event_selection_free(struct event_selection *sel)
{
	int i;

	for (i = 0; i < sel->nr_specs; i++) {
		free(sel->specs[i].system);
		free(sel->specs[i].event);
		free(sel->specs[i].filter);
	}
	free(sel->specs);
	event_string_list_free(sel->systems, sel->nr_systems);
	free(sel->missing);
	free(sel->wide_systems);
	free(sel->scoped_systems);
	memset(sel, 0, sizeof(*sel));
}
