/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RUN_LOCK_H
#define GT_RUN_LOCK_H

#include <stdbool.h>

#include "util/gt-error.h"

/**
 * run_lock_live - whether a gpu-trace run is alive, by a lock it holds, not by what
 * /proc/PID/comm says (any process can call itself gpu-trace and block
 * cleanup; a run in another pid namespace has no such pid here). Every run
 * that puts anything in tracefs (an instance, a probe group, a journal)
 * first holds an exclusive flock on <run dir>/live-<pid>.lock, <pid> as in
 * the names of what it creates, until it exits: the kernel drops a dead
 * process's locks, so a free lock is a gone run.
 *
 * Takes ours; a second call does nothing more.
 */
int run_lock_live(struct gt_error *err);
/** run_lock_alive - another run's lock is held; false when it is free or there is none. */
bool run_lock_alive(int pid);
/** run_lock_forget - a gone run's lock file (its lock free), removed by the cleanup. */
void run_lock_forget(int pid);

/**
 * run_lock_take - what one run at a time may change: "top-level" (the top buffer's files),
 * "dyndbg" (dynamic debug). The fd holds it until closed; -1 with err when another run holds
 * it (*holder: its pid) or the lock cannot be made.
 */
int run_lock_take(const char *what, int *holder, struct gt_error *err);

#endif
