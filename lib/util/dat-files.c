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

static int push(struct dat_files *l, const char *path, const struct stat *st,
		struct gt_error *err)
{
	char *p;

	if (l->nr >= l->max) {
		l->over++;
		return 0;
	}
	if (l->nr == l->cap) {
		int cap = l->cap ? 2 * l->cap : 64;
		char **n = realloc(l->paths, sizeof(*n) * (size_t)cap);
		struct dat_file_id *ids;

		if (!n)
			return gt_error_set(err, ENOMEM, "out of memory listing the files");
		l->paths = n;
		ids = realloc(l->ids, sizeof(*ids) * (size_t)cap);
		if (!ids)
			return gt_error_set(err, ENOMEM, "out of memory listing the files");
		l->ids = ids;
		l->cap = cap;
	}
	p = strdup(path);
	if (!p)
		return gt_error_set(err, ENOMEM, "out of memory listing the files");
	l->ids[l->nr].dev = st->st_dev;
	l->ids[l->nr].ino = st->st_ino;
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

	if (!d && depth) {
		if (!l->unreadable++)
			snprintf(l->first_unreadable, sizeof(l->first_unreadable), "%s: %s", dir,
				 strerror(errno));
		return 0;
	}
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
				ret = push(l, path, &st, err);
		} else if (S_ISDIR(st.st_mode)) {
			if (depth < DAT_FILES_MAX_DEPTH)
				ret = search(l, path, root, depth + 1, err);
		} else if (S_ISREG(st.st_mode) && is_dat_name(e->d_name)) {
			ret = push(l, path, &st, err);
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
		return push(l, path, &st, err);
	if (!realpath(path, root))
		return gt_error_set(err, errno, "cannot read %s: %s", path, strerror(errno));
	return search(l, path, root, 0, err);
}

struct entry {
	char *path;
	struct dat_file_id id;
	int order;			/* by path */
};

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

static int cmp_id(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->id.dev != y->id.dev)
		return x->id.dev < y->id.dev ? -1 : 1;
	if (x->id.ino != y->id.ino)
		return x->id.ino < y->id.ino ? -1 : 1;
	return x->order - y->order;
}

void dat_files_sort(struct dat_files *l)
{
	struct entry *e;
	int i, n = 0;

	if (!l->nr)
		return;
	e = malloc(sizeof(*e) * (size_t)l->nr);
	if (!e) {
		/* no memory to sort with: kept as found, maybe twice */
		return;
	}
	for (i = 0; i < l->nr; i++)
		e[i] = (struct entry){ l->paths[i], l->ids[i], 0 };
	qsort(e, (size_t)l->nr, sizeof(*e), cmp_path);
	for (i = 0; i < l->nr; i++)
		e[i].order = i;
	/* one file by two names: the first name kept */
	qsort(e, (size_t)l->nr, sizeof(*e), cmp_id);
	for (i = 0; i < l->nr; i++) {
		if (n && e[n - 1].id.dev == e[i].id.dev && e[n - 1].id.ino == e[i].id.ino)
			free(e[i].path);
		else
			e[n++] = e[i];
	}
	qsort(e, (size_t)n, sizeof(*e), cmp_path);
	for (i = 0; i < n; i++) {
		l->paths[i] = e[i].path;
		l->ids[i] = e[i].id;
	}
	l->nr = n;
	free(e);
}

void dat_files_free(struct dat_files *l)
{
	int i;

	for (i = 0; i < l->nr; i++)
		free(l->paths[i]);
	free(l->paths);
	free(l->ids);
	memset(l, 0, sizeof(*l));
}
