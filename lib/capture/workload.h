/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_WORKLOAD_H
#define GT_WORKLOAD_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/gt-error.h"

/* Who the workload runs as: under sudo, the user who ran sudo. */
struct workload_creds {
	bool drop;		/* false: keep our own (root) credentials */
	uid_t uid;
	gid_t gid;
	char user[64];
	char home[512];
	char shell[256];
};

struct workload {
	pid_t pid;
	int go_fd;		/* we write one byte: tracing is armed, exec now */
	int status_fd;		/* child writes errno if exec fails; EOF = exec'd */
	/*
	 * what the kernel calls it: its argv[0]'s name after exec, then, once it
	 * exited (workload_reap), the name it ended with (a wrapper such as
	 * taskset, numactl or env execs the program that gives it)
	 */
	char comm[16];
	char cmd[256];		/* argv[0] as given, for messages */
};

/**
 * workload_creds_from_env - SUDO_UID/SUDO_GID name the invoking user when root came from sudo;
 * then the workload drops to them unless as_root.
 */
int workload_creds_from_env(struct workload_creds *c, bool as_root,
			    struct gt_error *err);

/**
 * workload_check_command - what execvp() would run for cmd (a path, or a name looked up in
 * PATH), checked before any set-up: 0, or 127 (not found) / 126 (not a runnable file) as a
 * shell exits, with err naming cmd whole. The exec itself still decides.
 *
 * Under sudo the check is made with the rights of the user the workload will run as
 * (workload_creds_from_env() with @as_root): root's answer would tell them about paths
 * they cannot see, and differ from what their exec will meet.
 */
int workload_check_command(const char *cmd, bool as_root, struct gt_error *err);

/**
 * workload_spawn - fork; the child waits for workload_release() before it execs argv, and is
 * killed should the caller die without ending it (PR_SET_PDEATHSIG).
 */
int workload_spawn(struct workload *w, char *const argv[],
		   const struct workload_creds *c, struct gt_error *err);
/** workload_release - let the child exec; fails if exec failed (e.g. command not found). */
int workload_release(struct workload *w, struct gt_error *err);
/** workload_abort - kill a child never released (setup failed). */
void workload_abort(struct workload *w);
/**
 * workload_stop - ends a released child: sig (the one that ended our run, or SIGTERM), then up
 * to two seconds for it to go; gpu-trace does not outlive it for ever. 1 when it exited (its
 * status in *status), 0 when it still runs.
 */
int workload_stop(struct workload *w, int sig, int *status);

/**
 * workload_list_tasks - appends the thread ids of process `pid` (/proc/PID/task) to *tids: GPU
 * submissions carry the submitting thread's id. 0, or -1 with errno. *tids grows by doubling:
 * it must hold the power of two at or above *nr elements (NULL and 0, or one element, to
 * start; then only grown here).
 */
int workload_list_tasks(pid_t pid, pid_t **tids, int *nr);

/**
 * workload_reap - whether the released child exited, without waiting: its last name read
 * (as a zombie it still has it) into w->comm, then it is reaped and its status put in *status.
 * Return: 1 exited, 0 still running.
 */
int workload_reap(struct workload *w, int *status);

/** workload_exit_code - shell-style exit status: code, or 128 + signal. */
int workload_exit_code(int wait_status);

#endif
