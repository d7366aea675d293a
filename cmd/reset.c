// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "capture/stale.h"
#include "tracefs/session.h"
#include "cmd.h"

/* Says what was found; shared by reset and record's start-up clean-up. */
void cmd_stale_note(const char *name, int pid, enum stale_action what, int err, void *ctx)
{
	int *done = ctx;

	switch (what) {
	case STALE_REMOVED:
		if (name[0] == '/')
			cmd_say("removed %s, the unfinished output of gpu-trace %d (it was killed)",
				name, pid);
		else
			cmd_say("removed stale %s %s (gpu-trace %d is gone)",
				strncmp(name, "gpu_trace_", 10) ? "instance" : "kprobe group", name, pid);
		(*done)++;
		break;
	case STALE_RESTORED:
		if (strstr(name, ".dyndbg")) {
			cmd_say("put back dynamic debug of kfd_ioctl_create_queue switched on by gpu-trace %d",
				pid);
			(*done)++;
			break;
		}
		cmd_say("restored %d top-level tracefs file%s changed by gpu-trace %d",
			err, err == 1 ? "" : "s", pid);
		(*done)++;
		break;
	case STALE_IN_USE:
		cmd_say("%s belongs to running gpu-trace %d; left alone", name, pid);
		break;
	case STALE_OTHER_NS:
		cmd_say("%s is another PID namespace's gpu-trace %d (a container's, or the host's): whether it runs cannot be told from here; left alone (reset in that namespace removes it)",
			name, pid);
		break;
	case STALE_FAILED:
		cmd_failf("reset", "cannot clean %s left by gpu-trace %d: %s; is a reader still open on it?",
			  name, pid, strerror(err));
		break;
	}
}

int cmd_reset(int argc, char **argv)
{
	struct gt_error err = { 0 };
	const char *dir;
	int done = 0, failed;

	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			fputs(cmd_usage("reset"), stdout);
			return 0;
		}
		return cmd_failf("reset", "unexpected argument '%s'; see gpu-trace help reset", argv[1]);
	}
	if (session_find_tracing_dir(&dir, NULL, &err))
		return cmd_fail("reset", &err);
	failed = stale_clean(dir, cmd_stale_note, &done);
	if (!done && !failed)
		cmd_say("reset: nothing to do (no stale gpu-trace instances, probes or journals)");
	return failed ? GT_EXIT_FAILURE : 0;
}
