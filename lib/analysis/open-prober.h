/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_OPEN_PROBER_H
#define GT_OPEN_PROBER_H

#include <sys/types.h>

/*
 * libtracecmd's open of a damaged file can crash or hang, so each open is
 * tried in a child first (analysis.c). A process that runs passes on several
 * threads must not fork for it: the child of a threaded process may wait
 * forever on a lock another thread held (the sanitizers' allocator does).
 * A prober is a process started while this one has a single thread; it
 * forks a child per file asked of it and answers how its open went. Start
 * one per thread before starting the threads, then give each thread its own
 * (analysis_set_prober).
 */
struct open_prober {
	pid_t pid;
	int fd;			/* the socket to ask on; -1 none */
};

/**
 * open_probers_start - up to @n prober processes, each holding only its own socket (so that
 * each ends when its socket closes); the number started (the rest: pid and fd -1)
 */
int open_probers_start(struct open_prober *p, int n);
/** open_probers_stop - the @n probers told to end and waited for */
void open_probers_stop(struct open_prober *p, int n);

#endif
