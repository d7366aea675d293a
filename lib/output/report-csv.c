// SPDX-License-Identifier: GPL-2.0
/* CSV: one table per section, each after a "# section" line; times in ns. */
#include <string.h>

#include "output/report.h"

static void field(FILE *f, bool has, uint64_t v)
{
	if (has)
		fprintf(f, ",%llu", (unsigned long long)v);
	else
		fputc(',', f);
}

/* commas and quotes in comms and ring names are quoted as RFC 4180 says */
static void text(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int csv_begin(struct report *rep, struct gt_error *err)
{
	if (rep->opts.jobs)
		fprintf(rep->stream, "# jobs\nring,job,pid,comm,client_id,submit_ns,queue_ns,run_ns,hw_start_ns,done_ns,submit_to_queue_ns,queue_to_run_ns,dep_wait_ns,run_to_hw_ns,exec_ns,total_ns,workload,behind_other_ns,behind_other_jobs,behind_other_processes,flags\n");
	(void)err;
	return 0;
}

static void csv_job(struct report *rep, const struct job *j)
{
	char key[64], fl[16];
	int l;

	text(rep->stream, timeline_ring_name(&rep->analysis.tl, j->ring));
	fprintf(rep->stream, ",%s,%d,", report_job_key(key, sizeof(key), j), j->pid);
	text(rep->stream, analysis_comm(&rep->analysis, j->pid));
	field(rep->stream, j->has_client_id, j->client_id);
	field(rep->stream, j->t_submit, j->t_submit);
	field(rep->stream, j->t_queue, j->t_queue);
	field(rep->stream, j->t_run, j->t_run);
	field(rep->stream, j->t_hw_start, j->t_hw_start);
	field(rep->stream, j->t_done, j->t_done);
	for (l = 0; l < LAT_NR; l++)
		field(rep->stream, j->has_lat[l], j->lat[l]);
	fprintf(rep->stream, ",%d", (j->flags & JOB_WORKLOAD) != 0);
	field(rep->stream, j->t_hw_start, j->behind.ns);
	fprintf(rep->stream, ",%u,%u,%s\n", j->behind.jobs, j->behind.procs,
		report_job_flags(fl, sizeof(fl), j->flags));
}

/* record --hip-log: each process's queues and dispatches by kernel */
static void hip(struct report *rep)
{
	const struct hip_runtime *h = &rep->analysis.hip;
	int i, k;

	fprintf(rep->stream, "\n# hip queues\npid,comm,at_ns,hwq,swq,size,priority,cooperative\n");
	for (i = 0; i < h->nr_procs; i++) {
		for (k = 0; k < h->procs[i].nr_queues; k++) {
			const struct hip_queue *q = &h->procs[i].queues[k];

			fprintf(rep->stream, "%d,", h->procs[i].pid);
			text(rep->stream, analysis_comm(&rep->analysis, h->procs[i].pid));
			fprintf(rep->stream, ",%llu,0x%llx,0x%llx,%d,%d,%d\n", (unsigned long long)q->ts,
				(unsigned long long)q->hwq, (unsigned long long)q->swq, q->size,
				q->priority, q->cooperative);
		}
	}
	fprintf(rep->stream, "\n# hip kernels\npid,comm,kernel,dispatches,first_ns,last_ns\n");
	for (i = 0; i < h->nr_procs; i++) {
		for (k = 0; k < h->procs[i].nr_kernels; k++) {
			const struct hip_kernel *kn = &h->procs[i].kernels[k];

			fprintf(rep->stream, "%d,", h->procs[i].pid);
			text(rep->stream, analysis_comm(&rep->analysis, h->procs[i].pid));
			fputc(',', rep->stream);
			text(rep->stream, kn->name);
			fprintf(rep->stream, ",%llu,%llu,%llu\n", (unsigned long long)kn->dispatches,
				(unsigned long long)kn->first_ts, (unsigned long long)kn->last_ts);
		}
	}
	fprintf(rep->stream, "\n# hip overlaps\npid,comm,dispatch_id,kernel,hwq,from_ns,to_ns,kfd_op,kfd_pid,kfd_start_ns,kfd_duration_ns\n");
	for (i = 0; i < h->nr_procs; i++) {
		const struct hip_proc *p = &h->procs[i];

		for (k = 0; k < p->nr_overlaps; k++) {
			const struct hip_overlap *o = &p->overlaps[k];

			fprintf(rep->stream, "%d,", p->pid);
			text(rep->stream, analysis_comm(&rep->analysis, p->pid));
			fprintf(rep->stream, ",%llu,", (unsigned long long)o->dispatch_id);
			text(rep->stream, o->kernel >= 0 ? p->kernels[o->kernel].name : "");
			fprintf(rep->stream, ",0x%llx,%llu,%llu,%s,%d,%llu,%llu\n", (unsigned long long)o->hwq,
				(unsigned long long)o->from, (unsigned long long)o->to, kfd_op_name(o->op),
				o->op_pid, (unsigned long long)o->op_start,
				(unsigned long long)o->op_duration);
		}
	}
}

static void probe_queues(struct report *rep)
{
	const struct kfd_queue_table *t = &rep->analysis.kq;
	FILE *f = rep->stream;
	char err[32];
	int i;

	fprintf(f, "\n# kfd queue ioctls\npid,comm,gpu_id,queue_id,queue_id_from,type,priority,percentage,ring,ring_size,doorbell_offset,created_ns,create_duration_ns,result,error,kernel_says,destroyed_ns,updates,evictions,restores,evicted_ns\n");
	for (i = 0; i < t->nr_queues; i++) {
		const struct kfd_queue *q = &t->queues[i];
		const char *type = kfd_queue_type_name(q->type);

		fprintf(f, "%d,", q->pid);
		text(f, analysis_comm(&rep->analysis, q->pid));
		fprintf(f, ",0x%x", q->gpu_id);
		field(f, q->has_id, q->queue_id);
		fprintf(f, ",%s,%s,%u,%u,0x%llx,%u,", kfd_id_from_name(q->id_from), type ? type : "unknown",
			q->priority, q->percentage, (unsigned long long)q->ring, q->ring_size);
		if (q->has_doorbell)
			fprintf(f, "0x%llx", (unsigned long long)q->doorbell_offset);
		fprintf(f, ",%llu", (unsigned long long)q->created);
		field(f, q->has_result, q->create_ns);
		fputc(',', f);
		if (q->has_result)
			fprintf(f, "%d", q->result);
		fprintf(f, ",%s,", q->has_result && q->result ? kfd_errno_name(q->result, err, sizeof(err)) : "");
		text(f, q->reason);
		field(f, q->destroyed, q->destroyed_at);
		fprintf(f, ",%u,%u,%u,%llu\n", q->updates, q->evictions, q->restores,
			(unsigned long long)q->evicted_ns);
	}
	fprintf(f, "\n# kfd queue calls\npid,comm,op,queue_id,start_ns,duration_ns,result,error,known_queue\n");
	for (i = 0; i < t->nr_calls; i++) {
		const struct kfd_call *c = &t->calls[i];

		fprintf(f, "%d,", c->pid);
		text(f, analysis_comm(&rep->analysis, c->pid));
		fprintf(f, ",%s,%u,%llu,%llu,%d,%s,%d\n", c->kind == KP_UPDATE ? "update" : "destroy",
			c->queue_id, (unsigned long long)c->ts, (unsigned long long)c->ns, c->ret,
			c->ret ? kfd_errno_name(c->ret, err, sizeof(err)) : "", c->matched);
	}
	fprintf(f, "\n# kfd evictions\npid,by_tid,trigger,queues,start_ns,evict_ns,restore_start_ns,restore_ns\n");
	for (i = 0; i < t->nr_evicts; i++) {
		const struct kfd_evict *e = &t->evicts[i];

		fprintf(f, "%d,%d,%s,%d", e->pid, e->tid, e->has_trigger ? kfd_trigger_name(e->trigger) : "",
			e->nr_queues);
		field(f, e->start != 0, e->start);
		field(f, e->has_evict_ret, e->evict_ns);
		field(f, e->restore_start != 0, e->restore_start);
		field(f, e->restored, e->restore_ns);
		fputc('\n', f);
	}
}

static void snapshots(struct report *rep)
{
	const struct kfd_snapshots *k = &rep->analysis.snaps;
	FILE *f = rep->stream;
	int i, j;

	fprintf(f, "\n# kfd mqds\nsnapshot,why,ts_ns,pid,gpu_id,type,generation,ring,ring_size,doorbell_offset,doorbell_enabled,active,vmid,pipe_priority,queue_priority,sdma_engine,sdma_queue,hqd_inst,hqd_pipe,hqd_queue\n");
	for (i = 0; i < k->nr; i++) {
		for (j = 0; j < k->snaps[i].nr_mqds; j++) {
			const struct kfd_mqd *m = &k->snaps[i].mqds[j];

			fprintf(f, "%d,", k->snaps[i].seq);
			text(f, k->snaps[i].why);
			fprintf(f, ",%llu,%d,0x%x,%s,%d,", (unsigned long long)k->snaps[i].ts, m->pid,
				m->gpu_id, m->sdma ? "sdma" : "compute", m->generation);
			if (m->decoded)
				fprintf(f, "0x%llx,%llu,0x%x,%d,%d,%u,%u,%u,%d,%d",
					(unsigned long long)m->ring, (unsigned long long)m->ring_size,
					m->doorbell_offset, m->doorbell_enabled, m->active, m->vmid,
					m->pipe_priority, m->queue_priority, m->sdma_engine, m->sdma_queue);
			else
				fprintf(f, ",,,,,,,,,");
			if (m->on_hqd)
				fprintf(f, ",%d,%d,%d\n", m->inst, m->pipe, m->queue);
			else
				fprintf(f, ",,,\n");
		}
	}
}

static int csv_end(struct report *rep, struct gt_error *err)
{
	const struct kfd_queues *k = &rep->analysis.kfd;
	int i, l, s;

	if (rep->summary || rep->opts.rings) {
		fprintf(rep->stream, "%s# rings\nring,jobs,unfinished,lost,waits,busy_pct,max_in_flight,workload_jobs,behind_other_ns,behind_other_jobs,behind_other_processes,latency,count,min_ns,avg_ns,p50_ns,p90_ns,p99_ns,max_ns\n",
			rep->opts.jobs ? "\n" : "");
		for (i = 0; i < rep->analysis.tl.nr_rings; i++) {
			struct ring_stats *rs = rep->analysis.tl.rings[i];

			for (l = 0; l < LAT_NR; l++) {
				struct latency_stats *st = &rs->lat[l];

				text(rep->stream, rs->name);
				fprintf(rep->stream, ",%llu,%llu,%llu,%llu,%.3f,%lld,%llu,%llu,%llu,%d,%s,%llu",
					(unsigned long long)rs->jobs, (unsigned long long)rs->unfinished,
					(unsigned long long)rs->lost, (unsigned long long)rs->waits,
					report_busy_pct(rep, rs), (long long)rs->max_in_flight,
					(unsigned long long)rs->workload_jobs,
					(unsigned long long)rs->behind_ns,
					(unsigned long long)rs->behind_jobs, rs->nr_behind_pids,
					job_latency_name(l), (unsigned long long)st->count);
				/* a stage never measured: empty fields, not 0 ns */
				if (!st->count)
					fputs(",,,,,,\n", rep->stream);
				else
					fprintf(rep->stream, ",%llu,%llu,%llu,%llu,%llu,%llu\n",
						(unsigned long long)st->min,
						(unsigned long long)latency_stats_avg(st),
						(unsigned long long)latency_stats_percentile(st, 50),
						(unsigned long long)latency_stats_percentile(st, 90),
						(unsigned long long)latency_stats_percentile(st, 99),
						(unsigned long long)st->max);
			}
		}
	}
	if (rep->summary || rep->opts.queues) {
		fprintf(rep->stream, "\n# kfd queues\npid,comm,op,start_ns,duration_ns,steps\n");
		for (i = 0; i < k->nr_ops; i++) {
			const struct kfd_op *op = &k->ops[i];

			fprintf(rep->stream, "%d,", op->pid);
			text(rep->stream, analysis_comm(&rep->analysis, op->pid));
			fprintf(rep->stream, ",%s,%llu", kfd_op_name(op->type), (unsigned long long)op->start);
			field(rep->stream, op->has_duration, op->duration);
			fputc(',', rep->stream);
			for (s = 0; s < op->nr_steps; s++) {
				fprintf(rep->stream, "%s%s", s ? ";" : "", op->steps[s].func);
				if (op->steps[s].has_duration)
					fprintf(rep->stream, "=%llu", (unsigned long long)op->steps[s].duration);
			}
			fputc('\n', rep->stream);
		}
		if (rep->analysis.kq.probes)
			probe_queues(rep);
		if (rep->analysis.snaps.nr)
			snapshots(rep);
	}
	if (rep->summary)
		hip(rep);
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
