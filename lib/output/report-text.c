// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "dat/dat-format.h"
#include "output/report.h"

/* One right-aligned column: microseconds with 3 decimals, or "-" when absent. */
static void col_us(FILE *f, int width, bool has, uint64_t ns)
{
	char text[32];

	fprintf(f, " %*s", width, report_us(text, sizeof(text), has, ns));
}

/* One right-aligned column: a timestamp as trace-cmd prints it, or "-". */
static void col_ts(FILE *f, int width, uint64_t ns)
{
	char text[32];

	fprintf(f, " %*s", width, report_ts(text, sizeof(text), ns));
}

static int text_begin(struct report *rep, struct gt_error *err)
{
	if (rep->opts.jobs)
		fprintf(rep->stream, "%-14s %-22s %7s %-15s %10s %17s %17s %17s %17s %17s %11s %11s %11s %11s %11s %11s %11s %6s %s\n",
			"RING", "JOB", "PID", "COMM", "CLIENT", "SUBMIT", "QUEUED", "RUN",
			"HW_START", "DONE", "SUB->Q_us", "Q->RUN_us", "DEP_us", "RUN->HW_us",
			"EXEC_us", "TOTAL_us", "BEHIND_us", "BEHIND", "FLAGS");
	(void)err;
	return 0;
}

static void text_job(struct report *rep, const struct job *j)
{
	char key[48], client[24], flags[16];
	FILE *f = rep->stream;
	int l;

	if (j->has_client_id)
		snprintf(client, sizeof(client), "%llu", (unsigned long long)j->client_id);
	else
		strcpy(client, "-");
	fprintf(f, "%-14s %-22s %7d %-15s %10s", timeline_ring_name(&rep->analysis.tl, j->ring),
		report_job_key(key, sizeof(key), j), j->pid, analysis_comm(&rep->analysis, j->pid),
		client);
	col_ts(f, 17, j->t_submit);
	col_ts(f, 17, j->t_queue);
	col_ts(f, 17, j->t_run);
	col_ts(f, 17, j->t_hw_start);
	col_ts(f, 17, j->t_done);
	for (l = 0; l < LAT_NR; l++)		/* in the header's order */
		col_us(f, 11, j->has_lat[l], j->lat[l]);
	col_us(f, 11, j->t_hw_start, j->behind.ns);
	if (j->t_hw_start)
		fprintf(f, " %6u", j->behind.jobs);
	else
		fprintf(f, " %6s", "-");
	fprintf(f, " %s\n", report_job_flags(flags, sizeof(flags), j->flags));
}

/* Each CPU's window, and what the late start (or early end) costs. */
static void coverage_lines(struct report *rep)
{
	const struct cpu_coverage *c = &rep->analysis.cov;
	char a[32], b[32];
	int i;

	fprintf(rep->stream, "coverage");
	for (i = 0; i < c->nr; i++)
		fprintf(rep->stream, " cpu%d %s-%s%s", c->cpus[i].cpu,
			report_ts(a, sizeof(a), c->cpus[i].first),
			report_ts(b, sizeof(b), c->cpus[i].last), i + 1 < c->nr ? "," : "\n");
	fprintf(rep->stream, "LOST     uncounted:");
	if (c->late_cpu >= 0)
		fprintf(rep->stream, " cpu%d's records start %.6f s after the first CPU's (its older data was overwritten: a ring buffer read in overwrite mode)",
			c->late_cpu, (double)(c->from - c->start) / 1e9);
	if (c->end_cpu >= 0)
		fprintf(rep->stream, "%s cpu%d's records end %.6f s before the last CPU's (its buffer filled: later events dropped)",
			c->late_cpu >= 0 ? ";" : "", c->end_cpu, (double)(c->end - c->to) / 1e9);
	fprintf(rep->stream, "; nothing in the file counts it: jobs outside %s-%s are flagged L and left out of the statistics\n",
		report_ts(a, sizeof(a), c->from), report_ts(b, sizeof(b), c->to));
}

