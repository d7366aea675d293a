// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracefs/run-lock.h"
#include "tracefs/tracer-setup.h"
#include "util/pid-ns.h"

static const char *const chain[] = { "function_graph", "function", "nop" };

bool tracer_is_known(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(chain) / sizeof(chain[0]); i++)
		if (!strcmp(chain[i], name))
			return true;
	return false;
}

int tracer_listed(const char *dir, const char *name)
{
	char *list = trace_file_read(dir, "available_tracers");
	char *tok, *save = NULL;
	int found = 0;

	if (!list)
		return -1;
	for (tok = strtok_r(list, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, name))
			found = 1;
	free(list);
	return found;
}

static void note(struct tracer_result *res, const char *fmt, const char *a,
		 const char *b)
{
	if (res->nr_notes < TRACER_MAX_NOTES)
		snprintf(res->notes[res->nr_notes++], sizeof(res->notes[0]), fmt, a, b);
}

static char *join_lines(const char *const *items, int nr)
{
	size_t len = 1;
	char *out;
	int i;

	for (i = 0; i < nr; i++)
		len += strlen(items[i]) + 1;
	out = calloc(1, len);
	for (i = 0; out && i < nr; i++) {
		strcat(out, items[i]);
		strcat(out, "\n");
	}
	return out;
}

static int write_list(struct trace_session *s, const char *file,
		      const char *const *items, int nr, struct gt_error *err)
{
	char *joined;
	int ret;

	if (!nr)
		return 0;
	joined = join_lines(items, nr);
	if (!joined)
		return gt_error_set(err, ENOMEM, "out of memory");
	ret = session_write(s, file, joined, err);
	free(joined);
	return ret;
}

/* 0 set, 1 refused by the kernel (try the next one), -1 hard error */
static int try_tracer(struct trace_session *s, const struct tracer_request *rq,
		      const char *tracer, struct tracer_result *res,
		      struct gt_error *err)
{
	struct gt_error e = { 0 };
	char depth[16];
	bool graph = !strcmp(tracer, "function_graph");

	if (tracer_listed(s->tracing_dir, tracer) != 1) {
		note(res, "tracer %s: not available on this kernel (not in available_tracers)%s",
		     tracer, "");
		return 1;
	}
	if (!s->top_level && tracer_listed(s->dir, tracer) == 0) {
		note(res, "tracer %s: this kernel allows it only in the top-level buffer; recording there%s",
		     tracer, " (every top-level setting is restored afterwards)");
		if (session_move_to_top_level(s, err))
			return -1;
	}
	if (write_list(s, "set_ftrace_filter", rq->filters, rq->nr_filters, &e) ||
	    (graph && write_list(s, "set_graph_function", rq->graph_funcs,
				 rq->nr_graph_funcs, &e))) {
		if (e.errnum == EPERM || e.errnum == EACCES) {
			note(res, "tracer %s: function filters refused by the kernel (%s: function tracing is forbidden here)",
			     tracer, strerror(e.errnum));
			return 1;
		}
		return gt_error_set(err, e.errnum,
				    "function filter for %s rejected: %s; check the names with available_filter_functions (a module must be loaded for :mod:NAME to match now)",
				    tracer, strerror(e.errnum));
	}
	if (graph && rq->max_graph_depth > 0) {
		snprintf(depth, sizeof(depth), "%d", rq->max_graph_depth);
		/* max_graph_depth is global on kernels without per-instance graphs */
		if (session_has_file(s, "max_graph_depth") &&
		    session_write(s, "max_graph_depth", depth, err))
			return -1;
	}
	if (session_write(s, "current_tracer", tracer, &e)) {
		if (e.errnum == EPERM || e.errnum == EACCES || e.errnum == EINVAL ||
		    e.errnum == ENODEV || e.errnum == EBUSY) {
			note(res, "tracer %s: refused by the kernel (%s)",
			     tracer, e.errnum == EPERM ? "EPERM: function tracing is forbidden here"
						      : strerror(e.errnum));
			return 1;
		}
		*err = e;
		return -1;
	}
	/*
	 * No funcgraph-* option is set: they change only how the text `trace`
	 * file prints, never the raw records we capture, and before per-instance
	 * tracer flags they are the graph tracer's own, shared by every
	 * instance: the lab's fresh 6.12 guest kept funcgraph-proc=1 at the top
	 * level after a record in an instance had set it.
	 */
	return 0;
}

