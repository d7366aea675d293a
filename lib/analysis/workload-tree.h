/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_WORKLOAD_TREE_H
#define GT_WORKLOAD_TREE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Which tasks were the recorded workload, as the file tells it: the pids
 * `gpu-trace record` named in its "gpu-trace workload: pids=..." marker,
 * then every task they forked (sched_process_fork), each until it exits
 * (sched_process_exit). Records must come in time order, so membership is
 * right at every moment, even when a pid is reused later.
 */
#define WORKLOAD_MARKER	"gpu-trace workload: pids="

struct keymap;

/*
 * What the join found, for the outputs and the job join: ask workload_tree_has() who
 * belongs. The members' index (@tasks) is workload-tree.c's, a pointer to what the
 * outputs cannot see; the formats it reads are workload-tree-private.h's.
 */
struct workload_tree {
	struct keymap *tasks;		/* pid + 1 -> non-NULL while a member; NULL: none yet */
	bool known;			/* the file names a workload */
	uint64_t nr_tasks;		/* members ever */
	char comm[16];			/* the command's, from the marker */
};

/**
 * workload_tree_has - whether a task is the workload's
 * @w:   workload_tree_of()'s
 * @pid: the task
 *
 * Return: true when @pid belongs to the workload at this point of the pass (forked from
 * it and not exited); at the end, the tasks still members
 */
bool workload_tree_has(const struct workload_tree *w, int pid);

struct analysis;
/**
 * workload_tree_of - what the workload pid tree join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: the workload's tasks and name, owned by @a (valid until analysis_close()), to
 * read only; NULL before analysis_init()
 */
const struct workload_tree *workload_tree_of(const struct analysis *a);

#endif
