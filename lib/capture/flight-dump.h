/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FLIGHT_DUMP_H
#define GT_FLIGHT_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "capture/flight-ring.h"
#include "capture/live-capture.h"
#include "util/gt-error.h"

/*
 * The flight recorder's files: what its ring holds written as a trace-cmd
 * v6 file (the same writer as record's, so trace-cmd, KernelShark and
 * report read a dump as any recording), named by host, time and cause in
 * a directory that keeps the newest N files or bytes.
 */

/* What a dump held, for the journal line. */
struct flight_dump_info {
	char path[4096];
	uint64_t pages, bytes;		/* pages written, the file's size */
	uint64_t from_ts, to_ts;	/* the window on the trace clock: every CPU whole from from_ts */
};

/* The directory the dumps go to and what it may keep. */
struct flight_dir {
	int fd;				/* O_DIRECTORY, opened once: a later rename of the path is not followed */
	char path[4096];
	char host[65];			/* the host's name as file names carry it */
	unsigned long keep_files;	/* 0: no bound */
	unsigned long long keep_bytes;	/* 0: no bound */
};

/**
 * flight_dir_open - the dumps' directory, made (mode 0750) when missing
 * @d:    filled; d->keep_* are the caller's
 * @path: the directory
 * @err:  why not
 *
 * Return: 0, or -1 with @err set.
 */
int flight_dir_open(struct flight_dir *d, const char *path, struct gt_error *err);
/** flight_dir_close - the directory's fd closed; safe twice */
void flight_dir_close(struct flight_dir *d);

/**
 * flight_dump_write - the ring's pages, oldest first, as one file in @d
 * @lc:    the live capture the pages came from (its formats, clock and cmdlines go in the file)
 * @sel:   the event selection (the systems whose formats the file carries)
 * @ring:  the pages
 * @cause: the trigger's name, in the file's name
 * @info:  what was written
 * @err:   why not
 *
 * Pages whose records all precede the window (ring->window_start) are left out.
 *
 * Return: 0, or -1 with @err set (nothing is left behind).
 */
int flight_dump_write(const struct live_capture *lc, const struct event_selection *sel,
		      const struct flight_ring *ring, struct flight_dir *d, const char *cause,
		      struct flight_dump_info *info, struct gt_error *err);

/**
 * flight_dir_prune - the oldest dumps removed until the directory keeps what @d allows
 * @d:        the directory
 * @keep:     a file never removed (the one just written), by name; NULL: none
 * @removed:  how many were removed
 *
 * Only regular files named gpu-trace-HOST-*.dat of this host are counted or removed.
 */
void flight_dir_prune(struct flight_dir *d, const char *keep, unsigned int *removed);

/**
 * flight_page_times - the first and last record time of a page (0, 0 when it holds none)
 * @page:      the page as read (page_size bytes, 64-bit page header)
 * @page_size: its size
 */
void flight_page_times(const unsigned char *page, size_t page_size, uint64_t *first,
		       uint64_t *last);

#endif
