/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_DEBUGFS_H
#define GT_KFD_DEBUGFS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/gt-error.h"
#include "dat/rb-pages.h"
#include "capture/print-record.h"

/*
 * Snapshots of KFD's debugfs (kfd/mqds: every process's queues with their
 * MQD in hex; kfd/hqds: the hardware queue registers; kfd/rls: the
 * runlist, kept but not decoded; the topology's
 * gfx_target_version per gpu_id, which says the MQD layout) taken by record
 * while it runs, each line kept as a print record
 * "kfd-debugfs <seq> <file>: <line>" at the snapshot's time on the kernel's
 * CLOCK_MONOTONIC (time-ns.h), written to pages as they are taken (lib/decode/kfd-mqd.c reads them back).
 * debugfs is mounted if it is not, and unmounted at the end.
 */
#define KFD_DEBUGFS_BUFFER	"kfd-debugfs"

struct kfd_debugfs {
	char kfd_dir[128];		/* <debugfs>/kfd */
	bool mounted_now;
	int fd;				/* pages, -1: none */
	struct rb_pages pages;
	struct print_record_format fmt;
	int pid;			/* the records' pid */
	int seq;
	int64_t mono_offset;		/* the snapshots are stamped on the kernel's clock (time-ns.h) */
	uint64_t records;
	int failed;			/* errno of the first write that failed */
};

/** kfd_debugfs_open - finds or mounts debugfs; an error says why there is nothing to snapshot. */
int kfd_debugfs_open(struct kfd_debugfs *d, const struct print_record_format *fmt, int pid,
		     int fd, size_t page_size, struct gt_error *err);
/**
 * kfd_debugfs_snapshot - one snapshot now ("start", "periodic", "end"); failures are recorded
 * in it.
 */
void kfd_debugfs_snapshot(struct kfd_debugfs *d, const char *why);
/**
 * kfd_debugfs_close - ends the pages; returns their size, or -1 with err. Unmounts what it
 * mounted.
 */
long long kfd_debugfs_close(struct kfd_debugfs *d, struct gt_error *err);

#endif
