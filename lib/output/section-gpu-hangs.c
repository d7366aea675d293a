// SPDX-License-Identifier: GPL-2.0
/*
 * The hangs section of the report, in each format: ring timeouts and GPU
 * resets as the kernel logged them (gpu-hangs.h), each with the jobs that
 * were in flight on the ring, their submitters and how long they had run
 * (xe's job timeouts with their GuC queue, seqno and blamed process);
 * and the user queues the driver marked hung (user-queues.h).
 */
#include <string.h>

#include "util/json-str.h"
#include "output/perfetto-export.h"
#include "output/report-formats.h"
#include "analysis/gpu-hangs.h"
#include "analysis/user-queues.h"

static const char *in_flight_key(char *buf, size_t len, const struct job_in_flight *f)
{
	return report_key(buf, len, f->has_fence, f->ctx, f->seqno, f->has_id, f->id, f->fence_ptr);
}

static int nr_userq_hangs(const struct report *rep)
{
	const struct user_queues *u = user_queues_of(rep->analysis);
	int i, n = 0;

	for (i = 0; i < u->nr_spans; i++)
		n += u->spans[i].kind == USERQ_SPAN_STATE && u->spans[i].state == USERQ_HUNG;
	return n;
}

static bool present(const struct report *rep)
{
	const struct gpu_hangs *h = gpu_hangs_of(rep->analysis);

	return h->nr_hangs || h->nr_resets || h->dropped || h->job_errors || nr_userq_hangs(rep);
}

static void text_job(struct report *rep, const struct gpu_hang *g, const struct job_in_flight *f)
{
	char key[48], at[32], d[32];

	fprintf(rep->stream, "      %-22s %7d %-15s ", in_flight_key(key, sizeof(key), f), f->pid,
		analysis_comm(rep->analysis, f->pid));
	if (f->since)
		fprintf(rep->stream, "on the hardware %s us (since %s)\n",
			report_us(d, sizeof(d), true, g->ts - f->since), report_ts(at, sizeof(at), f->since));
	else if (f->t_run)
		fprintf(rep->stream, "sent to the ring %s, waiting behind it %s us\n",
			report_ts(at, sizeof(at), f->t_run),
			report_us(d, sizeof(d), true, g->ts - f->t_run));
	else
		fprintf(rep->stream, "queued %s, not sent to the ring\n", report_ts(at, sizeof(at), f->t_queue));
}

static void text_reset(struct report *rep, const struct gpu_reset *r)
{
	char at[32], d[32];

	fprintf(rep->stream, "GPU reset at %s", report_ts(at, sizeof(at), r->begin));
	if (r->dev[0])
		fprintf(rep->stream, " on %s", r->dev);
	if (!r->end)
		fprintf(rep->stream, ", no end in the file");
	else
		fprintf(rep->stream, ": %s after %s us", r->failed ? "failed" : "succeeded",
			report_us(d, sizeof(d), true, r->end - r->begin));
	if (r->has_result)
		fprintf(rep->stream, " (ret %d)", r->result);
	if (r->reg_dumps)
		fprintf(rep->stream, ", %llu register dump%s", (unsigned long long)r->reg_dumps,
			report_plural(r->reg_dumps));
}

static void text_hang(struct report *rep, const struct gpu_hang *g)
{
	const struct gpu_hangs *h = gpu_hangs_of(rep->analysis);
	char at[32];
	size_t i;

	fprintf(rep->stream, "  %s %s%s", report_ts(at, sizeof(at), g->ts), g->is_xe ? "xe " : "", g->ring);
	if (g->is_xe && g->xe.gt >= 0)
		fprintf(rep->stream, " (GT%d)", g->xe.gt);
	fprintf(rep->stream, "%s%s timed out", g->dev[0] ? " on " : "", g->dev);
	if (g->soft_recovered)
		fprintf(rep->stream, ", soft-recovered");
	if (g->has_seq)
		fprintf(rep->stream, " (signaled seq %u, emitted seq %u)", g->signaled, g->emitted);
	if (g->is_xe) {
		fprintf(rep->stream, " (job seqno %u", g->xe.seqno);
		if (g->xe.has_lrc_seqno)
			fprintf(rep->stream, ", lrc seqno %u", g->xe.lrc_seqno);
		fprintf(rep->stream, ")");
	}
	if (g->has_process && g->is_xe)
		fprintf(rep->stream, "; the kernel names %s pid %d", g->process, g->tgid);
	else if (g->has_process)
		fprintf(rep->stream, "; the kernel names %s pid %d (thread %s pid %d)", g->process,
			g->tgid, g->thread, g->pid);
	if (g->is_xe && !g->xe_ring[0] && g->xe_rings > 1)
		fprintf(rep->stream, "\n    in flight: not known (%d of the device's scheduler rings are named for GuC id %d, one per GT)\n",
			g->xe_rings, g->xe.guc_id);
	else if (g->is_xe && !g->xe_ring[0])
		/* xe names the queue's scheduler rcs5, ccs5...: none such in the file */
		fprintf(rep->stream, "\n    in flight: not known (no scheduler ring named for GuC id %d, as rcs%d or ccs%d, in the file)\n",
			g->xe.guc_id, g->xe.guc_id, g->xe.guc_id);
	else
		fprintf(rep->stream, "\n    in flight%s%s: %zu job%s%s\n", g->is_xe ? " on its scheduler ring " : "",
			g->xe_ring, g->jobs_in_flight, report_plural(g->jobs_in_flight),
			g->jobs_in_flight ? " (flagged H)" : "");
	for (i = 0; i < g->nr_jobs; i++)
		text_job(rep, g, &g->jobs[i]);
	if (g->jobs_in_flight > g->nr_jobs)
		fprintf(rep->stream, "      (%zu more)\n", g->jobs_in_flight - g->nr_jobs);
	if (g->ring_reset != RING_RESET_NONE)
		fprintf(rep->stream, "    ring reset at %s %s\n", report_ts(at, sizeof(at), g->ring_reset_ts),
			g->ring_reset == RING_RESET_OK ? "succeeded" : "failed");
	if (g->reset >= 0) {
		fprintf(rep->stream, "    then ");
		text_reset(rep, &h->resets[g->reset]);
		fputc('\n', rep->stream);
	}
}

