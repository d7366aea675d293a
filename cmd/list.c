// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/nvidia-probes.h"
#include "tracefs/event-select.h"
#include "tracefs/presets.h"
#include "tracefs/tracer-setup.h"
#include "cmd.h"

static void list_systems(bool with_events)
{
	int i, j, nr;

	printf("GPU event systems on this kernel:\n");
	for (i = 0; gpu_event_systems[i]; i++) {
		char **events = event_glob_expand(gpu_event_systems[i], "*", &nr);

		printf("  %-14s %s", gpu_event_systems[i], nr ? "" : "absent");
		if (nr)
			printf("%d event%s", nr, nr == 1 ? "" : "s");
		printf("\n");
		for (j = 0; with_events && j < nr; j++)
			printf("      %s\n", events[j]);
		event_string_list_free(events, nr);
	}
}

static void list_tracers(const char *tracing_dir)
{
	static const char *const tracers[] = { "function_graph", "function", NULL };
	int i, why;

	printf("tracers:\n");
	for (i = 0; tracers[i]; i++) {
		enum tracer_permission p = tracer_probe(tracing_dir, tracers[i], &why);

		printf("  %-14s ", tracers[i]);
		switch (p) {
		case TRACER_ABSENT:
			printf("absent (not built into this kernel)\n");
			break;
		case TRACER_PERMITTED:
			printf("available\n");
			break;
		case TRACER_TOP_LEVEL_ONLY:
			printf("available in the top-level buffer only (record uses it there)\n");
			break;
		case TRACER_REFUSED:
			printf("listed but refused by the kernel (%s)\n", strerror(why));
			break;
		}
	}
}

/* where each function the NVIDIA probes go on is, or why it is not */
static void list_nvidia_probes(const char *tracing_dir)
{
	struct nv_function f[NV_PROBE_FUNCTIONS];
	const char *why = nv_probes_unavailable(tracing_dir);
	int i, n = nv_probes_functions(f, NV_PROBE_FUNCTIONS);

	if (why && strstr(why, "kprobe_events"))
		printf("  kprobes                  none can be set: %s\n", why);
	for (i = 0; i < n; i++) {
		printf("  kprobe %-50s ", f[i].func);
		if (f[i].present && f[i].found_as)
			printf("present as %s (%s; drivers before 570)\n", f[i].found_as,
			       f[i].module[0] ? f[i].module : "built in");
		else if (f[i].present)
			printf("present (%s)\n", f[i].module[0] ? f[i].module : "built in");
		else
			printf("absent: %s\n", f[i].uvm ? "nvidia-uvm is not loaded" :
			       !f[0].present ? "nvidia.ko is not loaded" : "not in this driver build");
	}
}

static void list_preset(const struct preset *p, const char *tracing_dir)
{
	int i, nr;

	printf("preset %s: %s\n", p->name, p->description);
	for (i = 0; p->events[i]; i++) {
		struct event_spec sp;
		char **events;

		if (event_spec_parse(p->events[i], true, &sp, NULL))
			continue;
		events = event_glob_expand(sp.system, sp.event, &nr);
		printf("  %-24s %s", p->events[i], nr ? "present, " : "missing");
		if (!nr && !strcmp(sp.system, "nvidia"))
			fputs(nv_driver_loaded() ? " (this driver build has none: it came in 575)" :
			      " (nvidia.ko is not loaded)", stdout);
		if (nr)
			printf("%d event%s", nr, nr == 1 ? "" : "s");
		printf("\n");
		event_string_list_free(events, nr);
		free(sp.system);
		free(sp.event);
		free(sp.filter);
	}
	if (p->tracer)
		printf("  tracer %s with %s\n", p->tracer, p->function_filter);
	if (p->nvidia_probes)
		list_nvidia_probes(tracing_dir);
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "preset", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool events = false, tracers = false;
	const struct preset *only = NULL;
	struct gt_error err = { 0 };
	const char *dir;
	int c, i;

	optind = 0;	/* a full restart of getopt, also when called again in one process */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+eth", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			events = true;
			break;
		case 't':
			tracers = true;
			break;
		case 'P':
			only = preset_find(optarg);
			if (!only)
				return cmd_failf("list", "unknown preset '%s'; presets are %s",
						 optarg, preset_names());
			break;
		case 'h':
			fputs(cmd_usage("list"), stdout);
			return 0;
		default:
			return cmd_failf("list", "unknown option '%s'; see gpu-trace help list",
					 argv[optind - 1]);
		}
	}
	if (session_find_tracing_dir(&dir, NULL, &err))
		return cmd_fail("list", &err);
	if (only) {
		list_preset(only, dir);
		return 0;
	}
	if (events || !tracers)
		list_systems(events);
	if (tracers || !events)
		list_tracers(dir);
	if (!events && !tracers)
		for (i = 0; presets[i].name; i++)
			list_preset(&presets[i], dir);
	return 0;
}
