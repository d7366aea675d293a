// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <trace-seq.h>

#include "gpu-event.h"
#include "gpu-plugin.h"

static int print_gpu_event(struct trace_seq *s, struct tep_record *rec,
			   struct tep_event *event, void *context)
{
	struct gpu_event ev;
	char line[512];

	(void)context;
	/* non-zero would make libtraceevent print the kernel's format too */
	if (gpu_event_decode_one(event, rec, &ev) == GEV_NONE)
		return 1;
	gpu_event_format(&ev, line, sizeof(line));
	trace_seq_puts(s, line);
	return 0;
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
