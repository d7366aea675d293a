// SPDX-License-Identifier: GPL-2.0
/*
 * What goes in each Parquet table, column by column: a table's columns and
 * the code that fills a row are side by side and in one order (a row is
 * written left to right), and tests/parquet/check.mjs compares every value
 * with the JSON report's. A new column is a line in each and a line in
 * docs/parquet.md; a new table a row of parquet_tables[].
 */
#include <stdio.h>
#include <string.h>

#include "output/parquet-tables.h"
#include "analysis/cpu-side.h"
#include "analysis/host-clock.h"
#include "analysis/kfd-queue-table.h"
#include "analysis/kfd-queues.h"
#include "analysis/timeline.h"
#include "decode/gpu-ioctl.h"
#include "decode/kfd-names.h"

#define N(cols)	((int)(sizeof(cols) / sizeof((cols)[0])))
#define FILE_COLS { "file", PQ_STRING }, { "run", PQ_STRING }

/* trace clock ns -> UTC ns, where the file's clock pairs place it */
struct utc {
	bool known;
	int64_t offset;
};

/*
 * The file's offset as its JSON says it (the narrowest pair), read by a pass of its own
 * before this one (cmd/report-prepass.c): rows are written as their jobs retire, often
 * before the narrowest pair is read
 */
static struct utc utc_of(struct report *rep)
{
	return (struct utc){ rep->utc_known, rep->utc_offset };
}

/* a time column pair: _ns as the trace clock has it, _utc where known */
static void time_pair(struct pq_writer *w, int *c, const struct utc *u, bool has, uint64_t ns)
{
	pq_opt_i64(w, (*c)++, has, (int64_t)ns);
	pq_opt_i64(w, (*c)++, has && u->known, (int64_t)ns + u->offset);
}

static void file_cols(struct report *rep, struct pq_writer *w, int *c, const char *run)
{
	pq_str(w, (*c)++, rep->opts.file);
	pq_str(w, (*c)++, run);
}

static const char *dev_or_null(const char *dev)
{
	return dev[0] ? dev : NULL;
}

#define TIME_COLS(n)	{ n "_ns", PQ_INT64 }, { n "_utc", PQ_TIMESTAMP }
#define LAT_COLS(n)	{ n "_ns", PQ_INT64 }

static const struct pq_column job_cols[] = {
	FILE_COLS,
	{ "ring", PQ_STRING }, { "dev", PQ_STRING }, { "id", PQ_INT64 }, { "fence", PQ_STRING },
	{ "fence_ptr", PQ_STRING }, { "pid", PQ_INT64 }, { "comm", PQ_STRING },
	{ "client_id", PQ_INT64 },
	TIME_COLS("submit"), TIME_COLS("queue"), TIME_COLS("run"), TIME_COLS("hw_start"),
	TIME_COLS("done"),
	/* hw_stints: a LIST of STRUCT<start_ns, end_ns> */
	{ "hw_stints.start_ns", PQ_STRUCT_LIST_I64 }, { "hw_stints.end_ns", PQ_STRUCT_LIST_I64 },
	{ "deps", PQ_INT64 }, { "waits", PQ_INT64 },
	{ "dep_fences", PQ_STRING_LIST },
	/* latency_ns, in job_latency_key()'s order */
	LAT_COLS("submit_to_queue"), LAT_COLS("queue_to_run"), LAT_COLS("dep_wait"),
	LAT_COLS("run_to_hw"), LAT_COLS("exec"), LAT_COLS("total"),
	{ "workload", PQ_BOOL },
	{ "behind_other_ns", PQ_INT64 }, { "behind_other_jobs", PQ_INT64 },
	{ "behind_other_process_count", PQ_INT64 }, { "behind_other_partial", PQ_BOOL },
	TIME_COLS("owner_switch_at"), { "owner_switch_wait_ns", PQ_INT64 },
	{ "in_flight_at_timeout", PQ_BOOL }, { "moved_while_waiting_bytes", PQ_INT64 },
	{ "page_tables_updated_while_waiting_bytes", PQ_INT64 },
	{ "unfinished", PQ_BOOL }, { "lost", PQ_BOOL }, { "done_from_fence", PQ_BOOL },
	{ "dep_unknown", PQ_BOOL },
	/* the GPU ioctl it was queued from (cpu-side.h): JSON's ioctl, null without one */
	{ "ioctl", PQ_STRING }, { "ioctl_tid", PQ_INT64 }, { "ioctl_enter_ns", PQ_INT64 },
	{ "ioctl_to_queued_ns", PQ_INT64 }, { "ioctl_on_cpu_ns", PQ_INT64 },
	{ "ioctl_runnable_ns", PQ_INT64 }, { "ioctl_sleeping_ns", PQ_INT64 },
	{ "ioctl_irq_ns", PQ_INT64 },
};

