// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"
#include "util/user-rights.h"

static int become(struct outfile *o, struct user_rights *r, struct gt_error *err)
{
	memset(r, 0, sizeof(*r));
	return o->as_user ? user_rights_enter(r, o->user.uid, o->user.gid, o->user.name, err) : 0;
}

/* the directory names are relative to, and a name in it: the whole path unless _at */
static int at(const struct outfile *o)
{
	return o->name[0] ? o->dir_fd : AT_FDCWD;
}

static const char *target(const struct outfile *o)
{
	return o->name[0] ? o->name : o->path;
}

/*
 * A device, FIFO or socket where the output goes: never replaced, even with
 * --force. -o writes a new file and renames it over the name, which would put
 * a regular file where /dev/null was (as root, for every process after).
 */
static const char *not_a_file(const struct stat *st)
{
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return NULL;
}

static int refuse_not_a_file(const char *path, const struct stat *st, struct gt_error *err)
{
	return gt_error_set(err, EEXIST, "output %s is %s, not a file: -o writes a file in its place, so it is left alone; name a file with -o (report without -o writes to standard output)",
			    path, not_a_file(st));
}

static int create(struct outfile *o, const char *path, bool force, struct gt_error *err)
{
	char copy[4096];
	struct stat st;

	if (!*path || strlen(path) >= sizeof(o->path) - 64)
		return gt_error_set(err, EINVAL, "bad output file name '%s'; pass -o FILE", path);
	snprintf(o->path, sizeof(o->path), "%s", path);
	snprintf(copy, sizeof(copy), "%s", path);
	snprintf(o->dir, sizeof(o->dir), "%s", dirname(copy));
	if (!lstat(path, &st) && S_ISDIR(st.st_mode))
		return gt_error_set(err, EISDIR, "output %s is a directory; name a file in it: -o %s/NAME",
				    path, path);
	if (!lstat(path, &st) && not_a_file(&st))
		return refuse_not_a_file(path, &st, err);
	if (!force && !lstat(path, &st))
		return gt_error_set(err, EEXIST, "output %s exists; pass --force to replace it, or -o another name",
				    path);
	snprintf(copy, sizeof(copy), "%s", path);
	snprintf(o->tmp_path, sizeof(o->tmp_path), "%s/.%s.partial-XXXXXX", o->dir,
		 basename(copy));
	o->fd = mkostemp(o->tmp_path, O_CLOEXEC);
	if (o->fd < 0)
		return gt_error_set(err, errno, "cannot create the output in %s: %s; choose a %sdirectory with -o",
				    o->dir, strerror(errno),
				    o->as_user ? "writable (by you, not by root) " : "writable ");
	return 0;
}

