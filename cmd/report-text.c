// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "report.h"

#define B(n) char n[32]

static void text_begin(struct report *r)
{
	if (r->o.jobs)
		fprintf(r->f, "%-14s %-22s %7s %-15s %10s %17s %17s %17s %17s %17s %11s %11s %11s %11s %11s %11s %11s %6s %s\n",
			"RING", "JOB", "PID", "COMM", "CLIENT", "SUBMIT", "QUEUED", "RUN",
			"HW_START", "DONE", "SUB->Q_us", "Q->RUN_us", "DEP_us", "RUN->HW_us",
			"EXEC_us", "TOTAL_us", "BEHIND_us", "BEHIND", "FLAGS");
}

static void text_job(struct report *r, const struct job *j)
{
	B(key); B(client); B(t0); B(t1); B(t2); B(t3); B(t4);
	B(l0); B(l1); B(l2); B(l3); B(l4); B(l5); B(fl); B(behind); B(behind_jobs);

	if (j->has_client_id)
		snprintf(client, sizeof(client), "%llu", (unsigned long long)j->client_id);
	else
		strcpy(client, "-");
	if (j->t_hw_start)
		snprintf(behind_jobs, sizeof(behind_jobs), "%u", j->behind.jobs);
	else
		strcpy(behind_jobs, "-");
	fprintf(r->f, "%-14s %-22s %7d %-15s %10s %17s %17s %17s %17s %17s %11s %11s %11s %11s %11s %11s %11s %6s %s\n",
		timeline_ring_name(&r->a.tl, j->ring), report_job_key(key, sizeof(key), j), j->pid,
		analysis_comm(&r->a, j->pid), client,
		report_ts(t0, sizeof(t0), j->t_submit), report_ts(t1, sizeof(t1), j->t_queue),
		report_ts(t2, sizeof(t2), j->t_run), report_ts(t3, sizeof(t3), j->t_hw_start),
		report_ts(t4, sizeof(t4), j->t_done),
		report_us(l0, sizeof(l0), j->has_lat[LAT_SUBMIT_TO_QUEUE], j->lat[LAT_SUBMIT_TO_QUEUE]),
		report_us(l1, sizeof(l1), j->has_lat[LAT_QUEUE_TO_RUN], j->lat[LAT_QUEUE_TO_RUN]),
		report_us(l2, sizeof(l2), j->has_lat[LAT_DEP_WAIT], j->lat[LAT_DEP_WAIT]),
		report_us(l3, sizeof(l3), j->has_lat[LAT_RUN_TO_HW], j->lat[LAT_RUN_TO_HW]),
		report_us(l4, sizeof(l4), j->has_lat[LAT_EXEC], j->lat[LAT_EXEC]),
		report_us(l5, sizeof(l5), j->has_lat[LAT_TOTAL], j->lat[LAT_TOTAL]),
		report_us(behind, sizeof(behind), j->t_hw_start, j->behind.ns), behind_jobs,
		report_job_flags(fl, sizeof(fl), j->flags));
}

static void header(struct report *r)
{
	const struct dat_meta *m = r->meta;
	uint64_t lost = report_lost_stats(r);
	B(a); B(b);
	int i;

	fprintf(r->f, "file     %s (trace-cmd v%d%s%s)\n", r->o.file, m->version,
		m->writer[0] ? ", written by " : "", m->writer);
	fprintf(r->f, "kernel   %s\n", m->uname[0] ? m->uname : "(not recorded)");
	fprintf(r->f, "cpus     %d   clock %s   buffer ", m->nr_cpus,
		m->clock[0] ? m->clock : "(not recorded)");
	if (m->has_buffer_kb)
		fprintf(r->f, "%llu KB per CPU\n", (unsigned long long)m->buffer_kb);
	else
		fprintf(r->f, "(not recorded)\n");
	if (report_has_workload(r))
		fprintf(r->f, "workload %s: %llu task%s (the recorded command or -P and what they forked); its jobs are flagged W\n",
			r->a.workload.comm[0] ? r->a.workload.comm : "-P",
			(unsigned long long)r->a.workload.nr_tasks,
			r->a.workload.nr_tasks == 1 ? "" : "s");
	fprintf(r->f, "records  %llu (GPU %llu, function %llu) from %s to %s\n",
		(unsigned long long)r->a.records, (unsigned long long)r->a.gpu_events,
		(unsigned long long)r->a.func_events, report_ts(a, sizeof(a), r->a.first_ts),
		report_ts(b, sizeof(b), r->a.last_ts));
	if (!lost && !r->a.missed && !r->a.missed_unknown) {
		fprintf(r->f, "lost     none\n");
	} else {
		fprintf(r->f, "LOST    ");
		for (i = 0; i < m->nr_cpustats; i++)
			fprintf(r->f, " cpu%d %llu%s", i,
				(unsigned long long)cpu_stats_lost(&m->cpustats[i]),
				i + 1 < m->nr_cpustats ? "," : "");
		if (m->instance_lost)
			fprintf(r->f, ", workload buffer %llu", (unsigned long long)m->instance_lost);
		fprintf(r->f, "; %llu%s dropped in %llu window%s of the data: jobs in flight then are flagged L and left out of the statistics\n",
			(unsigned long long)r->a.missed, r->a.missed_unknown ? "+" : "",
			(unsigned long long)r->a.tl.lost_windows,
			r->a.tl.lost_windows == 1 ? "" : "s");
	}
}

