// SPDX-License-Identifier: GPL-2.0
/* The JSON schema is documented in man/gpu-trace-report.1 (JSON OUTPUT). */
#include <string.h>

#include "util/json-str.h"
#include "output/report.h"

static void opt_u64(FILE *f, bool has, uint64_t v)
{
	if (has)
		fprintf(f, "%llu", (unsigned long long)v);
	else
		fputs("null", f);
}

/* a stage never measured has no value: null, never a 0 that reads as 0 us */
static void stats(FILE *f, struct latency_stats *s)
{
	if (!s->count) {
		fputs("{\"count\":0,\"min\":null,\"avg\":null,\"p50\":null,\"p90\":null,\"p99\":null,\"max\":null}",
		      f);
		return;
	}
	fprintf(f, "{\"count\":%llu,\"min\":%llu,\"avg\":%llu,\"p50\":%llu,\"p90\":%llu,\"p99\":%llu,\"max\":%llu}",
		(unsigned long long)s->count, (unsigned long long)s->min,
		(unsigned long long)latency_stats_avg(s),
		(unsigned long long)latency_stats_percentile(s, 50),
		(unsigned long long)latency_stats_percentile(s, 90),
		(unsigned long long)latency_stats_percentile(s, 99), (unsigned long long)s->max);
}

static void job(struct report *rep, const struct job *j)
{
	FILE *f = rep->stream;
	int l;

	fprintf(f, "{\"ring\":");
	json_str(f, timeline_ring_name(&rep->analysis.tl, j->ring));
	fprintf(f, ",\"id\":");
	opt_u64(f, j->has_id, j->id);
	fprintf(f, ",\"fence\":");
	if (j->has_fence)
		fprintf(f, "\"%llu:%llu\"", (unsigned long long)j->ctx, (unsigned long long)j->seqno);
	else
		fputs("null", f);
	fprintf(f, ",\"fence_ptr\":");
	opt_u64(f, j->fence_ptr != 0, j->fence_ptr);
	fprintf(f, ",\"pid\":%d,\"comm\":", j->pid);
	json_str(f, analysis_comm(&rep->analysis, j->pid));
	fprintf(f, ",\"client_id\":");
	opt_u64(f, j->has_client_id, j->client_id);
	fprintf(f, ",\"submit_ns\":");
	opt_u64(f, j->t_submit, j->t_submit);
	fprintf(f, ",\"queue_ns\":");
	opt_u64(f, j->t_queue, j->t_queue);
	fprintf(f, ",\"run_ns\":");
	opt_u64(f, j->t_run, j->t_run);
	fprintf(f, ",\"hw_start_ns\":");
	opt_u64(f, j->t_hw_start, j->t_hw_start);
	fprintf(f, ",\"done_ns\":");
	opt_u64(f, j->t_done, j->t_done);
	fprintf(f, ",\"deps\":%u,\"waits\":%u,\"dep_fences\":[", j->nr_deps, j->nr_waits);
	for (l = 0; l < (int)j->nr_dep_fences; l++)
		fprintf(f, "%s\"%llu:%llu\"", l ? "," : "", (unsigned long long)j->dep_fences[l].ctx,
			(unsigned long long)j->dep_fences[l].seqno);
	fprintf(f, "],\"latency_ns\":{");
	for (l = 0; l < LAT_NR; l++) {
		fprintf(f, "%s\"%s\":", l ? "," : "", job_latency_key(l));
		opt_u64(f, j->has_lat[l], j->lat[l]);
	}
	fprintf(f, "},\"workload\":%s,\"behind_other\":{\"ns\":",
		j->flags & JOB_WORKLOAD ? "true" : "false");
	opt_u64(f, j->t_hw_start, j->behind.ns);
	fprintf(f, ",\"jobs\":%u,\"processes\":%u,\"partial\":%s}", j->behind.jobs,
		j->behind.procs, j->flags & JOB_BEHIND_PARTIAL ? "true" : "false");
	fprintf(f, ",\"unfinished\":%s,\"lost\":%s,\"done_from_fence\":%s,\"dep_unknown\":%s}",
		j->flags & JOB_UNFINISHED ? "true" : "false", j->flags & JOB_LOST ? "true" : "false",
		j->flags & JOB_DONE_FENCE ? "true" : "false",
		j->flags & JOB_DEP_UNKNOWN ? "true" : "false");
}

