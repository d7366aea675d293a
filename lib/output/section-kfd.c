// SPDX-License-Identifier: GPL-2.0
/*
 * The KFD section of the report, in each format: the queue operations the
 * function tracer saw, record --kfd-args's probe events and record's KFD
 * debugfs snapshots (the joins kfd-queues, kfd-queue-table, kfd-snapshots).
 */
#include <string.h>

#include "util/json-str.h"
#include "output/perfetto-export.h"
#include "output/perfetto-kfd.h"
#include "output/report-formats.h"
#include "analysis/kfd-queue-table.h"
#include "analysis/kfd-queues.h"
#include "analysis/kfd-snapshots.h"
#include "analysis/nvidia-calls.h"

/* What the MQD itself says, and which hardware slot held it. */
static void text_mqd_brief(struct report *rep, const struct kfd_mqd *m)
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

static void text_snapshot_mqd(struct report *rep, const struct kfd_mqd *m)
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
	text_mqd_brief(rep, m);
	fputc('\n', rep->stream);
}

/* record's KFD debugfs snapshots: who held /dev/kfd, each queue's MQD */
static void text_snapshots(struct report *rep)
{
	const struct kfd_snapshots *k = kfd_snapshots_of(rep->analysis);
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
				analysis_comm(rep->analysis, sn->pids[j]));
		fprintf(rep->stream, "%s, %d queue%s, %d hardware queue%s%s%s\n", sn->nr_processes ? ")" : "",
			sn->nr_mqds, sn->nr_mqds == 1 ? "" : "s", sn->nr_hqds, sn->nr_hqds == 1 ? "" : "s",
			sn->error[0] ? "; could not read: " : "", sn->error);
		for (j = 0; j < sn->nr_mqds; j++)
			text_snapshot_mqd(rep, &sn->mqds[j]);
	}
}

