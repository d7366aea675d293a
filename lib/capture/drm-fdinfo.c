// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/drm-fdinfo.h"
#include "capture/print-record.h"
#include "capture/proc-tree.h"
#include "util/time-ns.h"

#define MAX_LINE	256

int drm_fdinfo_open(struct drm_fdinfo *s, const struct print_record_format *fmt, int pid, int fd,
		    size_t page_size, struct gt_error *err)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (rb_pages_init(&s->pages, fd, page_size))
		return gt_error_set(err, ENOMEM, "out of memory for the DRM fdinfo snapshots");
	s->fd = fd;
	s->fmt = *fmt;
	s->pid = pid;
	s->mono_offset = time_ns_monotonic_offset();
	return 0;
}

static void put(struct drm_fdinfo *s, uint64_t ts, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void put(struct drm_fdinfo *s, uint64_t ts, const char *fmt, ...)
{
	unsigned char rec[MAX_LINE + 128];
	char text[MAX_LINE];
	va_list ap;
	int n, ret;

	if (s->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n >= (int)sizeof(text))
		n = (int)sizeof(text) - 1;
	ret = rb_pages_add(&s->pages, ts, rec, print_record(&s->fmt, s->pid, text, (size_t)n, rec));
	if (ret)
		s->failed = -ret;
	else
		s->records++;
}

/* The drm-* lines of one DRM file's fdinfo */
static void put_fdinfo(struct drm_fdinfo *s, uint64_t ts, int proc, const char *pid, const char *fd)
{
	char path[600], buf[8192], *line, *nl;
	bool drm = false;
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "%s/fdinfo/%s", pid, fd);
	f = openat(proc, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (f < 0)
		return;		/* closed meanwhile, or the process is gone */
	n = read(f, buf, sizeof(buf) - 1);
	close(f);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (line = buf; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!strncmp(line, "drm-", 4)) {
			put(s, ts, DRM_FDINFO_PREFIX "%d %s %s %.200s", s->seq, pid, fd, line);
			drm = true;
		}
	}
	/* a file under a container's own /dev/dri that no DRM driver made is not one */
	s->files += drm;
}

/* A process's fds that point into /dev/dri; @budget counts down the fds looked at */
static bool put_process(struct drm_fdinfo *s, uint64_t ts, int proc, const char *pid, long *budget)
{
	unsigned int before = s->files;
	char path[300], target[64];
	struct dirent *e;
	DIR *dir;
	int fds;

	snprintf(path, sizeof(path), "%s/fd", pid);
	fds = openat(proc, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fds < 0)
		return false;
	dir = fdopendir(fds);
	if (!dir) {
		close(fds);
		return false;
	}
	while ((e = readdir(dir)) && *budget > 0 && s->files < DRM_FDINFO_MAX_FILES) {
		ssize_t n;

		if (e->d_name[0] == '.')
			continue;
		(*budget)--;
		/* the link's text, as the kernel gives it: nothing is followed */
		n = readlinkat(fds, e->d_name, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (!strncmp(target, "/dev/dri/", 9))
			put_fdinfo(s, ts, proc, pid, e->d_name);
	}
	closedir(dir);
	return s->files > before;
}

/* Every process's fds; those holding a DRM file are remembered for the quick ones */
static void scan_all(struct drm_fdinfo *s, uint64_t ts, int proc, long *budget)
{
	struct dirent *e;
	char self[16];
	DIR *dir;
	int fd = dup(proc);

	snprintf(self, sizeof(self), "%d", s->pid);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	s->nr_holders = 0;
	while ((e = readdir(dir)) && *budget > 0 && s->files < DRM_FDINFO_MAX_FILES) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    strspn(e->d_name, "0123456789") != strlen(e->d_name) || !strcmp(e->d_name, self))
			continue;
		if (put_process(s, ts, proc, e->d_name, budget) && s->nr_holders < DRM_FDINFO_HOLDERS)
			s->holders[s->nr_holders++] = atoi(e->d_name);
	}
	closedir(dir);
}

/*
 * The quick snapshot: the processes the last full scan found holding a DRM
 * file, and the workload's process tree (a workload that opens one after
 * the start is seen within a second, not at the next full scan)
 */
static void scan_quick(struct drm_fdinfo *s, uint64_t ts, int proc, const int *roots, int nr_roots,
		       long *budget)
{
	int tree[DRM_FDINFO_TREE], nr, i;
	char pid[16];

	nr = proc_tree_walk(proc, roots, nr_roots, tree, DRM_FDINFO_TREE, DRM_FDINFO_TREE_THREADS);
	for (i = 0; i < s->nr_holders && *budget > 0 && s->files < DRM_FDINFO_MAX_FILES; i++) {
		snprintf(pid, sizeof(pid), "%d", s->holders[i]);
		put_process(s, ts, proc, pid, budget);
	}
	for (i = 0; i < nr && *budget > 0 && s->files < DRM_FDINFO_MAX_FILES; i++) {
		if (tree[i] == s->pid || proc_tree_listed(s->holders, s->nr_holders, tree[i]))
			continue;
		snprintf(pid, sizeof(pid), "%d", tree[i]);
		put_process(s, ts, proc, pid, budget);
	}
}

void drm_fdinfo_snapshot(struct drm_fdinfo *s, const char *why, bool full, const int *roots,
			 int nr_roots)
{
	long budget = DRM_FDINFO_MAX_FDS;
	uint64_t ts;
	int proc;

	if (s->fd < 0)
		return;
	ts = time_ns_kernel_mono(s->mono_offset);
	s->seq++;
	s->files = 0;
	put(s, ts, DRM_FDINFO_PREFIX "%d snapshot: %s", s->seq, why);
	proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (proc >= 0 && full)
		scan_all(s, ts, proc, &budget);
	else if (proc >= 0)
		scan_quick(s, ts, proc, roots, nr_roots, &budget);
	if (proc >= 0)
		close(proc);
	put(s, ts, DRM_FDINFO_PREFIX "%d files: %u", s->seq, s->files);
	s->any |= s->files > 0;
}

long long drm_fdinfo_close(struct drm_fdinfo *s, struct gt_error *err)
{
	long long size = s->fd >= 0 ? rb_pages_close(&s->pages, s->failed) : -EBADF;

	if (size < 0 && s->fd >= 0)
		gt_error_set(err, (int)-size, "writing the DRM fdinfo snapshots failed: %s",
			     strerror((int)-size));
	s->fd = -1;
	return size < 0 ? -1 : size;
}