static int json_begin(struct report *rep, struct gt_error *err)
{
	fprintf(rep->stream, "{\"schema\":\"gpu-trace-report/3\"");
	if (rep->opts.jobs)
		fprintf(rep->stream, ",\"jobs\":[");
	(void)err;
	return 0;
}

static void json_job(struct report *rep, const struct job *j)
{
	if (rep->jobs_shown > 1)
		fputc(',', rep->stream);
	fputc('\n', rep->stream);
	job(rep, j);
}

static void header(struct report *rep)
{
	const struct dat_meta *m = rep->meta;
	FILE *f = rep->stream;
	int i;

	fprintf(f, ",\"file\":");
	json_str(f, rep->opts.file);
	fprintf(f, ",\"version\":%d,\"writer\":", m->version);
	json_str(f, m->writer);
	fprintf(f, ",\"kernel\":");
	json_str(f, m->uname);
	fprintf(f, ",\"workload\":");
	if (report_has_workload(rep)) {
		fprintf(f, "{\"comm\":");
		json_str(f, rep->analysis.workload.comm);
		fprintf(f, ",\"tasks\":%llu}", (unsigned long long)rep->analysis.workload.nr_tasks);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\"cpus\":%d,\"clock\":", m->nr_cpus);
	json_str(f, m->clock);
	fprintf(f, ",\"buffer_kb\":");
	opt_u64(f, m->has_buffer_kb, m->buffer_kb);
	fprintf(f, ",\"records\":%llu,\"gpu_events\":%llu,\"function_events\":%llu,\"short_records\":%llu,\"first_ns\":%llu,\"last_ns\":%llu",
		(unsigned long long)rep->analysis.records, (unsigned long long)rep->analysis.gpu_events,
		(unsigned long long)rep->analysis.func_events, (unsigned long long)rep->analysis.short_records,
		(unsigned long long)rep->analysis.first_ts, (unsigned long long)rep->analysis.last_ts);
	fprintf(f, ",\"lost\":{\"in_band\":%llu,\"in_band_unknown\":%s,\"windows\":%llu,\"cpus\":[",
		(unsigned long long)rep->analysis.missed, rep->analysis.missed_unknown ? "true" : "false",
		(unsigned long long)rep->analysis.tl.lost_windows);
	for (i = 0; i < m->nr_cpustats; i++)
		fprintf(f, "%s{\"cpu\":%d,\"overrun\":%llu,\"commit_overrun\":%llu,\"dropped\":%llu}",
			i ? "," : "", i, (unsigned long long)m->cpustats[i].overrun,
			(unsigned long long)m->cpustats[i].commit_overrun,
			(unsigned long long)m->cpustats[i].dropped);
	fprintf(f, "]},\"skipped_options\":[");
	for (i = 0; i < m->nr_skipped; i++)
		fprintf(f, "%s{\"id\":%u,\"size\":%u}", i ? "," : "", m->skipped[i].id,
			m->skipped[i].size);
	fprintf(f, "],\"coverage\":{\"skewed\":%s,\"from_ns\":%llu,\"to_ns\":%llu,\"late_cpu\":%d,\"end_cpu\":%d,\"cpus\":[",
		rep->analysis.cov.skewed ? "true" : "false", (unsigned long long)rep->analysis.cov.from,
		(unsigned long long)rep->analysis.cov.to, rep->analysis.cov.late_cpu,
		rep->analysis.cov.end_cpu);
	for (i = 0; i < rep->analysis.cov.nr; i++)
		fprintf(f, "%s{\"cpu\":%d,\"first_ns\":%llu,\"last_ns\":%llu,\"bytes\":%llu}", i ? "," : "",
			rep->analysis.cov.cpus[i].cpu, (unsigned long long)rep->analysis.cov.cpus[i].first,
			(unsigned long long)rep->analysis.cov.cpus[i].last,
			(unsigned long long)rep->analysis.cov.cpus[i].bytes);
	fprintf(f, "]},\"orphan_events\":%llu,\"filtered_out\":%llu,\"fence_mode\":%s",
		(unsigned long long)rep->analysis.tl.orphans, (unsigned long long)rep->analysis.tl.filtered_out,
		rep->analysis.tl.fence_mode ? "true" : "false");
}

