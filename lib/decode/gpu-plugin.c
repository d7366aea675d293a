// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <trace-seq.h>

#include "decode/gpu-event.h"
#include "decode/gpu-plugin.h"

bool gpu_plugin_line(const struct gpu_decoder *dec, struct tep_event *event,
		     struct tep_record *rec, char line[GPU_PLUGIN_LINE], size_t *n)
{
	struct gpu_event ev;

	if (gpu_decoder_decode_event(dec, event, rec, &ev) == GEV_NONE)
		return false;
	gpu_event_format(&ev, line, GPU_PLUGIN_LINE);
	/* what trace_seq_puts() takes of it: up to the first NUL */
	*n = strlen(line);
	return true;
}

static int print_gpu_event(struct trace_seq *s, struct tep_record *rec,
			   struct tep_event *event, void *context)
{
	char line[GPU_PLUGIN_LINE];
	size_t n;

	(void)context;
	/* non-zero would make libtraceevent print the kernel's format too */
	if (!gpu_plugin_line(NULL, event, rec, line, &n))
		return 1;
	trace_seq_puts(s, line);
	return 0;
}

bool gpu_plugin_prints(const struct tep_event *event)
{
	return event->handler == print_gpu_event &&
	       !(event->flags & (TEP_EVENT_FL_NOHANDLE | TEP_EVENT_FL_PRINTRAW));
}

int gpu_plugin_register(struct tep_handle *tep, const char *system)
{
	const char *sys, *name;
	size_t i = 0;
	int n = 0;

	while (gpu_event_printed_next(&i, &sys, &name)) {
		if (system && strcmp(system, sys))
			continue;
		if (!tep_register_event_handler(tep, -1, sys, name, print_gpu_event, NULL))
			n++;
	}
	return n;
}

void gpu_plugin_unregister(struct tep_handle *tep, const char *system)
{
	const char *sys, *name;
	size_t i = 0;

	while (gpu_event_printed_next(&i, &sys, &name))
		if (!system || !strcmp(system, sys))
			tep_unregister_event_handler(tep, -1, sys, name, print_gpu_event, NULL);
}

/*
 * libtracecmd's function_graph printer reads ahead through its own handle
 * for the exit that makes a call a leaf. Records that our stream reader
 * (dat-stream) hands out never went through that handle, and the look-ahead
 * dereferences what it never loaded. These print each record alone: an
 * entry as the call at its depth, an exit as the brace with the function's
 * name and duration (no leaf folding: that needs the look-ahead; report
 * --events folds them itself, holding an entry for the record after it).
 */
static int print_graph(struct trace_seq *s, struct tep_record *rec,
		       struct tep_event *event, void *context)
{
	struct gpu_event ev;
	const char *func;
	int indent;

	(void)context;
	if (gpu_event_decode_one(event, rec, &ev) == GEV_NONE)
		return 1;
	func = tep_find_function(event->tep, ev.func_ip);
	indent = ev.depth >= 0 && ev.depth < 64 ? ev.depth * 2 : 0;
	if (ev.kind == GEV_FUNC_ENTRY) {
		trace_seq_printf(s, "%*s", indent, "");
		if (func)
			trace_seq_printf(s, "%s() {", func);
		else
			trace_seq_printf(s, "0x%llx() {", ev.func_ip);
		return 0;
	}
	trace_seq_printf(s, "%*s} /* ", indent, "");
	if (func)
		trace_seq_printf(s, "%s", func);
	else
		trace_seq_printf(s, "0x%llx", ev.func_ip);
	trace_seq_printf(s, ": %llu.%03llu us */", ev.duration / 1000, ev.duration % 1000);
	return 0;
}

int gpu_plugin_register_graph(struct tep_handle *tep)
{
	int n = 0;

	/* >= 0: registered, or (TEP_REGISTER_SUCCESS_OVERWRITE) replaced libtracecmd's */
	if (tep_register_event_handler(tep, -1, "ftrace", "funcgraph_entry", print_graph, NULL) >= 0)
		n++;
	if (tep_register_event_handler(tep, -1, "ftrace", "funcgraph_exit", print_graph, NULL) >= 0)
		n++;
	return n;
}
