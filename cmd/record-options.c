// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefs/presets.h"
#include "tracefs/tracer-setup.h"
#include "cmd.h"
#include "record.h"

enum {
	OPT_IGNORE_MISSING = OPT_CAPTURE_FIRST,
	OPT_STRICT,
	OPT_MAX_GRAPH_DEPTH,
	OPT_DURATION,
	OPT_NO_FOLLOW,
	OPT_AS_ROOT,
	OPT_TOP_LEVEL,
	OPT_FORCE,
	OPT_SYSTEM_WIDE_EVENTS,
	OPT_HIP_LOG,
	OPT_CGROUP,
	OPT_CONTAINER,
	OPT_KFD_ARGS,
	OPT_NO_KFD_ARGS,
	OPT_KFD_SNAPSHOT,
	OPT_NO_CPU_SIDE,
	OPT_FLIGHT,
	OPT_TRIGGER,
	OPT_AFTER,
	OPT_EVERY,
	OPT_MIN_GAP,
	OPT_KEEP,
	OPT_TRIGGER_FILE,
};

static const struct option long_options[] = {
	CAPTURE_LONG_OPTIONS,
	{ "output", required_argument, NULL, 'o' },
	{ "filter", required_argument, NULL, 'f' },
	{ "tracer", required_argument, NULL, 'p' },
	{ "function", required_argument, NULL, 'l' },
	{ "graph-function", required_argument, NULL, 'g' },
	{ "clock", required_argument, NULL, 'C' },
	{ "ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "max-graph-depth", required_argument, NULL, OPT_MAX_GRAPH_DEPTH },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "no-follow", no_argument, NULL, OPT_NO_FOLLOW },
	{ "as-root", no_argument, NULL, OPT_AS_ROOT },
	{ "top-level", no_argument, NULL, OPT_TOP_LEVEL },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "system-wide-events", no_argument, NULL, OPT_SYSTEM_WIDE_EVENTS },
	{ "hip-log", optional_argument, NULL, OPT_HIP_LOG },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "container", required_argument, NULL, OPT_CONTAINER },
	{ "kfd-args", no_argument, NULL, OPT_KFD_ARGS },
	{ "no-kfd-args", no_argument, NULL, OPT_NO_KFD_ARGS },
	{ "kfd-snapshot", required_argument, NULL, OPT_KFD_SNAPSHOT },
	{ "no-cpu-side", no_argument, NULL, OPT_NO_CPU_SIDE },
	{ "flight-recorder", optional_argument, NULL, OPT_FLIGHT },
	{ "trigger", required_argument, NULL, OPT_TRIGGER },
	{ "after", required_argument, NULL, OPT_AFTER },
	{ "every", required_argument, NULL, OPT_EVERY },
	{ "min-gap", required_argument, NULL, OPT_MIN_GAP },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "trigger-file", required_argument, NULL, OPT_TRIGGER_FILE },
	{ NULL, 0, NULL, 0 }
};

static int push(const char ***list, int *nr, const char *item)
{
	const char **n = realloc(*list, sizeof(*n) * (size_t)(*nr + 1));

	if (!n)
		return -1;
	n[(*nr)++] = item;
	*list = n;
	return 0;
}

static int parse_positive(const char *opt, const char *arg, unsigned long max,
			  unsigned long *out, struct gt_error *err)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || v == 0 || v > max || arg[0] == '-')
		return gt_error_set(err, EINVAL, "bad %s '%s': expected a whole number from 1 to %lu",
				    opt, arg, max);
	*out = (unsigned long)v;
	return 0;
}