static void rings(struct report *rep)
{
	int i, l;

	fprintf(rep->stream, ",\"rings\":[");
	for (i = 0; i < rep->analysis.tl.nr_rings; i++) {
		struct ring_stats *s = rep->analysis.tl.rings[i];

		fprintf(rep->stream, "%s\n{\"name\":", i ? "," : "");
		json_str(rep->stream, s->name);
		fprintf(rep->stream, ",\"jobs\":%llu,\"unfinished\":%llu,\"lost\":%llu,\"waits\":%llu,\"busy_ns\":%llu,\"busy_pct\":%.3f,\"max_in_flight\":%lld,",
			(unsigned long long)s->jobs, (unsigned long long)s->unfinished,
			(unsigned long long)s->lost, (unsigned long long)s->waits,
			(unsigned long long)s->busy_ns, report_busy_pct(rep, s),
			(long long)s->max_in_flight);
		fprintf(rep->stream, "\"workload_jobs\":%llu,\"behind_other\":{\"ns\":%llu,\"jobs\":%llu,\"processes\":[",
			(unsigned long long)s->workload_jobs, (unsigned long long)s->behind_ns,
			(unsigned long long)s->behind_jobs);
		for (l = 0; l < s->nr_behind_pids; l++) {
			fprintf(rep->stream, "%s{\"pid\":%d,\"comm\":", l ? "," : "", s->behind_pids[l]);
			json_str(rep->stream, analysis_comm(&rep->analysis, s->behind_pids[l]));
			fputc('}', rep->stream);
		}
		fprintf(rep->stream, "],\"more_processes\":%s},\"latency_ns\":{",
			s->behind_pids_more ? "true" : "false");
		for (l = 0; l < LAT_NR; l++) {
			fprintf(rep->stream, "%s\"%s\":", l ? "," : "", job_latency_key(l));
			stats(rep->stream, &s->lat[l]);
		}
		fprintf(rep->stream, "}}");
	}
	fprintf(rep->stream, "]");
}

static void groups(struct report *rep, const char *key, struct group_stats **g, int nr, bool procs)
{
	int i;

	fprintf(rep->stream, ",\"%s\":[", key);
	for (i = 0; i < nr; i++) {
		fprintf(rep->stream, "%s{\"%s\":%llu,", i ? "," : "", procs ? "pid" : "client_id",
			(unsigned long long)g[i]->key);
		if (procs) {
			fprintf(rep->stream, "\"comm\":");
			json_str(rep->stream, analysis_comm(&rep->analysis, (int)g[i]->key));
			fputc(',', rep->stream);
		}
		fprintf(rep->stream, "\"jobs\":%llu,\"total_ns\":", (unsigned long long)g[i]->jobs);
		stats(rep->stream, &g[i]->total);
		fputc('}', rep->stream);
	}
	fputc(']', rep->stream);
}

static void hex(FILE *f, const char *key, uint64_t v)
{
	fprintf(f, ",\"%s\":\"0x%llx\"", key, (unsigned long long)v);
}

static void errno_field(FILE *f, const char *key, bool has, int ret)
{
	char buf[32];

	fprintf(f, ",\"%s\":", key);
	if (has && ret)
		json_str(f, kfd_errno_name(ret, buf, sizeof(buf)));
	else
		fputs("null", f);
}