static void job_ioctl_cols(struct report *rep, struct pq_writer *w, int *c, const struct job *j)
{
	const struct cpu_job_ioctl *io = cpu_side_job_ioctl(rep->analysis, j);
	char name[64];

	pq_str(w, (*c)++, io ? gpu_ioctl_name(io->cmd, cpu_side_of(rep->analysis)->driver, name,
					      sizeof(name)) : NULL);
	pq_opt_i64(w, (*c)++, io != NULL, io ? io->pid : 0);
	pq_opt_i64(w, (*c)++, io != NULL, io ? (int64_t)io->enter : 0);
	pq_opt_i64(w, (*c)++, io != NULL, io ? (int64_t)io->to_queued_ns : 0);
	pq_opt_i64(w, (*c)++, io != NULL, io ? (int64_t)io->split.on_cpu_ns : 0);
	pq_opt_i64(w, (*c)++, io != NULL, io ? (int64_t)io->split.runnable_ns : 0);
	pq_opt_i64(w, (*c)++, io != NULL, io ? (int64_t)io->split.sleeping_ns : 0);
	pq_opt_i64(w, (*c)++, io != NULL, io ? (int64_t)io->split.irq_ns : 0);
}

void parquet_job_row(struct report *rep, struct pq_writer *w, const char *run, const struct job *j)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	struct utc u = utc_of(rep);
	char buf[64];
	int64_t stint[2];
	unsigned int k;
	uint64_t sw = 0;
	bool ran;
	int c = 0, l;

	file_cols(rep, w, &c, run);
	pq_str(w, c++, timeline_ring_name(tl, j->ring));
	pq_str(w, c++, dev_or_null(tl->rings[j->ring]->dev));
	pq_opt_i64(w, c++, j->has_id, (int64_t)j->id);
	snprintf(buf, sizeof(buf), "%llu:%llu", (unsigned long long)j->ctx, (unsigned long long)j->seqno);
	pq_str(w, c++, j->has_fence ? buf : NULL);
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)j->fence_ptr);
	pq_str(w, c++, j->fence_ptr ? buf : NULL);
	pq_i64(w, c++, j->pid);
	pq_str(w, c++, analysis_comm(rep->analysis, j->pid));
	pq_opt_i64(w, c++, j->has_client_id, (int64_t)j->client_id);
	time_pair(w, &c, &u, j->t_submit, j->t_submit);
	time_pair(w, &c, &u, j->t_queue, j->t_queue);
	time_pair(w, &c, &u, j->t_run, j->t_run);
	time_pair(w, &c, &u, j->t_hw_start, j->t_hw_start);
	time_pair(w, &c, &u, j->t_done, j->t_done);
	/* a preempted job's stints, as the JSON's [[start, end], ...]; null: hw_start_ns to done_ns */
	if (j->nr_hw_stints)
		pq_list_begin(w, c);
	for (k = 0; k < j->nr_hw_stints; k++) {
		stint[0] = (int64_t)j->hw_stints[k][0];
		stint[1] = (int64_t)j->hw_stints[k][1];
		pq_list_i64s(w, c, stint, 2);
	}
	c += 2;
	pq_i64(w, c++, j->nr_deps);
	pq_i64(w, c++, j->nr_waits);
	/* a LIST of "ctx:seqno", as the JSON's dep_fences; [] for none */
	pq_list_begin(w, c);
	for (k = 0; k < j->nr_dep_fences; k++) {
		snprintf(buf, sizeof(buf), "%llu:%llu", (unsigned long long)j->dep_fences[k].ctx,
			 (unsigned long long)j->dep_fences[k].seqno);
		pq_list_str(w, c, buf);
	}
	c++;
	for (l = 0; l < LAT_NR; l++)
		pq_opt_i64(w, c++, j->has_lat[l], (int64_t)j->lat[l]);
	pq_bool(w, c++, j->flags & JOB_WORKLOAD);
	pq_opt_i64(w, c++, j->t_hw_start, (int64_t)j->behind.ns);
	pq_i64(w, c++, j->behind.jobs);
	pq_i64(w, c++, j->behind.procs);
	pq_bool(w, c++, j->flags & JOB_BEHIND_PARTIAL);
	time_pair(w, &c, &u, j->flags & JOB_OWNER_SWITCH, j->t_switch);
	/* apart: an argument's order of evaluation is the compiler's */
	ran = (j->flags & JOB_OWNER_SWITCH) && job_switch_wait(j, &sw);
	pq_opt_i64(w, c++, ran, (int64_t)sw);
	pq_bool(w, c++, j->flags & JOB_HANG);
	pq_i64(w, c++, (int64_t)j->moved_in_wait);
	pq_i64(w, c++, (int64_t)j->vm_in_wait);
	pq_bool(w, c++, j->flags & JOB_UNFINISHED);
	pq_bool(w, c++, j->flags & JOB_LOST);
	pq_bool(w, c++, j->flags & JOB_DONE_FENCE);
	pq_bool(w, c++, j->flags & JOB_DEP_UNKNOWN);
	job_ioctl_cols(rep, w, &c, j);
}

