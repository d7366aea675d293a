// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "dat/dat-format.h"
#include "output/report-formats.h"
#include "analysis/drm-clients.h"
#include "analysis/cpu-side.h"
#include "analysis/timeline.h"
#include "analysis/workload-tree.h"

/* One right-aligned column: microseconds with 3 decimals, or "-" when absent. */
static void col_us(FILE *f, int width, bool has, uint64_t ns)
{
	char text[32];

	fprintf(f, " %*s", width, report_us(text, sizeof(text), has, ns));
}

/*
 * The --jobs table's columns, in order. A terminal narrower than all of them
 * (300 characters) gets the columns of the lowest keep ranks that fit: who
 * and how long first, the timestamps last; a pipe and --wide get them all.
 */
enum job_column {
	COL_RING, COL_JOB, COL_PID, COL_COMM, COL_CLIENT,
	COL_SUBMIT, COL_QUEUED, COL_RUN, COL_HW_START, COL_DONE,
	COL_LAT,			/* LAT_NR latency columns, in enum job_latency's order */
	COL_BEHIND_US = COL_LAT + LAT_NR, COL_BEHIND,
	COL_IOCTL, COL_IOCTL_Q,		/* the GPU ioctl it was queued from (cpu-side.h) */
	COL_FLAGS, COL_NR
};

static const struct {
	const char *title;
	int width;			/* negative: left-aligned */
	int keep;			/* 1: always; the highest go first */
} job_columns[COL_NR] = {
	[COL_RING] = { "RING", -18, 1 },	/* "comp_1.0.0@c3:00.0": a later device's ring */
	[COL_JOB] = { "JOB", -22, 1 },
	[COL_PID] = { "PID", 7, 3 },
	[COL_COMM] = { "COMM", -15, 2 },
	[COL_CLIENT] = { "CLIENT", 10, 5 },
	[COL_SUBMIT] = { "SUBMIT", 17, 7 },
	[COL_QUEUED] = { "QUEUED", 17, 3 },
	[COL_RUN] = { "RUN", 17, 7 },
	[COL_HW_START] = { "HW_START", 17, 7 },
	[COL_DONE] = { "DONE", 17, 6 },
	[COL_LAT + LAT_SUBMIT_TO_QUEUE] = { "SUB->Q_us", 11, 5 },
	[COL_LAT + LAT_QUEUE_TO_RUN] = { "Q->RUN_us", 11, 2 },
	[COL_LAT + LAT_DEP_WAIT] = { "DEP_us", 11, 4 },
	[COL_LAT + LAT_RUN_TO_HW] = { "RUN->HW_us", 11, 5 },
	[COL_LAT + LAT_EXEC] = { "EXEC_us", 11, 2 },
	[COL_LAT + LAT_TOTAL] = { "TOTAL_us", 11, 1 },
	[COL_BEHIND_US] = { "BEHIND_us", 11, 4 },
	[COL_BEHIND] = { "BEHIND", 6, 6 },
	[COL_IOCTL] = { "IOCTL", -24, 6 },
	[COL_IOCTL_Q] = { "IOCTL->Q_us", 11, 5 },
	[COL_FLAGS] = { "FLAGS", -5, 1 },
};

#define JOB_COLUMNS_MAX_KEEP	7

/* The columns shown, a bit each: all of them, or those that fit `width`. */
static unsigned int job_columns_shown(int width)
{
	unsigned int shown = 0;
	int keep, c, total;

	for (keep = JOB_COLUMNS_MAX_KEEP; keep >= 1; keep--) {
		shown = 0;
		total = -1;
		for (c = 0; c < COL_NR; c++)
			if (job_columns[c].keep <= keep) {
				shown |= 1u << c;
				total += abs(job_columns[c].width) + 1;
			}
		if (!width || total <= width)
			break;
	}
	return shown;
}

static int job_columns_count(unsigned int shown)
{
	return __builtin_popcount(shown);
}

/* One cell, padded to its column; the last column is not padded. */
static void cell(FILE *f, unsigned int shown, enum job_column c, const char *text)
{
	int w = job_columns[c].width;
	bool first = !(shown & ((1u << c) - 1));

	if (!(shown & (1u << c)))
		return;
	if (!first)
		fputc(' ', f);
	if (c == COL_FLAGS)
		fputs(text, f);
	else
		fprintf(f, "%*s", w, text);
}