static void header(struct report *rep)
{
	const struct dat_meta *m = rep->meta;
	uint64_t lost = report_lost_stats(rep);
	char first[32], last[32];
	int i;

	fprintf(rep->stream, "file     %s (trace-cmd v%d%s%s)\n", rep->opts.file, m->version,
		m->writer[0] ? ", written by " : "", m->writer);
	for (i = 0; i < m->nr_skipped; i++)
		fprintf(rep->stream, "note     option %u (%s) holds %u bytes where its meaning needs %s: skipped (another writer's use of the id, or damage)\n",
			m->skipped[i].id, dat_option_name(m->skipped[i].id) ? dat_option_name(m->skipped[i].id) : "?", m->skipped[i].size,
			dat_option_expected(m->skipped[i].id));
	fprintf(rep->stream, "kernel   %s\n", m->uname[0] ? m->uname : "(not recorded)");
	fprintf(rep->stream, "cpus     %d   clock %s   buffer ", m->nr_cpus,
		m->clock[0] ? m->clock : "(not recorded)");
	if (m->has_buffer_kb)
		fprintf(rep->stream, "%llu KB per CPU\n", (unsigned long long)m->buffer_kb);
	else
		fprintf(rep->stream, "(not recorded)\n");
	if (report_has_workload(rep))
		fprintf(rep->stream, "workload %s: %llu task%s (the recorded command or -P and what they forked); its jobs are flagged W\n",
			rep->analysis.workload.comm[0] ? rep->analysis.workload.comm : "-P",
			(unsigned long long)rep->analysis.workload.nr_tasks,
			rep->analysis.workload.nr_tasks == 1 ? "" : "s");
	fprintf(rep->stream, "records  %llu (GPU %llu, function %llu) from %s to %s\n",
		(unsigned long long)rep->analysis.records, (unsigned long long)rep->analysis.gpu_events,
		(unsigned long long)rep->analysis.func_events, report_ts(first, sizeof(first), rep->analysis.first_ts),
		report_ts(last, sizeof(last), rep->analysis.last_ts));
	if (rep->analysis.short_records)
		fprintf(rep->stream, "note     %llu records shorter than their common fields (type, pid): damaged, skipped\n",
			(unsigned long long)rep->analysis.short_records);
	if (rep->analysis.cov.skewed)
		coverage_lines(rep);
	if (!lost && !rep->analysis.missed && !rep->analysis.missed_unknown) {
		if (!rep->analysis.cov.skewed)
			fprintf(rep->stream, "lost     none\n");
	} else {
		fprintf(rep->stream, "LOST    ");
		for (i = 0; i < m->nr_cpustats; i++)
			fprintf(rep->stream, " cpu%d %llu%s", i,
				(unsigned long long)cpu_stats_lost(&m->cpustats[i]),
				i + 1 < m->nr_cpustats ? "," : "");
		if (m->instance_lost)
			fprintf(rep->stream, ", workload buffer %llu", (unsigned long long)m->instance_lost);
		fprintf(rep->stream, "; %llu%s dropped in %llu window%s of the data: jobs in flight then are flagged L and left out of the statistics\n",
			(unsigned long long)rep->analysis.missed, rep->analysis.missed_unknown ? "+" : "",
			(unsigned long long)rep->analysis.tl.lost_windows,
			rep->analysis.tl.lost_windows == 1 ? "" : "s");
	}
}

static void job_totals(struct report *rep)
{
	uint64_t fin = 0, unfin = 0, lost = 0;
	int i;

	for (i = 0; i < rep->analysis.tl.nr_rings; i++) {
		fin += rep->analysis.tl.rings[i]->jobs;
		unfin += rep->analysis.tl.rings[i]->unfinished;
		lost += rep->analysis.tl.rings[i]->lost;
	}
	fprintf(rep->stream, "jobs     %llu finished, %llu unfinished (U), %llu touched by lost events (L)",
		(unsigned long long)fin, (unsigned long long)unfin, (unsigned long long)lost);
	if (rep->analysis.tl.orphans)
		fprintf(rep->stream, "; %llu events of jobs that began before the trace",
			(unsigned long long)rep->analysis.tl.orphans);
	if (rep->analysis.tl.filtered_out)
		fprintf(rep->stream, "; %llu jobs filtered out", (unsigned long long)rep->analysis.tl.filtered_out);
	if (rep->analysis.tl.fence_mode && rep->analysis.gpu_events)
		fprintf(rep->stream, "\n         (no scheduler events in the file: jobs are dma_fence init/emit -> signaled per timeline)");
	fprintf(rep->stream, "\n");
}

