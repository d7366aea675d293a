/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_OPEN_GUARD_H
#define GT_OPEN_GUARD_H

#include <limits.h>

/*
 * libtracecmd can crash, hang or allocate without bound opening a damaged
 * file (FUZZING.md), so each open used to be tried in a child first and then
 * done again for real: its kallsyms parsed twice, 50-75 ms each on a real
 * recording. Under the guard the command runs on in a child that opens each
 * file once, saying which one it is opening, and this process watches: a
 * crash or a hang during an open is that file's one line, any other end the
 * command's own.
 */
enum open_guard_end {
	GUARD_EXITED,		/* status: its exit code */
	GUARD_SIGNALLED,	/* status: the signal that ended it */
	GUARD_CRASHED_OPENING,	/* a signal while libtracecmd opened file */
	GUARD_HUNG_OPENING,	/* the open did not return in analysis_open_timeout() */
};

struct open_guard {
	enum open_guard_end end;
	int status;
	char file[PATH_MAX];
};

/**
 * open_guard_start - the rest of the command in a child whose opens this process watches.
 * Returns 0 in the child (go on), 1 here once it ended (how in @g: exit the same way), -1
 * when no child could be started (go on here: each open is then tried in a child first).
 * Signals that would end this process while it watches (SIGINT, SIGTERM, SIGHUP, SIGQUIT)
 * are passed on to the child; the child dies with this process. Flush stdio first: both
 * would write what is buffered.
 */
int open_guard_start(struct open_guard *g);

#endif