static void text_userq_hangs(struct report *rep)
{
	const struct user_queues *u = user_queues_of(rep->analysis);
	uint64_t last = analysis_totals(rep->analysis)->last_ts;
	char at[32], d[32], t[32];
	int i;

	for (i = 0; i < u->nr_spans; i++) {
		const struct userq_span *s = &u->spans[i];
		const struct user_queue *q = &u->queues[s->q];
		const char *type = userq_type_name(q->type);

		if (s->kind != USERQ_SPAN_STATE || s->state != USERQ_HUNG)
			continue;
		if (!type) {
			snprintf(t, sizeof(t), "type %u", q->type);
			type = t;
		}
		fprintf(rep->stream, "  %s user queue %s%s%s, doorbell 0x%llx", report_ts(at, sizeof(at), s->from),
			q->dev[0] ? q->dev : "", q->dev[0] ? " " : "", type, (unsigned long long)q->doorbell);
		if (q->pid)
			fprintf(rep->stream, " (%d %s)", q->pid, analysis_comm(rep->analysis, q->pid));
		fprintf(rep->stream, " hung for %s us%s\n", report_us(d, sizeof(d), true, s->to - s->from),
			s->to >= last ? " (to the file's end)" : "");
	}
}

static void text_hangs(struct report *rep)
{
	const struct gpu_hangs *h = gpu_hangs_of(rep->analysis);
	size_t i, soft = 0, xe = 0;
	int uq = nr_userq_hangs(rep);

	if (!present(rep))
		return;
	for (i = 0; i < h->nr_hangs; i++) {
		soft += h->hangs[i].soft_recovered;
		xe += h->hangs[i].is_xe;
	}
	fprintf(rep->stream, "\nGPU hangs and resets: ");
	if (gpu_hangs_present(h)) {
		fprintf(rep->stream, "%zu ring timeout%s", h->nr_hangs - xe, report_plural(h->nr_hangs - xe));
		if (soft)
			fprintf(rep->stream, " (%zu soft-recovered)", soft);
		if (xe)
			fprintf(rep->stream, ", %zu xe job timeout%s", xe, report_plural(xe));
		fprintf(rep->stream, ", %zu GPU reset%s in the kernel's log", h->nr_resets,
			report_plural(h->nr_resets));
	} else {
		fprintf(rep->stream, "no kernel log in the file (ring timeouts and resets are told there: record takes printk:console)");
	}
	if (uq)
		fprintf(rep->stream, "; %d user queue%s hung", uq, report_plural((uint64_t)uq));
	if (h->job_errors)
		fprintf(rep->stream, "; %llu xe job%s given an error (the last: GuC queue %d seqno %u, error %d)",
			(unsigned long long)h->job_errors, report_plural(h->job_errors),
			h->last_job_error.guc_id, h->last_job_error.seqno, h->last_job_error.error);
	fputc('\n', rep->stream);
	for (i = 0; i < h->nr_hangs; i++)
		text_hang(rep, &h->hangs[i]);
	/* resets no timeout in the file led to (RAS, a hang before the file, by hand) */
	for (i = 0; i < h->nr_resets; i++) {
		size_t k;

		for (k = 0; k < h->nr_hangs && h->hangs[k].reset != (int)i; k++)
			;
		if (k < h->nr_hangs)
			continue;
		fprintf(rep->stream, "  ");
		text_reset(rep, &h->resets[i]);
		fprintf(rep->stream, "; no ring timeout before it in the file\n");
	}
	text_userq_hangs(rep);
	if (h->dropped)
		fprintf(rep->stream, "  (%llu more past the %d kept)\n", (unsigned long long)h->dropped, GPU_HANGS_MAX);
}