/* "workload: 12 of 40 jobs; they waited 3.2 ms behind 41 jobs of 2 other processes" */
static void ring_behind(struct report *rep, const struct ring_stats *s)
{
	double ms = (double)s->behind_ns / 1e6;
	int procs = s->nr_behind_pids;

	if (report_has_workload(rep) && !s->behind_jobs) {
		fprintf(rep->stream, "  workload: %llu of %llu jobs; none waited behind other processes' jobs\n",
			(unsigned long long)s->workload_jobs,
			(unsigned long long)(s->jobs + s->unfinished));
		return;
	}
	if (report_has_workload(rep))
		fprintf(rep->stream, "  workload: %llu of %llu jobs; they waited %.3f ms behind %llu jobs of %d%s other process%s",
			(unsigned long long)s->workload_jobs,
			(unsigned long long)(s->jobs + s->unfinished), ms,
			(unsigned long long)s->behind_jobs, procs, s->behind_pids_more ? "+" : "",
			procs == 1 && !s->behind_pids_more ? "" : "es");
	else if (s->behind_jobs)
		fprintf(rep->stream, "  jobs waited %.3f ms in all behind %llu jobs of other processes (%d%s process%s)",
			ms, (unsigned long long)s->behind_jobs, procs, s->behind_pids_more ? "+" : "",
			procs == 1 && !s->behind_pids_more ? "" : "es");
	else
		return;
	for (int i = 0; i < procs && i < 4; i++)
		fprintf(rep->stream, "%s%d %s", i ? ", " : " (", s->behind_pids[i],
			analysis_comm(&rep->analysis, s->behind_pids[i]));
	fprintf(rep->stream, "%s\n", !procs ? "" : procs > 4 || s->behind_pids_more ? ", ...)" : ")");
}

static void rings(struct report *rep)
{
	int i, l;

	for (i = 0; i < rep->analysis.tl.nr_rings; i++) {
		struct ring_stats *s = rep->analysis.tl.rings[i];

		fprintf(rep->stream, "\nring %s: %llu jobs, %llu unfinished, %llu lost, busy %.1f%%, max %lld in flight, %llu waited on dependencies\n",
			s->name, (unsigned long long)s->jobs, (unsigned long long)s->unfinished,
			(unsigned long long)s->lost, report_busy_pct(rep, s),
			(long long)s->max_in_flight, (unsigned long long)s->waits);
		ring_behind(rep, s);
		fprintf(rep->stream, "  %-14s %8s %12s %12s %12s %12s %12s %12s\n", "latency (us)", "count",
			"min", "avg", "p50", "p90", "p99", "max");
		for (l = 0; l < LAT_NR; l++) {
			struct latency_stats *st = &s->lat[l];

			if (!st->count)
				continue;
			fprintf(rep->stream, "  %-14s %8llu", job_latency_name(l),
				(unsigned long long)st->count);
			col_us(rep->stream, 12, true, st->min);
			col_us(rep->stream, 12, true, latency_stats_avg(st));
			col_us(rep->stream, 12, true, latency_stats_percentile(st, 50));
			col_us(rep->stream, 12, true, latency_stats_percentile(st, 90));
			col_us(rep->stream, 12, true, latency_stats_percentile(st, 99));
			col_us(rep->stream, 12, true, st->max);
			fputc('\n', rep->stream);
		}
	}
}

