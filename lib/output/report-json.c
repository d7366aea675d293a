// SPDX-License-Identifier: GPL-2.0
/* The JSON schema is documented in man/gpu-trace-report.1 (JSON OUTPUT). */
#include <string.h>

#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/cpu-side.h"
#include "analysis/timeline.h"
#include "analysis/workload-tree.h"

/* a stage never measured has no value: null, never a 0 that reads as 0 us */
/* coverage.late_evidence: what says the late CPU's older data was overwritten */
static const char *const late_evidence_names[] = {
	[OVERWRITE_NONE] = "null",
	[OVERWRITE_OVERRUN] = "\"overrun\"",
	[OVERWRITE_FULL] = "\"full_buffer\"",
	[OVERWRITE_LARGEST] = "\"as_large_as_largest_cpu\"",
};

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

static void json_dev(FILE *f, const char *dev)
{
	if (dev[0])
		json_str(f, dev);
	else
		fputs("null", f);
}

/* the ioctl the job was queued from (cpu-side.h): ioctl -> queued and where it went */
static void job_ioctl(struct report *rep, const struct job *j)
{
	const struct cpu_job_ioctl *io = cpu_side_job_ioctl(rep->analysis, j);
	FILE *f = rep->stream;
	char name[64];

	fprintf(f, ",\"ioctl\":");
	if (!io) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"name\":");
	json_str(f, gpu_ioctl_name(io->cmd, cpu_side_of(rep->analysis)->driver, name,
				   sizeof(name)));
	fprintf(f, ",\"cmd\":%llu,\"tid\":%d,\"enter_ns\":%llu,\"to_queued_ns\":%llu,\"on_cpu_ns\":%llu,\"runnable_ns\":%llu,\"sleeping_ns\":%llu,\"irq_ns\":%llu}",
		(unsigned long long)io->cmd, io->pid, (unsigned long long)io->enter,
		(unsigned long long)io->to_queued_ns, (unsigned long long)io->split.on_cpu_ns,
		(unsigned long long)io->split.runnable_ns,
		(unsigned long long)io->split.sleeping_ns,
		(unsigned long long)io->split.irq_ns);
}