/* a timestamp as trace-cmd prints it, or "-" */
static void cell_ts(FILE *f, unsigned int shown, enum job_column c, uint64_t ns)
{
	char text[32];

	cell(f, shown, c, report_ts(text, sizeof(text), ns));
}

static void cell_us(FILE *f, unsigned int shown, enum job_column c, bool has, uint64_t ns)
{
	char text[32];

	cell(f, shown, c, report_us(text, sizeof(text), has, ns));
}

static void jobs_header(struct report *rep)
{
	unsigned int shown = job_columns_shown(rep->opts.width);
	int c;

	if (!rep->opts.jobs || rep->jobs_header_written)
		return;
	rep->jobs_header_written = true;
	for (c = 0; c < COL_NR; c++)
		cell(rep->stream, shown, (enum job_column)c, job_columns[c].title);
	fputc('\n', rep->stream);
}

static int text_begin(struct report *rep, struct gt_error *err)
{
	/* several files (several hosts'): each report under a line naming its file */
	if (rep->opts.nr_inputs > 1)
		fprintf(rep->stream, "%s== %s (file %d of %d) ==\n", rep->input ? "\n" : "",
			rep->opts.file, rep->input + 1, rep->opts.nr_inputs);
	/*
	 * --jobs alone: the table's head with its first row (or at the end), so
	 * that a wrong --ring, found after the pass, leaves nothing on stdout;
	 * over --events' lines it heads them, as before
	 */
	rep->jobs_header_written = false;
	if (rep->opts.events)
		jobs_header(rep);
	(void)err;
	return 0;
}

static void text_job(struct report *rep, const struct job *j)
{
	unsigned int shown = job_columns_shown(rep->opts.width);
	char key[48], client[24], flags[16], pid[16], behind[16], name[64];
	const struct cpu_job_ioctl *io;
	FILE *f = rep->stream;
	int l;

	jobs_header(rep);
	if (j->has_client_id)
		snprintf(client, sizeof(client), "%llu", (unsigned long long)j->client_id);
	else
		strcpy(client, "-");
	snprintf(pid, sizeof(pid), "%d", j->pid);
	cell(f, shown, COL_RING, timeline_ring_name(timeline_of(rep->analysis), j->ring));
	cell(f, shown, COL_JOB, report_job_key(key, sizeof(key), j));
	cell(f, shown, COL_PID, pid);
	cell(f, shown, COL_COMM, analysis_comm(rep->analysis, j->pid));
	cell(f, shown, COL_CLIENT, client);
	cell_ts(f, shown, COL_SUBMIT, j->t_submit);
	cell_ts(f, shown, COL_QUEUED, j->t_queue);
	cell_ts(f, shown, COL_RUN, j->t_run);
	cell_ts(f, shown, COL_HW_START, j->t_hw_start);
	cell_ts(f, shown, COL_DONE, j->t_done);
	for (l = 0; l < LAT_NR; l++)
		cell_us(f, shown, (enum job_column)(COL_LAT + l), j->has_lat[l], j->lat[l]);
	cell_us(f, shown, COL_BEHIND_US, j->t_hw_start, j->behind.ns);
	if (j->t_hw_start)
		snprintf(behind, sizeof(behind), "%u", j->behind.jobs);
	else
		snprintf(behind, sizeof(behind), "-");
	cell(f, shown, COL_BEHIND, behind);
	io = cpu_side_job_ioctl(rep->analysis, j);
	cell(f, shown, COL_IOCTL, io ? gpu_ioctl_name(io->cmd, cpu_side_of(rep->analysis)->driver,
						      name, sizeof(name)) : "-");
	cell_us(f, shown, COL_IOCTL_Q, io != NULL, io ? io->to_queued_ns : 0);
	cell(f, shown, COL_FLAGS, report_job_flags(flags, sizeof(flags), j->flags));
	fputc('\n', f);
}

