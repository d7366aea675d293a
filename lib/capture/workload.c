// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture/cmdlines.h"
#include "capture/workload.h"
#include "util/user-rights.h"

int workload_creds_from_env(struct workload_creds *c, bool as_root,
			    struct gt_error *err)
{
	const char *uid_s = getenv("SUDO_UID"), *gid_s = getenv("SUDO_GID");
	struct passwd *pw;
	char *end;
	long uid, gid;

	memset(c, 0, sizeof(*c));
	if (as_root || geteuid() != 0 || !uid_s || !*uid_s)
		return 0;
	uid = strtol(uid_s, &end, 10);
	if (*end || uid < 0)
		return gt_error_set(err, EINVAL,
				    "SUDO_UID='%s' is not a user id; unset it, or pass --as-root to run the workload as root",
				    uid_s);
	if (uid == 0)
		return 0;
	pw = getpwuid((uid_t)uid);
	gid = gid_s ? strtol(gid_s, &end, 10) : (pw ? (long)pw->pw_gid : -1);
	if (gid < 0 || (gid_s && *end))
		return gt_error_set(err, EINVAL,
				    "SUDO_GID='%s' is not a group id; unset it, or pass --as-root",
				    gid_s ? gid_s : "");
	c->drop = true;
	c->uid = (uid_t)uid;
	c->gid = (gid_t)gid;
	if (pw) {
		snprintf(c->user, sizeof(c->user), "%s", pw->pw_name);
		snprintf(c->home, sizeof(c->home), "%s", pw->pw_dir);
		snprintf(c->shell, sizeof(c->shell), "%s", pw->pw_shell);
	}
	return 0;
}

static int drop_privileges(const struct workload_creds *c)
{
	if (c->user[0] ? initgroups(c->user, c->gid) : setgroups(0, NULL))
		return -1;
	if (setresgid(c->gid, c->gid, c->gid) || setresuid(c->uid, c->uid, c->uid))
		return -1;
	/* a process that can regain root has not dropped it */
	if (setuid(0) == 0)
		return errno = EPERM, -1;
	if (c->user[0]) {
		setenv("USER", c->user, 1);
		setenv("LOGNAME", c->user, 1);
		setenv("HOME", c->home, 1);
		if (c->shell[0])
			setenv("SHELL", c->shell, 1);
	}
	return 0;
}

/*
 * The recorder's own files (every one O_CLOEXEC), closed in the child at once
 * rather than at exec: while it waits to be released it would otherwise share
 * them, and a lock held on an open file (the run's liveness lock, which tells
 * `gpu-trace reset` whether a run is alive) would outlive a recorder killed
 * outright for as long as its child takes to die. What the user's shell
 * passed down (not close-on-exec) stays the workload's. /proc/self/fd read
 * with getdents64 into the stack: no allocation after fork.
 */
static void close_inherited(int keep_a, int keep_b)
{
	char buf[4096];
	bool closed = true;
	int dir, passes;

	dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (passes = 0; dir >= 0 && closed && passes < 64; passes++) {
		long n;

		closed = false;
		lseek(dir, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0) {
			long at = 0;

			while (at < n) {
				struct { uint64_t ino; int64_t off; unsigned short reclen;
					 unsigned char type; char name[]; } *d = (void *)(buf + at);
				char *end;
				long fd = strtol(d->name, &end, 10);
				int flags;

				at += d->reclen;
				if (*end || end == d->name || fd < 3 || fd == dir || fd == keep_a || fd == keep_b)
					continue;
				flags = fcntl((int)fd, F_GETFD);
				if (flags >= 0 && (flags & FD_CLOEXEC) && !close((int)fd))
					closed = true;
			}
		}
	}
	if (dir >= 0)
		close(dir);
}

static void child_fail(int status_fd, int code)
{
	int e = errno;

	if (write(status_fd, &e, sizeof(e)) < 0)
		_exit(code);
	_exit(code);
}

/* there, but not a file our effective ids may execute (exec says EACCES) */
#define NOT_EXECUTABLE	(-1)

/* 0 runnable by our effective ids, NOT_EXECUTABLE, or why it cannot be reached */
static int runnable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno;
	if (S_ISDIR(st.st_mode))
		return EISDIR;
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111) ||
	    faccessat(AT_FDCWD, path, X_OK, AT_EACCESS))
		return NOT_EXECUTABLE;
	return 0;
}

static int check_command(const char *cmd, struct gt_error *err)
{
	const char *path = getenv("PATH"), *p, *end;
	char full[4096];
	int e, found = 0;

	if (!cmd[0]) {
		gt_error_set(err, ENOENT, "cannot run '': no command given after --");
		return 127;
	}
	if (strchr(cmd, '/')) {
		e = runnable(cmd);
		if (!e)
			return 0;
		gt_error_set(err, e == NOT_EXECUTABLE ? EACCES : e, "cannot run '%s': %s%s", cmd,
			     e == NOT_EXECUTABLE ? "not an executable file" : strerror(e),
			     e == ENOENT ? "; check the path" :
			     e == EACCES ? "; the workload runs as you (sudo's user): give a path you can reach" :
			     "; give a program or a script with its execute bit set");
		return e == ENOENT ? 127 : 126;
	}
	for (p = path && *path ? path : "/bin:/usr/bin"; ; p = end + 1) {
		end = strchrnul(p, ':');
		snprintf(full, sizeof(full), "%.*s/%s", (int)(end - p), end > p ? p : ".", cmd);
		e = runnable(full);
		if (!e)
			return 0;
		found |= e != ENOENT;
		if (!*end)
			break;
	}
	gt_error_set(err, found ? EACCES : ENOENT, "cannot run '%s': %s in PATH (%s)", cmd,
		     found ? "no executable file of that name" : "not found",
		     path && *path ? path : "/bin:/usr/bin");
	return found ? 126 : 127;
}

