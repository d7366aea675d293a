/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DRM_FDINFO_H
#define GT_DRM_FDINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "util/gt-error.h"
#include "dat/rb-pages.h"
#include "decode/drm-fdinfo-line.h"
#include "capture/print-record.h"

/*
 * Snapshots of every open DRM file's fdinfo (/proc/PID/fdinfo/FD of the fds
 * that point into /dev/dri): the DRM core's drm-driver, drm-pdev and
 * drm-client-id (the id the 6.17+ events carry), and the usage the driver
 * counts (drm-engine-*, drm-cycles-*, drm-total-*, drm-resident-*, ...).
 * record takes a full one at the start, every 10 s and at the end, and a
 * quick one every second of the processes known to hold one and of the
 * workload's process tree (/proc/PID/task/TID/children); each line is
 * a print record (decode/drm-fdinfo-line.h) at the snapshot's time on the
 * kernel's CLOCK_MONOTONIC (time-ns.h), in the file's drm-fdinfo buffer. Only
 * keys that begin with "drm-" are kept; a process's own files are read as
 * the kernel prints them, never followed.
 */
#define DRM_FDINFO_MAX_FDS	(1 << 20)	/* fds looked at per snapshot */
#define DRM_FDINFO_MAX_FILES	4096		/* DRM files kept per snapshot */
#define DRM_FDINFO_HOLDERS	1024		/* processes the quick snapshots revisit */
#define DRM_FDINFO_TREE		256		/* the workload's processes they look at */
#define DRM_FDINFO_TREE_THREADS	4096		/* and the threads whose children they read */

struct drm_fdinfo {
	int fd;				/* pages, -1: none */
	struct rb_pages pages;
	struct print_record_format fmt;
	int pid;			/* the records' pid (ours: skipped in the scan) */
	int seq;
	int64_t mono_offset;		/* the snapshots are stamped on the kernel's clock (time-ns.h) */
	unsigned int files;		/* DRM files the last snapshot found */
	bool any;			/* some snapshot found one */
	/* processes the last full scan found holding one: the quick snapshots read only these */
	int holders[DRM_FDINFO_HOLDERS];
	int nr_holders;
	uint64_t records;
	int failed;			/* errno of the first write that failed */
};

/** drm_fdinfo_open - pages for the snapshots in @fd; an error says why there are none */
int drm_fdinfo_open(struct drm_fdinfo *s, const struct print_record_format *fmt, int pid, int fd,
		    size_t page_size, struct gt_error *err);
/**
 * drm_fdinfo_snapshot - one snapshot now ("start", "periodic", "end"): @full looks at every
 * process (each fd's link: costly where thousands of processes hold thousands of fds),
 * otherwise only the processes the last full one found holding a DRM file and
 * @roots (the workload's processes, may be NULL) with their descendants
 */
void drm_fdinfo_snapshot(struct drm_fdinfo *s, const char *why, bool full, const int *roots,
			 int nr_roots);
/** drm_fdinfo_close - ends the pages; returns their size, or -1 with err */
long long drm_fdinfo_close(struct drm_fdinfo *s, struct gt_error *err);

#endif
