// SPDX-License-Identifier: GPL-2.0
/*
 * Long listings on a terminal go through a pager, as perf report and git do:
 * standard output becomes a pipe into it until the listing ends. The pager
 * is $GPU_TRACE_PAGER or $PAGER run by /bin/sh (none when empty or "cat"),
 * else less; with LESS unset, less gets FRSX (quit when it fits one screen,
 * colours through, no wrapping, no screen clearing). Run as root, no
 * variable names the pager (sudo -E carries the user's over): only
 * /usr/bin/less, in its secure mode, or --no-pager; and it gets an
 * environment of its own, not the caller's: LESSSECURE_ALLOW (less 643 and
 * later re-enables shell escapes with it), LESSKEY*, LESSEDIT, VISUAL,
 * EDITOR, LESSOPEN and the rest would each hand a root pager to whoever set
 * them.
 */
#include <ctype.h>
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "util/root-path.h"

static pid_t pager_pid = -1;

/* a terminal's name or a locale: short and of the characters they are made of */
static bool plain_value(const char *v)
{
	size_t i;

	if (!v || strlen(v) > 64)
		return false;
	for (i = 0; v[i]; i++)
		if (!isalnum((unsigned char)v[i]) && !strchr("._-+@=:", v[i]))
			return false;
	return true;
}

/*
 * Root's pager: what it is told comes from an allow-list, the terminal's
 * size and type and the locale, and the rest is set here.
 */
static void root_pager_env(void)
{
	static const char *const keep[] = { "TERM", "COLUMNS", "LINES", "LANG", "LANGUAGE",
					    "LC_ALL", "LC_CTYPE", "LC_MESSAGES" };
	char *vals[sizeof(keep) / sizeof(keep[0])];
	const struct passwd *pw = getpwuid(0);
	size_t i;

	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		vals[i] = plain_value(getenv(keep[i])) ? strdup(getenv(keep[i])) : NULL;
	clearenv();
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (vals[i])
			setenv(keep[i], vals[i], 1);
	setenv("PATH", ROOT_PATH, 1);
	setenv("HOME", pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : "/", 1);
	/* no input preprocessor, no shell escapes, no editor, no history written */
	setenv("LESS", "FRSX", 1);
	setenv("LESSSECURE", "1", 1);
	setenv("LESSHISTFILE", "-", 1);
}

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
		if (geteuid() == 0)
			root_pager_env();
		else
			setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRSX", 1);
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