/* a latency distribution: count, min, avg, p50, p90, p99, max (null when empty) */
#define STAT_COLS(n) \
	{ n "_count", PQ_INT64 }, { n "_min_ns", PQ_INT64 }, { n "_avg_ns", PQ_INT64 }, \
	{ n "_p50_ns", PQ_INT64 }, { n "_p90_ns", PQ_INT64 }, { n "_p99_ns", PQ_INT64 }, \
	{ n "_max_ns", PQ_INT64 }

static void stat_cols(struct pq_writer *w, int *c, struct latency_stats *s)
{
	static const int pct[] = { 50, 90, 99 };
	size_t i;

	pq_i64(w, (*c)++, (int64_t)s->count);
	pq_opt_i64(w, (*c)++, s->count, (int64_t)s->min);
	pq_opt_i64(w, (*c)++, s->count, s->count ? (int64_t)latency_stats_avg(s) : 0);
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		pq_opt_i64(w, (*c)++, s->count,
			   s->count ? (int64_t)latency_stats_percentile(s, pct[i]) : 0);
	pq_opt_i64(w, (*c)++, s->count, (int64_t)s->max);
}

static const struct pq_column ring_cols[] = {
	FILE_COLS,
	{ "name", PQ_STRING }, { "ring", PQ_STRING }, { "dev", PQ_STRING },
	{ "jobs", PQ_INT64 }, { "unfinished", PQ_INT64 }, { "lost", PQ_INT64 },
	{ "waits", PQ_INT64 }, { "busy_ns", PQ_INT64 }, { "busy_pct", PQ_DOUBLE },
	{ "max_in_flight", PQ_INT64 }, { "workload_jobs", PQ_INT64 },
	{ "behind_other_ns", PQ_INT64 }, { "behind_other_jobs", PQ_INT64 },
	{ "behind_other_process_count", PQ_INT64 }, { "behind_other_more_processes", PQ_BOOL },
	{ "owner_switch_jobs", PQ_INT64 }, { "owner_switch_waited_jobs", PQ_INT64 },
	{ "owner_switch_wait_ns", PQ_INT64 }, { "cleaner_shaders", PQ_INT64 },
	{ "timeouts", PQ_INT64 },
	{ "moved_while_waiting_jobs", PQ_INT64 }, { "moved_while_waiting_bytes", PQ_INT64 },
	{ "moved_while_waiting_wait_ns", PQ_INT64 },
	{ "page_tables_updated_while_waiting_jobs", PQ_INT64 },
	{ "page_tables_updated_while_waiting_bytes", PQ_INT64 },
	{ "page_tables_updated_while_waiting_wait_ns", PQ_INT64 },
	STAT_COLS("submit_to_queue"), STAT_COLS("queue_to_run"), STAT_COLS("dep_wait"),
	STAT_COLS("run_to_hw"), STAT_COLS("exec"), STAT_COLS("total"),
};

