// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"

/* Exit status when the file reads fine but holds no GPU events. */
#define REPORT_EXIT_NO_GPU_EVENTS 2

const char *report_us(char *buf, size_t len, bool has, uint64_t ns)
{
	if (!has)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%llu.%03llu", (unsigned long long)(ns / 1000),
			 (unsigned long long)(ns % 1000));
	return buf;
}

const char *report_ts(char *buf, size_t len, uint64_t ns)
{
	uint64_t us = (ns + 500) / 1000;

	if (!ns)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%llu.%06llu", (unsigned long long)(us / 1000000),
			 (unsigned long long)(us % 1000000));
	return buf;
}

const char *report_job_flags(char *buf, size_t len, unsigned int flags)
{
	snprintf(buf, len, "%s%s%s%s%s", flags & JOB_WORKLOAD ? "W" : "",
		 flags & JOB_UNFINISHED ? "U" : "", flags & JOB_LOST ? "L" : "",
		 flags & JOB_DONE_FENCE ? "F" : "", flags & JOB_DEP_UNKNOWN ? "D" : "");
	if (!buf[0])
		snprintf(buf, len, "-");
	return buf;
}

const char *report_job_key(char *buf, size_t len, const struct job *j)
{
	if (j->has_fence)
		snprintf(buf, len, "%llu:%llu", (unsigned long long)j->ctx,
			 (unsigned long long)j->seqno);
	else if (j->has_id)
		snprintf(buf, len, "id %llu", (unsigned long long)j->id);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)j->fence_ptr);
	return buf;
}

bool report_has_workload(const struct report *rep)
{
	return rep->analysis.workload.known;
}

double report_busy_pct(const struct report *rep, const struct ring_stats *ring)
{
	uint64_t span = rep->analysis.last_ts - rep->analysis.first_ts;

	return span ? 100.0 * (double)ring->busy_ns / (double)span : 0.0;
}

uint64_t report_lost_stats(const struct report *rep)
{
	uint64_t lost = 0;
	int i;

	for (i = 0; i < rep->meta->nr_cpustats; i++)
		lost += cpu_stats_lost(&rep->meta->cpustats[i]);
	return lost + rep->meta->instance_lost;
}

/* Keeps the o.top slowest jobs, slowest first. */
static void note_slow(struct report *rep, const struct job *j)
{
	int i;

	if (!rep->opts.top || !j->has_lat[LAT_TOTAL] || (j->flags & JOB_LOST))
		return;
	if (rep->nr_slow == rep->opts.top &&
	    rep->slow[rep->nr_slow - 1].lat[LAT_TOTAL] >= j->lat[LAT_TOTAL])
		return;
	if (rep->nr_slow < rep->opts.top)
		rep->nr_slow++;
	for (i = rep->nr_slow - 1; i > 0 && rep->slow[i - 1].lat[LAT_TOTAL] < j->lat[LAT_TOTAL]; i--)
		rep->slow[i] = rep->slow[i - 1];
	rep->slow[i] = *j;
}

static void on_job(const struct job *j, void *ctx)
{
	struct report *rep = ctx;

	rep->jobs_shown++;
	note_slow(rep, j);
	if (rep->opts.jobs && rep->format->job)
		rep->format->job(rep, j);
}

/* "622.85" absolute, or "+1.5" seconds after the first record */
static int resolve_time(const char *arg, uint64_t *ns, bool *relative, struct gt_error *err)
{
	char *end;
	double v;

	if (!arg)
		return 0;
	*relative = arg[0] == '+';
	v = strtod(arg + *relative, &end);
	if (end == arg + *relative || *end || v < 0)
		return gt_error_set(err, EINVAL, "bad time '%s': seconds as trace-cmd prints them (622.85) or +SECONDS from the start",
				    arg);
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

static const char no_gpu_events[] =
	"has no GPU events (looked for gpu_scheduler, amdgpu, dma_fence, drm vblank, i915, xe, virtio_gpu and KFD function records); record them with: sudo gpu-trace record --preset amd -- ./app (or --preset drm|i915|xe|virtio)";

int cmd_report(int argc, char **argv)
{
	struct report rep = { 0 };
	struct gt_error err = { 0 };
	struct analysis_hooks hooks = { .on_job = on_job, .ctx = &rep };
	int ret = GT_EXIT_FAILURE, parsed;
	static char outbuf[1 << 16];

	parsed = report_opts_parse(argc, argv, &rep.opts, &err);
	if (parsed)
		return parsed > 0 ? 0 : cmd_fail("report", &err);
	rep.summary = !rep.opts.jobs && !rep.opts.events && !rep.opts.rings && !rep.opts.queues;
	rep.stream = stdout;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	rep.format = rep.opts.format == REPORT_JSON ? &report_json :
		rep.opts.format == REPORT_CSV ? &report_csv : &report_text;
	rep.meta = calloc(1, sizeof(*rep.meta));
	rep.slow = calloc((size_t)rep.opts.top + 1, sizeof(*rep.slow));
	if (!rep.meta || !rep.slow) {
		gt_error_set(&err, ENOMEM, "out of memory");
		goto fail;
	}
	hooks.filter = rep.opts.filter;
	if (rep.opts.events)
		hooks.on_record = report_events_record;
	if (resolve_time(rep.opts.from_arg, &hooks.filter.from, &hooks.from_relative, &err) ||
	    resolve_time(rep.opts.to_arg, &hooks.filter.to, &hooks.to_relative, &err) ||
	    dat_meta_read(rep.opts.file, rep.meta, &err) ||
	    analysis_open(&rep.analysis, rep.opts.file, &hooks, &err))
		goto fail;
	if (rep.format->begin)
		rep.format->begin(&rep);
	if (analysis_run(&rep.analysis, &err))
		goto fail;
	rep.format->end(&rep);
	ret = 0;
	if (!rep.analysis.gpu_events && !rep.analysis.kfd.kfd_records && !rep.opts.events) {
		fflush(stdout);
		fprintf(stderr, "gpu-trace report: %s %s\n", rep.opts.file, no_gpu_events);
		ret = REPORT_EXIT_NO_GPU_EVENTS;
	}
	goto out;
fail:
	fflush(stdout);
	cmd_fail("report", &err);
out:
	/* a full disk or a closed pipe loses the report: never exit 0 then */
	if ((fflush(stdout) || ferror(stdout)) && ret != GT_EXIT_FAILURE)
		ret = cmd_failf("report", "writing the report to standard output failed: %s; check the disk or pipe it goes to",
				strerror(errno ? errno : EIO));
	if (rep.analysis.nr_handles)
		analysis_close(&rep.analysis);
	free(rep.meta);
	free(rep.slow);
	return ret;
}
