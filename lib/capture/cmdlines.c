// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/cmdlines.h"

/* the kernel's TASK_COMM_LEN less its NUL: no comm is longer */
#define COMM_MAX 15

int cmdlines_proc_comm(int pid, char *comm, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* the whole name: a comm may hold a newline of its own; the file adds one */
	n = read(fd, comm, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	if (comm[n - 1] == '\n')
		n--;
	comm[n] = '\0';
	return 0;
}

/* One line of the kernel's saved_cmdlines: "%d %s\n" of a pid and its comm. */
struct saved {
	int pid;
	char comm[64];
	const char *line;	/* the whole line, for the continuation test */
	size_t len;
	bool gone;		/* not an entry of its own */
};

static bool parse_line(const char *line, size_t n, struct saved *s)
{
	size_t i = 0;
	long pid = 0;

	memset(s, 0, sizeof(*s));
	s->line = line;
	s->len = n;
	while (i < n && isdigit((unsigned char)line[i]) && pid < 1 << 30)
		pid = pid * 10 + (line[i++] - '0');
	if (!i || i >= n || line[i] != ' ' || n - i - 1 > COMM_MAX || !pid)
		return false;
	s->pid = (int)pid;
	snprintf(s->comm, sizeof(s->comm), "%.*s", (int)(n - i - 1), line + i + 1);
	return true;
}

/*
 * The kernel prints a comm as it is, and a comm may hold a newline
 * (prctl(PR_SET_NAME, "x\n1 init")): the rest of it reads as a line of its
 * own that names another pid. A line short enough to be the end of the
 * comm before it is checked against /proc: the earlier pid's comm holding
 * it is a continuation; its own pid named so is a line; with neither to
 * tell, it is dropped (the name left unknown rather than taken from a
 * workload).
 */
enum follower { FOLLOWER_LINE, FOLLOWER_CONTINUES, FOLLOWER_UNSURE };

static enum follower continues(const struct saved *prev, const struct saved *next)
{
	char comm[64], joined[2 * 64 + 2];
	size_t at = strlen(prev->comm);

	if (at + 1 + next->len > COMM_MAX)
		return FOLLOWER_LINE;
	/* both fit COMM_MAX: parse_line() and the test above */
	memcpy(joined, prev->comm, at);
	joined[at] = '\n';
	memcpy(joined + at + 1, next->line, next->len);
	joined[at + 1 + next->len] = '\0';
	if (!cmdlines_proc_comm(prev->pid, comm, sizeof(comm)))
		return strncmp(comm, joined, strlen(joined)) ? FOLLOWER_LINE : FOLLOWER_CONTINUES;
	/* the earlier process is gone: believe the line only where /proc says the same */
	return cmdlines_proc_comm(next->pid, comm, sizeof(comm)) || strcmp(comm, next->comm) ?
	       FOLLOWER_UNSURE : FOLLOWER_LINE;
}

static const struct pid_comm *find_known(const struct pid_comm *known, int nr,
					 int pid)
{
	int k;

	for (k = 0; k < nr; k++)
		if (known[k].pid == pid)
			return &known[k];
	return NULL;
}

/* "pid comm\n", the comm's newlines and control bytes as '?': every line names one pid */
static size_t put_entry(char *out, size_t cap, int pid, const char *comm)
{
	size_t n = (size_t)snprintf(out, cap, "%d %.*s\n", pid, COMM_MAX, comm), i;

	for (i = 0; n < cap && i + 1 < n; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			out[i] = '?';
	return n < cap ? n : cap - 1;
}

static struct saved *parse_saved(const char *saved, int *nr)
{
	size_t cap = 0, i;
	const char *line;
	struct saved *s;
	int n = 0;

	for (line = saved; line && *line; line++)
		cap += *line == '\n';
	s = calloc(cap + 1, sizeof(*s));
	if (!s)
		return NULL;
	for (line = saved; line && *line && (size_t)n <= cap; ) {
		size_t len = strcspn(line, "\n");

		/* a line without its "pid ": the end of a comm before it, dropped */
		if (parse_line(line, len, &s[n]))
			n++;
		line += len + (line[len] == '\n');
	}
	for (i = 1; i < (size_t)n; i++) {
		size_t k = i - 1;

		while (k > 0 && s[k].gone)
			k--;
		if (s[k].gone)
			continue;
		switch (continues(&s[k], &s[i])) {
		case FOLLOWER_CONTINUES: {
			size_t at = strlen(s[k].comm);

			snprintf(s[k].comm + at, sizeof(s[k].comm) - at, "\n%.*s", (int)s[i].len,
				 s[i].line);
			s[i].gone = true;
			break;
		}
		case FOLLOWER_UNSURE:
			s[i].gone = true;
			break;
		case FOLLOWER_LINE:
			break;
		}
	}
	*nr = n;
	return s;
}

static bool saved_has(const struct saved *s, int nr, int pid)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!s[i].gone && s[i].pid == pid)
			return true;
	return false;
}

char *cmdlines_merge(const char *saved, const int *pids, int nr_pids,
		     const struct pid_comm *known, int nr_known)
{
	size_t cap = (saved ? strlen(saved) : 0) + 64 * (size_t)(nr_pids + nr_known + 1);
	char *out = malloc(cap);
	struct saved *s;
	size_t off = 0;
	int i, nr = 0;

	s = parse_saved(saved, &nr);
	if (!out || !s) {
		free(out);
		free(s);
		return NULL;
	}
	out[0] = '\0';
	/* the cache may name a pid as it was before exec: what we know wins */
	for (i = 0; i < nr; i++)
		if (!s[i].gone && !find_known(known, nr_known, s[i].pid))
			off += put_entry(out + off, cap - off, s[i].pid, s[i].comm);
	for (i = 0; i < nr_known; i++)
		if (known[i].pid > 0)
			off += put_entry(out + off, cap - off, known[i].pid, known[i].comm);
	for (i = 0; i < nr_pids; i++) {
		char comm[64];

		if (pids[i] <= 0 || saved_has(s, nr, pids[i]) ||
		    find_known(known, nr_known, pids[i]) ||
		    cmdlines_proc_comm(pids[i], comm, sizeof(comm)))
			continue;
		off += put_entry(out + off, cap - off, pids[i], comm);
	}
	free(s);
	return out;
}
