// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracefs/run-lock.h"
#include "tracefs/run-dir.h"

static int live_fd = -1;
static char live_path[600];
static pid_t owner_pid;

/*
 * A run that ends as it should takes its lock file with it (a killed one's
 * goes at the next cleanup); a child that exits before exec leaves it.
 */
static void forget_own(void)
{
	if (live_fd >= 0 && getpid() == owner_pid)
		unlink(live_path);
}

static void lock_path(char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "%s/%s.lock", run_dir_path(), what);
}

/* Our file in our private run dir: never through a link, never another's */
static int open_lock(const char *path, bool create)
{
	int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/*
 * A dead run's lock file is removed by whoever finds it dead, holding its
 * lock while it unlinks; our pid may be that dead run's, reused. So the
 * file we lock must still be the one at the path, or we lock a file nobody
 * can see: then again, on the file made anew.
 */
static int hold_lock_file(const char *path)
{
	struct stat held, named;
	int tries, fd;

	for (tries = 0; tries < 100; tries++) {
		fd = open_lock(path, true);
		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;

			close(fd);
			if (e != EWOULDBLOCK)
				return -1;
			usleep(10000);	/* the remover holds it a moment */
			continue;
		}
		if (!fstat(fd, &held) && !stat(path, &named) &&
		    held.st_ino == named.st_ino && held.st_dev == named.st_dev)
			return fd;
		close(fd);
	}
	errno = EWOULDBLOCK;
	return -1;
}

int run_lock_live(struct gt_error *err)
{
	char path[600], name[32];

	if (live_fd >= 0)
		return 0;
	if (run_dir_make(err))
		return -1;
	snprintf(name, sizeof(name), "live-%d", (int)getpid());
	lock_path(path, sizeof(path), name);
	live_fd = hold_lock_file(path);
	if (live_fd < 0) {
		int e = errno;

		return gt_error_set(err, e, "cannot hold %s, which tells other gpu-trace runs this one is alive: %s",
				    path, strerror(e));
	}
	snprintf(live_path, sizeof(live_path), "%s", path);
	owner_pid = getpid();
	atexit(forget_own);
	return 0;
}

bool run_lock_alive(int pid)
{
	char path[600], name[32];
	bool alive;
	int fd;

	snprintf(name, sizeof(name), "live-%d", pid);
	lock_path(path, sizeof(path), name);
	fd = open_lock(path, false);
	if (fd < 0)
		return false;
	alive = flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);
	return alive;
}

void run_lock_forget(int pid)
{
	char path[600], name[32];
	int fd;

	snprintf(name, sizeof(name), "live-%d", pid);
	lock_path(path, sizeof(path), name);
	fd = open_lock(path, false);
	if (fd < 0)
		return;
	/* held while unlinking: a new run of that pid waits, then makes its own */
	if (!flock(fd, LOCK_EX | LOCK_NB))
		unlink(path);
	close(fd);
}

/* Our pid, for the message of a run that finds the lock taken (only that needs it) */
static void write_holder(int fd)
{
	char text[32];
	int n = snprintf(text, sizeof(text), "%d\n", (int)getpid());

	if (!ftruncate(fd, 0))
		n = (int)pwrite(fd, text, (size_t)n, 0);
	(void)n;
}

int run_lock_take(const char *what, int *holder, struct gt_error *err)
{
	char path[600], text[32] = "";
	ssize_t n;
	int fd;

	*holder = 0;
	if (run_dir_make(err))
		return -1;
	lock_path(path, sizeof(path), what);
	fd = open_lock(path, true);
	if (fd < 0)
		return gt_error_set(err, errno, "cannot make the lock %s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		n = pread(fd, text, sizeof(text) - 1, 0);
		*holder = n > 0 ? atoi(text) : 0;
		close(fd);
		return gt_error_set(err, e == EWOULDBLOCK ? EBUSY : e,
				    "another gpu-trace (pid %d) holds the %s lock", *holder, what);
	}
	write_holder(fd);
	return fd;
}
