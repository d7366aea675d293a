// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"

enum {
	OPT_JOBS = 256, OPT_EVENTS, OPT_RINGS, OPT_QUEUES, OPT_FORMAT, OPT_PID,
	OPT_COMM, OPT_RING, OPT_FROM, OPT_TO, OPT_MIN_LATENCY, OPT_TOP, OPT_WORKLOAD_ONLY,
};

static const struct option long_options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "jobs", no_argument, NULL, OPT_JOBS },
	{ "events", no_argument, NULL, OPT_EVENTS },
	{ "rings", no_argument, NULL, OPT_RINGS },
	{ "queues", no_argument, NULL, OPT_QUEUES },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "ring", required_argument, NULL, OPT_RING },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "min-latency", required_argument, NULL, OPT_MIN_LATENCY },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "workload-only", no_argument, NULL, OPT_WORKLOAD_ONLY },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* "250" (microseconds), "250us", "2ms", "1.5s", "900ns" */
static int parse_duration(const char *arg, uint64_t *ns, struct gt_error *err)
{
	char *end;
	double v = strtod(arg, &end), mult = 1000;

	if (end == arg || v < 0)
		goto bad;
	if (!*end || !strcmp(end, "us"))
		mult = 1e3;
	else if (!strcmp(end, "ns"))
		mult = 1;
	else if (!strcmp(end, "ms"))
		mult = 1e6;
	else if (!strcmp(end, "s"))
		mult = 1e9;
	else
		goto bad;
	*ns = (uint64_t)(v * mult + 0.5);
	return 0;
bad:
	return gt_error_set(err, EINVAL, "bad --min-latency '%s': expected a duration such as 250us, 2ms or 1.5s",
			    arg);
}

int report_opts_parse(int argc, char **argv, struct report_opts *o, struct gt_error *err)
{
	char *end;
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->top = 10;
	optind = 1;
	opterr = 0;
	/* options may follow the file name, as with trace-cmd report */
	while ((c = getopt_long(argc, argv, ":i:o:h", long_options, NULL)) != -1) {
		switch (c) {
		case 'i':
			o->file = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_JOBS:
			o->jobs = true;
			break;
		case OPT_EVENTS:
			o->events = true;
			break;
		case OPT_RINGS:
			o->rings = true;
			break;
		case OPT_QUEUES:
			o->queues = true;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "text"))
				o->format = REPORT_TEXT;
			else if (!strcmp(optarg, "csv"))
				o->format = REPORT_CSV;
			else if (!strcmp(optarg, "json"))
				o->format = REPORT_JSON;
			else if (!strcmp(optarg, "perfetto"))
				o->format = REPORT_PERFETTO;
			else if (!strcmp(optarg, "html"))
				o->format = REPORT_HTML;
			else
				return gt_error_set(err, EINVAL, "unknown --format '%s'; use text, csv, json, perfetto or html",
						    optarg);
			break;
		case OPT_PID:
			v = strtol(optarg, &end, 10);
			if (*end || v <= 0)
				return gt_error_set(err, EINVAL, "bad --pid '%s': expected a process id", optarg);
			o->filter.pid = (int)v;
			break;
		case OPT_COMM:
			o->filter.comm = optarg;
			break;
		case OPT_RING:
			o->filter.ring = optarg;
			break;
		case OPT_FROM:
			o->from_arg = optarg;
			break;
		case OPT_TO:
			o->to_arg = optarg;
			break;
		case OPT_MIN_LATENCY:
			if (parse_duration(optarg, &o->filter.min_latency, err))
				return -1;
			break;
		case OPT_TOP:
			v = strtol(optarg, &end, 10);
			if (*end || v < 0 || v > 100000)
				return gt_error_set(err, EINVAL, "bad --top '%s': expected 0 to 100000", optarg);
			o->top = (int)v;
			break;
		case OPT_WORKLOAD_ONLY:
			o->filter.workload_only = true;
			break;
		case 'h':
			fputs(cmd_usage("report"), stdout);
			return 1;
		default:	/* ':' a value missing, '?' unknown */
			return cmd_option_error("report", c, argv[optind - 1], err);
		}
	}
	if (optind < argc) {
		if (o->file)
			return gt_error_set(err, EINVAL, "two input files (%s and %s); report reads one",
					    o->file, argv[optind]);
		o->file = argv[optind++];
	}
	if (optind < argc)
		return gt_error_set(err, EINVAL, "unexpected argument '%s'; see gpu-trace help report",
				    argv[optind]);
	if (!o->file)
		o->file = "trace.dat";
	if ((o->format == REPORT_PERFETTO || o->format == REPORT_HTML) &&
	    (o->jobs || o->events || o->rings || o->queues))
		return gt_error_set(err, EINVAL, "--format %s writes the whole timeline; drop --jobs, --events, --rings and --queues (--pid, --ring, --from and --to still select jobs)",
				    o->format == REPORT_HTML ? "html" : "perfetto");
	if (o->events && o->format != REPORT_TEXT)
		return gt_error_set(err, EINVAL, "--events prints text; drop --format, or use --jobs with --format %s",
				    o->format == REPORT_CSV ? "csv" : "json");
	return 0;
}