static void slowest(struct report *rep)
{
	int i;

	if (!rep->nr_slow)
		return;
	fprintf(rep->stream, "\nslowest jobs (total)\n  %-14s %-22s %7s %-15s %11s %11s %11s %11s %11s %s\n",
		"ring", "job", "pid", "comm", "q->run_us", "dep_us", "run->hw_us", "exec_us",
		"total_us", "flags");
	for (i = 0; i < rep->nr_slow; i++) {
		const struct job *j = &rep->slow[i];
		char key[48], flags[16];
		int l;

		fprintf(rep->stream, "  %-14s %-22s %7d %-15s",
			timeline_ring_name(&rep->analysis.tl, j->ring),
			report_job_key(key, sizeof(key), j), j->pid,
			analysis_comm(&rep->analysis, j->pid));
		/* queue->run .. total, as in the header */
		for (l = LAT_QUEUE_TO_RUN; l < LAT_NR; l++)
			col_us(rep->stream, 11, j->has_lat[l], j->lat[l]);
		fprintf(rep->stream, " %s\n", report_job_flags(flags, sizeof(flags), j->flags));
	}
}

static void groups(struct report *rep, const char *title, struct group_stats **g, int nr,
		   bool processes)
{
	int i;

	if (!nr)
		return;
	fprintf(rep->stream, "\n%s\n  %-24s %8s %12s %12s %12s %12s\n", title,
		processes ? "pid comm" : "client id", "jobs", "avg_us", "p50_us", "p99_us", "max_us");
	for (i = 0; i < nr; i++) {
		char who[64];

		if (processes)
			snprintf(who, sizeof(who), "%llu %s", (unsigned long long)g[i]->key,
				 analysis_comm(&rep->analysis, (int)g[i]->key));
		else
			snprintf(who, sizeof(who), "%llu", (unsigned long long)g[i]->key);
		fprintf(rep->stream, "  %-24s %8llu", who, (unsigned long long)g[i]->jobs);
		col_us(rep->stream, 12, true, latency_stats_avg(&g[i]->total));
		col_us(rep->stream, 12, true, latency_stats_percentile(&g[i]->total, 50));
		col_us(rep->stream, 12, true, latency_stats_percentile(&g[i]->total, 99));
		col_us(rep->stream, 12, true, g[i]->total.max);
		fputc('\n', rep->stream);
	}
}

/* What the MQD itself says, and which hardware slot held it. */
static void mqd_brief(struct report *rep, const struct kfd_mqd *m)
{
	if (!m)
		return;
	fprintf(rep->stream, "; MQD: doorbell 0x%x%s", m->doorbell_offset,
		m->doorbell_enabled ? "" : " (off)");
	if (!m->sdma)
		fprintf(rep->stream, ", %s, priority %u/%u", m->active ? "active" : "inactive",
			m->pipe_priority, m->queue_priority);
	if (m->on_hqd)
		fprintf(rep->stream, ", HQD inst %d pipe %d queue %d", m->inst, m->pipe, m->queue);
	else if (m->sdma)
		fprintf(rep->stream, ", SDMA engine %d queue %d", m->sdma_engine, m->sdma_queue);
}

static void snapshot_mqd(struct report *rep, const struct kfd_mqd *m)
{
	fprintf(rep->stream, "    %6d %s queue on gpu 0x%x (v%d MQD): ", m->pid, m->sdma ? "SDMA" : "compute",
		m->gpu_id, m->generation);
	if (!m->decoded) {
		fprintf(rep->stream, "%d dwords, not decoded (layout unknown: no topology line for the GPU)\n",
			m->nr_words);
		return;
	}
	fprintf(rep->stream, "ring 0x%llx size %llu", (unsigned long long)m->ring,
		(unsigned long long)m->ring_size);
	if (!m->sdma)
		fprintf(rep->stream, ", vmid %u, quantum 0x%x, eop 0x%llx, ctx save 0x%llx (%u), rptr %u, wptr %llu, MQD at 0x%llx",
			m->vmid, m->quantum, (unsigned long long)m->eop, (unsigned long long)m->ctx_save,
			m->ctx_save_size, m->rptr, (unsigned long long)m->wptr,
			(unsigned long long)m->mqd_addr);
	mqd_brief(rep, m);
	fputc('\n', rep->stream);
}