/* Under a table that left columns out: how to see them. */
static void jobs_footnote(struct report *rep)
{
	int shown = job_columns_count(job_columns_shown(rep->opts.width));

	if (rep->opts.jobs && shown < COL_NR && rep->jobs_shown)
		fprintf(rep->stream, "(%d of %d columns, to fit the terminal's %d; --wide or a pipe shows all)\n",
			shown, COL_NR, rep->opts.width);
}

/* What says the late CPU's older data was overwritten (cpu-coverage.h) */
static const char *late_evidence(const struct cpu_coverage *c, char *buf, size_t len)
{
	const struct cpu_window *w = NULL;
	char size[32];
	int i;

	for (i = 0; i < c->nr; i++)
		if (c->cpus[i].cpu == c->late_cpu)
			w = &c->cpus[i];
	report_size(size, sizeof(size), c->evidence_bytes);
	switch (c->late_evidence) {
	case OVERWRITE_OVERRUN:
		snprintf(buf, len, "the file's stats count %lld events overwritten on it",
			 w ? w->overrun : 0);
		break;
	case OVERWRITE_FULL:
		snprintf(buf, len, "its data fills its %s buffer", size);
		break;
	default:
		snprintf(buf, len, "its data is as large as the largest CPUs', %s: a full buffer", size);
		break;
	}
	return buf;
}

/* Each CPU's window, and what the late start (or early end) costs. */
static void coverage_lines(struct report *rep)
{
	const struct cpu_coverage *c = &analysis_totals(rep->analysis)->cov;
	char a[32], b[32], why[128];
	int i;

	fprintf(rep->stream, "coverage");
	for (i = 0; i < c->nr; i++)
		fprintf(rep->stream, " cpu%d %s-%s%s", c->cpus[i].cpu,
			report_ts(a, sizeof(a), c->cpus[i].first),
			report_ts(b, sizeof(b), c->cpus[i].last), i + 1 < c->nr ? "," : "\n");
	fprintf(rep->stream, "LOST     %s:", c->late_evidence == OVERWRITE_OVERRUN ? "overwritten" : "uncounted");
	if (c->late_cpu >= 0)
		fprintf(rep->stream, " cpu%d's records start %.6f s after the first CPU's (its older data was overwritten, a ring buffer read in overwrite mode: %s)",
			c->late_cpu, (double)(c->from - c->start) / 1e9,
			late_evidence(c, why, sizeof(why)));
	if (c->end_cpu >= 0)
		fprintf(rep->stream, "%s cpu%d's records end %.6f s before the last CPU's (its buffer filled: later events dropped)",
			c->late_cpu >= 0 ? ";" : "", c->end_cpu, (double)(c->end - c->to) / 1e9);
	fprintf(rep->stream, "; %s: jobs outside %s-%s that lack a stage are flagged L and left out of the statistics\n",
		c->late_evidence == OVERWRITE_OVERRUN ? "the stats count the events, not when they were"
						      : "nothing in the file counts it",
		report_ts(a, sizeof(a), c->from), report_ts(b, sizeof(b), c->to));
}

/* "devices  0000:03:00.0 (2 rings), 0000:c3:00.0 (2 rings)": what 6.17+ events name */
/*
 * GPU events with fields outside their records (a damaged or crafted file), by event:
 * "note     fields outside their records: 6 (i915:i915_request_out completed x6); those
 * events were not used"
 */
static void field_misses_line(struct report *rep)
{
	const struct field_misses *m = &analysis_totals(rep->analysis)->field_misses;
	char event[128], fields[128];
	int i;

	fprintf(rep->stream, "note     fields outside their records: %llu (",
		(unsigned long long)m->records);
	for (i = 0; i < m->nr; i++) {
		field_miss_names(rep->analysis, &m->events[i], event, sizeof(event), fields,
				 sizeof(fields));
		fprintf(rep->stream, "%s%s %s x%llu", i ? ", " : "", event, fields,
			(unsigned long long)m->events[i].records);
	}
	if (m->other)
		fprintf(rep->stream, ", other events x%llu", (unsigned long long)m->other);
	fprintf(rep->stream, "); those events were not used\n");
}

