// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/record-field.h"
#include "analysis/workload-tree.h"

#define MEMBER ((void *)1)

static int event_id(struct tep_handle *tep, const char *sys, const char *name,
		    struct tep_format_field **f1, const char *n1,
		    struct tep_format_field **f2, const char *n2)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);

	if (!ev)
		return -1;
	*f1 = tep_find_field(ev, n1);
	if (f2)
		*f2 = tep_find_field(ev, n2);
	return *f1 && (!f2 || *f2) ? ev->id : -1;
}

void workload_tree_init(struct workload_tree *w, struct tep_handle *tep)
{
	memset(w, 0, sizeof(*w));
	w->tep = tep;
	w->fork_id = event_id(tep, "sched", "sched_process_fork", &w->parent_pid, "parent_pid",
			      &w->child_pid, "child_pid");
	w->exit_id = event_id(tep, "sched", "sched_process_exit", &w->exit_pid, "pid", NULL, NULL);
	w->print_id = event_id(tep, "ftrace", "print", &w->buf, "buf", NULL, NULL);
}

static void join(struct workload_tree *w, int pid)
{
	if (pid <= 0 || keymap_get(&w->tasks, (uint64_t)pid + 1))
		return;
	if (!keymap_put(&w->tasks, (uint64_t)pid + 1, MEMBER))
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

static unsigned long long field(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v;

	record_field_num(f, rec, &v);
	return v;
}

void workload_tree_add(struct workload_tree *w, struct tep_record *rec, int id)
{
	if (!w->tep)
		return;
	if (id == w->print_id) {
		char text[1024];
		const char *buf;
		int len;

		buf = record_field_tail(w->buf, rec, &len);
		if (!buf)
			return;
		snprintf(text, sizeof(text), "%.*s", len, buf);
		workload_tree_add_marker(w, text);
	} else if (id == w->fork_id && w->known) {
		if (workload_tree_has(w, (int)field(w->parent_pid, rec)))
			join(w, (int)field(w->child_pid, rec));
	} else if (id == w->exit_id && w->known) {
		keymap_del(&w->tasks, field(w->exit_pid, rec) + 1);
	}
}

bool workload_tree_has(const struct workload_tree *w, int pid)
{
	return pid > 0 && keymap_get(&w->tasks, (uint64_t)pid + 1) != NULL;
}

void workload_tree_free(struct workload_tree *w)
{
	keymap_free(&w->tasks);
	memset(w, 0, sizeof(*w));
}