/* record's KFD debugfs snapshots: who held /dev/kfd, each queue's MQD */
static void snapshots(struct report *rep)
{
	const struct kfd_snapshots *k = &rep->analysis.snaps;
	char at[32];
	int i, j;

	if (!k->nr)
		return;
	fprintf(rep->stream, "\nKFD debugfs snapshots (%d; kfd/mqds decoded with the kernel's MQD layouts, kfd/hqds for the hardware slot)\n",
		k->nr);
	for (i = 0; i < k->nr; i++) {
		const struct kfd_snapshot *sn = &k->snaps[i];

		fprintf(rep->stream, "  %d (%s) at %s: %d process%s with /dev/kfd open", sn->seq,
			sn->why[0] ? sn->why : "?", report_ts(at, sizeof(at), sn->ts), sn->nr_processes,
			sn->nr_processes == 1 ? "" : "es");
		for (j = 0; j < sn->nr_processes && j < (int)(sizeof(sn->pids) / sizeof(sn->pids[0])); j++)
			fprintf(rep->stream, "%s%d %s", j ? ", " : " (", sn->pids[j],
				analysis_comm(&rep->analysis, sn->pids[j]));
		fprintf(rep->stream, "%s, %d queue%s, %d hardware queue%s%s%s\n", sn->nr_processes ? ")" : "",
			sn->nr_mqds, sn->nr_mqds == 1 ? "" : "s", sn->nr_hqds, sn->nr_hqds == 1 ? "" : "s",
			sn->error[0] ? "; could not read: " : "", sn->error);
		for (j = 0; j < sn->nr_mqds; j++)
			snapshot_mqd(rep, &sn->mqds[j]);
	}
}

static void probe_queue(struct report *rep, const struct kfd_queue *q)
{
	const char *type = kfd_queue_type_name(q->type);
	char at[32], d[32], err[32], id[16], door[24];

	snprintf(id, sizeof(id), q->has_id ? "%u" : "-", q->queue_id);
	snprintf(door, sizeof(door), q->has_doorbell ? "0x%llx" : "-",
		 (unsigned long long)q->doorbell_offset);
	fprintf(rep->stream, "  %6d %-15s 0x%-6x %5s %-11s %4u %4u 0x%-14llx %7u %-18s %s ",
		q->pid, analysis_comm(&rep->analysis, q->pid), q->gpu_id, id,
		type ? type : "?", q->priority, q->percentage, (unsigned long long)q->ring,
		q->ring_size, door, report_ts(at, sizeof(at), q->created));
	if (!q->has_result) {
		fprintf(rep->stream, "no return in the file\n");
		return;
	}
	if (q->result) {
		fprintf(rep->stream, "failed: %s%s%s%s\n", kfd_errno_name(q->result, err, sizeof(err)),
			q->reason[0] ? " (kernel: " : "", q->reason, q->reason[0] ? ")" : "");
		return;
	}
	fprintf(rep->stream, "ok in %s us, ", report_us(d, sizeof(d), true, q->create_ns));
	if (q->destroyed)
		fprintf(rep->stream, "lived %s us", report_us(d, sizeof(d), true, q->destroyed_at - q->created));
	else
		fprintf(rep->stream, "live at the end");
	if (q->updates)
		fprintf(rep->stream, ", %u update%s", q->updates, q->updates == 1 ? "" : "s");
	if (q->evictions)
		fprintf(rep->stream, ", %u eviction%s (%s us evicted), %u restore%s",
			q->evictions, q->evictions == 1 ? "" : "s",
			report_us(d, sizeof(d), true, q->evicted_ns), q->restores,
			q->restores == 1 ? "" : "s");
	mqd_brief(rep, kfd_snapshots_find_ring(&rep->analysis.snaps, q->ring));
	fputc('\n', rep->stream);
}