static void json_job(struct report *rep, const struct gpu_hang *g, const struct job_in_flight *f)
{
	FILE *o = rep->stream;
	char key[48];

	fprintf(o, "{\"job\":");
	json_str(o, in_flight_key(key, sizeof(key), f));
	fprintf(o, ",\"pid\":%d,\"comm\":", f->pid);
	json_str(o, analysis_comm(rep->analysis, f->pid));
	fprintf(o, ",\"queue_ns\":");
	report_json_u64(o, f->t_queue, f->t_queue);
	fprintf(o, ",\"run_ns\":");
	report_json_u64(o, f->t_run, f->t_run);
	fprintf(o, ",\"on_hardware_since_ns\":");
	report_json_u64(o, f->since, f->since);
	fprintf(o, ",\"on_hardware_ns\":");
	report_json_u64(o, f->since, g->ts - f->since);
	fputc('}', o);
}

static void json_hang(struct report *rep, const struct gpu_hang *g)
{
	FILE *o = rep->stream;
	size_t i;

	fprintf(o, "{\"at_ns\":%llu,\"dev\":", (unsigned long long)g->ts);
	if (g->dev[0])
		json_str(o, g->dev);
	else
		fputs("null", o);
	fprintf(o, ",\"ring\":");
	json_str(o, g->ring);
	fprintf(o, ",\"soft_recovered\":%s,\"signaled_seq\":", g->soft_recovered ? "true" : "false");
	report_json_u64(o, g->has_seq, g->signaled);
	fprintf(o, ",\"emitted_seq\":");
	report_json_u64(o, g->has_seq, g->emitted);
	fprintf(o, ",\"process\":");
	if (g->has_process) {
		fprintf(o, "{\"comm\":");
		json_str(o, g->process);
		fprintf(o, ",\"pid\":%d,\"thread\":", g->tgid);
		/* xe's line names no thread */
		if (g->thread[0]) {
			json_str(o, g->thread);
			fprintf(o, ",\"tid\":%d}", g->pid);
		} else {
			fputs("null,\"tid\":null}", o);
		}
	} else {
		fputs("null", o);
	}
	fprintf(o, ",\"jobs_in_flight\":%zu,\"jobs\":[", g->jobs_in_flight);
	for (i = 0; i < g->nr_jobs; i++) {
		if (i)
			fputc(',', o);
		json_job(rep, g, &g->jobs[i]);
	}
	fprintf(o, "],\"ring_reset\":%s,\"ring_reset_ns\":",
		g->ring_reset == RING_RESET_NONE ? "null" : g->ring_reset == RING_RESET_OK ? "\"succeeded\"" : "\"failed\"");
	report_json_u64(o, g->ring_reset != RING_RESET_NONE, g->ring_reset_ts);
	fprintf(o, ",\"gpu_reset\":");
	if (g->reset >= 0)
		fprintf(o, "%d", g->reset);
	else
		fputs("null", o);
	fprintf(o, ",\"driver\":\"%s\",\"xe\":", g->is_xe ? "xe" : "amdgpu");
	if (g->is_xe) {
		fprintf(o, "{\"guc_id\":%d,\"gt\":", g->xe.guc_id);
		report_json_u64(o, g->xe.gt >= 0, (uint64_t)g->xe.gt);
		fprintf(o, ",\"seqno\":%u,\"lrc_seqno\":", g->xe.seqno);
		report_json_u64(o, g->xe.has_lrc_seqno, g->xe.lrc_seqno);
		fprintf(o, ",\"logged\":%s,\"traced\":%s,\"sched_ring\":", g->xe_logged ? "true" : "false",
			g->xe_traced ? "true" : "false");
		if (g->xe_ring[0])
			json_str(o, g->xe_ring);
		else
			fputs("null", o);
		fputc('}', o);
	} else {
		fputs("null", o);
	}
	fputc('}', o);
}

static void json_reset(struct report *rep, const struct gpu_reset *r)
{
	FILE *o = rep->stream;

	fprintf(o, "{\"begin_ns\":%llu,\"end_ns\":", (unsigned long long)r->begin);
	report_json_u64(o, r->end, r->end);
	fprintf(o, ",\"dev\":");
	if (r->dev[0])
		json_str(o, r->dev);
	else
		fputs("null", o);
	fprintf(o, ",\"succeeded\":%s,\"result\":", !r->end ? "null" : r->failed ? "false" : "true");
	if (r->has_result)
		fprintf(o, "%d", r->result);
	else
		fputs("null", o);
	fprintf(o, ",\"register_dumps\":%llu}", (unsigned long long)r->reg_dumps);
}

