/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CMD_TOP_H
#define GT_CMD_TOP_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "tracefs/event-select.h"
#include "cmd.h"
#include "analysis/live-stats.h"
#include "analysis/analysis.h"

struct top_opts {
	struct event_selection events;
	struct capture_args cap;	/* what record's options share; cap.events: &events */
	const char *preset;
	double interval_s;		/* -d */
	long count;			/* -n, 0: until stopped */
	bool json;
	enum live_sort sort;
	char **command;
};

/* cmd/top-view.c: one interval on a terminal, or as one JSON line */
struct top_view {
	FILE *out;
	bool json;
	int rows, cols;			/* the terminal's, 0: not a terminal */
	bool paused;
	double elapsed_s;
	uint64_t clock_ns;		/* the tick on the records' clock (live_capture_now()) */
	struct analysis *analysis;
};

void top_view_text(struct top_view *v, const struct live_snapshot *s, enum live_sort sort);
void top_view_json(struct top_view *v, const struct live_snapshot *s);
/* the terminal's size now, after a resize */
void top_view_measure(struct top_view *v);

#endif
