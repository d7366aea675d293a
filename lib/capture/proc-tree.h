/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PROC_TREE_H
#define GT_PROC_TREE_H

#include <stdbool.h>

/*
 * A workload's process tree as /proc shows it now: its roots, then, breadth
 * first, the children of each of their threads (/proc/PID/task/TID/children,
 * which lists a thread's children while they live), read through a /proc
 * dirfd and never followed. A workload may fork thousands and run thousands
 * of threads: both are bounded.
 */

/** proc_tree_listed - whether @pid is among the first @nr of @pids */
bool proc_tree_listed(const int *pids, int nr, int pid);

/**
 * proc_tree_walk - @roots and what they forked into @tree (each once, at most @max), reading
 * the children of at most @max_threads threads. @proc: an open /proc. How many are in @tree.
 */
int proc_tree_walk(int proc, const int *roots, int nr_roots, int *tree, int max, int max_threads);

#endif