static void devices(struct report *rep)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	int d, i;

	if (!tl->nr_devs)
		return;
	fprintf(rep->stream, "devices  ");
	for (d = 0; d < tl->nr_devs; d++) {
		int n = 0;

		for (i = 0; i < tl->nr_rings; i++)
			n += !strcmp(tl->rings[i]->dev, tl->devs[d]);
		fprintf(rep->stream, "%s%s (%d ring%s)", d ? ", " : "", tl->devs[d], n, n == 1 ? "" : "s");
	}
	fputc('\n', rep->stream);
}

static void header(struct report *rep)
{
	const struct analysis_totals *tot = analysis_totals(rep->analysis);
	const struct timeline *tl = timeline_of(rep->analysis);
	const struct workload_tree *wt = workload_tree_of(rep->analysis);
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
	if (m->v6_instances_absent)
		fprintf(rep->stream, "note     %d buffer instance%s named whose pages the file does not hold (a trace-cmd split, or a recording cut short before them): %s\n",
			m->v6_instances_absent, m->v6_instances_absent == 1 ? "" : "s",
			report_instances_absent(m->v6_instances_absent, m->nr_v6_instances));
	fprintf(rep->stream, "kernel   %s\n", m->uname[0] ? m->uname : "(not recorded)");
	report_host_text(rep);
	report_flight_text(rep);
	fprintf(rep->stream, "cpus     %d   clock %s   buffer ", m->nr_cpus,
		m->clock[0] ? m->clock : "(not recorded)");
	if (m->has_buffer_kb)
		fprintf(rep->stream, "%llu KB per CPU\n", (unsigned long long)m->buffer_kb);
	else
		fprintf(rep->stream, "(not recorded)\n");
	devices(rep);
	if (report_has_workload(rep)) {
		uint64_t w = 0;

		for (i = 0; i < tl->nr_rings; i++)
			w += tl->rings[i]->workload_jobs;
		/* the flag is news only where it flags something */
		fprintf(rep->stream, "workload %s: %llu task%s (the recorded command or -P and what they forked)%s\n",
			wt->comm[0] ? wt->comm : "-P",
			(unsigned long long)wt->nr_tasks,
			wt->nr_tasks == 1 ? "" : "s",
			w ? "; its jobs are flagged W" : "; no GPU job of its own");
	}
	fprintf(rep->stream, "records  %llu (GPU %llu, function %llu) from %s to %s\n",
		(unsigned long long)tot->records, (unsigned long long)tot->gpu_events,
		(unsigned long long)tot->func_events, report_ts(first, sizeof(first), tot->first_ts),
		report_ts(last, sizeof(last), tot->last_ts));
	if (tot->short_records)
		fprintf(rep->stream, "note     %llu records shorter than their common fields (type, pid): damaged, skipped\n",
			(unsigned long long)tot->short_records);
	if (tot->field_misses.records)
		field_misses_line(rep);
	if (tot->damage.records)
		fprintf(rep->stream, "DAMAGED  CPU %d's time steps back from %s to %s: %llu record%s set aside, counted as lost\n",
			tot->damage.cpu, report_ts(first, sizeof(first), tot->damage.from_ts),
			report_ts(last, sizeof(last), tot->damage.to_ts),
			(unsigned long long)tot->damage.records,
			report_plural(tot->damage.records));
	if (tot->damage.zeroed_pages) {
		char what[256];

		fprintf(rep->stream, "DAMAGED  %s\n", report_zeroed_pages(what, sizeof(what), &tot->damage));
	}
	if (tot->cov.skewed)
		coverage_lines(rep);
	if (!lost && !tot->missed && !tot->missed_unknown &&
	    !tot->damage.records && !tot->short_records) {
		if (!tot->cov.skewed)
			fprintf(rep->stream, "lost     none\n");
	} else {
		fprintf(rep->stream, "LOST    ");
		for (i = 0; i < m->nr_cpustats; i++)
			fprintf(rep->stream, " cpu%d %llu%s", i,
				(unsigned long long)cpu_stats_lost(&m->cpustats[i]),
				i + 1 < m->nr_cpustats ? "," : "");
		if (m->instance_lost && m->instance_name[0] && !m->instances_apart)
			fprintf(rep->stream, ", %s buffer %llu", m->instance_name,
				(unsigned long long)m->instance_lost);
		else if (m->instance_lost)
			fprintf(rep->stream, ", buffer instances %llu", (unsigned long long)m->instance_lost);
		fprintf(rep->stream, "; %llu%s dropped in %llu window%s of the data: jobs in flight then are flagged L and left out of the statistics\n",
			(unsigned long long)tot->missed, tot->missed_unknown ? "+" : "",
			(unsigned long long)tl->lost_windows,
			tl->lost_windows == 1 ? "" : "s");
	}
}

