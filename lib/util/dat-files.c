// SPDX-License-Identifier: GPL-2.0
/* The .dat files under the folders a command was given (dat-files.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/dat-files.h"

void dat_files_init(struct dat_files *l, int max)
{
	memset(l, 0, sizeof(*l));
	l->max = max;
}

static int push(struct dat_files *l, const char *path, struct gt_error *err)
{
	char *p;

	if (l->nr >= l->max) {
		l->over++;
		return 0;
	}
	if (l->nr == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		char **n = realloc(l->paths, sizeof(*n) * (size_t)cap);

		if (!n)
			return gt_error_set(err, ENOMEM, "out of memory listing the files");
		l->paths = n;
		l->cap = cap;
	}
	p = strdup(path);
	if (!p)
		return gt_error_set(err, ENOMEM, "out of memory listing the files");
	l->paths[l->nr++] = p;
	return 0;
}

static bool is_dat_name(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".dat");
}

/* a link whose target lies inside root (root's real path, no trailing slash) */
static bool inside(const char *path, const char *root)
{
	char real[PATH_MAX];
	size_t n = strlen(root);

	if (!realpath(path, real))
		return false;
	return !strncmp(real, root, n) && (real[n] == '/' || (n == 1 && root[0] == '/'));
}

static int search(struct dat_files *l, const char *dir, const char *root, int depth,
		  struct gt_error *err)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d)
		return gt_error_set(err, errno, "cannot read the folder %s: %s", dir, strerror(errno));
	while (!ret && (e = readdir(d))) {
		char path[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path) ||
		    lstat(path, &st))
			continue;
		if (S_ISLNK(st.st_mode)) {
			/* only a file inside the folder searched, never a folder */
			if (is_dat_name(e->d_name) && inside(path, root) && !stat(path, &st) &&
			    S_ISREG(st.st_mode))
				ret = push(l, path, err);
		} else if (S_ISDIR(st.st_mode)) {
			if (depth < DAT_FILES_MAX_DEPTH)
				ret = search(l, path, root, depth + 1, err);
		} else if (S_ISREG(st.st_mode) && is_dat_name(e->d_name)) {
			ret = push(l, path, err);
		}
	}
	closedir(d);
	return ret;
}

int dat_files_add(struct dat_files *l, const char *path, struct gt_error *err)
{
	char root[PATH_MAX];
	struct stat st;

	if (stat(path, &st))
		return gt_error_set(err, errno, "cannot read %s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return push(l, path, err);
	if (!realpath(path, root))
		return gt_error_set(err, errno, "cannot read %s: %s", path, strerror(errno));
	return search(l, path, root, 0, err);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void dat_files_sort(struct dat_files *l)
{
	int i, n = 0;

	if (!l->nr)
		return;
	qsort(l->paths, (size_t)l->nr, sizeof(*l->paths), cmp_path);
	for (i = 0; i < l->nr; i++) {
		if (n && !strcmp(l->paths[n - 1], l->paths[i]))
			free(l->paths[i]);
		else
			l->paths[n++] = l->paths[i];
	}
	l->nr = n;
}

void dat_files_free(struct dat_files *l)
{
	int i;

	for (i = 0; i < l->nr; i++)
		free(l->paths[i]);
	free(l->paths);
	memset(l, 0, sizeof(*l));
}
