// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd.h"
#include "output/report-formats.h"

enum {
	OPT_JOBS = 256, OPT_EVENTS, OPT_RINGS, OPT_QUEUES, OPT_FORMAT, OPT_PID,
	OPT_COMM, OPT_RING, OPT_DEV, OPT_FROM, OPT_TO, OPT_MIN_LATENCY, OPT_TOP, OPT_WORKLOAD_ONLY,
	OPT_TS_OFFSET, OPT_HIP_LOG, OPT_FORCE, OPT_WIDE, OPT_NO_PAGER,
};

static const struct option long_options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "wide", no_argument, NULL, OPT_WIDE },
	{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
	{ "jobs", no_argument, NULL, OPT_JOBS },
	{ "events", no_argument, NULL, OPT_EVENTS },
	{ "rings", no_argument, NULL, OPT_RINGS },
	{ "queues", no_argument, NULL, OPT_QUEUES },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "ring", required_argument, NULL, OPT_RING },
	{ "dev", required_argument, NULL, OPT_DEV },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "min-latency", required_argument, NULL, OPT_MIN_LATENCY },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "workload-only", no_argument, NULL, OPT_WORKLOAD_ONLY },
	{ "ts-offset", required_argument, NULL, OPT_TS_OFFSET },
	{ "hip-log", required_argument, NULL, OPT_HIP_LOG },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* "250" (microseconds), "250us", "2ms", "1.5s", "900ns" */
static int parse_duration(const char *arg, uint64_t *ns, struct gt_error *err)
{
	char *end;
	double v = strtod(arg, &end), mult = 1000;

	if (end == arg || !(v >= 0))	/* "nan" is no duration either */
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
	/* past 2^64 ns (584 years), "inf" too: no integer to hold it */
	if (!(v * mult < 1.8e19))
		goto bad;
	*ns = (uint64_t)(v * mult + 0.5);
	return 0;
bad:
	return gt_error_set(err, EINVAL, "bad --min-latency '%s': expected a duration such as 250us, 2ms or 1.5s",
			    arg);
}

/*
 * "-1.5s", "+250us", "3ms", "120ns": a unit is required, since a bare
 * number means nanoseconds to trace-cmd and microseconds to --min-latency.
 */
static int parse_offset(const char *arg, int64_t *ns, struct gt_error *err)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v = strtod(arg, &end);
	size_t i;

	if (end != arg) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			if (strcmp(end, units[i].unit))
				continue;
			v *= units[i].mult;
			if (!(v <= 1e18 && v >= -1e18))	/* "nan" too */
				break;
			*ns = (int64_t)(v < 0 ? v - 0.5 : v + 0.5);
			return 0;
		}
	}
	return gt_error_set(err, EINVAL, "bad --ts-offset '%s': expected a signed duration with its unit, such as -1.5s, 250us or 120ns",
			    arg);
}

static int add_input(struct report_opts *o, const char *file, struct gt_error *err)
{
	if (o->nr_inputs == REPORT_MAX_INPUTS)
		return gt_error_set(err, EINVAL, "more than %d input files; report fewer at a time",
				    REPORT_MAX_INPUTS);
	o->inputs[o->nr_inputs++] = (struct report_input){ .file = file };
	return 0;
}

static int parse_format(const char *arg, const struct report_output **f, struct gt_error *err)
{
	char names[128] = "";
	size_t len = 0;
	int i;

	for (i = 0; report_formats[i]; i++) {
		if (!strcmp(arg, report_formats[i]->name)) {
			*f = report_formats[i];
			return 0;
		}
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
					i ? (report_formats[i + 1] ? ", " : " or ") : "",
					report_formats[i]->name);
		if (len >= sizeof(names))
			len = sizeof(names) - 1;
	}
	return gt_error_set(err, EINVAL, "unknown --format '%s'; use %s", arg, names);
}

/*
 * -o run.html without --format wrote the text summary into run.html: the
 * format a known extension names is the one meant. NULL: none known.
 */
static const struct report_output *format_of_name(const char *path)
{
	static const struct { const char *ext; const struct report_output *f; } exts[] = {
		{ ".html", &report_html }, { ".htm", &report_html },
		{ ".pftrace", &report_perfetto }, { ".perfetto-trace", &report_perfetto },
		{ ".json", &report_json }, { ".csv", &report_csv },
		{ ".txt", &report_text },
	};
	const char *dot = strrchr(path, '.');
	size_t i;

	for (i = 0; dot && !strchr(dot, '/') && i < sizeof(exts) / sizeof(exts[0]); i++)
		if (!strcasecmp(dot, exts[i].ext))
			return exts[i].f;
	return NULL;
}