static void probe_calls(struct report *rep)
{
	const struct kfd_queue_table *t = &rep->analysis.kq;
	char at[32], d[32], err[32];
	int i;

	for (i = 0; i < t->nr_calls; i++) {
		const struct kfd_call *c = &t->calls[i];

		fprintf(rep->stream, "  %6d %-15s %s queue %u at %s in %s us: %s%s\n", c->pid,
			analysis_comm(&rep->analysis, c->pid), c->kind == KP_UPDATE ? "update" : "destroy",
			c->queue_id, report_ts(at, sizeof(at), c->ts), report_us(d, sizeof(d), true, c->ns),
			c->ret ? "failed: " : "ok", c->ret ? kfd_errno_name(c->ret, err, sizeof(err)) :
			c->matched ? "" : " (no create of that id in the file)");
	}
	for (i = 0; i < t->nr_evicts; i++) {
		const struct kfd_evict *e = &t->evicts[i];
		char e1[32], e2[32];

		fprintf(rep->stream, "  %6d %-15s eviction (%s) of %d queue%s at %s: evict %s us, ",
			e->pid, e->pid ? analysis_comm(&rep->analysis, e->pid) : "?",
			e->has_trigger ? kfd_trigger_name(e->trigger) : "restore only",
			e->nr_queues, e->nr_queues == 1 ? "" : "s",
			report_ts(at, sizeof(at), e->start ? e->start : e->restore_start),
			report_us(e1, sizeof(e1), e->has_evict_ret, e->evict_ns));
		if (e->restored)
			fprintf(rep->stream, "evicted %s us, restore %s us\n",
				report_us(d, sizeof(d), e->start != 0, e->restore_start + e->restore_ns - e->start),
				report_us(e2, sizeof(e2), true, e->restore_ns));
		else
			fprintf(rep->stream, "not restored in the file\n");
	}
}

/* record --kfd-args: each queue with the values its create passed */
static void probe_queues(struct report *rep)
{
	const struct kfd_queue_table *t = &rep->analysis.kq;
	bool unknown_ids = false;
	int i;

	if (!t->probes)
		return;
	fprintf(rep->stream, "\nKFD queue ioctls (probe events: %llu records; the values each ioctl passed, the kernel's answer)\n",
		(unsigned long long)t->records);
	if (!t->nr_queues && !t->nr_calls && !t->nr_evicts) {
		fprintf(rep->stream, "  none: no queue was created, updated, destroyed, evicted or restored while recording\n");
		return;
	}
	if (t->nr_queues)
		fprintf(rep->stream, "  %6s %-15s %-8s %5s %-11s %4s %4s %-16s %7s %-18s %-12s %s\n", "pid", "comm",
			"gpu", "queue", "type", "prio", "pct", "ring", "size", "doorbell", "created", "result");
	for (i = 0; i < t->nr_queues; i++)
		probe_queue(rep, &t->queues[i]);
	probe_calls(rep);
	for (i = 0; i < t->nr_queues; i++)
		unknown_ids |= t->queues[i].has_result && !t->queues[i].result && !t->queues[i].has_id;
	if (unknown_ids)
		fprintf(rep->stream, "  (queue ids unknown: this kernel's return probes cannot read the ioctl's arguments and its pr_debug lines were not captured)\n");
}

