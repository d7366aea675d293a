/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_TRACER_SETUP_H
#define GT_TRACER_SETUP_H

#include <stdbool.h>

#include "util/gt-error.h"
#include "tracefs/session.h"

struct tracer_request {
	const char *tracer;		/* function_graph, function, nop */
	const char *const *filters;	/* -l, set_ftrace_filter lines */
	int nr_filters;
	const char *const *graph_funcs;	/* -g, set_graph_function */
	int nr_graph_funcs;
	int max_graph_depth;		/* 0: leave the kernel's */
	bool strict;			/* a fallback is an error */
};

#define TRACER_MAX_NOTES 4

struct tracer_result {
	char used[32];			/* "nop" means events only */
	int nr_notes;
	char notes[TRACER_MAX_NOTES][320];	/* one line per fallback */
};

/** tracer_is_known - whether @name is a tracer of the fallback chain gpu-trace knows */
bool tracer_is_known(const char *name);

/**
 * tracer_setup - sets the tracer, falling back function_graph -> function -> events only when
 * the kernel lacks or forbids one. May move the session to the top level when the kernel
 * allows the tracer only there.
 */
int tracer_setup(struct trace_session *s, const struct tracer_request *rq,
		 struct tracer_result *res, struct gt_error *err);

/** tracer_listed - is `name` a word of the available_tracers file in `dir`? -1 if unreadable */
int tracer_listed(const char *dir, const char *name);

enum tracer_permission {
	TRACER_ABSENT,		/* not in available_tracers */
	TRACER_PERMITTED,	/* set and cleared in a scratch instance */
	TRACER_TOP_LEVEL_ONLY,	/* listed, but not for instances */
	TRACER_REFUSED,		/* the kernel said no (errno in *why) */
};

/** tracer_probe - tries the tracer in a scratch instance (never the top level). */
enum tracer_permission tracer_probe(const char *tracing_dir, const char *tracer,
				    int *why);

#endif
