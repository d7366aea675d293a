// SPDX-License-Identifier: GPL-2.0
/*
 * report and compare open each file once, in a child this process watches
 * (lib/analysis/open-guard.h): here the watcher ends as the child did, or
 * with the one line for a file libtracecmd crashed or hung on.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/open-guard.h"
#include "cmd.h"
#include "util/sanitizer.h"

void cmd_open_guard(const char *cmd)
{
	struct gt_error err = { 0 };
	struct open_guard g;

#ifdef GT_ASAN
	/*
	 * A sanitizer would take libtracecmd's own memory errors on a damaged
	 * file (FUZZING.md: a strdup past a buffer) for ours: there each open
	 * is tried in the probe child first, its reports unheard, as before.
	 * (Under libFuzzer the child would also go on fuzzing while the watcher
	 * waited for it: fuzz-output timed out on its first report.)
	 */
	return;
#endif
	/* what is buffered now would be written by both */
	fflush(stdout);
	fflush(stderr);
	if (open_guard_start(&g) <= 0)
		return;		/* the child goes on; so does this process without one */
	switch (g.end) {
	case GUARD_EXITED:
		_exit(g.status);
	case GUARD_SIGNALLED:
		/* the same end for whoever waits on us: the shell's message, the status */
		signal(g.status, SIG_DFL);
		raise(g.status);
		_exit(128 + g.status);
	case GUARD_CRASHED_OPENING:
	case GUARD_HUNG_OPENING:
		analysis_open_failed(&err, g.file,
				     g.end == GUARD_HUNG_OPENING ? OPEN_FAULT_HUNG : OPEN_FAULT_CRASHED);
		_exit(cmd_fail(cmd, &err));
	}
	_exit(GT_EXIT_FAILURE);
}