static void ring_rows(struct report *rep, struct pq_writer *w, const char *run)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	int i, l, c;

	for (i = 0; i < tl->nr_rings; i++) {
		struct ring_stats *s = tl->rings[i];
		bool busy = report_busy_known(s);

		c = 0;
		file_cols(rep, w, &c, run);
		pq_str(w, c++, timeline_ring_name(tl, i));
		pq_str(w, c++, s->name);
		pq_str(w, c++, dev_or_null(s->dev));
		pq_i64(w, c++, (int64_t)s->jobs);
		pq_i64(w, c++, (int64_t)s->unfinished);
		pq_i64(w, c++, (int64_t)s->lost);
		pq_i64(w, c++, (int64_t)s->waits);
		pq_opt_i64(w, c++, busy, (int64_t)s->busy_ns);
		if (busy)
			pq_f64(w, c++, report_busy_pct(rep, s));
		else
			pq_null(w, c++);
		pq_i64(w, c++, s->max_in_flight);
		pq_i64(w, c++, (int64_t)s->workload_jobs);
		pq_i64(w, c++, (int64_t)s->behind_ns);
		pq_i64(w, c++, (int64_t)s->behind_jobs);
		pq_i64(w, c++, s->nr_behind_pids);
		pq_bool(w, c++, s->behind_pids_more);
		pq_i64(w, c++, (int64_t)s->switches);
		pq_i64(w, c++, (int64_t)s->switch_wait_jobs);
		pq_i64(w, c++, (int64_t)s->switch_wait_ns);
		pq_i64(w, c++, (int64_t)s->cleaner_shaders);
		pq_i64(w, c++, (int64_t)s->timeouts);
		pq_i64(w, c++, (int64_t)s->moved_wait_jobs);
		pq_i64(w, c++, (int64_t)s->moved_wait_bytes);
		pq_i64(w, c++, (int64_t)s->moved_wait_ns);
		pq_i64(w, c++, (int64_t)s->vm_wait_jobs);
		pq_i64(w, c++, (int64_t)s->vm_wait_bytes);
		pq_i64(w, c++, (int64_t)s->vm_wait_ns);
		for (l = 0; l < LAT_NR; l++)
			stat_cols(w, &c, &s->lat[l]);
		pq_row_end(w);
	}
}

/* rings' behind_other.processes: whose jobs the ring's summarised jobs waited behind */
static const struct pq_column ring_wait_cols[] = {
	FILE_COLS, { "ring", PQ_STRING }, { "pid", PQ_INT64 }, { "comm", PQ_STRING },
};

static void ring_wait_rows(struct report *rep, struct pq_writer *w, const char *run)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	int i, k, c;

	for (i = 0; i < tl->nr_rings; i++) {
		for (k = 0; k < tl->rings[i]->nr_behind_pids; k++) {
			int pid = tl->rings[i]->behind_pids[k];

			c = 0;
			file_cols(rep, w, &c, run);
			pq_str(w, c++, timeline_ring_name(tl, i));
			pq_i64(w, c++, pid);
			pq_str(w, c++, analysis_comm(rep->analysis, pid));
			pq_row_end(w);
		}
	}
}

#define GROUP_COLS \
	{ "jobs", PQ_INT64 }, { "gpu_ns", PQ_INT64 }, { "gpu_pct", PQ_DOUBLE }, STAT_COLS("total")

static const struct pq_column process_cols[] = {
	FILE_COLS, { "pid", PQ_INT64 }, { "comm", PQ_STRING }, GROUP_COLS,
};

static const struct pq_column client_cols[] = {
	FILE_COLS, { "client_id", PQ_INT64 }, GROUP_COLS,
};

static void group_rows(struct report *rep, struct pq_writer *w, const char *run, bool procs)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	struct group_stats **g = procs ? tl->procs : tl->clients;
	int i, c, nr = procs ? tl->nr_procs : tl->nr_clients;
	uint64_t busy = report_busy_ns(rep);

	for (i = 0; i < nr; i++) {
		c = 0;
		file_cols(rep, w, &c, run);
		pq_i64(w, c++, (int64_t)g[i]->key);
		if (procs)
			pq_str(w, c++, analysis_comm(rep->analysis, (int)g[i]->key));
		pq_i64(w, c++, (int64_t)g[i]->jobs);
		pq_i64(w, c++, (int64_t)g[i]->gpu_ns);
		pq_f64(w, c++, busy ? 100.0 * (double)g[i]->gpu_ns / (double)busy : 0.0);
		stat_cols(w, &c, &g[i]->total);
		pq_row_end(w);
	}
}

