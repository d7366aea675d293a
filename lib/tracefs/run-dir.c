// SPDX-License-Identifier: GPL-2.0
/*
 * The directory root keeps its restore journals and run locks in: one no other user can
 * change, chosen once per process.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracefs/run-dir.h"

/*
 * A directory whose entries only root (or we) can rename or replace: root's
 * or ours, and writable by no one else unless sticky (then another user
 * cannot move what is ours out of it), as OpenSSH's StrictModes judges a
 * path. st is from lstat: a symlink is not such a directory.
 */
static bool only_we_change(const struct stat *st)
{
	return S_ISDIR(st->st_mode) &&
	       (st->st_uid == 0 || st->st_uid == geteuid()) &&
	       (!(st->st_mode & 022) || (st->st_mode & S_ISVTX));
}

/*
 * Root writes journals and locks there and later restores tracefs from the
 * journals it finds: a directory another user could rename or fill (sudo -E
 * passes the variable on) must not be taken. Every existing component of
 * the resolved path must be one only we change; the resolved path is the
 * one used (a symlink on the way could be turned elsewhere later). The parts
 * not made yet are checked again as run_dir_make() passes them.
 * 0 and the path in out, or -1.
 */
static int trusted_run_dir(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX], *p, *real;
	const char *rest;
	struct stat st;

	if (strstr(dir, "/./") || strstr(dir, "/../") || strlen(dir) >= sizeof(path))
		return -1;
	snprintf(path, sizeof(path), "%s", dir);
	/* the parts not made yet are made by us */
	while (lstat(path, &st)) {
		p = strrchr(path, '/');
		if (errno != ENOENT || !p || p == path)
			return -1;
		*p = '\0';
	}
	rest = dir + strlen(path);
	real = realpath(path, NULL);
	if (!real)
		return -1;
	if ((size_t)snprintf(out, len, "%s%s", strcmp(real, "/") ? real : "", rest) >= len) {
		free(real);
		return -1;
	}
	snprintf(path, sizeof(path), "%s", real);
	free(real);
	for (;;) {
		if (lstat(path[0] ? path : "/", &st) || !only_we_change(&st))
			return -1;
		p = strrchr(path, '/');
		if (!p || !path[0])
			break;
		*p = '\0';
	}
	return out[0] == '/' ? 0 : -1;
}

const char *run_dir_path(void)
{
	static char chosen[400];
	const char *dir;

	if (!chosen[0]) {
		dir = getenv("GPU_TRACE_RUN_DIR");
		if (!dir || dir[0] != '/' || trusted_run_dir(dir, chosen, sizeof(chosen)))
			snprintf(chosen, sizeof(chosen), "%s", GT_RUN_DIR);
	}
	return chosen;
}

int run_dir_make(struct gt_error *err)
{
	const char *dir = run_dir_path();
	char path[512];
	struct stat st;
	char *p;

	snprintf(path, sizeof(path), "%s", dir);
	/*
	 * Parents as mkdir -p makes them, each held to the rule the path was
	 * chosen by: one missing when it was checked may have been made since
	 * by another user (under a sticky /tmp), and what lies below it is
	 * then theirs to move. The journal directory itself is private.
	 */
	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return gt_error_set(err, errno, "cannot create %s for the restore journal: %s; create it or mount a tmpfs on /run",
					    path, strerror(errno));
		if (lstat(path, &st) || !only_we_change(&st))
			return gt_error_set(err, EPERM,
					    "%s, on the way to the restore journal, is not a directory only root can change (another user's, writable by others, or a symlink); remove it or choose another GPU_TRACE_RUN_DIR",
					    path);
		*p = '/';
	}
	if (mkdir(path, 0700) && errno != EEXIST)
		return gt_error_set(err, errno, "cannot create %s for the restore journal: %s",
				    path, strerror(errno));
	if (lstat(path, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		return gt_error_set(err, EPERM,
				    "%s is not a private directory of ours (a symlink, or writable by others); remove it and retry",
				    path);
	return 0;
}