static void job_totals(struct report *rep)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	uint64_t fin = 0, unfin = 0, lost = 0;
	int i;

	for (i = 0; i < tl->nr_rings; i++) {
		fin += tl->rings[i]->jobs;
		unfin += tl->rings[i]->unfinished;
		lost += tl->rings[i]->lost;
	}
	fprintf(rep->stream, "jobs     %llu finished, %llu unfinished (U), %llu touched by lost events (L)",
		(unsigned long long)fin, (unsigned long long)unfin, (unsigned long long)lost);
	if (tl->orphans)
		fprintf(rep->stream, "; %llu events of jobs that began before the trace",
			(unsigned long long)tl->orphans);
	if (tl->filtered_out)
		fprintf(rep->stream, "; %llu job%s filtered out", (unsigned long long)tl->filtered_out,
			report_plural(tl->filtered_out));
	/* a file of display events alone has no fences to make jobs of either */
	if (tl->fence_mode && analysis_totals(rep->analysis)->gpu_events &&
	    analysis_file_has_system(rep->analysis, "dma_fence"))
		fprintf(rep->stream, "\n         (no scheduler events in the file: jobs are dma_fence init/emit -> signaled per timeline)");
	fprintf(rep->stream, "\n");
	if (tl->rings_capped)
		fprintf(rep->stream, "rings    the file names more than %d rings (no GPU has as many: damaged?); the jobs of the rest are counted as one ring, %s\n",
			TIMELINE_MAX_RINGS - 1, TIMELINE_MORE_RINGS);
}

/* "GPU time: 4242 llama 61.2%, 4300 rival 38.8%": who kept the ring busy, the most first */
static void ring_users(struct report *rep, int ring, const struct ring_stats *s)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	struct { int pid; uint64_t ns; } top[4] = { { 0, 0 } };
	int i, k, n = 0, more = 0;

	if (!s->busy_ns)
		return;
	for (i = 0; i < tl->nr_procs; i++)
		for (k = 0; k < tl->procs[i]->nr_by_ring; k++) {
			const struct gpu_share *sh = &tl->procs[i]->by_ring[k];
			int at;

			if (sh->ring != ring || !sh->ns)
				continue;
			if (n == 4 && sh->ns <= top[3].ns) {
				more++;
				continue;
			}
			more += n == 4;
			at = n < 4 ? n++ : 3;
			for (; at > 0 && top[at - 1].ns < sh->ns; at--)
				top[at] = top[at - 1];
			top[at].pid = (int)tl->procs[i]->key;
			top[at].ns = sh->ns;
		}
	if (!n)
		return;
	fprintf(rep->stream, "  GPU time:");
	for (i = 0; i < n; i++)
		fprintf(rep->stream, "%s %d %s %.1f%%", i ? "," : "", top[i].pid,
			analysis_comm(rep->analysis, top[i].pid), 100.0 * (double)top[i].ns / (double)s->busy_ns);
	if (more)
		fprintf(rep->stream, " and %d more process%s", more, more == 1 ? "" : "es");
	fputc('\n', rep->stream);
}