static void mqd_json(FILE *f, const struct kfd_mqd *m)
{
	if (!m) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"pid\":%d,\"gpu_id\":%u,\"type\":\"%s\",\"generation\":%d,\"dwords\":%d,\"decoded\":%s",
		m->pid, m->gpu_id, m->sdma ? "sdma" : "compute", m->generation, m->nr_words,
		m->decoded ? "true" : "false");
	if (m->decoded) {
		hex(f, "ring", m->ring);
		fprintf(f, ",\"ring_size\":%llu,\"doorbell_offset\":%u,\"doorbell_enabled\":%s",
			(unsigned long long)m->ring_size, m->doorbell_offset,
			m->doorbell_enabled ? "true" : "false");
	}
	if (m->decoded && !m->sdma) {
		fprintf(f, ",\"active\":%s,\"vmid\":%u,\"pipe_priority\":%u,\"queue_priority\":%u,\"quantum\":%u",
			m->active ? "true" : "false", m->vmid, m->pipe_priority, m->queue_priority,
			m->quantum);
		hex(f, "mqd_addr", m->mqd_addr);
		hex(f, "eop", m->eop);
		hex(f, "ctx_save", m->ctx_save);
		fprintf(f, ",\"ctx_save_size\":%u,\"rptr\":%u,\"wptr\":%llu", m->ctx_save_size, m->rptr,
			(unsigned long long)m->wptr);
	}
	if (m->decoded && m->sdma)
		fprintf(f, ",\"sdma_engine\":%d,\"sdma_queue\":%d", m->sdma_engine, m->sdma_queue);
	fprintf(f, ",\"hqd\":");
	if (m->on_hqd)
		fprintf(f, "{\"inst\":%d,\"pipe\":%d,\"queue\":%d}", m->inst, m->pipe, m->queue);
	else
		fputs("null", f);
	fputc('}', f);
}

/* record's KFD debugfs snapshots */
static void snapshots(struct report *rep)
{
	const struct kfd_snapshots *k = &rep->analysis.snaps;
	FILE *f = rep->stream;
	int i, j;

	fprintf(f, ",\"snapshots\":[");
	for (i = 0; i < k->nr; i++) {
		const struct kfd_snapshot *s = &k->snaps[i];

		fprintf(f, "%s{\"seq\":%d,\"why\":", i ? "," : "", s->seq);
		json_str(f, s->why);
		fprintf(f, ",\"ts_ns\":%llu,\"error\":", (unsigned long long)s->ts);
		json_str(f, s->error);
		fprintf(f, ",\"processes\":[");
		for (j = 0; j < s->nr_processes && j < (int)(sizeof(s->pids) / sizeof(s->pids[0])); j++)
			fprintf(f, "%s%d", j ? "," : "", s->pids[j]);
		fprintf(f, "],\"hardware_queues\":%d,\"queues\":[", s->nr_hqds);
		for (j = 0; j < s->nr_mqds; j++) {
			if (j)
				fputc(',', f);
			mqd_json(f, &s->mqds[j]);
		}
		fprintf(f, "]}");
	}
	fputc(']', f);
}

static void probe_queue(struct report *rep, const struct kfd_queue *q)
{
	FILE *f = rep->stream;
	const char *type = kfd_queue_type_name(q->type);

	fprintf(f, "{\"pid\":%d,\"comm\":", q->pid);
	json_str(f, analysis_comm(&rep->analysis, q->pid));
	fprintf(f, ",\"gpu_id\":%u,\"queue_id\":", q->gpu_id);
	opt_u64(f, q->has_id, q->queue_id);
	fprintf(f, ",\"queue_id_from\":\"%s\",\"type\":", kfd_id_from_name(q->id_from));
	json_str(f, type ? type : "unknown");
	fprintf(f, ",\"type_value\":%u,\"priority\":%u,\"percentage\":%u", q->type, q->priority,
		q->percentage);
	hex(f, "ring", q->ring);
	fprintf(f, ",\"ring_size\":%u", q->ring_size);
	hex(f, "write_pointer", q->wptr);
	hex(f, "read_pointer", q->rptr);
	hex(f, "eop", q->eop);
	fprintf(f, ",\"eop_size\":%llu", (unsigned long long)q->eop_size);
	hex(f, "ctx_save", q->ctx_save);
	fprintf(f, ",\"ctx_save_size\":%u,\"doorbell_offset\":", q->ctx_save_size);
	if (q->has_doorbell)
		fprintf(f, "\"0x%llx\"", (unsigned long long)q->doorbell_offset);
	else
		fputs("null", f);
	fprintf(f, ",\"created_ns\":%llu,\"create_duration_ns\":", (unsigned long long)q->created);
	opt_u64(f, q->has_result, q->create_ns);
	fprintf(f, ",\"result\":");
	if (q->has_result)
		fprintf(f, "%d", q->result);
	else
		fputs("null", f);
	errno_field(f, "error", q->has_result, q->result);
	fprintf(f, ",\"kernel_says\":");
	json_str(f, q->reason);
	fprintf(f, ",\"destroyed_ns\":");
	opt_u64(f, q->destroyed, q->destroyed_at);
	fprintf(f, ",\"lifetime_ns\":");
	opt_u64(f, q->destroyed, q->destroyed_at - q->created);
	fprintf(f, ",\"updates\":%u,\"evictions\":%u,\"restores\":%u,\"evicted_ns\":%llu,\"evict_call_ns\":%llu,\"restore_call_ns\":%llu,\"mqd\":",
		q->updates, q->evictions, q->restores, (unsigned long long)q->evicted_ns,
		(unsigned long long)q->evict_call_ns, (unsigned long long)q->restore_call_ns);
	mqd_json(f, kfd_snapshots_find_ring(&rep->analysis.snaps, q->ring));
	fputc('}', f);
}