/* .NAME.partial-XXXXXX in dir_fd: O_EXCL and O_NOFOLLOW, a fresh random tail per try */
static int create_at(struct outfile *o, bool force, struct gt_error *err)
{
	static const char tail[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[6];
	struct stat st;

	if (!fstatat(o->dir_fd, o->name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (S_ISDIR(st.st_mode))
			return gt_error_set(err, EISDIR, "output %s is a directory", o->path);
		if (not_a_file(&st))
			return refuse_not_a_file(o->path, &st, err);
		if (!force)
			return gt_error_set(err, EEXIST, "output %s exists; pass --force to replace it, or -o another name",
					    o->path);
	}
	for (int tries = 0; tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			break;
		snprintf(o->tmp_path, sizeof(o->tmp_path), ".%s.partial-%c%c%c%c%c%c", o->name,
			 tail[rnd[0] % 62], tail[rnd[1] % 62], tail[rnd[2] % 62],
			 tail[rnd[3] % 62], tail[rnd[4] % 62], tail[rnd[5] % 62]);
		o->fd = openat(o->dir_fd, o->tmp_path,
			       O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (o->fd >= 0 || errno != EEXIST)
			break;
	}
	if (o->fd < 0) {
		o->tmp_path[0] = '\0';
		return gt_error_set(err, errno, "cannot create the output in %s: %s; choose a writable directory with -o",
				    o->dir, strerror(errno));
	}
	return 0;
}

int outfile_create_at(struct outfile *o, int dir_fd, const char *dir_label, const char *name,
		      bool force, struct gt_error *err)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->dir_fd = dir_fd;
	if (!*name || strchr(name, '/') || strlen(name) >= sizeof(o->name) - 32 ||
	    snprintf(o->path, sizeof(o->path), "%s/%s", dir_label, name) >= (int)sizeof(o->path) - 64)
		return gt_error_set(err, EINVAL, "bad output file name '%s' in %s", name, dir_label);
	snprintf(o->name, sizeof(o->name), "%s", name);
	snprintf(o->dir, sizeof(o->dir), "%s", dir_label);
	return create_at(o, force, err);
}

int outfile_create(struct outfile *o, const char *path, bool force,
		   const struct outfile_user *as, struct gt_error *err)
{
	struct user_rights r;
	int ret;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->dir_fd = -1;
	if (as) {
		o->as_user = true;
		o->user = *as;
		snprintf(o->user_name, sizeof(o->user_name), "%s", as->name ? as->name : "");
		o->user.name = o->user_name[0] ? o->user_name : NULL;
	}
	if (become(o, &r, err))
		return -1;
	ret = create(o, path, force, err);
	user_rights_leave(&r);
	return ret;
}

/* 0640 less what the umask takes away */
static mode_t output_mode(void)
{
	mode_t um = umask(0);

	umask(um);
	return 0640 & ~um;
}

/* "run.dat" -> "run-N.dat", "trace" -> "trace-N", "x.tar.dat" -> "x.tar-N.dat" */
static int free_name(const char *path, int n, char *out, size_t len)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');

	if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
		dot = path + strlen(path);
	return (size_t)snprintf(out, len, "%.*s-%d%s", (int)(dot - path), path, n, dot) < len ? 0 : -1;
}

static int commit_free_name(struct outfile *o, int *e)
{
	char name[sizeof(o->path)];
	int n;

	for (n = 1; n < 100; n++) {
		if (free_name(target(o), n, name, o->name[0] ? sizeof(o->name) : sizeof(name)))
			break;
		if (!renameat2(at(o), o->tmp_path, at(o), name, RENAME_NOREPLACE)) {
			snprintf(o->taken, sizeof(o->taken), "%s", o->path);
			if (o->name[0]) {
				/* under sizeof(o->name) (free_name); the path checked at create */
				memcpy(o->name, name, strlen(name) + 1);
				if (snprintf(o->path, sizeof(o->path), "%s/%s", o->dir, o->name) < 0)
					o->path[0] = '\0';
			} else {
				snprintf(o->path, sizeof(o->path), "%s", name);
			}
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	*e = errno ? errno : EEXIST;
	return -1;
}

int outfile_commit(struct outfile *o, bool force, struct gt_error *err)
{
	struct user_rights r;
	struct stat st;
	int dfd, ret, e;

	if (fsync(o->fd))
		return gt_error_set(err, errno, "writing %s failed: %s; free space on its filesystem or use -o elsewhere",
				    o->path, strerror(errno));
	if (fchmod(o->fd, output_mode()))
		return gt_error_set(err, errno, "cannot set the mode of %s: %s",
				    o->path, strerror(errno));
	/*
	 * A device or FIFO that took the name meanwhile is never replaced, and
	 * what was written is not thrown away either: it takes a free name, as
	 * without --force
	 */
	if (force && !fstatat(at(o), target(o), &st, AT_SYMLINK_NOFOLLOW) && not_a_file(&st))
		force = false;
	if (become(o, &r, err))
		return -1;
	/*
	 * Without --force a file that appeared meanwhile (another run of the
	 * same name, two terminals, a loop) is not replaced either, nor is
	 * what was recorded thrown away: it takes the first free name of
	 * NAME-1.EXT to NAME-99.EXT, and o->taken says which it could not have.
	 */
	ret = force ? renameat(at(o), o->tmp_path, at(o), target(o)) :
		      renameat2(at(o), o->tmp_path, at(o), target(o), RENAME_NOREPLACE);
	e = errno;
	if (ret && e == EEXIST && !force)
		ret = commit_free_name(o, &e);
	user_rights_leave(&r);
	if (ret)
		return gt_error_set(err, e, "cannot rename %s to %s: %s%s",
				    o->tmp_path, o->path, strerror(e),
				    e == EEXIST ? "; pass --force to replace it" : "");
	o->tmp_path[0] = '\0';
	close(o->fd);
	o->fd = -1;
	if (o->name[0]) {
		fsync(o->dir_fd);
		return 0;
	}
	dfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

int outfile_reserve(struct outfile *o, off_t bytes, struct gt_error *err)
{
	if (!fallocate(o->fd, FALLOC_FL_KEEP_SIZE, 0, bytes))
		return 0;
	if (errno == ENOSPC || errno == EDQUOT)
		return gt_error_set(err, errno,
				    "not enough space in %s: the trace's header alone needs %lld MB; free space or use -o elsewhere",
				    o->dir, (long long)(bytes >> 20) + 1);
	return 0;	/* no reservation on this filesystem: carry on */
}

int outfile_commit_partial(struct outfile *o, bool force, struct gt_error *err)
{
	size_t n = strlen(o->path), m = strlen(o->name);

	if (n + sizeof(".partial") > sizeof(o->path) || m + sizeof(".partial") > sizeof(o->name))
		return gt_error_set(err, ENAMETOOLONG, "output name too long for .partial");
	memcpy(o->path + n, ".partial", sizeof(".partial"));
	if (m)
		memcpy(o->name + m, ".partial", sizeof(".partial"));
	return outfile_commit(o, force, err);
}

void outfile_discard(struct outfile *o)
{
	struct user_rights r;

	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->tmp_path[0] && !become(o, &r, &(struct gt_error){ 0 })) {
		unlinkat(at(o), o->tmp_path, 0);
		user_rights_leave(&r);
	}
	o->tmp_path[0] = '\0';
}