/* "workload: 12 of 40 jobs; they waited 3.2 ms behind 41 jobs of 2 other processes" */
static void ring_behind(struct report *rep, const struct ring_stats *s)
{
	double ms = (double)s->behind_ns / 1e6;
	int procs = s->nr_behind_pids;

	if (report_has_workload(rep) && !s->behind_jobs) {
		fprintf(rep->stream, "  workload: %llu of %llu job%s; none waited behind other processes' jobs\n",
			(unsigned long long)s->workload_jobs,
			(unsigned long long)(s->jobs + s->unfinished), report_plural(s->jobs + s->unfinished));
		return;
	}
	if (report_has_workload(rep))
		fprintf(rep->stream, "  workload: %llu of %llu job%s; they waited %.3f ms behind %llu job%s of %d%s other process%s",
			(unsigned long long)s->workload_jobs,
			(unsigned long long)(s->jobs + s->unfinished), report_plural(s->jobs + s->unfinished), ms,
			(unsigned long long)s->behind_jobs, report_plural(s->behind_jobs), procs,
			s->behind_pids_more ? "+" : "",
			procs == 1 && !s->behind_pids_more ? "" : "es");
	else if (s->behind_jobs)
		fprintf(rep->stream, "  jobs waited %.3f ms in all behind %llu job%s of other processes (%d%s process%s)",
			ms, (unsigned long long)s->behind_jobs, report_plural(s->behind_jobs), procs,
			s->behind_pids_more ? "+" : "",
			procs == 1 && !s->behind_pids_more ? "" : "es");
	else
		return;
	for (int i = 0; i < procs && i < 4; i++)
		fprintf(rep->stream, "%s%d %s", i ? ", " : " (", s->behind_pids[i],
			analysis_comm(rep->analysis, s->behind_pids[i]));
	fprintf(rep->stream, "%s\n", !procs ? "" : procs > 4 || s->behind_pids_more ? ", ...)" : ")");
}

/*
 * "owner switches (enforce isolation): 3 before its jobs; the workload's 2 waited 0.390 ms
 * in all for the previous owner's work; cleaner shader ran 3 times"
 */
static void ring_switches(struct report *rep, const struct ring_stats *s)
{
	char ms[32];

	if (!s->switches && !s->cleaner_shaders)
		return;
	fprintf(rep->stream, "  owner switches (enforce isolation): %llu before its jobs",
		(unsigned long long)s->switches);
	if (s->switch_wait_jobs)
		fprintf(rep->stream, "; %s %llu waited %s ms in all for the previous owner's work",
			report_has_workload(rep) ? "the workload's" : "they",
			(unsigned long long)s->switch_wait_jobs,
			report_us(ms, sizeof(ms), true, s->switch_wait_ns / 1000));
	fprintf(rep->stream, "; cleaner shader ran %llu time%s\n",
		(unsigned long long)s->cleaner_shaders, report_plural(s->cleaner_shaders));
}

static void rings(struct report *rep)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	char busy[32];
	int i, l;

	for (i = 0; i < tl->nr_rings; i++) {
		struct ring_stats *s = tl->rings[i];

		/*
		 * every job, and of them the unfinished and the lost: "1 job, 1
		 * unfinished" beside "2 jobs, 0 unfinished, 1 lost" counted the two
		 * subsets differently (JSON keeps jobs for the finished ones)
		 */
		/* a ring whose jobs have no run (i915 without its low-level events): busy unknown */
		if (report_busy_known(s))
			snprintf(busy, sizeof(busy), "%.1f%%", report_busy_pct(rep, s));
		else
			snprintf(busy, sizeof(busy), "-");
		fprintf(rep->stream, "\nring %s: %llu job%s, %llu unfinished, %llu lost, busy %s, max %lld in flight, %llu waited on dependencies\n",
			timeline_ring_name(tl, i),
			(unsigned long long)(s->jobs + s->unfinished),
			report_plural(s->jobs + s->unfinished), (unsigned long long)s->unfinished,
			(unsigned long long)s->lost, busy,
			(long long)s->max_in_flight, (unsigned long long)s->waits);
		ring_behind(rep, s);
		ring_switches(rep, s);
		if (s->moved_wait_jobs)
			fprintf(rep->stream, "  buffers moved while %s%llu job%s waited (queue->run, %.3f ms in all): %.1f MiB (Buffer moves below)\n",
				report_has_workload(rep) ? "the workload's " : "", (unsigned long long)s->moved_wait_jobs,
				report_plural(s->moved_wait_jobs), (double)s->moved_wait_ns / 1e6,
				(double)s->moved_wait_bytes / (1024.0 * 1024.0));
		if (s->vm_wait_jobs)
			fprintf(rep->stream, "  page tables updated while %s%llu job%s waited (queue->run, %.3f ms in all): %.1f MiB of GPU address space (Page tables below)\n",
				report_has_workload(rep) ? "the workload's " : "", (unsigned long long)s->vm_wait_jobs,
				report_plural(s->vm_wait_jobs), (double)s->vm_wait_ns / 1e6,
				(double)s->vm_wait_bytes / (1024.0 * 1024.0));
		if (s->timeouts)
			fprintf(rep->stream, "  timed out %llu time%s (GPU hangs and resets below); the jobs in flight then are flagged H\n",
				(unsigned long long)s->timeouts, report_plural(s->timeouts));
		/* who kept it busy, after what happened to it, beside the numbers */
		ring_users(rep, i, s);
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
	fprintf(rep->stream, "\nslowest jobs (total)\n  %-18s %-22s %7s %-15s %11s %11s %11s %11s %11s %s\n",
		"ring", "job", "pid", "comm", "q->run_us", "dep_us", "run->hw_us", "exec_us",
		"total_us", "flags");
	for (i = 0; i < rep->nr_slow; i++) {
		const struct job *j = &rep->slow[i];
		char key[48], flags[16];
		int l;

		fprintf(rep->stream, "  %-18s %-22s %7d %-15s",
			timeline_ring_name(timeline_of(rep->analysis), j->ring),
			report_job_key(key, sizeof(key), j), j->pid,
			analysis_comm(rep->analysis, j->pid));
		/* queue->run .. total, as in the header */
		for (l = LAT_QUEUE_TO_RUN; l < LAT_NR; l++)
			col_us(rep->stream, 11, j->has_lat[l], j->lat[l]);
		fprintf(rep->stream, " %s\n", report_job_flags(flags, sizeof(flags), j->flags));
	}
}