static void job(struct report *rep, const struct job *j)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	FILE *f = rep->stream;
	uint64_t sw;
	int l;

	fprintf(f, "{\"ring\":");
	json_str(f, timeline_ring_name(tl, j->ring));
	fprintf(f, ",\"dev\":");
	json_dev(f, tl->rings[j->ring]->dev);
	fprintf(f, ",\"id\":");
	report_json_u64(f, j->has_id, j->id);
	fprintf(f, ",\"fence\":");
	if (j->has_fence)
		fprintf(f, "\"%llu:%llu\"", (unsigned long long)j->ctx, (unsigned long long)j->seqno);
	else
		fputs("null", f);
	/* a kernel address: a string, as jq and JavaScript round numbers past 2^53 */
	fprintf(f, ",\"fence_ptr\":");
	if (j->fence_ptr)
		fprintf(f, "\"0x%llx\"", (unsigned long long)j->fence_ptr);
	else
		fputs("null", f);
	fprintf(f, ",\"pid\":%d,\"comm\":", j->pid);
	json_str(f, analysis_comm(rep->analysis, j->pid));
	fprintf(f, ",\"client_id\":");
	report_json_u64(f, j->has_client_id, j->client_id);
	fprintf(f, ",\"submit_ns\":");
	report_json_u64(f, j->t_submit, j->t_submit);
	fprintf(f, ",\"queue_ns\":");
	report_json_u64(f, j->t_queue, j->t_queue);
	fprintf(f, ",\"run_ns\":");
	report_json_u64(f, j->t_run, j->t_run);
	fprintf(f, ",\"hw_start_ns\":");
	report_json_u64(f, j->t_hw_start, j->t_hw_start);
	fprintf(f, ",\"done_ns\":");
	report_json_u64(f, j->t_done, j->t_done);
	/* a preempted job's stints on the engine; null: from hw_start_ns to done_ns */
	fprintf(f, ",\"hw_stints\":");
	if (j->nr_hw_stints) {
		unsigned int k;

		for (k = 0; k < j->nr_hw_stints; k++)
			fprintf(f, "%s[%llu,%llu]", k ? "," : "[", (unsigned long long)j->hw_stints[k][0],
				(unsigned long long)j->hw_stints[k][1]);
		fputc(']', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\"deps\":%u,\"waits\":%u,\"dep_fences\":[", j->nr_deps, j->nr_waits);
	for (l = 0; l < (int)j->nr_dep_fences; l++)
		fprintf(f, "%s\"%llu:%llu\"", l ? "," : "", (unsigned long long)j->dep_fences[l].ctx,
			(unsigned long long)j->dep_fences[l].seqno);
	fprintf(f, "],\"latency_ns\":{");
	for (l = 0; l < LAT_NR; l++) {
		fprintf(f, "%s\"%s\":", l ? "," : "", job_latency_key(l));
		report_json_u64(f, j->has_lat[l], j->lat[l]);
	}
	fprintf(f, "},\"workload\":%s,\"behind_other\":{\"ns\":",
		j->flags & JOB_WORKLOAD ? "true" : "false");
	report_json_u64(f, j->t_hw_start, j->behind.ns);
	/* processes is a list where there is one (rings); a count is process_count everywhere */
	fprintf(f, ",\"jobs\":%u,\"process_count\":%u,\"partial\":%s}", j->behind.jobs,
		j->behind.procs, j->flags & JOB_BEHIND_PARTIAL ? "true" : "false");
	fprintf(f, ",\"owner_switch\":");
	if (j->flags & JOB_OWNER_SWITCH) {
		bool ran = job_switch_wait(j, &sw);

		fprintf(f, "{\"at_ns\":%llu,\"wait_ns\":", (unsigned long long)j->t_switch);
		report_json_u64(f, ran, sw);
		fputc('}', f);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\"in_flight_at_timeout\":%s,\"moved_while_waiting_bytes\":%llu,\"page_tables_updated_while_waiting_bytes\":%llu",
		j->flags & JOB_HANG ? "true" : "false", (unsigned long long)j->moved_in_wait,
		(unsigned long long)j->vm_in_wait);
	job_ioctl(rep, j);
	fprintf(f, ",\"unfinished\":%s,\"lost\":%s,\"done_from_fence\":%s,\"dep_unknown\":%s,\"flight_trigger\":%s}",
		j->flags & JOB_UNFINISHED ? "true" : "false", j->flags & JOB_LOST ? "true" : "false",
		j->flags & JOB_DONE_FENCE ? "true" : "false",
		j->flags & JOB_DEP_UNKNOWN ? "true" : "false",
		j->flags & JOB_TRIGGER ? "true" : "false");
}

/* several files: one object holding each file's report, in the order given */
static int json_open(struct report *rep, struct gt_error *err)
{
	if (rep->opts.nr_inputs > 1)
		fprintf(rep->stream, "{\"schema\":\"gpu-trace-reports/1\",\"files\":[\n");
	(void)err;
	return 0;
}

static void json_finish(struct report *rep)
{
	if (rep->opts.nr_inputs > 1)
		fprintf(rep->stream, "]}\n");
}

/*
 * A file found damaged after its report began (or a later file refused): the
 * output stays one valid object, the file's entry closed with its "file" and
 * "error" (the jobs listed before the damage kept), and the exit says it failed.
 */
static void json_failed(struct report *rep, const struct gt_error *err)
{
	FILE *f = rep->stream;

	if (rep->begun) {
		if (rep->opts.jobs)
			fputc(']', f);
		fputs(",\"file\":", f);
	} else if (rep->opts.nr_inputs > 1) {
		fprintf(f, "%s{\"file\":", rep->input ? "," : "");
	} else {
		return;		/* one file, nothing of it written */
	}
	json_str(f, rep->opts.file);
	fputs(",\"error\":", f);
	json_str(f, err->msg[0] ? err->msg : "failed");
	fputs("}\n", f);
	json_finish(rep);
}