static void json_hangs(struct report *rep)
{
	const struct gpu_hangs *h = gpu_hangs_of(rep->analysis);
	size_t i;

	fprintf(rep->stream, ",\"hangs\":");
	if (!gpu_hangs_present(h) && !present(rep)) {
		fputs("null", rep->stream);
		return;
	}
	fprintf(rep->stream, "{\"log_lines\":%llu,\"dropped\":%llu,\"register_dumps_outside_resets\":%llu,\"job_errors\":%llu,\"timeouts\":[",
		(unsigned long long)h->lines, (unsigned long long)h->dropped,
		(unsigned long long)h->reg_dumps_alone, (unsigned long long)h->job_errors);
	for (i = 0; i < h->nr_hangs; i++) {
		if (i)
			fputc(',', rep->stream);
		json_hang(rep, &h->hangs[i]);
	}
	fprintf(rep->stream, "],\"resets\":[");
	for (i = 0; i < h->nr_resets; i++) {
		if (i)
			fputc(',', rep->stream);
		json_reset(rep, &h->resets[i]);
	}
	fprintf(rep->stream, "]}");
}

static void csv_hangs(struct report *rep)
{
	const struct gpu_hangs *h = gpu_hangs_of(rep->analysis);
	FILE *o = rep->stream;
	size_t i, k;

	if (!present(rep))
		return;
	fprintf(o, "\n# hangs\nat_ns,dev,ring,soft_recovered,signaled_seq,emitted_seq,process,process_pid,jobs_in_flight,job,job_pid,job_comm,on_hardware_ns,ring_reset,gpu_reset,driver,xe_guc_id,xe_seqno,xe_lrc_seqno\n");
	for (i = 0; i < h->nr_hangs; i++) {
		const struct gpu_hang *g = &h->hangs[i];

		/* a row per job in flight; a hang with none still gets one */
		for (k = 0; k == 0 || k < g->nr_jobs; k++) {
			const struct job_in_flight *f = k < g->nr_jobs ? &g->jobs[k] : NULL;
			char key[48];

			fprintf(o, "%llu,", (unsigned long long)g->ts);
			report_csv_text(o, g->dev);
			fputc(',', o);
			report_csv_text(o, g->ring);
			fprintf(o, ",%d", g->soft_recovered);
			report_csv_u64(o, g->has_seq, g->signaled);
			report_csv_u64(o, g->has_seq, g->emitted);
			fputc(',', o);
			report_csv_text(o, g->has_process ? g->process : "");
			report_csv_u64(o, g->has_process, (uint64_t)g->tgid);
			fprintf(o, ",%zu,%s,", g->jobs_in_flight, f ? in_flight_key(key, sizeof(key), f) : "");
			if (f) {
				fprintf(o, "%d,", f->pid);
				report_csv_text(o, analysis_comm(rep->analysis, f->pid));
			} else {
				fputc(',', o);
			}
			report_csv_u64(o, f && f->since, f ? g->ts - f->since : 0);
			fprintf(o, ",%s,", g->ring_reset == RING_RESET_NONE ? "" :
				g->ring_reset == RING_RESET_OK ? "succeeded" : "failed");
			if (g->reset >= 0)
				fprintf(o, "%d", g->reset);
			fprintf(o, ",%s", g->is_xe ? "xe" : "amdgpu");
			report_csv_u64(o, g->is_xe, (uint64_t)g->xe.guc_id);
			report_csv_u64(o, g->is_xe, g->xe.seqno);
			report_csv_u64(o, g->is_xe && g->xe.has_lrc_seqno, g->xe.lrc_seqno);
			fputc('\n', o);
		}
	}
	if (!h->nr_resets)
		return;
	fprintf(o, "\n# gpu resets\nbegin_ns,end_ns,dev,succeeded,result,register_dumps\n");
	for (i = 0; i < h->nr_resets; i++) {
		const struct gpu_reset *r = &h->resets[i];

		fprintf(o, "%llu", (unsigned long long)r->begin);
		report_csv_u64(o, r->end, r->end);
		fputc(',', o);
		report_csv_text(o, r->dev);
		fprintf(o, ",%s,", !r->end ? "" : r->failed ? "0" : "1");
		if (r->has_result)
			fprintf(o, "%d", r->result);
		fprintf(o, ",%llu\n", (unsigned long long)r->reg_dumps);
	}
}

const struct report_section report_section_gpu_hangs = {
	.name = "GPU hangs and resets",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_hangs,
		[REPORT_SECTION_JSON] = json_hangs,
		[REPORT_SECTION_CSV] = csv_hangs,
	},
	.perfetto = perfetto_gpu_hangs,
	.perfetto_order = 4,
};
