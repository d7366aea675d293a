/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_WORKLOAD_TREE_PRIVATE_H
#define GT_WORKLOAD_TREE_PRIVATE_H

/*
 * The workload pid tree join's state: the tree (workload-tree.h, what the outputs read)
 * and the formats it reads. Included by workload-tree.c and by tests/ alone
 * (tests/check-layers.sh): the unit tests and the formats fuzzer build trees without a
 * whole analysis.
 */

#include <stdbool.h>
#include <stdint.h>
#include <event-parse.h>

#include "analysis/workload-tree.h"
#include "decode/event-fields.h"

struct workload_tree_state {
	struct workload_tree model;
	struct tep_handle *tep;		/* NULL: no formats, nothing to read */
	/* sched_process_fork (parent_pid, child_pid), _exit (pid), ftrace:print (buf) */
	struct event_fields fork, exit, print;
};

/**
 * workload_tree_init - an empty pid tree; finds the fork, exit and print formats
 * @w:   the state
 * @tep: the file's formats
 */
void workload_tree_init(struct workload_tree_state *w, struct tep_handle *tep);
/**
 * workload_tree_add - one record: a marker, a fork or an exit; other records are ignored
 * @w:   the state
 * @rec: the record, in time order
 * @id:  its event id
 */
void workload_tree_add(struct workload_tree_state *w, struct tep_record *rec, int id);
/**
 * workload_tree_add_marker - the pids of one marker text into the tree
 * @w:    the tree; all zero when empty
 * @text: e.g. "gpu-trace workload: pids=1,2 comm=x"
 *
 * Return: true when @text was a workload marker
 */
bool workload_tree_add_marker(struct workload_tree *w, const char *text);
/**
 * workload_tree_free - everything the tree holds; @w is all zero after
 * @w: the tree
 */
void workload_tree_free(struct workload_tree *w);

#endif