int workload_check_command(const char *cmd, bool as_root, struct gt_error *err)
{
	struct workload_creds c;
	struct user_rights r = { 0 };
	int ret;

	if (workload_creds_from_env(&c, as_root, err))
		return 126;
	if (c.drop && user_rights_enter(&r, c.uid, c.gid, c.user[0] ? c.user : NULL, err))
		return 126;
	ret = check_command(cmd, err);
	user_rights_leave(&r);
	return ret;
}

int workload_spawn(struct workload *w, char *const argv[],
		   const struct workload_creds *c, struct gt_error *err)
{
	int go[2], status[2];
	pid_t parent;
	char *copy;

	memset(w, 0, sizeof(*w));
	w->go_fd = w->status_fd = -1;
	copy = strdup(argv[0]);
	snprintf(w->comm, sizeof(w->comm), "%s", copy ? basename(copy) : argv[0]);
	snprintf(w->cmd, sizeof(w->cmd), "%s", argv[0]);
	free(copy);
	if (pipe2(go, O_CLOEXEC) || pipe2(status, O_CLOEXEC))
		return gt_error_set(err, errno, "cannot create a pipe for the workload: %s",
				    strerror(errno));
	parent = getpid();
	w->pid = fork();
	if (w->pid < 0) {
		close(go[0]);
		close(go[1]);
		close(status[0]);
		close(status[1]);
		return gt_error_set(err, errno, "cannot fork the workload: %s",
				    strerror(errno));
	}
	if (w->pid == 0) {
		char byte;

		close(go[1]);
		close(status[0]);
		close_inherited(go[0], status[1]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGUSR2, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		/* EOF without the byte: gpu-trace gave up, never run untraced */
		if (read(go[0], &byte, 1) != 1)
			_exit(125);
		if (c->drop && drop_privileges(c))
			child_fail(status[1], 125);
		/*
		 * A recorder killed outright (no teardown) must not leave its
		 * workload running on, untraced and orphaned. After the
		 * credentials change, which clears it; and the parent may have
		 * gone before it was set.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(125);
		execvp(argv[0], argv);
		child_fail(status[1], errno == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(status[1]);
	w->go_fd = go[1];
	w->status_fd = status[0];
	return 0;
}

int workload_release(struct workload *w, struct gt_error *err)
{
	int child_errno = 0;
	ssize_t n;

	if (write(w->go_fd, "g", 1) != 1)
		return gt_error_set(err, errno, "cannot start the workload: %s",
				    strerror(errno));
	close(w->go_fd);
	w->go_fd = -1;
	do
		n = read(w->status_fd, &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(w->status_fd);
	w->status_fd = -1;
	if (n == (ssize_t)sizeof(child_errno))
		return gt_error_set(err, child_errno,
				    "cannot run '%s': %s; check the command name and that the %s can execute it",
				    w->cmd, strerror(child_errno),
				    geteuid() ? "user" : "invoking user");
	return 0;
}

void workload_abort(struct workload *w)
{
	if (w->pid <= 0)
		return;
	if (w->go_fd >= 0) {
		/* closing the pipe makes the child exit 125 before exec */
		close(w->go_fd);
		w->go_fd = -1;
	} else {
		kill(w->pid, SIGKILL);
	}
	if (w->status_fd >= 0) {
		close(w->status_fd);
		w->status_fd = -1;
	}
	while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
}

int workload_stop(struct workload *w, int sig, int *status)
{
	int i;

	kill(w->pid, sig);
	for (i = 0; i < 20; i++) {
		struct timespec nap = { 0, 100 * 1000 * 1000 };

		if (waitpid(w->pid, status, WNOHANG) == w->pid)
			return 1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

int workload_reap(struct workload *w, int *status)
{
	siginfo_t info = { 0 };
	char comm[sizeof(w->comm)];

	if (waitid(P_PID, (id_t)w->pid, &info, WEXITED | WNOHANG | WNOWAIT) || info.si_pid != w->pid)
		return 0;
	/* our own unreaped child: its pid cannot name another process yet */
	if (!cmdlines_proc_comm(w->pid, comm, sizeof(comm)) && comm[0])
		memcpy(w->comm, comm, sizeof(comm));
	while (waitpid(w->pid, status, 0) < 0 && errno == EINTR)
		;
	return 1;
}

int workload_exit_code(int wait_status)
{
	if (WIFEXITED(wait_status))
		return WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		return 128 + WTERMSIG(wait_status);
	return 125;
}

/*
 * Room for one more: the array holds the power of two at or above *nr
 * elements (what growing it here leaves), so it is reallocated only when
 * *nr is one, doubling: a cgroup of many processes costs linear time.
 */
static int room_for_one(pid_t **tids, int nr)
{
	pid_t *n;

	if (nr & (nr - 1))
		return 0;
	n = realloc(*tids, sizeof(*n) * (size_t)(nr ? 2 * nr : 1));
	if (!n) {
		errno = ENOMEM;
		return -1;
	}
	*tids = n;
	return 0;
}

int workload_list_tasks(pid_t pid, pid_t **tids, int *nr)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		long tid = strtol(d->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		if (room_for_one(tids, *nr)) {
			closedir(dir);
			return -1;
		}
		(*tids)[(*nr)++] = (pid_t)tid;
		found++;
	}
	if (dir)
		closedir(dir);
	if (!found) {
		/* gone, or /proc hidden: the pid itself still names it */
		if (room_for_one(tids, *nr))
			return -1;
		(*tids)[(*nr)++] = pid;
	}
	return 0;
}