static void text_probe_queue(struct report *rep, const struct kfd_queue *q)
{
	const char *type = kfd_queue_type_name(q->type);
	char at[32], d[32], err[32], id[16], door[24];

	snprintf(id, sizeof(id), q->has_id ? "%u" : "-", q->queue_id);
	snprintf(door, sizeof(door), q->has_doorbell ? "0x%llx" : "-",
		 (unsigned long long)q->doorbell_offset);
	fprintf(rep->stream, "  %6d %-15s 0x%-6x %5s %-11s %4u %4u 0x%-14llx %7u %-18s %s ",
		q->pid, analysis_comm(rep->analysis, q->pid), q->gpu_id, id,
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
	text_mqd_brief(rep, kfd_snapshots_find_ring(kfd_snapshots_of(rep->analysis), q->ring));
	fputc('\n', rep->stream);
}

static void text_probe_calls(struct report *rep)
{
	const struct kfd_queue_table *t = kfd_queue_table_of(rep->analysis);
	char at[32], d[32], err[32];
	int i;

	for (i = 0; i < t->nr_calls; i++) {
		const struct kfd_call *c = &t->calls[i];

		fprintf(rep->stream, "  %6d %-15s %s queue %u at %s in %s us: %s%s\n", c->pid,
			analysis_comm(rep->analysis, c->pid), c->kind == KP_UPDATE ? "update" : "destroy",
			c->queue_id, report_ts(at, sizeof(at), c->ts), report_us(d, sizeof(d), true, c->ns),
			c->ret ? "failed: " : "ok", c->ret ? kfd_errno_name(c->ret, err, sizeof(err)) :
			c->matched ? "" : " (no create of that id in the file)");
	}
	for (i = 0; i < t->nr_evicts; i++) {
		const struct kfd_evict *e = &t->evicts[i];
		char e1[32], e2[32];

		fprintf(rep->stream, "  %6d %-15s eviction (%s) of %d queue%s at %s: evict %s us, ",
			e->pid, e->pid ? analysis_comm(rep->analysis, e->pid) : "?",
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
static void text_probe_queues(struct report *rep)
{
	const struct kfd_queue_table *t = kfd_queue_table_of(rep->analysis);
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
		text_probe_queue(rep, &t->queues[i]);
	text_probe_calls(rep);
	for (i = 0; i < t->nr_queues; i++)
		unknown_ids |= t->queues[i].has_result && !t->queues[i].result && !t->queues[i].has_id;
	if (unknown_ids)
		fprintf(rep->stream, "  (queue ids unknown: this kernel's return probes cannot read the ioctl's arguments and its pr_debug lines were not captured)\n");
}

static void text_queues(struct report *rep)
{
	const struct analysis_totals *tot = analysis_totals(rep->analysis);
	const struct kfd_queues *kfd = kfd_queues_of(rep->analysis);
	const struct kfd_snapshots *snaps = kfd_snapshots_of(rep->analysis);
	const struct nvidia_calls *nv = nvidia_calls_of(rep->analysis);
	const struct kfd_queue_table *kq = kfd_queue_table_of(rep->analysis);
	const struct kfd_queues *k = kfd;
	int i, s;

	/* a file without GPU data: report's one line says what to record, not this */
	if (rep->summary && !analysis_has_gpu_data(rep->analysis) && !snaps->nr)
		return;
	/*
	 * NVIDIA's driver has no KFD, nor has a machine whose kernel had no
	 * amdgpu loaded (no amdgpu events in the file): no advice to record AMD's
	 */
	if ((nvidia_calls_any(nv) || !analysis_file_has_system(rep->analysis, "amdgpu")) &&
	    !k->nr_ops && !kq->records && !snaps->nr &&
	    !tot->func_events)
		return;
	text_probe_queues(rep);
	text_snapshots(rep);
	fprintf(rep->stream, "\nKFD queues");
	if (!k->nr_ops) {
		/* the queues came from probes or snapshots: no advice to record again */
		if (!tot->func_events && (kq->records || snaps->nr))
			fprintf(rep->stream, " (function_graph view): no function records; the %s above show the queues\n",
				kq->records ? "probe events" : "debugfs snapshots");
		else if (!tot->func_events)
			fprintf(rep->stream, ": no function records in the file; record with --preset amd (function_graph under :mod:amdgpu) on a kernel that permits the function tracer\n");
		else
			fprintf(rep->stream, ": no queue create/update/destroy/evict/restore in the %llu function records (%llu of them KFD's)\n",
				(unsigned long long)tot->func_events,
				(unsigned long long)k->kfd_records);
		return;
	}
	fprintf(rep->stream, " (%s); user-space doorbell writes never enter the kernel, so no kernel trace shows submissions to these queues\n",
		k->graph ? "function_graph: durations" : "function tracer: order only, no durations");
	for (i = 0; i < k->nr_ops; i++) {
		const struct kfd_op *op = &k->ops[i];
		char at[32], d[32];

		fprintf(rep->stream, "  %d %-15s %-8s at %s %s%s:", op->pid, analysis_comm(rep->analysis, op->pid),
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

static void json_errno_field(FILE *f, const char *key, bool has, int ret)
{
	char buf[32];

	fprintf(f, ",\"%s\":", key);
	if (has && ret)
		json_str(f, kfd_errno_name(ret, buf, sizeof(buf)));
	else
		fputs("null", f);
}

static void json_mqd(FILE *f, const struct kfd_mqd *m)
{
	if (!m) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"pid\":%d,\"gpu_id\":%u,\"type\":\"%s\",\"generation\":%d,\"dwords\":%d,\"decoded\":%s",
		m->pid, m->gpu_id, m->sdma ? "sdma" : "compute", m->generation, m->nr_words,
		m->decoded ? "true" : "false");
	if (m->decoded) {
		report_json_hex(f, "ring", m->ring);
		fprintf(f, ",\"ring_size\":%llu,\"doorbell_offset\":%u,\"doorbell_enabled\":%s",
			(unsigned long long)m->ring_size, m->doorbell_offset,
			m->doorbell_enabled ? "true" : "false");
	}
	if (m->decoded && !m->sdma) {
		fprintf(f, ",\"active\":%s,\"vmid\":%u,\"pipe_priority\":%u,\"queue_priority\":%u,\"quantum\":%u",
			m->active ? "true" : "false", m->vmid, m->pipe_priority, m->queue_priority,
			m->quantum);
		report_json_hex(f, "mqd_addr", m->mqd_addr);
		report_json_hex(f, "eop", m->eop);
		report_json_hex(f, "ctx_save", m->ctx_save);
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
static void json_snapshots(struct report *rep)
{
	const struct kfd_snapshots *k = kfd_snapshots_of(rep->analysis);
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
			json_mqd(f, &s->mqds[j]);
		}
		fprintf(f, "]}");
	}
	fputc(']', f);
}

static void json_probe_queue(struct report *rep, const struct kfd_queue *q)
{
	FILE *f = rep->stream;
	const char *type = kfd_queue_type_name(q->type);

	fprintf(f, "{\"pid\":%d,\"comm\":", q->pid);
	json_str(f, analysis_comm(rep->analysis, q->pid));
	fprintf(f, ",\"gpu_id\":%u,\"queue_id\":", q->gpu_id);
	report_json_u64(f, q->has_id, q->queue_id);
	fprintf(f, ",\"queue_id_from\":\"%s\",\"type\":", kfd_id_from_name(q->id_from));
	json_str(f, type ? type : "unknown");
	fprintf(f, ",\"type_value\":%u,\"priority\":%u,\"percentage\":%u", q->type, q->priority,
		q->percentage);
	report_json_hex(f, "ring", q->ring);
	fprintf(f, ",\"ring_size\":%u", q->ring_size);
	report_json_hex(f, "write_pointer", q->wptr);
	report_json_hex(f, "read_pointer", q->rptr);
	report_json_hex(f, "eop", q->eop);
	fprintf(f, ",\"eop_size\":%llu", (unsigned long long)q->eop_size);
	report_json_hex(f, "ctx_save", q->ctx_save);
	fprintf(f, ",\"ctx_save_size\":%u,\"doorbell_offset\":", q->ctx_save_size);
	if (q->has_doorbell)
		fprintf(f, "\"0x%llx\"", (unsigned long long)q->doorbell_offset);
	else
		fputs("null", f);
	fprintf(f, ",\"created_ns\":%llu,\"create_duration_ns\":", (unsigned long long)q->created);
	report_json_u64(f, q->has_result, q->create_ns);
	fprintf(f, ",\"result\":");
	if (q->has_result)
		fprintf(f, "%d", q->result);
	else
		fputs("null", f);
	json_errno_field(f, "error", q->has_result, q->result);
	fprintf(f, ",\"kernel_says\":");
	json_str(f, q->reason);
	fprintf(f, ",\"destroyed_ns\":");
	report_json_u64(f, q->destroyed, q->destroyed_at);
	fprintf(f, ",\"lifetime_ns\":");
	report_json_u64(f, q->destroyed, q->destroyed_at - q->created);
	fprintf(f, ",\"updates\":%u,\"evictions\":%u,\"restores\":%u,\"evicted_ns\":%llu,\"evict_call_ns\":%llu,\"restore_call_ns\":%llu,\"mqd\":",
		q->updates, q->evictions, q->restores, (unsigned long long)q->evicted_ns,
		(unsigned long long)q->evict_call_ns, (unsigned long long)q->restore_call_ns);
	json_mqd(f, kfd_snapshots_find_ring(kfd_snapshots_of(rep->analysis), q->ring));
	fputc('}', f);
}

/* record --kfd-args: queues with their values, other calls, evictions */
static void json_probe_queues(struct report *rep)
{
	const struct kfd_queue_table *t = kfd_queue_table_of(rep->analysis);
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
		json_probe_queue(rep, &t->queues[i]);
	}
	fprintf(f, "],\"calls\":[");
	for (i = 0; i < t->nr_calls; i++) {
		const struct kfd_call *c = &t->calls[i];

		fprintf(f, "%s{\"op\":\"%s\",\"pid\":%d,\"comm\":", i ? "," : "",
			c->kind == KP_UPDATE ? "update" : "destroy", c->pid);
		json_str(f, analysis_comm(rep->analysis, c->pid));
		fprintf(f, ",\"queue_id\":%u,\"start_ns\":%llu,\"duration_ns\":%llu,\"result\":%d",
			c->queue_id, (unsigned long long)c->ts, (unsigned long long)c->ns, c->ret);
		json_errno_field(f, "error", true, c->ret);
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
		report_json_u64(f, e->start != 0, e->start);
		fprintf(f, ",\"evict_ns\":");
		report_json_u64(f, e->has_evict_ret, e->evict_ns);
		fprintf(f, ",\"restore_start_ns\":");
		report_json_u64(f, e->restore_start != 0, e->restore_start);
		fprintf(f, ",\"restore_ns\":");
		report_json_u64(f, e->restored, e->restore_ns);
		fprintf(f, ",\"evicted_ns\":");
		report_json_u64(f, e->restored && e->start, e->restore_start + e->restore_ns - e->start);
		fputc('}', f);
	}
	fprintf(f, "]}");
}

static void json_queues(struct report *rep)
{
	const struct kfd_queues *k = kfd_queues_of(rep->analysis);
	int i, s;

	fprintf(rep->stream, ",\"kfd\":{\"durations\":%s,\"function_events\":%llu,\"note\":\"user-space doorbell writes never enter the kernel; no kernel trace shows submissions to KFD queues\",\"ops\":[",
		k->graph ? "true" : "false",
		(unsigned long long)analysis_totals(rep->analysis)->func_events);
	for (i = 0; i < k->nr_ops; i++) {
		const struct kfd_op *op = &k->ops[i];

		fprintf(rep->stream, "%s{\"pid\":%d,\"comm\":", i ? "," : "", op->pid);
		json_str(rep->stream, analysis_comm(rep->analysis, op->pid));
		fprintf(rep->stream, ",\"op\":\"%s\",\"root\":\"%s\",\"start_ns\":%llu,\"duration_ns\":",
			kfd_op_name(op->type), op->root, (unsigned long long)op->start);
		report_json_u64(rep->stream, op->has_duration, op->duration);
		fprintf(rep->stream, ",\"steps\":[");
		for (s = 0; s < op->nr_steps; s++) {
			fprintf(rep->stream, "%s{\"func\":\"%s\",\"start_ns\":%llu,\"duration_ns\":", s ? "," : "",
				op->steps[s].func, (unsigned long long)op->steps[s].start);
			report_json_u64(rep->stream, op->steps[s].has_duration, op->steps[s].duration);
			fputc('}', rep->stream);
		}
		fprintf(rep->stream, "],\"more_steps\":%u}", op->more_steps);
	}
	fputc(']', rep->stream);
	json_probe_queues(rep);
	json_snapshots(rep);
	fputc('}', rep->stream);
}

static void csv_probe_queues(struct report *rep)
{
	const struct kfd_queue_table *t = kfd_queue_table_of(rep->analysis);
	FILE *f = rep->stream;
	char err[32];
	int i;

	fprintf(f, "\n# kfd queue ioctls\npid,comm,gpu_id,queue_id,queue_id_from,type,priority,percentage,ring,ring_size,doorbell_offset,created_ns,create_duration_ns,result,error,kernel_says,destroyed_ns,updates,evictions,restores,evicted_ns\n");
	for (i = 0; i < t->nr_queues; i++) {
		const struct kfd_queue *q = &t->queues[i];
		const char *type = kfd_queue_type_name(q->type);

		fprintf(f, "%d,", q->pid);
		report_csv_text(f, analysis_comm(rep->analysis, q->pid));
		fprintf(f, ",0x%x", q->gpu_id);
		report_csv_u64(f, q->has_id, q->queue_id);
		fprintf(f, ",%s,%s,%u,%u,0x%llx,%u,", kfd_id_from_name(q->id_from), type ? type : "unknown",
			q->priority, q->percentage, (unsigned long long)q->ring, q->ring_size);
		if (q->has_doorbell)
			fprintf(f, "0x%llx", (unsigned long long)q->doorbell_offset);
		fprintf(f, ",%llu", (unsigned long long)q->created);
		report_csv_u64(f, q->has_result, q->create_ns);
		fputc(',', f);
		if (q->has_result)
			fprintf(f, "%d", q->result);
		fprintf(f, ",%s,", q->has_result && q->result ? kfd_errno_name(q->result, err, sizeof(err)) : "");
		report_csv_text(f, q->reason);
		report_csv_u64(f, q->destroyed, q->destroyed_at);
		fprintf(f, ",%u,%u,%u,%llu\n", q->updates, q->evictions, q->restores,
			(unsigned long long)q->evicted_ns);
	}
	fprintf(f, "\n# kfd queue calls\npid,comm,op,queue_id,start_ns,duration_ns,result,error,known_queue\n");
	for (i = 0; i < t->nr_calls; i++) {
		const struct kfd_call *c = &t->calls[i];

		fprintf(f, "%d,", c->pid);
		report_csv_text(f, analysis_comm(rep->analysis, c->pid));
		fprintf(f, ",%s,%u,%llu,%llu,%d,%s,%d\n", c->kind == KP_UPDATE ? "update" : "destroy",
			c->queue_id, (unsigned long long)c->ts, (unsigned long long)c->ns, c->ret,
			c->ret ? kfd_errno_name(c->ret, err, sizeof(err)) : "", c->matched);
	}
	fprintf(f, "\n# kfd evictions\npid,by_tid,trigger,queues,start_ns,evict_ns,restore_start_ns,restore_ns\n");
	for (i = 0; i < t->nr_evicts; i++) {
		const struct kfd_evict *e = &t->evicts[i];

		fprintf(f, "%d,%d,%s,%d", e->pid, e->tid, e->has_trigger ? kfd_trigger_name(e->trigger) : "",
			e->nr_queues);
		report_csv_u64(f, e->start != 0, e->start);
		report_csv_u64(f, e->has_evict_ret, e->evict_ns);
		report_csv_u64(f, e->restore_start != 0, e->restore_start);
		report_csv_u64(f, e->restored, e->restore_ns);
		fputc('\n', f);
	}
}

static void csv_snapshots(struct report *rep)
{
	const struct kfd_snapshots *k = kfd_snapshots_of(rep->analysis);
	FILE *f = rep->stream;
	int i, j;

	fprintf(f, "\n# kfd mqds\nsnapshot,why,ts_ns,pid,gpu_id,type,generation,ring,ring_size,doorbell_offset,doorbell_enabled,active,vmid,pipe_priority,queue_priority,sdma_engine,sdma_queue,hqd_inst,hqd_pipe,hqd_queue\n");
	for (i = 0; i < k->nr; i++) {
		for (j = 0; j < k->snaps[i].nr_mqds; j++) {
			const struct kfd_mqd *m = &k->snaps[i].mqds[j];

			fprintf(f, "%d,", k->snaps[i].seq);
			report_csv_text(f, k->snaps[i].why);
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

static void csv_queues(struct report *rep)
{
	const struct kfd_queues *k = kfd_queues_of(rep->analysis);
	int i, s;

	fprintf(rep->stream, "\n# kfd queues\npid,comm,op,start_ns,duration_ns,steps\n");
	for (i = 0; i < k->nr_ops; i++) {
		const struct kfd_op *op = &k->ops[i];

		fprintf(rep->stream, "%d,", op->pid);
		report_csv_text(rep->stream, analysis_comm(rep->analysis, op->pid));
		fprintf(rep->stream, ",%s,%llu", kfd_op_name(op->type), (unsigned long long)op->start);
		report_csv_u64(rep->stream, op->has_duration, op->duration);
		fputc(',', rep->stream);
		for (s = 0; s < op->nr_steps; s++) {
			fprintf(rep->stream, "%s%s", s ? ";" : "", op->steps[s].func);
			if (op->steps[s].has_duration)
				fprintf(rep->stream, "=%llu", (unsigned long long)op->steps[s].duration);
		}
		fputc('\n', rep->stream);
	}
	if (kfd_queue_table_of(rep->analysis)->probes)
		csv_probe_queues(rep);
	if (kfd_snapshots_of(rep->analysis)->nr)
		csv_snapshots(rep);
}

/* Perfetto: the operations function records made, then what the probes and snapshots saw */
static void perfetto_kfd(struct perfetto_export *p)
{
	perfetto_kfd_ops(p);
	perfetto_kfd_probes(p);
}

const struct report_section report_section_kfd = {
	.name = "kfd",
	.with_queues = true,
	.write = {
		[REPORT_SECTION_TEXT] = text_queues,
		[REPORT_SECTION_JSON] = json_queues,
		[REPORT_SECTION_CSV] = csv_queues,
	},
	.perfetto = perfetto_kfd,
	.perfetto_order = 1,
};