static void groups(struct report *rep, const char *title, struct group_stats **g, int nr,
		   bool processes)
{
	uint64_t busy = report_busy_ns(rep);
	int i;

	if (!nr)
		return;
	fprintf(rep->stream, "\n%s\n  %-24s %8s %12s %7s %12s %12s %12s %12s\n", title,
		processes ? "pid comm" : "client id", "jobs", "gpu_ms", "gpu%", "avg_us", "p50_us",
		"p99_us", "max_us");
	for (i = 0; i < nr; i++) {
		const struct drm_client *cl;
		char who[64];

		if (processes)
			snprintf(who, sizeof(who), "%llu %s", (unsigned long long)g[i]->key,
				 analysis_comm(rep->analysis, (int)g[i]->key));
		else if ((cl = drm_clients_find(drm_clients_of(rep->analysis), g[i]->key)))
			snprintf(who, sizeof(who), "%llu (%d %s)", (unsigned long long)g[i]->key, cl->pid,
				 analysis_comm(rep->analysis, cl->pid));
		else
			snprintf(who, sizeof(who), "%llu", (unsigned long long)g[i]->key);
		fprintf(rep->stream, "  %-24s %8llu %12.3f %6.1f%%", who, (unsigned long long)g[i]->jobs,
			(double)g[i]->gpu_ns / 1e6, busy ? 100.0 * (double)g[i]->gpu_ns / (double)busy : 0.0);
		col_us(rep->stream, 12, true, latency_stats_avg(&g[i]->total));
		col_us(rep->stream, 12, true, latency_stats_percentile(&g[i]->total, 50));
		col_us(rep->stream, 12, true, latency_stats_percentile(&g[i]->total, 99));
		col_us(rep->stream, 12, true, g[i]->total.max);
		fputc('\n', rep->stream);
	}
}

static int text_end(struct report *rep, struct gt_error *err)
{
	const struct timeline *tl = timeline_of(rep->analysis);

	jobs_header(rep);
	jobs_footnote(rep);
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
		groups(rep, "by process (GPU time: its jobs' hardware time, the share of all rings' busy time; total latency)",
		       tl->procs, tl->nr_procs, true);
		groups(rep, "by DRM client id (GPU time; total latency)", tl->clients,
		       tl->nr_clients, false);
	}
	report_sections_write(rep, REPORT_SECTION_TEXT);
	(void)err;
	return 0;
}

const struct report_output report_text = {
	.name = "text",
	.escaped = true,
	.several = true,
	.begin = text_begin,
	.job = text_job,
	.end = text_end,
};