static void queues(struct report *rep)
{
	const struct kfd_queues *k = &rep->analysis.kfd;
	int i, s;

	probe_queues(rep);
	snapshots(rep);
	fprintf(rep->stream, "\nKFD queues");
	if (!k->nr_ops) {
		/* the queues came from probes or snapshots: no advice to record again */
		if (!rep->analysis.func_events && (rep->analysis.kq.records || rep->analysis.snaps.nr))
			fprintf(rep->stream, " (function_graph view): no function records; the %s above show the queues\n",
				rep->analysis.kq.records ? "probe events" : "debugfs snapshots");
		else if (!rep->analysis.func_events)
			fprintf(rep->stream, ": no function records in the file; record with --preset amd (function_graph under :mod:amdgpu) on a kernel that permits the function tracer\n");
		else
			fprintf(rep->stream, ": no queue create/update/destroy/evict/restore in the %llu function records (%llu of them KFD's)\n",
				(unsigned long long)rep->analysis.func_events,
				(unsigned long long)k->kfd_records);
		return;
	}
	fprintf(rep->stream, " (%s); user-space doorbell writes never enter the kernel, so no kernel trace shows submissions to these queues\n",
		k->graph ? "function_graph: durations" : "function tracer: order only, no durations");
	for (i = 0; i < k->nr_ops; i++) {
		const struct kfd_op *op = &k->ops[i];
		char at[32], d[32];

		fprintf(rep->stream, "  %d %-15s %-8s at %s %s%s:", op->pid, analysis_comm(&rep->analysis, op->pid),
			kfd_op_name(op->type), report_ts(at, sizeof(at), op->start),
			report_us(d, sizeof(d), op->has_duration, op->duration),
			op->has_duration ? " us" : " (no end)");
		for (s = 0; s < op->nr_steps; s++) {
			fprintf(rep->stream, "%s %s", s ? "," : "", op->steps[s].func);
			if (op->steps[s].has_duration)
				fprintf(rep->stream, " %s", report_us(d, sizeof(d), true, op->steps[s].duration));
		}
		if (op->more_steps)
			fprintf(rep->stream, " (+%u more)", op->more_steps);
		fprintf(rep->stream, "\n");
	}
}

/* The process's jobs per ring: the kernel's side of what the runtime did. */
static void hip_rings(struct report *rep, int pid)
{
	const struct timeline *tl = &rep->analysis.tl;
	int r, n = 0;

	for (r = 0; r < tl->nr_rings; r++) {
		uint64_t jobs = report_ring_jobs(rep, pid, r);

		if (jobs)
			fprintf(rep->stream, "%s %llu on %s", n++ ? "," : "    scheduler jobs:",
				(unsigned long long)jobs, timeline_ring_name(tl, r));
	}
	if (n)
		fputc('\n', rep->stream);
}

static void hip_queue(struct report *rep, const struct hip_proc *p, int k)
{
	const struct hip_queue *q = &p->queues[k];
	const struct kfd_op *op = hip_queue_kfd_create(p, k, &rep->analysis.kfd);
	const struct kfd_queue *kq = kfd_queue_table_find_ring(&rep->analysis.kq, p->pid, q->hwq, q->ts);
	char a[32], d[32], e[32];

	fprintf(rep->stream, "    queue HWq=0x%llx SWq=0x%llx size %d priority %d%s at %s: %llu dispatches",
		(unsigned long long)q->hwq, (unsigned long long)q->swq, q->size, q->priority,
		q->cooperative ? " cooperative" : "", report_ts(a, sizeof(a), q->ts),
		(unsigned long long)q->dispatches);
	if (op)
		fprintf(rep->stream, "; KFD create at %s (%s us), %s us before the runtime logged it",
			report_ts(a, sizeof(a), op->start),
			report_us(d, sizeof(d), op->has_duration, op->duration),
			report_us(e, sizeof(e), true, q->ts - op->start));
	if (kq && kq->has_id)
		fprintf(rep->stream, "; KFD queue %u on gpu 0x%x (the probes' create of this ring)",
			kq->queue_id, kq->gpu_id);
	else if (kq)
		fprintf(rep->stream, "; KFD queue on gpu 0x%x (the probes' create of this ring)", kq->gpu_id);
	fputc('\n', rep->stream);
}

static void hip_overlaps(struct report *rep, const struct hip_proc *p)
{
	char a[32], b[32], d[32], e[32];
	int k;

	for (k = 0; k < p->nr_overlaps; k++) {
		const struct hip_overlap *o = &p->overlaps[k];

		fprintf(rep->stream, "    dispatch %llu of %s (HWq 0x%llx, %s us from %s) spanned a KFD %s of %s us at %s (pid %d)\n",
			(unsigned long long)o->dispatch_id,
			o->kernel >= 0 ? p->kernels[o->kernel].name : "?", (unsigned long long)o->hwq,
			report_us(d, sizeof(d), true, o->to - o->from), report_ts(a, sizeof(a), o->from),
			kfd_op_name(o->op), report_us(e, sizeof(e), o->op_duration, o->op_duration),
			report_ts(b, sizeof(b), o->op_start), o->op_pid);
	}
	if (p->more_overlaps)
		fprintf(rep->stream, "    (+%llu more overlaps)\n", (unsigned long long)p->more_overlaps);
}