static void job_totals(struct report *r)
{
	uint64_t fin = 0, unfin = 0, lost = 0;
	int i;

	for (i = 0; i < r->a.tl.nr_rings; i++) {
		fin += r->a.tl.rings[i]->jobs;
		unfin += r->a.tl.rings[i]->unfinished;
		lost += r->a.tl.rings[i]->lost;
	}
	fprintf(r->f, "jobs     %llu finished, %llu unfinished (U), %llu touched by lost events (L)",
		(unsigned long long)fin, (unsigned long long)unfin, (unsigned long long)lost);
	if (r->a.tl.orphans)
		fprintf(r->f, "; %llu events of jobs that began before the trace",
			(unsigned long long)r->a.tl.orphans);
	if (r->a.tl.filtered_out)
		fprintf(r->f, "; %llu jobs filtered out", (unsigned long long)r->a.tl.filtered_out);
	if (r->a.tl.fence_mode && r->a.gpu_events)
		fprintf(r->f, "\n         (no scheduler events in the file: jobs are dma_fence init/emit -> signaled per timeline)");
	fprintf(r->f, "\n");
}

/* "workload: 12 of 40 jobs; they waited 3.2 ms behind 41 jobs of 2 other processes" */
static void ring_behind(struct report *r, const struct ring_stats *s)
{
	double ms = (double)s->behind_ns / 1e6;
	int procs = s->nr_behind_pids;

	if (report_has_workload(r) && !s->behind_jobs) {
		fprintf(r->f, "  workload: %llu of %llu jobs; none waited behind other processes' jobs\n",
			(unsigned long long)s->workload_jobs,
			(unsigned long long)(s->jobs + s->unfinished));
		return;
	}
	if (report_has_workload(r))
		fprintf(r->f, "  workload: %llu of %llu jobs; they waited %.3f ms behind %llu jobs of %d%s other process%s",
			(unsigned long long)s->workload_jobs,
			(unsigned long long)(s->jobs + s->unfinished), ms,
			(unsigned long long)s->behind_jobs, procs, s->behind_pids_more ? "+" : "",
			procs == 1 && !s->behind_pids_more ? "" : "es");
	else if (s->behind_jobs)
		fprintf(r->f, "  jobs waited %.3f ms in all behind %llu jobs of other processes (%d%s process%s)",
			ms, (unsigned long long)s->behind_jobs, procs, s->behind_pids_more ? "+" : "",
			procs == 1 && !s->behind_pids_more ? "" : "es");
	else
		return;
	for (int i = 0; i < procs && i < 4; i++)
		fprintf(r->f, "%s%d %s", i ? ", " : " (", s->behind_pids[i],
			analysis_comm(&r->a, s->behind_pids[i]));
	fprintf(r->f, "%s\n", !procs ? "" : procs > 4 || s->behind_pids_more ? ", ...)" : ")");
}

static void rings(struct report *r)
{
	int i, l;

	for (i = 0; i < r->a.tl.nr_rings; i++) {
		struct ring_stats *s = r->a.tl.rings[i];

		fprintf(r->f, "\nring %s: %llu jobs, %llu unfinished, %llu lost, busy %.1f%%, max %lld in flight, %llu waited on dependencies\n",
			s->name, (unsigned long long)s->jobs, (unsigned long long)s->unfinished,
			(unsigned long long)s->lost, report_busy_pct(r, s),
			(long long)s->max_in_flight, (unsigned long long)s->waits);
		ring_behind(r, s);
		fprintf(r->f, "  %-14s %8s %12s %12s %12s %12s %12s %12s\n", "latency (us)", "count",
			"min", "avg", "p50", "p90", "p99", "max");
		for (l = 0; l < LAT_NR; l++) {
			struct latency_stats *st = &s->lat[l];
			B(mn); B(av); B(p50); B(p90); B(p99); B(mx);

			if (!st->count)
				continue;
			fprintf(r->f, "  %-14s %8llu %12s %12s %12s %12s %12s %12s\n",
				job_latency_name(l), (unsigned long long)st->count,
				report_us(mn, sizeof(mn), true, st->min),
				report_us(av, sizeof(av), true, latency_avg(st)),
				report_us(p50, sizeof(p50), true, latency_percentile(st, 50)),
				report_us(p90, sizeof(p90), true, latency_percentile(st, 90)),
				report_us(p99, sizeof(p99), true, latency_percentile(st, 99)),
				report_us(mx, sizeof(mx), true, st->max));
		}
	}
}

