// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/partial-output.h"
#include "tracefs/run-lock.h"
#include "tracefs/run-dir.h"
#include "tracefs/session.h"
#include "util/file-io.h"
#include "util/user-rights.h"

/* uid, gid, dev, ino and a path of at most PATH_MAX */
#define JOURNAL_MAX	(4096 + 128)

static void journal_path(char *buf, size_t len, int pid)
{
	snprintf(buf, len, "%s/%s%d.partial", run_dir_path(), GT_INSTANCE_PREFIX, pid);
}

/*
 * The temporary file's name as reset will find it from anywhere: -o
 * killed.dat (the default trace.dat too) made it ./.killed.dat.partial-...,
 * which the journal kept as it was and reset, reading only absolute names,
 * left behind.
 */
static int absolute_tmp(const struct outfile *o, char *out, size_t len)
{
	const char *base = strrchr(o->tmp_path, '/');
	char *dir;
	int n;

	if (o->tmp_path[0] == '/') {
		n = snprintf(out, len, "%s", o->tmp_path);
		return n < 0 || (size_t)n >= len ? -1 : 0;
	}
	dir = realpath(o->dir, NULL);
	if (!dir)
		return -1;
	n = snprintf(out, len, "%s/%s", strcmp(dir, "/") ? dir : "", base ? base + 1 : o->tmp_path);
	free(dir);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int partial_output_remember(const struct outfile *o, struct gt_error *err)
{
	char path[1024], tmp[1100], text[JOURNAL_MAX + 64], name[4096];
	struct stat st;
	int fd, n;

	/* the lock first: another run's clean-up must see this run alive */
	if (run_lock_live(err))
		return -1;
	if (fstat(o->fd, &st))
		return gt_error_set(err, errno, "cannot stat the output %s: %s", o->tmp_path,
				    strerror(errno));
	if (absolute_tmp(o, name, sizeof(name)))
		return gt_error_set(err, errno ? errno : ENAMETOOLONG,
				    "cannot name the output %s from /: %s", o->tmp_path,
				    strerror(errno ? errno : ENAMETOOLONG));
	n = snprintf(text, sizeof(text), "%u %u\n%llu %llu\n%s\n",
		     (unsigned int)(o->as_user ? o->user.uid : geteuid()),
		     (unsigned int)(o->as_user ? o->user.gid : getegid()),
		     (unsigned long long)st.st_dev, (unsigned long long)st.st_ino, name);
	if (n < 0 || n >= JOURNAL_MAX)
		return gt_error_set(err, ENAMETOOLONG, "output path too long: %s", o->tmp_path);
	journal_path(path, sizeof(path), (int)getpid());
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, text, (size_t)n) || fsync(fd) || rename(tmp, path)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		unlink(tmp);
		return gt_error_set(err, e, "cannot note the output in %s: %s", path, strerror(e));
	}
	close(fd);
	return 0;
}

void partial_output_forget(void)
{
	char path[1024];

	journal_path(path, sizeof(path), (int)getpid());
	unlink(path);
}

static int read_journal(const char *journal, unsigned int *uid, unsigned int *gid,
			unsigned long long *dev, unsigned long long *ino, char *path, size_t len)
{
	char text[JOURNAL_MAX + 1], *nl;
	int fd = open(journal, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;
	int off;

	if (fd < 0)
		return -1;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	if (sscanf(text, "%u %u\n%llu %llu\n%n", uid, gid, dev, ino, &off) != 4)
		return -1;
	nl = strchr(text + off, '\n');
	if (!nl || text[off] != '/' || (size_t)(nl - (text + off)) >= len)
		return -1;
	*nl = '\0';
	snprintf(path, len, "%s", text + off);
	/* only ever one of ours: a temp output's name */
	return strstr(path, ".partial-") ? 0 : -1;
}

int partial_output_clean(const char *journal, char *removed, size_t len, struct gt_error *err)
{
	unsigned long long dev, ino;
	unsigned int uid, gid;
	struct user_rights r = { 0 };
	char path[4096];
	struct stat st;
	int ret = 0;

	removed[0] = '\0';
	if (read_journal(journal, &uid, &gid, &dev, &ino, path, sizeof(path))) {
		unlink(journal);	/* not one we wrote: nothing to act on */
		return 0;
	}
	/* with the rights of the user it was made for: nothing they could not remove */
	if (geteuid() == 0 && user_rights_enter(&r, (uid_t)uid, (gid_t)gid, NULL, err))
		return -1;
	if (!lstat(path, &st) && S_ISREG(st.st_mode) && (unsigned long long)st.st_dev == dev &&
	    (unsigned long long)st.st_ino == ino) {
		if (unlink(path))
			ret = gt_error_set(err, errno, "cannot remove %s: %s", path, strerror(errno));
		else
			snprintf(removed, len, "%s", path);
	}
	user_rights_leave(&r);
	if (!ret)
		unlink(journal);
	return ret;
}