/* The flight recorder watches the whole machine's GPUs and keeps them in memory */
static int check_flight(struct record_opts *o, struct gt_error *err)
{
	const struct record_flight *f = &o->flight;
	const char *given = f->nr_triggers ? "--trigger" : f->after ? "--after" :
			    f->every ? "--every" : f->min_gap ? "--min-gap" : f->keep ? "--keep" :
			    f->trigger_file ? "--trigger-file" : NULL;
	const char *clash = o->command ? "a command" : o->nr_pids ? "-P" :
			    o->cgroup ? "--cgroup" : o->container ? "--container" :
			    o->tracer ? "a tracer (-p, -l, -g)" : o->hip_log >= 0 ? "--hip-log" :
			    o->kfd_args > 0 ? "--kfd-args" : o->kfd_snapshot_ms ? "--kfd-snapshot" :
			    o->top_level ? "--top-level" : NULL;

	if (!f->on)
		return given ? gt_error_set(err, EINVAL, "%s belongs to the flight recorder; add --flight-recorder",
					    given) : 0;
	if (clash)
		return gt_error_set(err, EINVAL, "--flight-recorder keeps the whole machine's GPU events in memory; it cannot be combined with %s",
				    clash);
	o->system_wide = true;
	if (!o->output_given)
		o->output = ".";
	return 0;
}

static int check_combination(struct record_opts *o, struct gt_error *err)
{
	bool cgroup = o->cgroup || o->container;

	if (check_flight(o, err))
		return -1;
	if (o->flight.on)
		return 0;

	if (o->cgroup && o->container)
		return gt_error_set(err, EINVAL, "--cgroup and --container both name a cgroup; give one");
	if (cgroup && (o->nr_pids || o->system_wide))
		return gt_error_set(err, EINVAL, "--%s scopes the recording to a cgroup; it cannot be combined with %s",
				    o->cgroup ? "cgroup" : "container", o->nr_pids ? "-P" : "-a");
	if (!o->command && !o->system_wide && !o->nr_pids && !cgroup)
		return gt_error_set(err, EINVAL,
				    "nothing to record: give a command after --, -a for system-wide, -P PID or --container NAME");
	if (o->nr_pids && o->command)
		return gt_error_set(err, EINVAL, "-P attaches to running processes; it cannot be combined with a command");
	if (o->nr_pids && o->system_wide)
		return gt_error_set(err, EINVAL, "-P and -a contradict each other: -a records every process");
	if (o->no_follow && !o->command && !cgroup)
		return gt_error_set(err, EINVAL, "--no-follow applies to a command given after --");
	if (o->hip_log >= 0 && !o->command)
		return gt_error_set(err, EINVAL, "--hip-log needs a command to run (record --hip-log -- ./app): the HIP runtime reads AMD_LOG_LEVEL when its process starts");
	if (o->hip_log >= 0 && strcmp(o->clock, "mono"))
		return gt_error_set(err, EINVAL, "--hip-log needs the mono clock: the HIP runtime stamps its lines with CLOCK_MONOTONIC; drop --clock %s",
				    o->clock);
	if ((o->nr_graph_funcs || o->max_graph_depth) && !o->tracer)
		o->tracer = "function_graph";
	if (o->nr_filters && !o->tracer)
		o->tracer = "function";
	return 0;
}

static void take_shared(struct record_opts *o, const struct capture_args *ca)
{
	o->buffer_kb = ca->buffer_kb;
	o->pids = ca->pids;
	o->nr_pids = ca->nr_pids;
	o->system_wide = ca->system_wide;
	o->have_explicit_events = ca->explicit_events;
}

int record_opts_parse(int argc, char **argv, struct record_opts *o,
		      struct gt_error *err)
{
	struct capture_args ca = { .events = &o->events };
	const struct preset *preset;
	bool help = false;
	unsigned long num;
	int c, shared;

