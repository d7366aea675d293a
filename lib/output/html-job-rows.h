/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_HTML_JOB_ROWS_H
#define GT_HTML_JOB_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/timeline.h"

/*
 * The HTML page's jobs as fixed-size little-endian rows in base64 (the page
 * decodes them into one buffer and reads them in place: no JSON to parse, a
 * few bytes a job of JavaScript heap). A row, HTML_JOB_ROW bytes:
 *   0 f64 first time (ns)   8 u16 ring   10 u16 flags | key kind << 14
 *  12 i32 pid   16..35 u32 submit, queue, run, hw start, done after the first
 *  time   36 u32 dependency wait   40 u32 time on the engine where it is less than
 *  hardware start to done (a preempted i915 request's stints), else none
 * A u32 time is ns; with bit 31 set, the rest is us (past 2.1 s); all ones: none.
 * Each job's key (kind 0: none, 1: job id, 2: fence context and seqno) goes to
 * a second stream as LEB128 varints, one after the other: the page reads a
 * key only to show it, so they need no fixed place. The keys wait in an
 * unlinked temporary file until the rows are written: memory stays flat.
 *
 * A job queued inside a GPU ioctl of a thread the file follows (the CPU side,
 * cpu-side.h) has a row in a third stream, HTML_IOCTL_ROW bytes, in job order:
 *   0 f64 ioctl entered (ns)   8 u32 the job's row   12..31 u32 entered -> queued,
 *   then of it on CPU, runnable, sleeping (all sleep) and of that uninterruptible
 *  32 u32 interrupts   36 i32 thread   40 u16 name (its place in the page's
 *  ioctl_names; all ones: past HTML_IOCTL_NAMES)   42 u16 zero
 * Most files have none: the jobs' rows do not grow for them.
 */
#define HTML_JOB_ROW		44
#define HTML_JOB_MAX_RING	0xffff
#define HTML_IOCTL_ROW		44
#define HTML_IOCTL_NAMES	256
#define HTML_IOCTL_OTHER	0xffff

/* One job's ioctl, as html_job_rows_ioctl() writes it. */
struct html_ioctl {
	uint64_t enter, to_queued_ns;
	uint64_t on_cpu_ns, runnable_ns, sleeping_ns, blocked_ns, irq_ns;
	int tid;
	unsigned int name;		/* place in the page's names, or HTML_IOCTL_OTHER */
};

struct html_job_rows {
	FILE *out;
	FILE *keys;			/* the keys' varints until the rows are out */
	FILE *ioctls;			/* the ioctls' rows, likewise; NULL: none yet */
	unsigned char carry[3];		/* bytes waiting for a whole base64 group */
	int nr_carry;
	uint64_t rows, left_out;	/* rings past HTML_JOB_MAX_RING are left out */
	uint64_t nr_ioctls;
	bool failed;
};

/** html_job_rows_begin - rows base64-encoded onto @out; false when no temporary file */
bool html_job_rows_begin(struct html_job_rows *w, FILE *out);
/** html_job_rows_add - one job's row and key; false when the job was left out */
bool html_job_rows_add(struct html_job_rows *w, const struct job *j);
/** html_job_rows_ioctl - the ioctl the job just added was queued from; false: no temporary file */
bool html_job_rows_ioctl(struct html_job_rows *w, const struct html_ioctl *io);
/** html_job_rows_end - the last base64 group of the rows (padded); false when a write failed */
bool html_job_rows_end(struct html_job_rows *w);
/** html_job_rows_keys - the keys, base64, onto the same stream; frees their temporary file */
bool html_job_rows_keys(struct html_job_rows *w);
/** html_job_rows_ioctls - the ioctls' rows, base64, onto the same stream; frees their file */
bool html_job_rows_ioctls(struct html_job_rows *w);
/** html_job_rows_free - the temporary files, when the report stopped before they were out */
void html_job_rows_free(struct html_job_rows *w);

#endif