/* record --kfd-args: queues with their values, other calls, evictions */
static void probe_queues(struct report *rep)
{
	const struct kfd_queue_table *t = &rep->analysis.kq;
	FILE *f = rep->stream;
	int i;

	fprintf(f, ",\"probes\":");
	if (!t->probes) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"records\":%llu,\"unknown_destroys\":%u,\"failed_destroys\":%u,\"queues\":[",
		(unsigned long long)t->records, t->unknown_destroys, t->failed_destroys);
	for (i = 0; i < t->nr_queues; i++) {
		if (i)
			fputc(',', f);
		probe_queue(rep, &t->queues[i]);
	}
	fprintf(f, "],\"calls\":[");
	for (i = 0; i < t->nr_calls; i++) {
		const struct kfd_call *c = &t->calls[i];

		fprintf(f, "%s{\"op\":\"%s\",\"pid\":%d,\"comm\":", i ? "," : "",
			c->kind == KP_UPDATE ? "update" : "destroy", c->pid);
		json_str(f, analysis_comm(&rep->analysis, c->pid));
		fprintf(f, ",\"queue_id\":%u,\"start_ns\":%llu,\"duration_ns\":%llu,\"result\":%d",
			c->queue_id, (unsigned long long)c->ts, (unsigned long long)c->ns, c->ret);
		errno_field(f, "error", true, c->ret);
		fprintf(f, ",\"known_queue\":%s}", c->matched ? "true" : "false");
	}
	fprintf(f, "],\"evictions\":[");
	for (i = 0; i < t->nr_evicts; i++) {
		const struct kfd_evict *e = &t->evicts[i];

		fprintf(f, "%s{\"pid\":%d,\"by_tid\":%d,\"trigger\":", i ? "," : "", e->pid, e->tid);
		if (e->has_trigger)
			json_str(f, kfd_trigger_name(e->trigger));
		else
			fputs("null", f);
		fprintf(f, ",\"queues\":%d,\"start_ns\":", e->nr_queues);
		opt_u64(f, e->start != 0, e->start);
		fprintf(f, ",\"evict_ns\":");
		opt_u64(f, e->has_evict_ret, e->evict_ns);
		fprintf(f, ",\"restore_start_ns\":");
		opt_u64(f, e->restore_start != 0, e->restore_start);
		fprintf(f, ",\"restore_ns\":");
		opt_u64(f, e->restored, e->restore_ns);
		fprintf(f, ",\"evicted_ns\":");
		opt_u64(f, e->restored && e->start, e->restore_start + e->restore_ns - e->start);
		fputc('}', f);
	}
	fprintf(f, "]}");
}

