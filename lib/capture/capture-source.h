/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CAPTURE_SOURCE_H
#define GT_CAPTURE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/gt-error.h"

struct record_run;

/**
 * struct capture_pages - what a capture source adds to the .dat beside the ring buffers
 * @buffer: the buffer instance its records become (its name in the file)
 * @fd:     print records in pages of the recorder's page size, read from offset 0
 * @size:   how many bytes of them
 */
struct capture_pages {
	const char *buffer;
	int fd;
	off_t size;
};

/**
 * struct capture_source - one thing record captures beside the ring buffers (probes it
 * defines, snapshots it takes, a log it collects): a row of capture_sources[], whose steps the
 * record engine runs in table order, never calling a source by name
 * @name:       what it captures, for messages and tests
 * @state_size: bytes of its private state, zeroed by the engine and handed to every step
 * @init:       the state's "nothing open" values (fds -1), before any other step
 * @probes:     tracefs set, before the buffers are sized: probes defined and enabled
 * @prepare:    the buffers sized, before the workload is spawned: files opened
 * @started:    tracing on and the workload released: a first snapshot
 * @poll:       every turn of the wait; returns the milliseconds it wants until the next
 *              turn (0: no wish; the engine waits 100 at most)
 * @stopped:    tracing off, before tracefs is put back: last snapshots, probe formats kept
 *              (record_keep_formats)
 * @teardown:   after the instances are gone: probes removed; safe to call twice
 * @collect:    after the workload ended: what it left behind read in
 * @pages:      its pages for the file; false: it adds no buffer
 * @say:        lines for the user once the file is written
 * @free:       everything it holds, on every path (after a failed step too)
 *
 * Every step may be NULL. A step that returns -1 sets @err and ends the run; anything a source
 * can do without is a line through record_say(), never a failure unless --strict asks.
 * A new source is one file and one row in capture-sources.c.
 */
struct capture_source {
	const char *name;
	size_t state_size;
	void (*init)(void *st);
	int (*probes)(struct record_run *run, void *st, struct gt_error *err);
	int (*prepare)(struct record_run *run, void *st, struct gt_error *err);
	void (*started)(struct record_run *run, void *st);
	long (*poll)(struct record_run *run, void *st);
	void (*stopped)(struct record_run *run, void *st);
	int (*teardown)(struct record_run *run, void *st, struct gt_error *err);
	void (*collect)(struct record_run *run, void *st);
	bool (*pages)(const struct record_run *run, const void *st, struct capture_pages *p);
	void (*say)(const struct record_run *run, const void *st);
	void (*free)(struct record_run *run, void *st);
};

#define CAPTURE_MAX_SOURCES	8

extern const struct capture_source *const capture_sources[];
extern const size_t capture_nr_sources;

/* the rows, one per source file */
extern const struct capture_source capture_hip_log;
extern const struct capture_source capture_kfd;
extern const struct capture_source capture_nvidia;
extern const struct capture_source capture_drm_fdinfo;

#endif