	memset(o, 0, sizeof(*o));
	o->output = "trace.dat";
	o->clock = "mono";
	o->hip_log = -1;
	o->kfd_args = -1;
	optind = 0;	/* a full restart of getopt, also when called again in one process */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:" CAPTURE_SHORT_OPTIONS "o:f:p:l:g:C:",
				long_options, NULL)) != -1) {
		shared = cmd_capture_option("record", c, optarg, &ca, &help, err);
		take_shared(o, &ca);	/* record_opts_free() frees what -P took, also on an error */
		if (shared < 0)
			return -1;
		if (help)
			return 1;
		if (shared)
			continue;
		switch (c) {
		case 'o':
			o->output = optarg;
			o->output_given = true;
			break;
		case 'f':
			if (event_selection_set_filter(&o->events, optarg, err))
				return -1;
			break;
		case 'p':
			if (!tracer_is_known(optarg))
				return gt_error_set(err, EINVAL, "unknown tracer '%s'; use -p function_graph, function or nop",
						    optarg);
			o->tracer = optarg;
			break;
		case 'l':
			if (push(&o->filters, &o->nr_filters, optarg))
				return gt_error_set(err, ENOMEM, "out of memory");
			break;
		case 'g':
			if (push(&o->graph_funcs, &o->nr_graph_funcs, optarg))
				return gt_error_set(err, ENOMEM, "out of memory");
			break;
		case 'C':
			o->clock = optarg;
			break;
		case OPT_IGNORE_MISSING:
			o->ignore_missing = true;
			break;
		case OPT_STRICT:
			o->strict = true;
			break;
		case OPT_MAX_GRAPH_DEPTH:
			if (parse_positive("--max-graph-depth", optarg, 1000, &num, err))
				return -1;
			o->max_graph_depth = (int)num;
			break;
		case OPT_DURATION: {
			char *end;

			o->duration = strtod(optarg, &end);
			if (end == optarg || *end || !(o->duration > 0))
				return gt_error_set(err, EINVAL, "bad --duration '%s': expected seconds > 0, e.g. 2.5",
						    optarg);
			break;
		}
		case OPT_NO_FOLLOW:
			o->no_follow = true;
			break;
		case OPT_NO_CPU_SIDE:
			o->no_cpu_side = true;
			break;
		case OPT_AS_ROOT:
			o->as_root = true;
			break;
		case OPT_TOP_LEVEL:
			o->top_level = true;
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_SYSTEM_WIDE_EVENTS:
			o->system_wide_events = true;
			break;
		case OPT_CGROUP:
			o->cgroup = optarg;
			break;
		case OPT_KFD_ARGS:
		case OPT_NO_KFD_ARGS:
			o->kfd_args = c == OPT_KFD_ARGS;
			break;
		case OPT_KFD_SNAPSHOT:
			/* ms; an hour at most: a snapshot reads every queue's MQD */
			if (parse_positive("--kfd-snapshot", optarg, 3600000, &num, err))
				return -1;
			o->kfd_snapshot_ms = (long)num;
			break;
		case OPT_CONTAINER:
			o->container = optarg;
			break;
		case OPT_FLIGHT:
			o->flight.on = true;
			o->flight.size = optarg;
			break;
		case OPT_TRIGGER:
			if (push(&o->flight.triggers, &o->flight.nr_triggers, optarg))
				return gt_error_set(err, ENOMEM, "out of memory");
			break;
		case OPT_AFTER:
			o->flight.after = optarg;
			break;
		case OPT_EVERY:
			o->flight.every = optarg;
			break;
		case OPT_MIN_GAP:
			o->flight.min_gap = optarg;
			break;
		case OPT_KEEP:
			o->flight.keep = optarg;
			break;
		case OPT_TRIGGER_FILE:
			o->flight.trigger_file = optarg;
			break;
		case OPT_HIP_LOG:
			num = 4;	/* the level that prints AQL dispatches */
			if (optarg && parse_positive("--hip-log", optarg, 6, &num, err))
				return -1;
			o->hip_log = (int)num;
			break;
		default:	/* ':' a value missing, '?' unknown */
			return cmd_option_error("record", c, argv[optind - 1], err);
		}
	}
	if (optind < argc)
		o->command = argv + optind;
	if (cmd_capture_events(&ca, err))
		return -1;
	preset = ca.preset;
	if (preset) {
		o->preset = preset->name;
		/* the flight recorder keeps events, not the function tracer's flood */
		if (!o->tracer && preset->tracer && !o->flight.on) {
			o->tracer = preset->tracer;
			if (!o->nr_filters && preset->function_filter &&
			    push(&o->filters, &o->nr_filters, preset->function_filter))
				return gt_error_set(err, ENOMEM, "out of memory");
		}
	}
	if (o->kfd_args < 0)
		o->kfd_args = preset && preset->kfd_probes && !o->flight.on;
	o->nvidia_probes = preset && preset->nvidia_probes && !o->flight.on;
	return check_combination(o, err);
}