static void process_rows(struct report *rep, struct pq_writer *w, const char *run)
{
	group_rows(rep, w, run, true);
}

static void client_rows(struct report *rep, struct pq_writer *w, const char *run)
{
	group_rows(rep, w, run, false);
}

/* one row per input: the host, its clock on UTC and what the file holds */
static const struct pq_column host_cols[] = {
	FILE_COLS,
	{ "host_name", PQ_STRING }, { "machine_id", PQ_STRING }, { "boot_id", PQ_STRING },
	{ "kernel", PQ_STRING }, { "clock", PQ_STRING }, { "cpus", PQ_INT64 },
	{ "clock_pairs", PQ_INT64 }, { "utc_offset_ns", PQ_INT64 }, { "uncertainty_ns", PQ_INT64 },
	{ "drift_ppm", PQ_DOUBLE },
	{ "records", PQ_INT64 }, { "gpu_events", PQ_INT64 },
	TIME_COLS("first"), TIME_COLS("last"),
	{ "lost_in_band", PQ_INT64 }, { "lost_windows", PQ_INT64 }, { "gpus", PQ_INT64 },
	/* the losses not counted in lost_in_band, and the buffers a split copy left out */
	{ "lost_in_band_unknown", PQ_BOOL }, { "lost_zeroed_pages", PQ_INT64 },
	{ "instances_absent", PQ_INT64 },
};

static void host_rows(struct report *rep, struct pq_writer *w, const char *run)
{
	const struct host_clock *h = host_clock_of(rep->analysis);
	const struct analysis_totals *tot = analysis_totals(rep->analysis);
	struct utc u = utc_of(rep);
	uint64_t unc = 0;
	int64_t off = 0;
	bool shown;
	int c = 0;

	/* as the JSON's "host": null without any marker, else what they said ("" unsaid) */
	shown = h && (h->known || h->nr_gpus || h->pairs);
	file_cols(rep, w, &c, run);
	pq_str(w, c++, shown ? h->name : NULL);
	pq_str(w, c++, shown ? h->machine_id : NULL);
	pq_str(w, c++, shown ? h->boot_id : NULL);
	pq_str(w, c++, rep->meta->uname);
	pq_str(w, c++, rep->meta->clock);
	pq_i64(w, c++, rep->meta->nr_cpus);
	host_clock_offset(h, &off, &unc);
	pq_opt_i64(w, c++, u.known, (int64_t)h->pairs);
	pq_opt_i64(w, c++, u.known, off);
	pq_opt_i64(w, c++, u.known, (int64_t)unc);
	if (u.known)
		pq_f64(w, c++, host_clock_drift_ppm(h));
	else
		pq_null(w, c++);
	pq_i64(w, c++, (int64_t)tot->records);
	pq_i64(w, c++, (int64_t)tot->gpu_events);
	time_pair(w, &c, &u, true, tot->first_ts);
	time_pair(w, &c, &u, true, tot->last_ts);
	pq_i64(w, c++, (int64_t)tot->missed);
	pq_i64(w, c++, (int64_t)timeline_of(rep->analysis)->lost_windows);
	pq_i64(w, c++, h ? h->nr_gpus : 0);
	pq_bool(w, c++, tot->missed_unknown);
	pq_i64(w, c++, (int64_t)tot->damage.zeroed_pages);
	pq_i64(w, c++, rep->meta->v6_instances_absent);
	pq_row_end(w);
}

static const struct pq_column gpu_cols[] = {
	FILE_COLS,
	{ "card", PQ_STRING }, { "pci", PQ_STRING }, { "vendor", PQ_STRING },
	{ "device", PQ_STRING }, { "driver", PQ_STRING }, { "version", PQ_STRING },
	{ "uuid", PQ_STRING },
};

static void gpu_rows(struct report *rep, struct pq_writer *w, const char *run)
{
	const struct host_clock *h = host_clock_of(rep->analysis);
	int i, c;

	for (i = 0; h && i < h->nr_gpus; i++) {
		const struct host_gpu *g = &h->gpus[i];

		c = 0;
		file_cols(rep, w, &c, run);
		pq_str(w, c++, g->card);
		pq_str(w, c++, g->pci);
		pq_str(w, c++, g->vendor);
		pq_str(w, c++, g->device);
		pq_str(w, c++, g->driver);
		pq_str(w, c++, g->version);
		pq_str(w, c++, g->uuid);
		pq_row_end(w);
	}
}

