/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CMD_RECORD_H
#define GT_CMD_RECORD_H

#include <stdbool.h>
#include <sys/types.h>

#include "../lib/event-select.h"

struct record_opts {
	const char *output;
	unsigned long buffer_kb;	/* 0: the ladder */
	struct event_selection events;
	bool have_explicit_events;
	const char *preset;
	const char *tracer;
	const char **filters;		/* -l */
	int nr_filters;
	const char **graph_funcs;	/* -g */
	int nr_graph_funcs;
	int max_graph_depth;
	bool strict;
	bool ignore_missing;
	bool system_wide;
	bool no_follow;
	bool as_root;
	bool top_level;
	bool force;			/* replace an existing -o */
	const char *clock;
	double duration;		/* seconds, 0: none */
	pid_t *pids;			/* -P */
	int nr_pids;
	char **command;			/* NULL: none */
};

/* 0 ok, 1 help printed, -1 error (already in err). */
int record_opts_parse(int argc, char **argv, struct record_opts *o,
		      struct gt_error *err);
void record_opts_free(struct record_opts *o);

#endif
