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
 */
#define HTML_JOB_ROW		44
#define HTML_JOB_MAX_RING	0xffff

struct html_job_rows {
	FILE *out;
	FILE *keys;			/* the keys' varints until the rows are out */
	unsigned char carry[3];		/* bytes waiting for a whole base64 group */
	int nr_carry;
	uint64_t rows, left_out;	/* rings past HTML_JOB_MAX_RING are left out */
	bool failed;
};

/** html_job_rows_begin - rows base64-encoded onto @out; false when no temporary file */
bool html_job_rows_begin(struct html_job_rows *w, FILE *out);
/** html_job_rows_add - one job's row and key */
void html_job_rows_add(struct html_job_rows *w, const struct job *j);
/** html_job_rows_end - the last base64 group of the rows (padded); false when a write failed */
bool html_job_rows_end(struct html_job_rows *w);
/** html_job_rows_keys - the keys, base64, onto the same stream; frees the temporary file */
bool html_job_rows_keys(struct html_job_rows *w);
/** html_job_rows_free - the temporary file, when the report stopped before the keys */
void html_job_rows_free(struct html_job_rows *w);

#endif
