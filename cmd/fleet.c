// SPDX-License-Identifier: GPL-2.0
/*
 * gpu-trace fleet DIR|FILE...: every recording under the folders (or as
 * named) read by report's own pass on every CPU, one row per host and ring,
 * and the hosts that stand out beyond noise named (lib/analysis/fleet-*.c,
 * lib/output/fleet-summary.c).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/fleet-run.h"
#include "output/fleet-summary.h"
#include "util/dat-files.h"
#include "cmd.h"

/* files one summary reads at most; the rest are counted and said */
#define FLEET_MAX_FILES		65536
#define FLEET_MAX_THREADS	1024
/* some files could not be read: each said in a line, the others summed */
#define FLEET_EXIT_SOME_FAILED	1
/* no file held a GPU event: nothing to sum */
#define FLEET_EXIT_NO_GPU_EVENTS 2

enum fleet_format { FLEET_TEXT, FLEET_JSON, FLEET_CSV };

struct fleet_opts {
	enum fleet_format format;
	int jobs;
	double min_change;
	char **inputs;
	int nr_inputs;
};

static const struct option long_options[] = {
	{ "format", required_argument, NULL, 'F' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "min-change", required_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int parse(int argc, char **argv, struct fleet_opts *o, struct gt_error *err)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	char *end;
	long n;
	int c;

	o->min_change = 0.1;
	o->jobs = online > 0 ? (online > FLEET_MAX_THREADS ? FLEET_MAX_THREADS : (int)online) : 1;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hj:", long_options, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (!strcmp(optarg, "text"))
				o->format = FLEET_TEXT;
			else if (!strcmp(optarg, "json"))
				o->format = FLEET_JSON;
			else if (!strcmp(optarg, "csv"))
				o->format = FLEET_CSV;
			else
				return gt_error_set(err, EINVAL, "unknown --format '%s'; use text, json or csv",
						    optarg);
			break;
		case 'j':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || n < 1 || n > FLEET_MAX_THREADS)
				return gt_error_set(err, EINVAL, "bad -j '%s': a number of threads from 1 to %d",
						    optarg, FLEET_MAX_THREADS);
			o->jobs = (int)n;
			break;
		case 'm':
			if (cmd_parse_min_change(optarg, &o->min_change, err))
				return -1;
			break;
		case 'h':
			fputs(cmd_usage("fleet"), stdout);
			return 1;
		default:
			return cmd_option_error("fleet", c, argv[optind - 1], err);
		}
	}
	if (optind >= argc)
		return gt_error_set(err, EINVAL, "fleet takes folders of recordings or .dat files; see gpu-trace help fleet");
	o->inputs = argv + optind;
	o->nr_inputs = argc - optind;
	return 0;
}

/* Each file that could not be read, or was read with records set aside, in one line. */
static int say_files(const struct dat_files *l, const struct fleet_outcome *out, int *gpu)
{
	int i, failed = 0;

	*gpu = 0;
	for (i = 0; i < l->nr; i++) {
		if (out[i].error) {
			/* most messages name the file already */
			if (strstr(out[i].error, l->paths[i]))
				cmd_say("gpu-trace fleet: %s (left out; the other files are summed)",
					out[i].error);
			else
				cmd_say("gpu-trace fleet: %s: %s (left out; the other files are summed)",
					l->paths[i], out[i].error);
			failed++;
			continue;
		}
		*gpu += out[i].gpu;
		cmd_say_damage("fleet", l->paths[i], &out[i].damage);
		cmd_say_instances_absent("fleet", l->paths[i], out[i].instances_absent,
					 out[i].instances_read);
	}
	if (l->over)
		cmd_say("gpu-trace fleet: %llu files past the first %d left out; give fewer folders or files",
			l->over, FLEET_MAX_FILES);
	if (l->unreadable)
		cmd_say("gpu-trace fleet: %llu folder%s could not be read (the first: %s); the files under them are left out",
			l->unreadable, l->unreadable == 1 ? "" : "s", l->first_unreadable);
	return failed;
}

static int print_summary(const struct fleet_opts *o, const struct fleet_view *v,
			 struct gt_error *err)
{
	FILE *safe;

	if (o->format == FLEET_JSON) {
		fleet_summary_json(stdout, v);
	} else if (o->format == FLEET_CSV) {
		fleet_summary_csv(stdout, v);
	} else {
		/* host, ring and process names come from the files */
		safe = term_safe_stream(stdout);
		if (!safe)
			return gt_error_set(err, ENOMEM, "out of memory");
		fleet_summary_text(safe, v);
		fclose(safe);
	}
	if (fflush(stdout) || ferror(stdout))
		return gt_error_set(err, EIO, "writing the summary failed; check the disk or pipe it goes to");
	return 0;
}

int cmd_fleet(int argc, char **argv)
{
	struct fleet_opts o = { 0 };
	struct gt_error err = { 0 };
	struct fleet_outcome *out = NULL;
	struct dat_files files;
	struct fleet f;
	struct fleet_view v;
	int ret = GT_EXIT_FAILURE, i, failed, gpu;

	i = parse(argc, argv, &o, &err);
	if (i)
		return i > 0 ? 0 : cmd_fail("fleet", &err);
	dat_files_init(&files, FLEET_MAX_FILES);
	fleet_init(&f, o.min_change);
	for (i = 0; i < o.nr_inputs; i++)
		if (dat_files_add(&files, o.inputs[i], &err))
			goto fail;
	dat_files_sort(&files);
	if (!files.nr) {
		gt_error_set(&err, ENOENT, "no .dat file under %s%s; give folders of recordings or .dat files",
			     o.inputs[0], o.nr_inputs > 1 ? " and the rest" : "");
		goto fail;
	}
	out = calloc((size_t)files.nr, sizeof(*out));
	if (!out) {
		gt_error_set(&err, ENOMEM, "out of memory");
		goto fail;
	}
	if (fleet_run(&f, files.paths, files.nr, o.jobs, out, &err))
		goto fail;
	fleet_judge(&f);
	if (f.failed) {
		gt_error_set(&err, ENOMEM, "out of memory adding up the files");
		goto fail;
	}
	failed = say_files(&files, out, &gpu);
	if (failed == files.nr) {
		gt_error_set(&err, EIO, "none of the %d file%s could be read (each said above)", files.nr,
			     files.nr == 1 ? "" : "s");
		goto fail;
	}
	v = (struct fleet_view){ .f = &f, .files = files.paths, .out = out, .nr_files = files.nr,
				 .files_over = files.over };
	if (print_summary(&o, &v, &err))
		goto fail;
	if (!gpu) {
		cmd_say("gpu-trace fleet: none of the %d file%s read holds GPU events; record where the GPU driver's events are (gpu-trace check says what is there)",
			files.nr - failed, files.nr - failed == 1 ? "" : "s");
		ret = FLEET_EXIT_NO_GPU_EVENTS;
	} else {
		ret = failed || files.over || files.unreadable ? FLEET_EXIT_SOME_FAILED : 0;
	}
	goto out;
fail:
	cmd_fail("fleet", &err);
out:
	if (out)
		for (i = 0; i < files.nr; i++)
			free(out[i].error);
	free(out);
	fleet_free(&f);
	dat_files_free(&files);
	return ret;
}
