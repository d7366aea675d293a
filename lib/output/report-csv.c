// SPDX-License-Identifier: GPL-2.0
/* CSV: one table per section, each after a "# section" line; times in ns. */
#include <string.h>

#include "output/report-formats.h"
#include "analysis/cpu-side.h"
#include "analysis/timeline.h"

static int csv_begin(struct report *rep, struct gt_error *err)
{
	if (rep->opts.jobs)
		fprintf(rep->stream, "# jobs\nring,job,pid,comm,client_id,submit_ns,queue_ns,run_ns,hw_start_ns,done_ns,submit_to_queue_ns,queue_to_run_ns,dep_wait_ns,run_to_hw_ns,exec_ns,total_ns,workload,behind_other_ns,behind_other_jobs,behind_other_processes,flags,owner_switch_wait_ns,moved_while_waiting_bytes,dev,page_tables_updated_while_waiting_bytes,ioctl,ioctl_to_queued_ns,ioctl_runnable_ns\n");
	(void)err;
	return 0;
}

static void csv_job(struct report *rep, const struct job *j)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	const struct cpu_job_ioctl *io = cpu_side_job_ioctl(rep->analysis, j);
	char key[64], fl[16], name[64];
	uint64_t sw = 0;
	bool switched = job_switch_wait(j, &sw);
	int l;

	report_csv_text(rep->stream, timeline_ring_name(tl, j->ring));
	fprintf(rep->stream, ",%s,%d,", report_job_key(key, sizeof(key), j), j->pid);
	report_csv_text(rep->stream, analysis_comm(rep->analysis, j->pid));
	report_csv_u64(rep->stream, j->has_client_id, j->client_id);
	report_csv_u64(rep->stream, j->t_submit, j->t_submit);
	report_csv_u64(rep->stream, j->t_queue, j->t_queue);
	report_csv_u64(rep->stream, j->t_run, j->t_run);
	report_csv_u64(rep->stream, j->t_hw_start, j->t_hw_start);
	report_csv_u64(rep->stream, j->t_done, j->t_done);
	for (l = 0; l < LAT_NR; l++)
		report_csv_u64(rep->stream, j->has_lat[l], j->lat[l]);
	fprintf(rep->stream, ",%d", (j->flags & JOB_WORKLOAD) != 0);
	report_csv_u64(rep->stream, j->t_hw_start, j->behind.ns);
	fprintf(rep->stream, ",%u,%u,%s", j->behind.jobs, j->behind.procs,
		report_job_flags(fl, sizeof(fl), j->flags));
	report_csv_u64(rep->stream, switched, sw);
	fprintf(rep->stream, ",%llu,", (unsigned long long)j->moved_in_wait);
	report_csv_text(rep->stream, tl->rings[j->ring]->dev);
	fprintf(rep->stream, ",%llu,", (unsigned long long)j->vm_in_wait);
	/* the ioctl it was queued from (cpu-side.h) */
	if (io)
		report_csv_text(rep->stream,
				gpu_ioctl_name(io->cmd, cpu_side_of(rep->analysis)->driver, name,
					       sizeof(name)));
	report_csv_u64(rep->stream, io != NULL, io ? io->to_queued_ns : 0);
	report_csv_u64(rep->stream, io != NULL, io ? io->split.runnable_ns : 0);
	fputc('\n', rep->stream);
}

static int csv_end(struct report *rep, struct gt_error *err)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	int i, l;

	if (rep->summary || rep->opts.rings) {
		fprintf(rep->stream, "%s# rings\nring,jobs,unfinished,lost,waits,busy_pct,max_in_flight,workload_jobs,behind_other_ns,behind_other_jobs,behind_other_processes,latency,count,min_ns,avg_ns,p50_ns,p90_ns,p99_ns,max_ns,owner_switches,owner_switch_waited_jobs,owner_switch_wait_ns,cleaner_shaders,timeouts,moved_wait_jobs,moved_wait_bytes,moved_wait_ns,dev,vm_wait_jobs,vm_wait_bytes,vm_wait_ns\n",
			rep->opts.jobs ? "\n" : "");
		for (i = 0; i < tl->nr_rings; i++) {
			struct ring_stats *rs = tl->rings[i];

			for (l = 0; l < LAT_NR; l++) {
				struct latency_stats *st = &rs->lat[l];

				report_csv_text(rep->stream, timeline_ring_name(tl, i));
				fprintf(rep->stream, ",%llu,%llu,%llu,%llu,", (unsigned long long)rs->jobs,
					(unsigned long long)rs->unfinished, (unsigned long long)rs->lost,
					(unsigned long long)rs->waits);
				/* no job with a hardware time: unknown, an empty field */
				if (report_busy_known(rs))
					fprintf(rep->stream, "%.3f", report_busy_pct(rep, rs));
				fprintf(rep->stream, ",%lld,%llu,%llu,%llu,%d,%s,%llu", (long long)rs->max_in_flight,
					(unsigned long long)rs->workload_jobs,
					(unsigned long long)rs->behind_ns,
					(unsigned long long)rs->behind_jobs, rs->nr_behind_pids,
					job_latency_name(l), (unsigned long long)st->count);
				/* a stage never measured: empty fields, not 0 ns */
				if (!st->count)
					fputs(",,,,,,", rep->stream);
				else
					fprintf(rep->stream, ",%llu,%llu,%llu,%llu,%llu,%llu",
						(unsigned long long)st->min,
						(unsigned long long)latency_stats_avg(st),
						(unsigned long long)latency_stats_percentile(st, 50),
						(unsigned long long)latency_stats_percentile(st, 90),
						(unsigned long long)latency_stats_percentile(st, 99),
						(unsigned long long)st->max);
				fprintf(rep->stream, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,",
					(unsigned long long)rs->switches,
					(unsigned long long)rs->switch_wait_jobs,
					(unsigned long long)rs->switch_wait_ns,
					(unsigned long long)rs->cleaner_shaders,
					(unsigned long long)rs->timeouts,
					(unsigned long long)rs->moved_wait_jobs,
					(unsigned long long)rs->moved_wait_bytes,
					(unsigned long long)rs->moved_wait_ns);
				report_csv_text(rep->stream, rs->dev);
				fprintf(rep->stream, ",%llu,%llu,%llu\n", (unsigned long long)rs->vm_wait_jobs,
					(unsigned long long)rs->vm_wait_bytes, (unsigned long long)rs->vm_wait_ns);
			}
		}
	}
	report_sections_write(rep, REPORT_SECTION_CSV);
	(void)err;
	return 0;
}

const struct report_output report_csv = {
	.name = "csv",
	.escaped = true,
	.begin = csv_begin,
	.job = csv_job,
	.end = csv_end,
};
