// SPDX-License-Identifier: GPL-2.0
/* A process that tries libtracecmd's opens for a threaded one (open-prober.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/open-prober.h"

/* one path a message, its answer one int, until the other end closes */
static void serve(int fd)
{
	char path[PATH_MAX + 1];

	for (;;) {
		ssize_t n = recv(fd, path, sizeof(path) - 1, 0);
		int answer;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		path[n] = '\0';
		answer = analysis_probe_open_here(path);
		if (send(fd, &answer, sizeof(answer), MSG_NOSIGNAL) < 0)
			break;
	}
}

static int start_one(struct open_prober *all, int k)
{
	struct open_prober *p = &all[k];
	int sv[2], j;

	p->pid = -1;
	p->fd = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	p->pid = fork();
	if (p->pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (!p->pid) {
		/* Ctrl-C is the command's to answer: the prober ends when its socket closes */
		signal(SIGINT, SIG_IGN);
		close(sv[0]);
		/* the probers before it must see their socket close when the command closes it */
		for (j = 0; j < k; j++)
			close(all[j].fd);
		serve(sv[1]);
		_exit(0);
	}
	close(sv[1]);
	p->fd = sv[0];
	return 0;
}

int open_probers_start(struct open_prober *p, int n)
{
	int k;

	for (k = 0; k < n; k++)
		p[k].pid = p[k].fd = -1;
	for (k = 0; k < n && !start_one(p, k); k++)
		;
	return k;
}

void open_probers_stop(struct open_prober *p, int n)
{
	int k;

	for (k = 0; k < n; k++)
		if (p[k].fd >= 0)
			close(p[k].fd);
	for (k = 0; k < n; k++) {
		while (p[k].pid > 0 && waitpid(p[k].pid, NULL, 0) < 0 && errno == EINTR)
			;
		p[k].fd = p[k].pid = -1;
	}
}