static void slowest(struct report *r)
{
	int i;

	if (!r->nr_slow)
		return;
	fprintf(r->f, "\nslowest jobs (total)\n  %-14s %-22s %7s %-15s %11s %11s %11s %11s %11s %s\n",
		"ring", "job", "pid", "comm", "q->run_us", "dep_us", "run->hw_us", "exec_us",
		"total_us", "flags");
	for (i = 0; i < r->nr_slow; i++) {
		const struct job *j = &r->slow[i];
		B(key); B(a); B(b); B(c); B(d); B(e); B(fl);

		fprintf(r->f, "  %-14s %-22s %7d %-15s %11s %11s %11s %11s %11s %s\n",
			timeline_ring_name(&r->a.tl, j->ring), report_job_key(key, sizeof(key), j), j->pid,
			analysis_comm(&r->a, j->pid),
			report_us(a, sizeof(a), j->has_lat[LAT_QUEUE_TO_RUN], j->lat[LAT_QUEUE_TO_RUN]),
			report_us(b, sizeof(b), j->has_lat[LAT_DEP_WAIT], j->lat[LAT_DEP_WAIT]),
			report_us(c, sizeof(c), j->has_lat[LAT_RUN_TO_HW], j->lat[LAT_RUN_TO_HW]),
			report_us(d, sizeof(d), j->has_lat[LAT_EXEC], j->lat[LAT_EXEC]),
			report_us(e, sizeof(e), true, j->lat[LAT_TOTAL]),
			report_job_flags(fl, sizeof(fl), j->flags));
	}
}

static void groups(struct report *r, const char *title, struct group_stats **g, int nr,
		   bool processes)
{
	int i;

	if (!nr)
		return;
	fprintf(r->f, "\n%s\n  %-24s %8s %12s %12s %12s %12s\n", title,
		processes ? "pid comm" : "client id", "jobs", "avg_us", "p50_us", "p99_us", "max_us");
	for (i = 0; i < nr; i++) {
		char who[64];
		B(a); B(b); B(c); B(d);

		if (processes)
			snprintf(who, sizeof(who), "%llu %s", (unsigned long long)g[i]->key,
				 analysis_comm(&r->a, (int)g[i]->key));
		else
			snprintf(who, sizeof(who), "%llu", (unsigned long long)g[i]->key);
		fprintf(r->f, "  %-24s %8llu %12s %12s %12s %12s\n", who,
			(unsigned long long)g[i]->jobs,
			report_us(a, sizeof(a), true, latency_avg(&g[i]->total)),
			report_us(b, sizeof(b), true, latency_percentile(&g[i]->total, 50)),
			report_us(c, sizeof(c), true, latency_percentile(&g[i]->total, 99)),
			report_us(d, sizeof(d), true, g[i]->total.max));
	}
}

static void queues(struct report *r)
{
	const struct kfd_queues *k = &r->a.kfd;
	int i, s;

	fprintf(r->f, "\nKFD queues");
	if (!k->nr_ops) {
		if (!r->a.func_events)
			fprintf(r->f, ": no function records in the file; record with --preset amd (function_graph under :mod:amdgpu) on a kernel that permits the function tracer\n");
		else
			fprintf(r->f, ": no queue create/update/destroy/evict/restore in the %llu function records (%llu of them KFD's)\n",
				(unsigned long long)r->a.func_events,
				(unsigned long long)k->kfd_records);
		return;
	}
	fprintf(r->f, " (%s); user-space doorbell writes never enter the kernel, so no kernel trace shows submissions to these queues\n",
		k->graph ? "function_graph: durations" : "function tracer: order only, no durations");
	for (i = 0; i < k->nr_ops; i++) {
		const struct kfd_op *op = &k->ops[i];
		B(t); B(d);

		fprintf(r->f, "  %d %-15s %-8s at %s %s%s:", op->pid, analysis_comm(&r->a, op->pid),
			kfd_op_name(op->type), report_ts(t, sizeof(t), op->start),
			report_us(d, sizeof(d), op->has_duration, op->duration),
			op->has_duration ? " us" : " (no end)");
		for (s = 0; s < op->nr_steps; s++) {
			fprintf(r->f, "%s %s", s ? "," : "", op->steps[s].func);
			if (op->steps[s].has_duration)
				fprintf(r->f, " %s", report_us(d, sizeof(d), true, op->steps[s].duration));
		}
		if (op->more_steps)
			fprintf(r->f, " (+%u more)", op->more_steps);
		fprintf(r->f, "\n");
	}
}

static void text_end(struct report *r)
{
	if (r->o.events && !r->summary && !r->o.jobs && !r->o.rings && !r->o.queues)
		return;
	if (r->summary || r->o.rings) {
		if (r->o.jobs)
			fprintf(r->f, "\n");
		header(r);
		job_totals(r);
		rings(r);
	}
	if (r->summary) {
		slowest(r);
		groups(r, "by process (total latency)", r->a.tl.procs, r->a.tl.nr_procs, true);
		groups(r, "by DRM client id (total latency)", r->a.tl.clients, r->a.tl.nr_clients, false);
	}
	if (r->summary || r->o.queues)
		queues(r);
}

const struct report_output report_text = { text_begin, text_job, text_end };