/* the KFD queue operations the function tracer saw (the JSON's kfd.ops) */
static const struct pq_column kfd_op_cols[] = {
	FILE_COLS, { "pid", PQ_INT64 }, { "comm", PQ_STRING }, { "op", PQ_STRING },
	{ "root", PQ_STRING }, TIME_COLS("start"), { "duration_ns", PQ_INT64 },
	{ "steps", PQ_INT64 },
};

static void kfd_op_rows(struct report *rep, struct pq_writer *w, const char *run)
{
	const struct kfd_queues *k = kfd_queues_of(rep->analysis);
	struct utc u = utc_of(rep);
	int i, c;

	for (i = 0; i < k->nr_ops; i++) {
		const struct kfd_op *op = &k->ops[i];

		c = 0;
		file_cols(rep, w, &c, run);
		pq_i64(w, c++, op->pid);
		pq_str(w, c++, analysis_comm(rep->analysis, op->pid));
		pq_str(w, c++, kfd_op_name(op->type));
		pq_str(w, c++, op->root);
		time_pair(w, &c, &u, true, op->start);
		pq_opt_i64(w, c++, op->has_duration, (int64_t)op->duration);
		pq_i64(w, c++, op->nr_steps);
		pq_row_end(w);
	}
}

/* record --kfd-args's queues (the JSON's kfd.probes.queues) */
static const struct pq_column kfd_queue_cols[] = {
	FILE_COLS, { "pid", PQ_INT64 }, { "comm", PQ_STRING }, { "gpu_id", PQ_INT64 },
	{ "queue_id", PQ_INT64 }, { "type", PQ_STRING }, { "ring_size", PQ_INT64 },
	{ "doorbell_offset", PQ_STRING }, TIME_COLS("created"), { "create_duration_ns", PQ_INT64 },
	{ "result", PQ_INT64 }, { "error", PQ_STRING }, TIME_COLS("destroyed"),
	{ "lifetime_ns", PQ_INT64 }, { "updates", PQ_INT64 }, { "evictions", PQ_INT64 },
	{ "restores", PQ_INT64 }, { "evicted_ns", PQ_INT64 },
};

static void kfd_queue_rows(struct report *rep, struct pq_writer *w, const char *run)
{
	const struct kfd_queue_table *t = kfd_queue_table_of(rep->analysis);
	struct utc u = utc_of(rep);
	char buf[32];
	int i, c;

	for (i = 0; t->probes && i < t->nr_queues; i++) {
		const struct kfd_queue *q = &t->queues[i];
		const char *type = kfd_queue_type_name(q->type);

		c = 0;
		file_cols(rep, w, &c, run);
		pq_i64(w, c++, q->pid);
		pq_str(w, c++, analysis_comm(rep->analysis, q->pid));
		pq_i64(w, c++, q->gpu_id);
		pq_opt_i64(w, c++, q->has_id, q->queue_id);
		pq_str(w, c++, type ? type : "unknown");
		pq_i64(w, c++, q->ring_size);
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)q->doorbell_offset);
		pq_str(w, c++, q->has_doorbell ? buf : NULL);
		time_pair(w, &c, &u, true, q->created);
		pq_opt_i64(w, c++, q->has_result, (int64_t)q->create_ns);
		pq_opt_i64(w, c++, q->has_result, q->result);
		pq_str(w, c++, q->has_result && q->result ? kfd_errno_name(q->result, buf, sizeof(buf)) : NULL);
		time_pair(w, &c, &u, q->destroyed, q->destroyed_at);
		pq_opt_i64(w, c++, q->destroyed, (int64_t)(q->destroyed_at - q->created));
		pq_i64(w, c++, q->updates);
		pq_i64(w, c++, q->evictions);
		pq_i64(w, c++, q->restores);
		pq_i64(w, c++, (int64_t)q->evicted_ns);
		pq_row_end(w);
	}
}

