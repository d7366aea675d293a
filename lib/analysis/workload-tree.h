/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_WORKLOAD_TREE_H
#define GT_WORKLOAD_TREE_H

#include <event-parse.h>
#include <stdbool.h>
#include <stdint.h>

#include "decode/event-fields.h"
#include "util/keymap.h"

/*
 * Which tasks were the recorded workload, as the file tells it: the pids
 * `gpu-trace record` named in its "gpu-trace workload: pids=..." marker,
 * then every task they forked (sched_process_fork), each until it exits
 * (sched_process_exit). Records must come in time order, so membership is
 * right at every moment, even when a pid is reused later.
 */
#define WORKLOAD_MARKER	"gpu-trace workload: pids="

struct workload_tree {
	struct keymap tasks;		/* pid + 1 -> non-NULL while a member */
	bool known;			/* the file names a workload */
	uint64_t nr_tasks;		/* members ever */
	char comm[16];			/* the command's, from the marker */
	struct tep_handle *tep;
	/* sched_process_fork (parent_pid, child_pid), _exit (pid), ftrace:print (buf) */
	struct event_fields fork, exit, print;
};

/** workload_tree_init - an empty pid tree; finds the fork, exec and exit formats in @tep */
void workload_tree_init(struct workload_tree *w, struct tep_handle *tep);
/** workload_tree_add - takes markers, forks and exits (@id: the record's event id); other records are ignored. */
void workload_tree_add(struct workload_tree *w, struct tep_record *rec, int id);
/**
 * workload_tree_add_marker - adds the pids of one marker text ("gpu-trace workload: pids=1,2
 * comm=x").
 */
bool workload_tree_add_marker(struct workload_tree *w, const char *text);
/** workload_tree_has - whether @pid belonged to the workload at any time */
bool workload_tree_has(const struct workload_tree *w, int pid);
/** workload_tree_free - everything the pid tree holds */
void workload_tree_free(struct workload_tree *w);

struct analysis;
/**
 * workload_tree_of - the workload pid tree join's state in @a (analysis-joins.h): what it
 * found, for the outputs and the joins after it; NULL before analysis_init()
 */
struct workload_tree *workload_tree_of(const struct analysis *a);

#endif
