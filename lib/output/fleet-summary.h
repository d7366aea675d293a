/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FLEET_SUMMARY_H
#define GT_FLEET_SUMMARY_H

#include <stdio.h>

#include "analysis/fleet-run.h"
#include "analysis/fleet-stats.h"

/* What the summary is written from: the judged fleet and how each file went. */
struct fleet_view {
	const struct fleet *f;
	char *const *files;		/* in the order read (sorted) */
	const struct fleet_outcome *out;	/* one per file */
	int nr_files;
	unsigned long long files_over;	/* found past the files' limit, not read */
};

/** fleet_view_failed - files that could not be read */
int fleet_view_failed(const struct fleet_view *v);

/*
 * The summary in each format, to @f (text: the caller escapes what a
 * terminal obeys, term_safe_stream; JSON and CSV escape their own strings).
 * Rows come sorted by host and ring (fleet_judge): the same bytes for any
 * number of threads.
 */
/** fleet_summary_text - the header, the outliers in one line each, a table per ring */
void fleet_summary_text(FILE *f, const struct fleet_view *v);
/** fleet_summary_json - one object, schema gpu-trace-fleet/1 (gpu-trace-fleet(1)) */
void fleet_summary_json(FILE *f, const struct fleet_view *v);
/** fleet_summary_csv - a row per host, ring and stage with jobs, under a header */
void fleet_summary_csv(FILE *f, const struct fleet_view *v);

#endif
