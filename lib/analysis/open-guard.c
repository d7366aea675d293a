// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/open-guard.h"

static const int passed_on[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static volatile pid_t watched;

static bool passed_on_signal(int sig)
{
	size_t i;

	for (i = 0; i < sizeof(passed_on) / sizeof(passed_on[0]); i++)
		if (passed_on[i] == sig)
			return true;
	return false;
}

static void pass_on(int sig)
{
	int saved = errno;

	if (watched > 0)
		kill(watched, sig);
	errno = saved;
}

/* What the child said so far: the file it is opening, if any. */
struct guard_state {
	char buf[PATH_MAX + 2];
	size_t len;
	bool opening;
	char file[PATH_MAX];
	struct timespec since;
};

/* Messages are a letter and a NUL-ended name ('O' name, 'D' ""): take the whole ones. */
static void take_messages(struct guard_state *st)
{
	char *nul;

	while (st->len && (nul = memchr(st->buf, '\0', st->len))) {
		size_t used = (size_t)(nul - st->buf) + 1;

		if (st->buf[0] == 'O') {
			snprintf(st->file, sizeof(st->file), "%s", st->buf + 1);
			st->opening = true;
			clock_gettime(CLOCK_MONOTONIC, &st->since);
		} else {
			st->opening = false;
		}
		memmove(st->buf, st->buf + used, st->len - used);
		st->len -= used;
	}
	/* a name longer than any path: not ours to keep */
	if (st->len == sizeof(st->buf))
		st->len = 0;
}

/* Milliseconds left of the open's time, -1 while nothing is being opened. */
static int time_left(const struct guard_state *st)
{
	struct timespec now;
	long long ms;

	if (!st->opening)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)analysis_open_timeout() * 1000 -
	     ((long long)(now.tv_sec - st->since.tv_sec) * 1000 +
	      (now.tv_nsec - st->since.tv_nsec) / 1000000);
	return ms > 0 ? (int)ms : 0;
}

static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) != pid)
		if (errno != EINTR)
			return 0;
	return status;
}

static void watch(struct open_guard *g, pid_t pid, int fd)
{
	struct guard_state st = { .len = 0 };
	int status;

	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		int left = time_left(&st), r;
		ssize_t n;

		r = poll(&p, 1, left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 && st.opening) {
			kill(pid, SIGKILL);
			reap(pid);
			g->end = GUARD_HUNG_OPENING;
			snprintf(g->file, sizeof(g->file), "%s", st.file);
			return;
		}
		n = read(fd, st.buf + st.len, sizeof(st.buf) - st.len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;		/* the child is gone (or closed it: it ends soon) */
		st.len += (size_t)n;
		take_messages(&st);
	}
	status = reap(pid);
	/* a signal passed on (the user's ^C during an open) ends it as it would have ended us */
	if (WIFSIGNALED(status) && st.opening && !passed_on_signal(WTERMSIG(status))) {
		g->end = GUARD_CRASHED_OPENING;
		snprintf(g->file, sizeof(g->file), "%s", st.file);
	} else if (WIFSIGNALED(status)) {
		g->end = GUARD_SIGNALLED;
		g->status = WTERMSIG(status);
	} else {
		g->end = GUARD_EXITED;
		g->status = WEXITSTATUS(status);
	}
}

int open_guard_start(struct open_guard *g)
{
	struct sigaction sa = { .sa_handler = pass_on }, old[4];
	pid_t parent = getpid(), pid;
	sigset_t passed, mask;
	int sv[2];
	size_t i;

	memset(g, 0, sizeof(*g));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	/* held from before the fork until the handler that passes them on is in place */
	sigemptyset(&passed);
	for (i = 0; i < sizeof(passed_on) / sizeof(passed_on[0]); i++)
		sigaddset(&passed, passed_on[i]);
	sigprocmask(SIG_BLOCK, &passed, &mask);
	pid = fork();
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &mask, NULL);
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (!pid) {
		sigprocmask(SIG_SETMASK, &mask, NULL);
		close(sv[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			raise(SIGKILL);	/* the watcher died before the line above */
		analysis_set_open_guard(sv[1]);
		return 0;
	}
	close(sv[1]);
	watched = pid;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(passed_on) / sizeof(passed_on[0]); i++)
		sigaction(passed_on[i], &sa, &old[i]);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	watch(g, pid, sv[0]);
	for (i = 0; i < sizeof(passed_on) / sizeof(passed_on[0]); i++)
		sigaction(passed_on[i], &old[i], NULL);
	watched = 0;
	close(sv[0]);
	return 1;
}
