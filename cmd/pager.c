// SPDX-License-Identifier: GPL-2.0
/*
 * Long listings on a terminal go through a pager, as perf report and git do:
 * standard output becomes a pipe into it until the listing ends. The pager
 * is $GPU_TRACE_PAGER or $PAGER run by /bin/sh (none when empty or "cat"),
 * else less; with LESS unset, less gets FRSX (quit when it fits one screen,
 * colours through, no wrapping, no screen clearing). Run as root, no
 * variable names the pager (sudo -E carries the user's over): only
 * /usr/bin/less, in its secure mode, or --no-pager.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"

static pid_t pager_pid = -1;

static const char *pager_command(void)
{
	const char *p;

	/* root runs no program named by the environment (sudo -E passes the user's on) */
	if (geteuid() == 0)
		return access("/usr/bin/less", X_OK) ? NULL : "/usr/bin/less";
	p = getenv("GPU_TRACE_PAGER");
	if (!p)
		p = getenv("PAGER");
	if (!p)
		p = "less";
	return *p && strcmp(p, "cat") ? p : NULL;
}

int cmd_terminal_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	if (env && atoi(env) > 0)
		return atoi(env);
	return 80;
}

bool cmd_pager_start(void)
{
	const char *cmd = pager_command();
	int fds[2];
	pid_t pid;

	if (!cmd || !isatty(STDOUT_FILENO) || pipe(fds))
		return false;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (!pid) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRSX", 1);
		if (geteuid() == 0) {
			/* no input preprocessor, no shell escapes from a root pager */
			unsetenv("LESSOPEN");
			unsetenv("LESSCLOSE");
			setenv("LESSSECURE", "1", 1);
		}
		if (cmd[0] == '/')
			execl(cmd, cmd, (char *)NULL);
		else
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		/* no pager after all: the listing goes to the terminal as it is */
		execl("/bin/cat", "cat", (char *)NULL);
		_exit(127);
	}
	dup2(fds[1], STDOUT_FILENO);
	close(fds[0]);
	close(fds[1]);
	pager_pid = pid;
	/* q in the pager ends the listing with EPIPE, not a signal; Ctrl-C is the pager's */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	return true;
}

bool cmd_pager_active(void)
{
	return pager_pid > 0;
}

void cmd_pager_finish(void)
{
	if (pager_pid <= 0)
		return;
	fflush(stdout);
	close(STDOUT_FILENO);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}
