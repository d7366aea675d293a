/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_EVENT_SELECT_H
#define GT_EVENT_SELECT_H

#include <stdbool.h>

#include "util/gt-error.h"
#include "tracefs/session.h"

struct event_spec {
	char *system;		/* glob */
	char *event;		/* glob, "*" for the whole system */
	char *filter;		/* -f that followed this -e, or NULL */
	bool from_preset;	/* absent on this kernel is a note, not an error */
};

struct event_selection {
	struct event_spec *specs;
	int nr_specs;
	char **systems;		/* systems with at least one enabled event */
	int nr_systems;
	int nr_enabled;		/* events enabled */
	char *missing;		/* "kfd, amdgpu, ..." or NULL */
	/* with a workload: which systems went where (for the scope line) */
	int nr_scoped;		/* events enabled in the workload's scope */
	char *wide_systems;	/* "gpu_scheduler, dma_fence" */
	char *scoped_systems;	/* "sched, syscalls" */
};

/** event_spec_parse - "sys", "sys:event", "sys/event"; globs allowed in both parts. */
int event_spec_parse(const char *arg, bool from_preset, struct event_spec *out,
		     struct gt_error *err);
/**
 * event_spec_missing_name - how a spec the kernel lacks is named to the user
 * @sp:  the spec
 * @buf: where the name goes
 * @len: @buf's size
 *
 * A system the kernel lacks is named alone ("amdgpu", not a preset's
 * "amdgpu:amdgpu_[!d]*"); the event pattern only where the system is there.
 *
 * Return: @buf.
 */
const char *event_spec_missing_name(const struct event_spec *sp, char *buf, size_t len);
/** event_name_listed - whether @list ("a, b, c"; NULL: empty) holds @name */
bool event_name_listed(const char *list, const char *name);
/** event_selection_add - one -e (or a preset's) event spec added to the selection */
int event_selection_add(struct event_selection *sel, const char *arg,
			bool from_preset, struct gt_error *err);
/** event_selection_set_filter - -f applies to the -e just before it. */
int event_selection_set_filter(struct event_selection *sel, const char *filter,
			       struct gt_error *err);

/**
 * event_selection_apply - enable every selected event that exists. Missing preset events are
 * listed in sel->missing; a missing explicit -e is an error unless ignore_missing. GPU event
 * systems (is_gpu_event_system) go to `wide`; the rest go to `scoped` (the workload's
 * pid-filtered buffer) unless it is NULL.
 */
int event_selection_apply(struct event_selection *sel, struct trace_session *wide,
			  struct trace_session *scoped, bool ignore_missing,
			  struct gt_error *err);
/** event_selection_free - everything the selection holds */
void event_selection_free(struct event_selection *sel);

/** event_glob_expand - events of system_glob:event_glob that exist, as "sys:event" strings. */
char **event_glob_expand(const char *system_glob, const char *event_glob,
			 int *count);
/** event_string_list_free - @count strings and the list */
void event_string_list_free(char **list, int count);

#endif