static int json_begin(struct report *rep, struct gt_error *err)
{
	if (rep->input)
		fputc(',', rep->stream);
	fprintf(rep->stream, "{\"schema\":\"gpu-trace-report/13\"");
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

/* "fields_outside_records": GPU events not used for a field outside their record */
static void field_misses(struct report *rep)
{
	const struct field_misses *m = &analysis_totals(rep->analysis)->field_misses;
	char event[128], fields[128];
	FILE *f = rep->stream;
	char *name;
	int i;

	fprintf(f, ",\"fields_outside_records\":{\"records\":%llu,\"events\":[",
		(unsigned long long)m->records);
	for (i = 0; i < m->nr; i++) {
		field_miss_names(rep->analysis, &m->events[i], event, sizeof(event), fields,
				 sizeof(fields));
		fprintf(f, "%s{\"event\":", i ? "," : "");
		json_str(f, event);
		fputs(",\"fields\":[", f);
		/* the names, comma-separated: each one a string */
		for (name = fields; *name; ) {
			char *comma = strchr(name, ',');

			if (comma)
				*comma = '\0';
			fputs(name == fields ? "" : ",", f);
			json_str(f, name);
			name = comma ? comma + 1 : name + strlen(name);
		}
		fprintf(f, "],\"records\":%llu}", (unsigned long long)m->events[i].records);
	}
	fprintf(f, "],\"other_records\":%llu}", (unsigned long long)m->other);
}

static void header(struct report *rep)
{
	const struct analysis_totals *tot = analysis_totals(rep->analysis);
	const struct workload_tree *wt = workload_tree_of(rep->analysis);
	const struct timeline *tl = timeline_of(rep->analysis);
	const struct dat_meta *m = rep->meta;
	FILE *f = rep->stream;
	int i;

	fprintf(f, ",\"file\":");
	json_str(f, rep->opts.file);
	fprintf(f, ",\"version\":%d,\"writer\":", m->version);
	json_str(f, m->writer);
	fprintf(f, ",\"kernel\":");
	json_str(f, m->uname);
	report_host_json(rep);
	report_flight_json(rep);
	fprintf(f, ",\"workload\":");
	if (report_has_workload(rep)) {
		fprintf(f, "{\"comm\":");
		json_str(f, wt->comm);
		fprintf(f, ",\"tasks\":%llu}", (unsigned long long)wt->nr_tasks);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\"cpus\":%d,\"clock\":", m->nr_cpus);
	json_str(f, m->clock);
	fprintf(f, ",\"buffer_kb\":");
	report_json_u64(f, m->has_buffer_kb, m->buffer_kb);
	fprintf(f, ",\"records\":%llu,\"gpu_events\":%llu,\"function_events\":%llu,\"short_records\":%llu,\"first_ns\":%llu,\"last_ns\":%llu",
		(unsigned long long)tot->records, (unsigned long long)tot->gpu_events,
		(unsigned long long)tot->func_events, (unsigned long long)tot->short_records,
		(unsigned long long)tot->first_ts, (unsigned long long)tot->last_ts);
	field_misses(rep);
	fprintf(f, ",\"lost\":{\"in_band\":%llu,\"in_band_unknown\":%s,\"windows\":%llu,",
		(unsigned long long)tot->missed, tot->missed_unknown ? "true" : "false",
		(unsigned long long)tl->lost_windows);
	if (tot->damage.records)
		fprintf(f, "\"damaged\":{\"records\":%llu,\"cpu\":%d,\"from_ns\":%llu,\"to_ns\":%llu},",
			(unsigned long long)tot->damage.records, tot->damage.cpu,
			(unsigned long long)tot->damage.from_ts,
			(unsigned long long)tot->damage.to_ts);
	else
		fputs("\"damaged\":null,", f);
	if (tot->damage.zeroed_pages)
		fprintf(f, "\"zeroed_pages\":{\"pages\":%llu,\"cpus\":%d,\"cpu\":%d,\"after_ns\":%llu},",
			(unsigned long long)tot->damage.zeroed_pages, tot->damage.zeroed_cpus,
			tot->damage.zeroed_cpu,
			(unsigned long long)tot->damage.zeroed_after_ts);
	else
		fputs("\"zeroed_pages\":null,", f);
	/* what the buffer instances' stats say they lost (the LOST line's "workload buffer N") */
	fprintf(f, "\"instance_lost\":%llu,\"instance_name\":", (unsigned long long)m->instance_lost);
	if (m->instance_name[0] && !m->instances_apart)
		json_str(f, m->instance_name);
	else
		fputs("null", f);
	fputc(',', f);
	fputs("\"cpus\":[", f);
	for (i = 0; i < m->nr_cpustats; i++)
		fprintf(f, "%s{\"cpu\":%d,\"overrun\":%llu,\"commit_overrun\":%llu,\"dropped\":%llu}",
			i ? "," : "", i, (unsigned long long)m->cpustats[i].overrun,
			(unsigned long long)m->cpustats[i].commit_overrun,
			(unsigned long long)m->cpustats[i].dropped);
	fprintf(f, "]},\"skipped_options\":[");
	for (i = 0; i < m->nr_skipped; i++)
		fprintf(f, "%s{\"id\":%u,\"size\":%u}", i ? "," : "", m->skipped[i].id,
			m->skipped[i].size);
	fprintf(f, "],\"instances_absent\":%d", m->v6_instances_absent);
	fprintf(f, ",\"coverage\":{\"skewed\":%s,\"from_ns\":%llu,\"to_ns\":%llu,\"late_cpu\":%d,\"late_evidence\":%s,\"end_cpu\":%d,\"cpus\":[",
		tot->cov.skewed ? "true" : "false", (unsigned long long)tot->cov.from,
		(unsigned long long)tot->cov.to, tot->cov.late_cpu,
		late_evidence_names[tot->cov.late_evidence], tot->cov.end_cpu);
	for (i = 0; i < tot->cov.nr; i++)
		fprintf(f, "%s{\"cpu\":%d,\"first_ns\":%llu,\"last_ns\":%llu,\"bytes\":%llu}", i ? "," : "",
			tot->cov.cpus[i].cpu, (unsigned long long)tot->cov.cpus[i].first,
			(unsigned long long)tot->cov.cpus[i].last,
			(unsigned long long)tot->cov.cpus[i].bytes);
	fprintf(f, "]},\"orphan_events\":%llu,\"filtered_out\":%llu,\"fence_mode\":%s,\"rings_capped\":%s",
		(unsigned long long)tl->orphans, (unsigned long long)tl->filtered_out,
		tl->fence_mode ? "true" : "false",
		tl->rings_capped ? "true" : "false");
}

static void rings(struct report *rep)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	int i, l;

	fprintf(rep->stream, ",\"rings\":[");
	for (i = 0; i < tl->nr_rings; i++) {
		struct ring_stats *s = tl->rings[i];

		fprintf(rep->stream, "%s\n{\"name\":", i ? "," : "");
		json_str(rep->stream, timeline_ring_name(tl, i));
		fprintf(rep->stream, ",\"ring\":");
		json_str(rep->stream, s->name);
		fprintf(rep->stream, ",\"dev\":");
		json_dev(rep->stream, s->dev);
		fprintf(rep->stream, ",\"jobs\":%llu,\"unfinished\":%llu,\"lost\":%llu,\"waits\":%llu,",
			(unsigned long long)s->jobs, (unsigned long long)s->unfinished,
			(unsigned long long)s->lost, (unsigned long long)s->waits);
		/* no job with a hardware time (i915 without its low-level events): unknown */
		if (report_busy_known(s))
			fprintf(rep->stream, "\"busy_ns\":%llu,\"busy_pct\":%.3f,",
				(unsigned long long)s->busy_ns, report_busy_pct(rep, s));
		else
			fprintf(rep->stream, "\"busy_ns\":null,\"busy_pct\":null,");
		fprintf(rep->stream, "\"max_in_flight\":%lld,", (long long)s->max_in_flight);
		fprintf(rep->stream, "\"workload_jobs\":%llu,\"behind_other\":{\"ns\":%llu,\"jobs\":%llu,\"process_count\":%d,\"processes\":[",
			(unsigned long long)s->workload_jobs, (unsigned long long)s->behind_ns,
			(unsigned long long)s->behind_jobs, s->nr_behind_pids);
		for (l = 0; l < s->nr_behind_pids; l++) {
			fprintf(rep->stream, "%s{\"pid\":%d,\"comm\":", l ? "," : "", s->behind_pids[l]);
			json_str(rep->stream, analysis_comm(rep->analysis, s->behind_pids[l]));
			fputc('}', rep->stream);
		}
		fprintf(rep->stream, "],\"more_processes\":%s},",
			s->behind_pids_more ? "true" : "false");
		fprintf(rep->stream, "\"owner_switches\":{\"jobs\":%llu,\"waited_jobs\":%llu,\"wait_ns\":%llu,\"cleaner_shaders\":%llu},\"timeouts\":%llu,\"moved_while_waiting\":{\"jobs\":%llu,\"bytes\":%llu,\"wait_ns\":%llu},\"page_tables_updated_while_waiting\":{\"jobs\":%llu,\"bytes\":%llu,\"wait_ns\":%llu},\"latency_ns\":{",
			(unsigned long long)s->switches, (unsigned long long)s->switch_wait_jobs,
			(unsigned long long)s->switch_wait_ns, (unsigned long long)s->cleaner_shaders,
			(unsigned long long)s->timeouts, (unsigned long long)s->moved_wait_jobs,
			(unsigned long long)s->moved_wait_bytes, (unsigned long long)s->moved_wait_ns,
			(unsigned long long)s->vm_wait_jobs, (unsigned long long)s->vm_wait_bytes,
			(unsigned long long)s->vm_wait_ns);
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
	const struct timeline *tl = timeline_of(rep->analysis);
	uint64_t busy = report_busy_ns(rep);
	int i, k;

	fprintf(rep->stream, ",\"%s\":[", key);
	for (i = 0; i < nr; i++) {
		fprintf(rep->stream, "%s{\"%s\":%llu,", i ? "," : "", procs ? "pid" : "client_id",
			(unsigned long long)g[i]->key);
		if (procs) {
			fprintf(rep->stream, "\"comm\":");
			json_str(rep->stream, analysis_comm(rep->analysis, (int)g[i]->key));
			fputc(',', rep->stream);
		}
		fprintf(rep->stream, "\"jobs\":%llu,\"gpu_ns\":%llu,\"gpu_pct\":%.3f,\"gpu_by_ring\":[",
			(unsigned long long)g[i]->jobs, (unsigned long long)g[i]->gpu_ns,
			busy ? 100.0 * (double)g[i]->gpu_ns / (double)busy : 0.0);
		for (k = 0; k < g[i]->nr_by_ring; k++) {
			const struct ring_stats *r = tl->rings[g[i]->by_ring[k].ring];

			fprintf(rep->stream, "%s{\"ring\":", k ? "," : "");
			json_str(rep->stream, timeline_ring_name(tl, g[i]->by_ring[k].ring));
			fprintf(rep->stream, ",\"gpu_ns\":%llu,\"pct_of_ring\":%.3f}",
				(unsigned long long)g[i]->by_ring[k].ns,
				r->busy_ns ? 100.0 * (double)g[i]->by_ring[k].ns / (double)r->busy_ns : 0.0);
		}
		fprintf(rep->stream, "],\"total_ns\":");
		stats(rep->stream, &g[i]->total);
		fputc('}', rep->stream);
	}
	fputc(']', rep->stream);
}

static int json_end(struct report *rep, struct gt_error *err)
{
	const struct timeline *tl = timeline_of(rep->analysis);
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
		groups(rep, "processes", tl->procs, tl->nr_procs, true);
		groups(rep, "clients", tl->clients, tl->nr_clients, false);
	}
	report_sections_write(rep, REPORT_SECTION_JSON);
	fprintf(rep->stream, "}\n");
	(void)err;
	return 0;
}

void report_json_summary(struct report *rep)
{
	const struct timeline *tl = timeline_of(rep->analysis);

	header(rep);
	rings(rep);
	groups(rep, "processes", tl->procs, tl->nr_procs, true);
	groups(rep, "clients", tl->clients, tl->nr_clients, false);
	report_sections_write_all(rep, REPORT_SECTION_JSON);
}

const struct report_output report_json = {
	.name = "json",
	.several = true,
	.open = json_open,
	.begin = json_begin,
	.job = json_job,
	.end = json_end,
	.finish = json_finish,
	.failed = json_failed,
};