/* record --hip-log: what the runtime says each process did, and the kernel beside it */
static void hip(struct report *rep)
{
	const struct hip_runtime *h = &rep->analysis.hip;
	char a[32], b[32];
	int i, k;

	if (!h->lines)
		return;
	fprintf(rep->stream, "\nHIP runtime log (AMD_LOG_LEVEL lines, at their own CLOCK_MONOTONIC times): %llu lines of %d process%s\n",
		(unsigned long long)h->lines, h->nr_procs, h->nr_procs == 1 ? "" : "es");
	for (i = 0; i < h->nr_procs; i++) {
		const struct hip_proc *p = &h->procs[i];

		fprintf(rep->stream, "  %d %s: %llu lines from %s to %s; %d queue%s, %llu dispatch%s, %llu commands complete",
			p->pid, analysis_comm(&rep->analysis, p->pid), (unsigned long long)p->lines,
			report_ts(a, sizeof(a), p->first_ts), report_ts(b, sizeof(b), p->last_ts),
			p->nr_queues, p->nr_queues == 1 ? "" : "s",
			(unsigned long long)p->by_kind[HIP_DISPATCH],
			p->by_kind[HIP_DISPATCH] == 1 ? "" : "es",
			(unsigned long long)p->commands_complete);
		if (p->commands_complete)
			fprintf(rep->stream, " (GPU %lld us, wall %lld us)", (long long)p->gpu_us,
				(long long)p->wall_us);
		if (p->copy_bytes)
			fprintf(rep->stream, ", %llu bytes copied", (unsigned long long)p->copy_bytes);
		fputc('\n', rep->stream);
		for (k = 0; k < p->nr_queues; k++)
			hip_queue(rep, p, k);
		for (k = 0; k < p->nr_kernels; k++) {
			const struct hip_kernel *kn = &p->kernels[k];

			fprintf(rep->stream, "    %8llu x %s (%s .. %s)\n", (unsigned long long)kn->dispatches,
				kn->name, report_ts(a, sizeof(a), kn->first_ts),
				report_ts(b, sizeof(b), kn->last_ts));
		}
		if (p->more_queues || p->more_kernels)
			fprintf(rep->stream, "    (past %d queues and %d kernel names a process: %llu more queue creates and %llu dispatches counted above, not listed)\n",
				HIP_MAX_QUEUES, HIP_MAX_KERNELS, (unsigned long long)p->more_queues,
				(unsigned long long)p->more_kernels);
		hip_overlaps(rep, p);
		hip_rings(rep, p->pid);
	}
	if (h->more_procs_lines)
		fprintf(rep->stream, "  (past %d processes: %llu lines of more processes counted in the total only)\n",
			HIP_MAX_PROCS, (unsigned long long)h->more_procs_lines);
	if (h->failed)
		fprintf(rep->stream, "  (out of memory: the counts above stop early)\n");
}

static int text_end(struct report *rep, struct gt_error *err)
{
	if (rep->opts.events && !rep->summary && !rep->opts.jobs && !rep->opts.rings && !rep->opts.queues)
		return 0;
	if (rep->summary || rep->opts.rings) {
		if (rep->opts.jobs)
			fprintf(rep->stream, "\n");
		header(rep);
		job_totals(rep);
		rings(rep);
	}
	if (rep->summary) {
		slowest(rep);
		groups(rep, "by process (total latency)", rep->analysis.tl.procs, rep->analysis.tl.nr_procs, true);
		groups(rep, "by DRM client id (total latency)", rep->analysis.tl.clients, rep->analysis.tl.nr_clients, false);
	}
	if (rep->summary || rep->opts.queues)
		queues(rep);
	if (rep->summary)
		hip(rep);
	(void)err;
	return 0;
}

const struct report_output report_text = {
	.name = "text",
	.escaped = true,
	.begin = text_begin,
	.job = text_job,
	.end = text_end,
};