static void queues(struct report *rep)
{
	const struct kfd_queues *k = &rep->analysis.kfd;
	int i, s;

	fprintf(rep->stream, ",\"kfd\":{\"durations\":%s,\"function_events\":%llu,\"note\":\"user-space doorbell writes never enter the kernel; no kernel trace shows submissions to KFD queues\",\"ops\":[",
		k->graph ? "true" : "false", (unsigned long long)rep->analysis.func_events);
	for (i = 0; i < k->nr_ops; i++) {
		const struct kfd_op *op = &k->ops[i];

		fprintf(rep->stream, "%s{\"pid\":%d,\"comm\":", i ? "," : "", op->pid);
		json_str(rep->stream, analysis_comm(&rep->analysis, op->pid));
		fprintf(rep->stream, ",\"op\":\"%s\",\"root\":\"%s\",\"start_ns\":%llu,\"duration_ns\":",
			kfd_op_name(op->type), op->root, (unsigned long long)op->start);
		opt_u64(rep->stream, op->has_duration, op->duration);
		fprintf(rep->stream, ",\"steps\":[");
		for (s = 0; s < op->nr_steps; s++) {
			fprintf(rep->stream, "%s{\"func\":\"%s\",\"start_ns\":%llu,\"duration_ns\":", s ? "," : "",
				op->steps[s].func, (unsigned long long)op->steps[s].start);
			opt_u64(rep->stream, op->steps[s].has_duration, op->steps[s].duration);
			fputc('}', rep->stream);
		}
		fprintf(rep->stream, "],\"more_steps\":%u}", op->more_steps);
	}
	fputc(']', rep->stream);
	probe_queues(rep);
	snapshots(rep);
	fputc('}', rep->stream);
}

static void kfd_create(FILE *f, const struct kfd_op *op)
{
	if (!op) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"start_ns\":%llu,\"duration_ns\":", (unsigned long long)op->start);
	opt_u64(f, op->has_duration, op->duration);
	fputc('}', f);
}