/* the CPU side of the workload's GPU ioctls (the JSON's cpu_side.threads[].ioctls[]) */
static const struct pq_column cpu_side_cols[] = {
	FILE_COLS, { "pid", PQ_INT64 }, { "comm", PQ_STRING }, { "cmd", PQ_STRING },
	{ "name", PQ_STRING }, { "count", PQ_INT64 }, { "total_ns", PQ_INT64 },
	{ "p50_ns", PQ_INT64 }, { "p99_ns", PQ_INT64 }, { "max_ns", PQ_INT64 },
	{ "on_cpu_ns", PQ_INT64 }, { "runnable_ns", PQ_INT64 }, { "sleeping_ns", PQ_INT64 },
	{ "uninterruptible_ns", PQ_INT64 }, { "irq_ns", PQ_INT64 },
	{ "after_wakeup_ns", PQ_INT64 }, { "behind_others_ns", PQ_INT64 },
	{ "unended", PQ_INT64 }, { "unended_ns", PQ_INT64 },
};

static void cpu_side_row(struct report *rep, struct pq_writer *w, const char *run,
			 const struct cpu_side *cs, int pid, struct cpu_ioctl_row *r)
{
	char cmd[24], name[48];
	int c = 0;

	file_cols(rep, w, &c, run);
	pq_i64(w, c++, pid);
	pq_str(w, c++, analysis_comm(rep->analysis, pid));
	snprintf(cmd, sizeof(cmd), "0x%08llx", (unsigned long long)r->cmd);
	pq_str(w, c++, r->other ? NULL : cmd);
	pq_str(w, c++, r->other ? "(other ioctls)" : gpu_ioctl_name(r->cmd, cs->driver, name, sizeof(name)));
	pq_i64(w, c++, (int64_t)r->dur.count);
	pq_i64(w, c++, (int64_t)r->dur.sum);
	/* none ended (only unended ones): no duration figures, as the JSON's null */
	pq_opt_i64(w, c++, r->dur.count, (int64_t)latency_stats_percentile(&r->dur, 50));
	pq_opt_i64(w, c++, r->dur.count, (int64_t)latency_stats_percentile(&r->dur, 99));
	pq_opt_i64(w, c++, r->dur.count, (int64_t)r->dur.max);
	pq_i64(w, c++, (int64_t)r->split.on_cpu_ns);
	pq_i64(w, c++, (int64_t)r->split.runnable_ns);
	pq_i64(w, c++, (int64_t)r->split.sleeping_ns);
	pq_i64(w, c++, (int64_t)r->split.blocked_ns);
	pq_i64(w, c++, (int64_t)r->split.irq_ns);
	pq_i64(w, c++, (int64_t)r->waking_ns);
	pq_i64(w, c++, (int64_t)r->behind_other_ns);
	pq_i64(w, c++, (int64_t)r->unended);
	pq_i64(w, c++, (int64_t)r->unended_ns);
	pq_row_end(w);
}

static void cpu_side_rows(struct report *rep, struct pq_writer *w, const char *run)
{
	struct cpu_side *cs = cpu_side_of(rep->analysis);
	int i, j;

	for (i = 0; cs && i < cs->nr_threads; i++) {
		struct cpu_thread *t = cs->threads[i];

		/* its rows, then its "other" row, as the JSON lists them */
		for (j = 0; j <= t->nr_rows; j++) {
			struct cpu_ioctl_row *r = j < t->nr_rows ? t->rows[j] : t->other;

			if (cpu_ioctl_row_shown(r))
				cpu_side_row(rep, w, run, cs, t->pid, r);
		}
	}
}

const struct parquet_table parquet_tables[PQT_NR] = {
	[PQT_JOBS] = { "jobs", job_cols, N(job_cols), NULL },
	[PQT_RINGS] = { "rings", ring_cols, N(ring_cols), ring_rows },
	[PQT_RING_WAITS] = { "ring_waits", ring_wait_cols, N(ring_wait_cols), ring_wait_rows },
	[PQT_PROCESSES] = { "processes", process_cols, N(process_cols), process_rows },
	[PQT_CLIENTS] = { "clients", client_cols, N(client_cols), client_rows },
	[PQT_HOSTS] = { "hosts", host_cols, N(host_cols), host_rows },
	[PQT_GPUS] = { "gpus", gpu_cols, N(gpu_cols), gpu_rows },
	[PQT_KFD_OPS] = { "kfd_ops", kfd_op_cols, N(kfd_op_cols), kfd_op_rows },
	[PQT_KFD_QUEUES] = { "kfd_queues", kfd_queue_cols, N(kfd_queue_cols), kfd_queue_rows },
	[PQT_CPU_SIDE] = { "cpu_side", cpu_side_cols, N(cpu_side_cols), cpu_side_rows },
};
