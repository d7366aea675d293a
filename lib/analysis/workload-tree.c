// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/workload-tree-private.h"
#include "analysis/analysis.h"
#include "util/keymap.h"

#define MEMBER ((void *)1)

void workload_tree_init(struct workload_tree_state *w, struct tep_handle *tep)
{
	static const char *const fork_fields[] = { "parent_pid", "child_pid", NULL };
	static const char *const exit_fields[] = { "pid", NULL };
	static const char *const print_fields[] = { "buf", NULL };

	memset(w, 0, sizeof(*w));
	w->tep = tep;
	/* an event without every field it is read for is as good as absent */
	event_fields_find_all(&w->fork, tep, "sched", "sched_process_fork", fork_fields);
	event_fields_find_all(&w->exit, tep, "sched", "sched_process_exit", exit_fields);
	event_fields_find_all(&w->print, tep, "ftrace", "print", print_fields);
}

static void join(struct workload_tree *w, int pid)
{
	if (pid <= 0 || workload_tree_has(w, pid))
		return;
	if (!w->tasks)
		w->tasks = calloc(1, sizeof(*w->tasks));
	if (w->tasks && !keymap_put(w->tasks, (uint64_t)pid + 1, MEMBER))
		w->nr_tasks++;
}

bool workload_tree_add_marker(struct workload_tree *w, const char *text)
{
	const char *p, *comm;
	char *end;

	if (strncmp(text, WORKLOAD_MARKER, strlen(WORKLOAD_MARKER)))
		return false;
	w->known = true;
	for (p = text + strlen(WORKLOAD_MARKER);; p = end + 1) {
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		join(w, (int)pid);
		if (*end != ',')
			break;
	}
	comm = strstr(text, " comm=");
	if (comm)
		snprintf(w->comm, sizeof(w->comm), "%.*s", (int)strcspn(comm + 6, "\n"), comm + 6);
	return true;
}

void workload_tree_add(struct workload_tree_state *w, struct tep_record *rec, int id)
{
	struct workload_tree *m = &w->model;

	if (!w->tep)
		return;
	if (id == w->print.id) {
		char text[1024];
		const char *buf;
		int len;

		buf = event_field_tail(&w->print, 0, rec, &len);
		if (!buf)
			return;
		snprintf(text, sizeof(text), "%.*s", len, buf);
		workload_tree_add_marker(m, text);
	} else if (id == w->fork.id && m->known) {
		if (workload_tree_has(m, (int)event_field_u64(&w->fork, 0, rec)))
			join(m, (int)event_field_u64(&w->fork, 1, rec));
	} else if (id == w->exit.id && m->known && m->tasks) {
		keymap_del(m->tasks, event_field_u64(&w->exit, 0, rec) + 1);
	}
}

bool workload_tree_has(const struct workload_tree *w, int pid)
{
	return pid > 0 && w->tasks && keymap_get(w->tasks, (uint64_t)pid + 1) != NULL;
}

void workload_tree_free(struct workload_tree *w)
{
	if (w->tasks)
		keymap_free(w->tasks);
	free(w->tasks);
	memset(w, 0, sizeof(*w));
}

/* The join (analysis-joins.h): every record that is no GPU event */
const struct workload_tree *workload_tree_of(const struct analysis *a)
{
	const struct workload_tree_state *w = analysis_state(a, JOIN_WORKLOAD);

	return w ? &w->model : NULL;
}

static int join_init(void *state, struct analysis *a)
{
	workload_tree_init(state, analysis_tep(a));
	return 0;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	(void)a;
	workload_tree_add(state, r->rec, r->type);
}

static void join_free(void *state)
{
	struct workload_tree_state *w = state;

	workload_tree_free(&w->model);
}

static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)a;
	const struct workload_tree_state *w = state;

	return w->tep ? JOIN_KIND(GEV_NONE) : 0;
}

const struct analysis_join workload_tree_join = {
	.name = "workload pid tree",
	.state_size = sizeof(struct workload_tree_state),
	.init = join_init,
	.record = join_record,
	.free = join_free,
	.kinds = join_kinds,
};