int report_opts_parse(int argc, char **argv, struct report_opts *o, struct gt_error *err)
{
	bool format_given = false;
	char *end;
	long v;
	int c, i;

	memset(o, 0, sizeof(*o));
	o->top = 10;
	o->format = &report_text;
	optind = 0;	/* a full restart of getopt, also when called again in one process */
	opterr = 0;
	/*
	 * Options may follow the file name, as with trace-cmd report; the
	 * leading '-' hands file names over in order (code 1), so that
	 * --ts-offset applies to the file named before it.
	 */
	while ((c = getopt_long(argc, argv, "-:i:o:h", long_options, NULL)) != -1) {
		switch (c) {
		case 1:
		case 'i':
			if (add_input(o, optarg, err))
				return -1;
			break;
		case OPT_HIP_LOG: {
			const char **n = realloc(o->hip_logs, sizeof(*n) * (size_t)(o->nr_hip_logs + 1));

			if (!n)
				return gt_error_set(err, ENOMEM, "out of memory");
			o->hip_logs = n;
			o->hip_logs[o->nr_hip_logs++] = optarg;
			break;
		}
		case OPT_TS_OFFSET:
			if (!o->nr_inputs)
				return gt_error_set(err, EINVAL, "--ts-offset %s comes before any file; name the file it moves first (report a.dat b.dat --ts-offset %s)",
						    optarg, optarg);
			if (parse_offset(optarg, &o->inputs[o->nr_inputs - 1].offset, err))
				return -1;
			o->inputs[o->nr_inputs - 1].offset_set = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case OPT_WIDE:
			o->wide = true;
			break;
		case OPT_NO_PAGER:
			o->no_pager = true;
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
			if (parse_format(optarg, &o->format, err))
				return -1;
			format_given = true;
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
		case OPT_DEV:
			o->filter.dev = optarg;
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
	for (; optind < argc; optind++)	/* after "--" */
		if (add_input(o, argv[optind], err))
			return -1;
	if (!o->nr_inputs)
		add_input(o, "trace.dat", err);
	o->file = o->inputs[0].file;
	if (!format_given && o->output && format_of_name(o->output))
		o->format = format_of_name(o->output);
	if (!o->format->timeline) {
		if (o->nr_inputs > 1 && !o->format->directory && !o->format->several)
			return gt_error_set(err, EINVAL, "%d input files (%s, %s%s); --format %s reads one: report them one at a time, or together with --format text, json, perfetto, html or parquet",
					    o->nr_inputs, o->inputs[0].file, o->inputs[1].file,
					    o->nr_inputs > 2 ? ", ..." : "", o->format->name);
		for (i = 0; i < o->nr_inputs; i++)
			if (o->inputs[i].offset)
				return gt_error_set(err, EINVAL, "--ts-offset moves a file on the timeline of --format perfetto or html; --format %s %s",
						    o->format->name,
						    o->format->directory || o->format->several ?
						    "writes each file's own times (and UTC where it has clock pairs)" :
						    "prints the file's own times");
	}
	if ((o->format->timeline || o->format->directory) &&
	    (o->jobs || o->events || o->rings || o->queues))
		return gt_error_set(err, EINVAL, "--format %s writes %s; drop --jobs, --events, --rings and --queues (--pid, --ring, --from and --to still select jobs)",
				    o->format->name,
				    o->format->directory ? "every table" : "the whole timeline");
	if (o->format->directory && !o->output)
		return gt_error_set(err, EINVAL, "--format %s writes a directory of tables; give -o DIR",
				    o->format->name);
	if (o->events && o->format != &report_text)
		return gt_error_set(err, EINVAL, "--events prints text; drop --format, or use --jobs with --format %s",
				    o->format->name);
	/* it printed every record and said nothing: a latency is known only at a job's end */
	if (o->events && o->filter.min_latency && !o->jobs)
		return gt_error_set(err, EINVAL, "--min-latency picks jobs by a latency known at their end; --events prints records as they are read: use --jobs --min-latency, then --events --from/--to around a job");
	return 0;
}

void report_name_input(const struct report_opts *o, int i, struct gt_error *err)
{
	const char *file = o->inputs[i].file;
	char msg[sizeof(err->msg)];

	if (o->nr_inputs < 2 || strstr(err->msg, file))
		return;
	snprintf(msg, sizeof(msg), "%s", err->msg[0] ? err->msg : "failed");
	gt_error_set(err, err->errnum, "%s (file %d of %d): %s", file, i + 1, o->nr_inputs, msg);
}
