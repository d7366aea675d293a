// SPDX-License-Identifier: GPL-2.0
/*
 * The HIP runtime's section of the report, in each format: what the
 * runtime's log says each process did (the hip-runtime join), and the
 * kernel's side beside it.
 */
#include <string.h>

#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/hip-runtime.h"
#include "analysis/kfd-queue-table.h"
#include "analysis/kfd-queues.h"
#include "analysis/timeline.h"

/* The process's jobs per ring: the kernel's side of what the runtime did. */
static void text_hip_rings(struct report *rep, int pid)
{
	const struct timeline *tl = timeline_of(rep->analysis);
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

static void text_hip_queue(struct report *rep, const struct hip_proc *p, int k)
{
	const struct kfd_queues *kfd = kfd_queues_of(rep->analysis);
	const struct hip_queue *q = &p->queues[k];
	const struct kfd_op *op = hip_queue_kfd_create(p, k, kfd);
	const struct kfd_queue *kq = kfd_queue_table_find_ring(kfd_queue_table_of(rep->analysis), p->pid, q->hwq, q->ts);
	char a[32], d[32], e[32];

	fprintf(rep->stream, "    queue HWq=0x%llx SWq=0x%llx size %d priority %d%s at %s: %llu dispatch%s",
		(unsigned long long)q->hwq, (unsigned long long)q->swq, q->size, q->priority,
		q->cooperative ? " cooperative" : "", report_ts(a, sizeof(a), q->ts),
		(unsigned long long)q->dispatches, q->dispatches == 1 ? "" : "es");
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

static void text_hip_overlaps(struct report *rep, const struct hip_proc *p)
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

/* a sum over the commands whose line measured it: "120 us", "95 us over 2 measured", ... */
static void text_measured(struct report *rep, int64_t us, uint64_t measured, uint64_t of)
{
	if (!measured)
		fprintf(rep->stream, "not measured");
	else if (measured == of)
		fprintf(rep->stream, "%lld us", (long long)us);
	else
		fprintf(rep->stream, "%lld us over the %llu measured", (long long)us,
			(unsigned long long)measured);
}

/* record --hip-log: what the runtime says each process did, and the kernel beside it */
static void text_hip(struct report *rep)
{
	const struct hip_runtime *h = hip_runtime_of(rep->analysis);
	char a[32], b[32];
	int i, k;

	if (!h->lines)
		return;
	fprintf(rep->stream, "\nHIP runtime log (AMD_LOG_LEVEL lines, at their own CLOCK_MONOTONIC times): %llu line%s of %d process%s\n",
		(unsigned long long)h->lines, report_plural(h->lines), h->nr_procs, h->nr_procs == 1 ? "" : "es");
	for (i = 0; i < h->nr_procs; i++) {
		const struct hip_proc *p = &h->procs[i];

		fprintf(rep->stream, "  %d %s: %llu lines from %s to %s; %d queue%s, %llu dispatch%s, %llu commands complete",
			p->pid, analysis_comm(rep->analysis, p->pid), (unsigned long long)p->lines,
			report_ts(a, sizeof(a), p->first_ts), report_ts(b, sizeof(b), p->last_ts),
			p->nr_queues, p->nr_queues == 1 ? "" : "s",
			(unsigned long long)p->by_kind[HIP_DISPATCH],
			p->by_kind[HIP_DISPATCH] == 1 ? "" : "es",
			(unsigned long long)p->commands_complete);
		if (p->commands_complete) {
			fprintf(rep->stream, " (GPU ");
			text_measured(rep, p->gpu_us, hip_proc_gpu_measured(p), p->commands_complete);
			fprintf(rep->stream, ", wall ");
			text_measured(rep, p->wall_us, p->wall_measured, p->commands_complete);
			fputc(')', rep->stream);
		}
		if (p->copy_bytes)
			fprintf(rep->stream, ", %llu bytes copied", (unsigned long long)p->copy_bytes);
		fputc('\n', rep->stream);
		for (k = 0; k < p->nr_queues; k++)
			text_hip_queue(rep, p, k);
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
		text_hip_overlaps(rep, p);
		text_hip_rings(rep, p->pid);
	}
	if (h->more_procs_lines)
		fprintf(rep->stream, "  (past %d processes: %llu lines of more processes counted in the total only)\n",
			HIP_MAX_PROCS, (unsigned long long)h->more_procs_lines);
	if (h->failed)
		fprintf(rep->stream, "  (out of memory: the counts above stop early)\n");
	if (h->capture_note[0])
		fprintf(rep->stream, "  (record --hip-log capped what it read: %s)\n", h->capture_note);
}

static void json_kfd_create(FILE *f, const struct kfd_op *op)
{
	if (!op) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"start_ns\":%llu,\"duration_ns\":", (unsigned long long)op->start);
	report_json_u64(f, op->has_duration, op->duration);
	fputc('}', f);
}

/* a sum over the commands that measured it; null when none did */
static void json_measured(FILE *f, int64_t us, uint64_t measured)
{
	if (measured)
		fprintf(f, "%lld", (long long)us);
	else
		fputs("null", f);
}

/* record --hip-log: what the runtime says each process did, and the kernel beside it */
static void json_hip(struct report *rep)
{
	const struct kfd_queues *kfd = kfd_queues_of(rep->analysis);
	const struct timeline *tl = timeline_of(rep->analysis);
	const struct hip_runtime *h = hip_runtime_of(rep->analysis);
	FILE *f = rep->stream;
	int i, k, n;

	fprintf(f, ",\"hip\":{\"lines\":%llu,\"complete\":%s,\"more_processes_lines\":%llu,\"capture_note\":",
		(unsigned long long)h->lines, h->failed ? "false" : "true",
		(unsigned long long)h->more_procs_lines);
	if (h->capture_note[0])
		json_str(f, h->capture_note);
	else
		fputs("null", f);
	fputs(",\"processes\":[", f);
	for (i = 0; i < h->nr_procs; i++) {
		const struct hip_proc *p = &h->procs[i];

		fprintf(f, "%s\n{\"pid\":%d,\"comm\":", i ? "," : "", p->pid);
		json_str(f, analysis_comm(rep->analysis, p->pid));
		fprintf(f, ",\"lines\":%llu,\"first_ns\":%llu,\"last_ns\":%llu,\"by_kind\":{",
			(unsigned long long)p->lines, (unsigned long long)p->first_ts,
			(unsigned long long)p->last_ts);
		for (k = 0; k < HIP_NR_KINDS; k++)
			fprintf(f, "%s\"%s\":%llu", k ? "," : "", hip_kind_name(k),
				(unsigned long long)p->by_kind[k]);
		fprintf(f, "},\"commands_complete\":%llu,\"gpu_us\":", (unsigned long long)p->commands_complete);
		json_measured(f, p->gpu_us, hip_proc_gpu_measured(p));
		fprintf(f, ",\"gpu_measured\":%llu,\"wall_us\":",
			(unsigned long long)hip_proc_gpu_measured(p));
		json_measured(f, p->wall_us, p->wall_measured);
		fprintf(f, ",\"wall_measured\":%llu,\"copy_bytes\":%llu,\"queues\":[",
			(unsigned long long)p->wall_measured, (unsigned long long)p->copy_bytes);
		for (k = 0; k < p->nr_queues; k++) {
			const struct hip_queue *q = &p->queues[k];
			const struct kfd_queue *kq;

			fprintf(f, "%s{\"at_ns\":%llu", k ? "," : "", (unsigned long long)q->ts);
			report_json_hex(f, "hwq", q->hwq);
			report_json_hex(f, "swq", q->swq);
			fprintf(f, ",\"size\":%d,\"priority\":%d,\"cooperative\":%s,\"dispatches\":%llu,\"kfd_create\":",
				q->size, q->priority, q->cooperative ? "true" : "false",
				(unsigned long long)q->dispatches);
			json_kfd_create(f, hip_queue_kfd_create(p, k, kfd));
			kq = kfd_queue_table_find_ring(kfd_queue_table_of(rep->analysis), p->pid, q->hwq, q->ts);
			fprintf(f, ",\"kfd_queue\":");
			if (kq) {
				fprintf(f, "{\"queue_id\":");
				report_json_u64(f, kq->has_id, kq->queue_id);
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
			report_json_hex(f, "hwq", o->hwq);
			fprintf(f, ",\"from_ns\":%llu,\"to_ns\":%llu,\"kfd_op\":\"%s\",\"kfd_pid\":%d,\"kfd_start_ns\":%llu,\"kfd_duration_ns\":%llu}",
				(unsigned long long)o->from, (unsigned long long)o->to, kfd_op_name(o->op),
				o->op_pid, (unsigned long long)o->op_start,
				(unsigned long long)o->op_duration);
		}
		fprintf(f, "],\"more_overlaps\":%llu,\"jobs_by_ring\":[", (unsigned long long)p->more_overlaps);
		for (k = 0, n = 0; k < tl->nr_rings; k++) {
			uint64_t jobs = report_ring_jobs(rep, p->pid, k);

			if (!jobs)
				continue;
			fprintf(f, "%s{\"ring\":", n++ ? "," : "");
			json_str(f, timeline_ring_name(tl, k));
			fprintf(f, ",\"jobs\":%llu}", (unsigned long long)jobs);
		}
		fprintf(f, "]}");
	}
	fprintf(f, "]}");
}

/* record --hip-log: each process's queues and dispatches by kernel */
static void csv_hip(struct report *rep)
{
	const struct hip_runtime *h = hip_runtime_of(rep->analysis);
	int i, k;

	fprintf(rep->stream, "\n# hip queues\npid,comm,at_ns,hwq,swq,size,priority,cooperative\n");
	for (i = 0; i < h->nr_procs; i++) {
		for (k = 0; k < h->procs[i].nr_queues; k++) {
			const struct hip_queue *q = &h->procs[i].queues[k];

			fprintf(rep->stream, "%d,", h->procs[i].pid);
			report_csv_text(rep->stream, analysis_comm(rep->analysis, h->procs[i].pid));
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
			report_csv_text(rep->stream, analysis_comm(rep->analysis, h->procs[i].pid));
			fputc(',', rep->stream);
			report_csv_text(rep->stream, kn->name);
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
			report_csv_text(rep->stream, analysis_comm(rep->analysis, p->pid));
			fprintf(rep->stream, ",%llu,", (unsigned long long)o->dispatch_id);
			report_csv_text(rep->stream, o->kernel >= 0 ? p->kernels[o->kernel].name : "");
			fprintf(rep->stream, ",0x%llx,%llu,%llu,%s,%d,%llu,%llu\n", (unsigned long long)o->hwq,
				(unsigned long long)o->from, (unsigned long long)o->to, kfd_op_name(o->op),
				o->op_pid, (unsigned long long)o->op_start,
				(unsigned long long)o->op_duration);
		}
	}
}

const struct report_section report_section_hip = {
	.name = "hip",
	.write = {
		[REPORT_SECTION_TEXT] = text_hip,
		[REPORT_SECTION_JSON] = json_hip,
		[REPORT_SECTION_CSV] = csv_hip,
	},
};