int tracer_setup(struct trace_session *s, const struct tracer_request *rq,
		 struct tracer_result *res, struct gt_error *err)
{
	size_t i, start = 0;
	int ret;

	memset(res, 0, sizeof(*res));
	snprintf(res->used, sizeof(res->used), "nop");
	if (!rq->tracer || !strcmp(rq->tracer, "nop"))
		return 0;
	while (start < sizeof(chain) / sizeof(chain[0]) && strcmp(chain[start], rq->tracer))
		start++;
	if (start == sizeof(chain) / sizeof(chain[0]))
		return gt_error_set(err, EINVAL,
				    "unknown tracer '%s'; use -p function_graph, function or nop",
				    rq->tracer);
	for (i = start; i < sizeof(chain) / sizeof(chain[0]) - 1; i++) {
		ret = try_tracer(s, rq, chain[i], res, err);
		if (ret < 0)
			return -1;
		if (ret == 0) {
			snprintf(res->used, sizeof(res->used), "%s", chain[i]);
			return 0;
		}
		if (rq->strict)
			return gt_error_set(err, ENOTSUP, "%s; --strict forbids falling back",
					    res->notes[res->nr_notes - 1]);
		/* undo filters the refused tracer left behind */
		if (rq->nr_filters && session_has_file(s, "set_ftrace_filter"))
			trace_file_write(s->dir, "set_ftrace_filter", "", NULL);
	}
	note(res, "recording events only (no %s tracer)%s", rq->tracer,
	     rq->nr_filters ? "; function filters ignored" : "");
	return 0;
}

enum tracer_permission tracer_probe(const char *tracing_dir, const char *tracer,
				    int *why)
{
	struct tracefs_instance *inst;
	enum tracer_permission ret;
	char name[64], dir[4200];
	struct gt_error e = { 0 };

	*why = 0;
	if (tracer_listed(tracing_dir, tracer) != 1)
		return TRACER_ABSENT;
	snprintf(name, sizeof(name), "%sprobe-%d%s", GT_INSTANCE_PREFIX, (int)getpid(),
		 pid_ns_instance_tag());
	/* ours and alive to other runs' cleanup; without it, not made at all */
	if (run_lock_live(&e)) {
		*why = e.errnum;
		return TRACER_REFUSED;
	}
	inst = tracefs_instance_create(name);
	if (!inst || !tracefs_instance_is_new(inst)) {
		*why = inst ? EEXIST : errno;
		tracefs_instance_free(inst);
		return TRACER_REFUSED;
	}
	snprintf(dir, sizeof(dir), "%s/instances/%s", tracing_dir, name);
	/*
	 * One function in the filter: switching the tracer on then patches a
	 * single call site instead of every one in the kernel (41 s under qemu
	 * TCG for 7.3 without it).  Kernels that forbid the tracer refuse the
	 * filter too; the tracer write below is what decides.
	 */
	trace_file_write(dir, "set_ftrace_filter", "vfs_read", NULL);
	if (tracer_listed(dir, tracer) == 0) {
		ret = TRACER_TOP_LEVEL_ONLY;
	} else if (trace_file_write(dir, "current_tracer", tracer, &e)) {
		*why = e.errnum;
		ret = TRACER_REFUSED;
	} else {
		trace_file_write(dir, "current_tracer", "nop", NULL);
		ret = TRACER_PERMITTED;
	}
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return ret;
}