/* record --hip-log: what the runtime says each process did, and the kernel beside it */
static void hip(struct report *rep)
{
	const struct hip_runtime *h = &rep->analysis.hip;
	FILE *f = rep->stream;
	int i, k, n;

	fprintf(f, ",\"hip\":{\"lines\":%llu,\"complete\":%s,\"more_processes_lines\":%llu,\"processes\":[",
		(unsigned long long)h->lines, h->failed ? "false" : "true",
		(unsigned long long)h->more_procs_lines);
	for (i = 0; i < h->nr_procs; i++) {
		const struct hip_proc *p = &h->procs[i];

		fprintf(f, "%s\n{\"pid\":%d,\"comm\":", i ? "," : "", p->pid);
		json_str(f, analysis_comm(&rep->analysis, p->pid));
		fprintf(f, ",\"lines\":%llu,\"first_ns\":%llu,\"last_ns\":%llu,\"by_kind\":{",
			(unsigned long long)p->lines, (unsigned long long)p->first_ts,
			(unsigned long long)p->last_ts);
		for (k = 0; k < HIP_NR_KINDS; k++)
			fprintf(f, "%s\"%s\":%llu", k ? "," : "", hip_kind_name(k),
				(unsigned long long)p->by_kind[k]);
		fprintf(f, "},\"commands_complete\":%llu,\"gpu_us\":%lld,\"wall_us\":%lld,\"copy_bytes\":%llu,\"queues\":[",
			(unsigned long long)p->commands_complete, (long long)p->gpu_us,
			(long long)p->wall_us, (unsigned long long)p->copy_bytes);
		for (k = 0; k < p->nr_queues; k++) {
			const struct hip_queue *q = &p->queues[k];
			const struct kfd_queue *kq;

			fprintf(f, "%s{\"at_ns\":%llu", k ? "," : "", (unsigned long long)q->ts);
			hex(f, "hwq", q->hwq);
			hex(f, "swq", q->swq);
			fprintf(f, ",\"size\":%d,\"priority\":%d,\"cooperative\":%s,\"dispatches\":%llu,\"kfd_create\":",
				q->size, q->priority, q->cooperative ? "true" : "false",
				(unsigned long long)q->dispatches);
			kfd_create(f, hip_queue_kfd_create(p, k, &rep->analysis.kfd));
			kq = kfd_queue_table_find_ring(&rep->analysis.kq, p->pid, q->hwq, q->ts);
			fprintf(f, ",\"kfd_queue\":");
			if (kq) {
				fprintf(f, "{\"queue_id\":");
				opt_u64(f, kq->has_id, kq->queue_id);
				fprintf(f, ",\"gpu_id\":%u,\"created_ns\":%llu}", kq->gpu_id,
					(unsigned long long)kq->created);
			} else {
				fputs("null", f);
			}
			fputc('}', f);
		}
		fprintf(f, "],\"more_queues\":%llu,\"more_kernel_dispatches\":%llu,\"kernels\":[",
			(unsigned long long)p->more_queues, (unsigned long long)p->more_kernels);
		for (k = 0; k < p->nr_kernels; k++) {
			const struct hip_kernel *kn = &p->kernels[k];

			fprintf(f, "%s{\"name\":", k ? "," : "");
			json_str(f, kn->name);
			fprintf(f, ",\"dispatches\":%llu,\"first_ns\":%llu,\"last_ns\":%llu,\"spans\":%llu,\"span_ns\":%llu}",
				(unsigned long long)kn->dispatches, (unsigned long long)kn->first_ts,
				(unsigned long long)kn->last_ts, (unsigned long long)kn->spans,
				(unsigned long long)kn->span_ns);
		}
		fprintf(f, "],\"overlaps\":[");
		for (k = 0; k < p->nr_overlaps; k++) {
			const struct hip_overlap *o = &p->overlaps[k];

			fprintf(f, "%s{\"dispatch_id\":%llu,\"kernel\":", k ? "," : "",
				(unsigned long long)o->dispatch_id);
			json_str(f, o->kernel >= 0 ? p->kernels[o->kernel].name : "");
			hex(f, "hwq", o->hwq);
			fprintf(f, ",\"from_ns\":%llu,\"to_ns\":%llu,\"kfd_op\":\"%s\",\"kfd_pid\":%d,\"kfd_start_ns\":%llu,\"kfd_duration_ns\":%llu}",
				(unsigned long long)o->from, (unsigned long long)o->to, kfd_op_name(o->op),
				o->op_pid, (unsigned long long)o->op_start,
				(unsigned long long)o->op_duration);
		}
		fprintf(f, "],\"more_overlaps\":%llu,\"jobs_by_ring\":[", (unsigned long long)p->more_overlaps);
		for (k = 0, n = 0; k < rep->analysis.tl.nr_rings; k++) {
			uint64_t jobs = report_ring_jobs(rep, p->pid, k);

			if (!jobs)
				continue;
			fprintf(f, "%s{\"ring\":", n++ ? "," : "");
			json_str(f, timeline_ring_name(&rep->analysis.tl, k));
			fprintf(f, ",\"jobs\":%llu}", (unsigned long long)jobs);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "]}");
}

static int json_end(struct report *rep, struct gt_error *err)
{
	int i;

	if (rep->opts.jobs)
		fprintf(rep->stream, "]");
	header(rep);
	if (rep->summary || rep->opts.rings)
		rings(rep);
	if (rep->summary) {
		fprintf(rep->stream, ",\"slowest\":[");
		for (i = 0; i < rep->nr_slow; i++) {
			fprintf(rep->stream, "%s\n", i ? "," : "");
			job(rep, &rep->slow[i]);
		}
		fprintf(rep->stream, "]");
		groups(rep, "processes", rep->analysis.tl.procs, rep->analysis.tl.nr_procs, true);
		groups(rep, "clients", rep->analysis.tl.clients, rep->analysis.tl.nr_clients, false);
	}
	if (rep->summary || rep->opts.queues)
		queues(rep);
	if (rep->summary)
		hip(rep);
	fprintf(rep->stream, "}\n");
	(void)err;
	return 0;
}

void report_json_summary(struct report *rep)
{
	header(rep);
	rings(rep);
	groups(rep, "processes", rep->analysis.tl.procs, rep->analysis.tl.nr_procs, true);
	groups(rep, "clients", rep->analysis.tl.clients, rep->analysis.tl.nr_clients, false);
	queues(rep);
	hip(rep);
}

const struct report_output report_json = {
	.name = "json",
	.begin = json_begin,
	.job = json_job,
	.end = json_end,
};
