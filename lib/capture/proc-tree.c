// SPDX-License-Identifier: GPL-2.0
/* A workload's process tree from /proc (proc-tree.h). */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture/proc-tree.h"

bool proc_tree_listed(const int *pids, int nr, int pid)
{
	int i;

	for (i = 0; i < nr; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

/*
 * The children of each of @pid's threads onto @tree; @threads counts down
 * the threads looked at
 */
static void add_children(int proc, int pid, int *tree, int *nr, int max, int *threads)
{
	char path[64], buf[4096], *p, *end;
	struct dirent *e;
	DIR *dir;
	int fd;

	snprintf(path, sizeof(path), "%d/task", pid);
	fd = openat(proc, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(dir)) && *nr < max && *threads > 0) {
		ssize_t n;
		int f;

		if (e->d_name[0] == '.')
			continue;
		(*threads)--;
		snprintf(path, sizeof(path), "%.20s/children", e->d_name);
		f = openat(dirfd(dir), path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (f < 0)
			continue;
		n = read(f, buf, sizeof(buf) - 1);
		close(f);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		for (p = buf; *nr < max; p = end) {
			long child = strtol(p, &end, 10);

			if (end == p)
				break;
			if (child > 0 && child < (1L << 30) && !proc_tree_listed(tree, *nr, (int)child))
				tree[(*nr)++] = (int)child;
		}
	}
	closedir(dir);
}

int proc_tree_walk(int proc, const int *roots, int nr_roots, int *tree, int max, int max_threads)
{
	int i, nr = 0, threads = max_threads;

	for (i = 0; i < nr_roots && nr < max; i++)
		if (roots[i] > 0 && !proc_tree_listed(tree, nr, roots[i]))
			tree[nr++] = roots[i];
	for (i = 0; i < nr; i++)	/* breadth first: @tree grows as it is walked */
		add_children(proc, tree[i], tree, &nr, max, &threads);
	return nr;
}
