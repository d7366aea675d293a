// SPDX-License-Identifier: GPL-2.0
/*
 * After a recording: jobs that never finished. "lost: 0 events" must not
 * hide a file whose jobs have no run or done events (not enabled, filtered
 * out, or a hung GPU): record joins the file as report does and says so.
 */
#include <string.h>

#include "analysis/analysis.h"
#include "cmd.h"
#include "record.h"

/* A GPU job takes milliseconds; one begun a second before the end is stuck. */
#define STUCK_JOB_NS	1000000000ULL

struct job_count {
	struct analysis *a;
	unsigned long long jobs, stuck, never_ran;
};

static void count_job(const struct job *j, void *ctx)
{
	struct job_count *c = ctx;
	uint64_t first = job_first_time(j);

	c->jobs++;
	if (!(j->flags & JOB_UNFINISHED) || analysis_totals(c->a)->last_ts < first + STUCK_JOB_NS)
		return;
	c->stuck++;
	if (!j->t_run)
		c->never_ran++;
}

static bool recorded_jobs(const struct event_selection *sel)
{
	int i;

	for (i = 0; i < sel->nr_systems; i++)
		if (!strcmp(sel->systems[i], "gpu_scheduler") || !strcmp(sel->systems[i], "gpu_sched") ||
		    !strcmp(sel->systems[i], "amdgpu") ||
		    !strcmp(sel->systems[i], "dma_fence"))
			return true;
	return false;
}

void record_check_jobs(struct record_run *run)
{
	struct job_count count = { 0 };
	struct gt_error err = { 0 };
	struct analysis *a;

	if (!recorded_jobs(&run->opts.events))
		return;
	a = analysis_new();
	if (!a || analysis_open(a, run->out.tmp_path, &(struct analysis_hooks){
				  .on_job = count_job, .ctx = &count }, &err)) {
		analysis_free(a);
		return;
	}
	count.a = a;
	if (!analysis_run(a, &err) && count.stuck)
		fprintf(stderr, "%srecord: warning: %llu of %llu job%s began more than 1 s before the end and never finished (%llu never ran); their run/done events are not in the file (events not enabled?) or the GPU hung; gpu-trace report --jobs lists them (flag U)%s\n",
			cmd_bold(), count.stuck, count.jobs, count.jobs == 1 ? "" : "s", count.never_ran,
			cmd_plain());
	analysis_free(a);
}
