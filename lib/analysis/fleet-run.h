/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FLEET_RUN_H
#define GT_FLEET_RUN_H

#include <stdbool.h>

#include "dat/dat-stream.h"
#include "util/gt-error.h"
#include "analysis/fleet-stats.h"

/*
 * The fleet summary's driver: every file through the one pass report makes
 * (analysis_open_dat, analysis_run: the same joins and statistics), on a pool
 * of threads, each file's pass kept until its rings are summarised
 * (fleet_file) and then closed: memory holds the passes in flight and the
 * fleet's rows, never a file's jobs.
 */

/* How one file went, for the command to say in the files' order. */
struct fleet_outcome {
	char *error;			/* why the file could not be read, one line; NULL */
	bool gpu;			/* it held GPU events */
	struct dat_stream_damage damage;	/* records set aside (time stepped back) */
	int instances_absent;		/* buffer instances named, their pages not in the file */
	int instances_read;		/* ... and those whose pages it holds */
};

/**
 * fleet_read_file - one file's pass summarised: its host (the record-identity marker, else a
 * host=NAME folder, else its name) and per ring report's statistics
 * @path:       the .dat
 * @ff:         its summary (free with fleet_file_free)
 * @o:          whether it held GPU events, what was set aside
 * @one_thread: no reading thread of its own (files are read side by side)
 * @counts:     scratch of LATENCY_BUCKETS
 * @err:        why it could not be read
 *
 * Return: 0, or -1 with @err set.
 */
int fleet_read_file(const char *path, struct fleet_file *ff, struct fleet_outcome *o,
		    bool one_thread, uint64_t *counts, struct gt_error *err);

/**
 * fleet_run - every file read by @jobs threads (at least 1) into @f, each file's outcome at its
 * index in @out (nr of them, zeroed by the caller); a file that cannot be read is its outcome's
 * error and the others go on. The fleet is the same for any @jobs.
 *
 * Return: 0, or -1 with @err set when no thread could be started or memory ran out.
 */
int fleet_run(struct fleet *f, char *const *files, int nr, int jobs, struct fleet_outcome *out,
	      struct gt_error *err);

#endif
