/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_LIVE_CAPTURE_H
#define GT_LIVE_CAPTURE_H

#include <stdbool.h>

#include "capture/live-pages.h"
#include "capture/stale.h"
#include "tracefs/buffer-ladder.h"
#include "tracefs/event-select.h"
#include "tracefs/session.h"
#include "util/gt-error.h"

struct tep_handle;
struct tep_record;

/*
 * top's capture: one private instance read as a stream while it records,
 * set up by the same steps as record's (capture-setup.h) and torn down the
 * same way.
 */
struct live_capture {
	const char *tracing_dir;
	bool mounted_now;		/* tracefs was mounted by us */
	struct trace_session session;
	struct buffer_result buffer;
	struct tep_handle *tep;		/* the selected systems' formats */
	bool no_gpu_events;		/* open failed: nothing to watch on this kernel */
	struct live_pages *pages;	/* pages read in place; NULL: libtracefs' iterator */
	int64_t mono_offset;		/* this process's time namespace's (time-ns.h) */
};

/**
 * struct live_capture_config - what top asks for
 * @events:          the selection; applied to the instance, its missing list filled
 * @explicit_events: -e named them (a preset needs a driver's events)
 * @buffer_kb:       -b in KB per CPU, 0 for the ladder
 * @stale:           hears about a killed gpu-trace's leftovers
 * @ctx:             passed to @stale
 */
struct live_capture_config {
	struct event_selection *events;
	bool explicit_events;
	unsigned long buffer_kb;
	stale_note stale;
	void *ctx;
};

/* One record as it is read; non-zero stops the read. */
typedef live_pages_fn live_record_fn;

/**
 * live_capture_open - tracefs found, the instance set up, not yet tracing
 * @lc:  zeroed by the caller
 * @cfg: what to capture
 * @err: why it failed; lc->no_gpu_events says when it is only that the
 *       kernel has none of the GPU events asked for
 *
 * On failure the caller still calls live_capture_close().
 *
 * Return: 0, or -1 with @err set.
 */
int live_capture_open(struct live_capture *lc, const struct live_capture_config *cfg,
		      struct gt_error *err);

/**
 * live_capture_start - tracing on
 * @lc:  an opened capture
 * @err: why tracing_on could not be set
 *
 * Return: 0, or -1 with @err set.
 */
int live_capture_start(struct live_capture *lc, struct gt_error *err);

/**
 * live_capture_now - now on the clock the capture's records carry (the kernel's
 * CLOCK_MONOTONIC: this process's, outside a time namespace)
 * @lc: an opened capture
 */
uint64_t live_capture_now(const struct live_capture *lc);

/**
 * live_capture_drain - every record the kernel holds now, in time order per CPU
 * @lc:    a started capture
 * @until: the last timestamp (live_capture_now()'s clock) handed out; a later record stays
 *         held for a later drain, so that an interval that ends at @until holds exactly what
 *         the kernel stamped before it, however late the read (UINT64_MAX: everything).
 *         libtracefs's reader, where the pages cannot be read directly, hands out everything.
 * @fn:    called for each record
 * @ctx:   passed to @fn
 */
void live_capture_drain(struct live_capture *lc, uint64_t until, live_record_fn fn, void *ctx);

/**
 * live_capture_mark - a line in the instance's buffer (its trace_marker), stamped now
 * @lc:   a started capture
 * @text: the line
 * @err:  why it could not be written
 *
 * Return: 0, or -1 with @err set.
 */
int live_capture_mark(struct live_capture *lc, const char *text, struct gt_error *err);

/**
 * live_capture_close - the instance removed, tracefs as it was; safe on every path
 * @lc:  an opened (or half-opened) capture
 * @err: why tracefs could not be restored
 *
 * Return: 0, or -1 with @err set.
 */
int live_capture_close(struct live_capture *lc, struct gt_error *err);

#endif
