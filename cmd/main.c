// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "cmd.h"

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd_struct commands[] = {
	{ "record", cmd_record, "set up tracefs, run a workload, capture raw per-CPU buffers into a .dat" },
	{ "report", cmd_report, "decode GPU events into per-job timelines and per-ring latency statistics" },
	{ "compare", cmd_compare, "is B slower than A, on which ring and stage, beyond run-to-run noise?" },
	{ "fleet", cmd_fleet, "many hosts' recordings: per host and ring, and the hosts slower beyond noise" },
	{ "top", cmd_top, "live per-ring view of GPU jobs: rate, busy %, waits, who floods a ring" },
	{ "check", cmd_check, "what this machine lets gpu-trace record, with a fix for each problem" },
	{ "list", cmd_list, "GPU event systems, events, tracers and presets this kernel has" },
	{ "reset", cmd_reset, "remove what a killed gpu-trace record left in tracefs" },
	{ "help", cmd_help, "show help for a command" },
	{ NULL, NULL, NULL }
};

static void usage(FILE *f)
{
	int i;

	fprintf(f, "usage: gpu-trace [--version] [--help] <command> [<args>]\n\n"
		   "Record and decode Linux GPU driver events (amdgpu/KFD, DRM scheduler, dma_fence)\n"
		   "into trace-cmd compatible .dat files.\n\ncommands:\n");
	for (i = 0; commands[i].name; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nSee 'gpu-trace help <command>' or man gpu-trace-<command>.\n");
}

int cmd_help(int argc, char **argv)
{
	const char *text;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	text = cmd_usage(argv[1]);
	if (!text) {
		char names[128] = "";
		size_t len = 0;
		int i;

		/* the table's names, so the list never drifts from it */
		for (i = 0; commands[i].name && len < sizeof(names); i++)
			if (strcmp(commands[i].name, "help"))
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
							len ? ", " : "", commands[i].name);
		return cmd_failf("help", "no command '%s'; commands are %s", argv[1], names);
	}
	fputs(text, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		usage(stderr);
		return GT_EXIT_FAILURE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("gpu-trace %s\n", GT_VERSION);
		return 0;
	}
	for (i = 0; commands[i].name; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	cmd_say("gpu-trace: '%s' is not a command; see gpu-trace --help", argv[1]);
	return GT_EXIT_FAILURE;
}
