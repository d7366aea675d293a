// SPDX-License-Identifier: GPL-2.0
/*
 * The joins the pipeline runs, in the order each record meets them: the
 * workload's pid tree first (the job join asks it whose a job is), then
 * GPU jobs, the kernel's lines of hangs and resets (which ask the job join
 * what was in flight), KFD's functions, KFD's probe events, NVIDIA's probe
 * events and Xids, amdgpu's user
 * queues, and last the print lines no other join took (the HIP runtime's
 * log, KFD debugfs snapshots).
 */
#include <string.h>

#include "analysis/analysis-joins.h"
#include "analysis/analysis.h"
#include "decode/event-fields.h"

static int workload_init(struct analysis *a)
{
	workload_tree_init(&a->workload, a->tep);
	return 0;
}

static void workload_record(struct analysis *a, struct join_record *r)
{
	workload_tree_add(&a->workload, r->rec, r->type);
}

static void workload_free(struct analysis *a)
{
	workload_tree_free(&a->workload);
}

/* without scheduler or amdgpu events, jobs are the fences themselves */
static int jobs_init(struct analysis *a)
{
	return timeline_init(&a->tl, gpu_decoder_jobs_from_fences(a->dec));
}

static void jobs_record(struct analysis *a, struct join_record *r)
{
	if (r->rec->missed_events)
		timeline_lost_events(&a->tl, r->rec->ts);
	if (r->kind == GEV_NONE || r->kind == GEV_FUNC || r->kind == GEV_FUNC_ENTRY ||
	    r->kind == GEV_FUNC_EXIT)
		return;
	a->gpu_events++;
	timeline_add_event(&a->tl, &r->ev);
	r->taken = true;
}

static void jobs_finish(struct analysis *a)
{
	timeline_finish(&a->tl);
}

static void jobs_free(struct analysis *a)
{
	timeline_free(&a->tl);
}

static void kfd_functions_record(struct analysis *a, struct join_record *r)
{
	const char *func;

	if (r->kind != GEV_FUNC && r->kind != GEV_FUNC_ENTRY && r->kind != GEV_FUNC_EXIT)
		return;
	func = event_function_name(a->tep, r->ev.func_ip);
	a->func_events++;
	if (kfd_is_queue_function(func))
		kfd_queues_add(&a->kfd, &r->ev, func);
	else if (kfd_is_function(func))
		a->kfd.kfd_records++;	/* KFD, but no queue path */
	r->taken = true;
}

static void kfd_functions_free(struct analysis *a)
{
	kfd_queues_free(&a->kfd);
}

static int kfd_probes_init(struct analysis *a)
{
	kfd_queue_table_init(&a->kq, a->tep);
	return 0;
}

static void kfd_probes_record(struct analysis *a, struct join_record *r)
{
	if (r->kind == GEV_NONE && a->kq.nr_formats &&
	    kfd_queue_table_record(&a->kq, a->tep, r->rec, r->type))
		r->taken = true;
}

static void kfd_probes_free(struct analysis *a)
{
	kfd_queue_table_free(&a->kq);
}

static int nvidia_init(struct analysis *a)
{
	nvidia_calls_init(&a->nv, a->tep);
	return 0;
}

static void nvidia_record(struct analysis *a, struct join_record *r)
{
	nvidia_calls_next(&a->nv);
	if (r->kind == GEV_NONE && a->nv.nr_formats && nvidia_calls_record(&a->nv, r->rec, r->type, r->pid))
		r->taken = true;
}

static void nvidia_free(struct analysis *a)
{
	nvidia_calls_free(&a->nv);
}

static bool nvidia_gpu_data(const struct analysis *a)
{
	return nvidia_calls_any(&a->nv);
}

static uint64_t client_hw_ns(void *ctx, uint64_t id)
{
	return timeline_client_hw_ns(ctx, id);
}

static int print_lines_init(struct analysis *a)
{
	static const char *const print_fields[] = { "buf", NULL };

	drm_clients_init(&a->drm);
	a->drm.events_ns = client_hw_ns;
	a->drm.events_ctx = &a->tl;
	event_fields_find(&a->print, a->tep, "ftrace", "print", print_fields);
	return 0;
}

/* A print record (record's snapshots, --hip-log's lines, a trace_marker write): whose? */
static void print_lines_record(struct analysis *a, struct join_record *r)
{
	struct tep_record *rec = r->rec;
	const char *text;
	int len;

	if (r->taken || r->kind != GEV_NONE || !event_field_has(&a->print, 0) ||
	    r->type != a->print.id)
		return;
	text = event_field_tail(&a->print, 0, rec, &len);
	/* the text must end inside the record */
	if (!text || !memchr(text, '\0', (size_t)len))
		return;
	r->taken = true;
	if (kfd_snapshots_line(&a->snaps, rec->ts, text) || drm_clients_line(&a->drm, rec->ts, text))
		return;
	if (hip_runtime_add(&a->hip, r->pid, rec->ts, text, &a->hip_line, &a->kfd))
		a->hip_current = &a->hip_line;
}

static void print_lines_finish(struct analysis *a)
{
	kfd_snapshots_finish(&a->snaps);
}

static void print_lines_free(struct analysis *a)
{
	kfd_snapshots_free(&a->snaps);
	drm_clients_free(&a->drm);
	hip_runtime_free(&a->hip);
}

static int user_queues_join_init(struct analysis *a)
{
	user_queues_init(&a->uq, a->tep);
	return 0;
}

static void user_queues_join_record(struct analysis *a, struct join_record *r)
{
	if (user_queues_record(&a->uq, r->rec, r->kind, &r->ev))
		r->taken = true;
}

static void user_queues_join_finish(struct analysis *a)
{
	user_queues_finish(&a->uq, a->last_ts);
}

static void user_queues_join_free(struct analysis *a)
{
	user_queues_free(&a->uq);
}

static bool user_queues_gpu_data(const struct analysis *a)
{
	return a->uq.records;
}

static int hangs_init(struct analysis *a)
{
	gpu_hangs_init(&a->hangs, a->tep);
	return 0;
}

/* after the job join: a timeout finds the ring's jobs as they stand at that record */
static void hangs_record(struct analysis *a, struct join_record *r)
{
	if (gpu_hangs_record(&a->hangs, &a->tl, r->rec, r->type, r->kind == GEV_NONE ? NULL : &r->ev))
		r->taken = true;
}

static void hangs_free(struct analysis *a)
{
	gpu_hangs_free(&a->hangs);
}

static bool hangs_gpu_data(const struct analysis *a)
{
	return a->hangs.lines;
}

static bool jobs_gpu_data(const struct analysis *a)
{
	return a->gpu_events;
}

static bool kfd_functions_gpu_data(const struct analysis *a)
{
	return a->kfd.kfd_records;
}

static bool kfd_probes_gpu_data(const struct analysis *a)
{
	return a->kq.records;
}

static bool print_lines_gpu_data(const struct analysis *a)
{
	return a->hip.lines;
}

/* the records each join reads: see struct analysis_join's @kinds */
static uint64_t workload_kinds(const struct analysis *a)
{
	return a->workload.tep ? JOIN_KIND(GEV_NONE) : 0;
}

static uint64_t jobs_kinds(const struct analysis *a)
{
	(void)a;
	return ~(JOIN_KIND(GEV_NONE) | JOIN_KIND(GEV_FUNC) | JOIN_KIND(GEV_FUNC_ENTRY) |
		 JOIN_KIND(GEV_FUNC_EXIT));
}

static uint64_t hangs_kinds(const struct analysis *a)
{
	return (gpu_hangs_reads_console(&a->hangs) ? JOIN_KIND(GEV_NONE) : 0) |
	       (gpu_hangs_reads_xe(&a->hangs) ? JOIN_KIND(GEV_XE_JOB) : 0) |
	       (a->hangs.reg_dump_id >= 0 ? JOIN_KIND(GEV_AMDGPU_OTHER) : 0);
}

static uint64_t kfd_functions_kinds(const struct analysis *a)
{
	(void)a;
	return JOIN_KIND(GEV_FUNC) | JOIN_KIND(GEV_FUNC_ENTRY) | JOIN_KIND(GEV_FUNC_EXIT);
}

static uint64_t kfd_probes_kinds(const struct analysis *a)
{
	return a->kq.nr_formats ? JOIN_KIND(GEV_NONE) : 0;
}

/* with its probes, every record: each clears the call the one before it completed */
static uint64_t nvidia_kinds(const struct analysis *a)
{
	return a->nv.nr_formats ? ~0ULL : 0;
}

static uint64_t user_queues_kinds(const struct analysis *a)
{
	return a->uq.nr_events ? JOIN_KIND(GEV_FENCE_SIGNALED) | JOIN_KIND(GEV_AMDGPU_OTHER) : 0;
}

static uint64_t print_lines_kinds(const struct analysis *a)
{
	return event_field_has(&a->print, 0) ? JOIN_KIND(GEV_NONE) : 0;
}

const struct analysis_join analysis_joins[] = {
	{ .name = "workload pid tree", .init = workload_init, .record = workload_record,
	  .free = workload_free, .kinds = workload_kinds },
	{ .name = "GPU jobs", .init = jobs_init, .record = jobs_record, .finish = jobs_finish,
	  .free = jobs_free, .gpu_data = jobs_gpu_data, .kinds = jobs_kinds },
	{ .name = "GPU hangs and resets", .init = hangs_init, .record = hangs_record,
	  .free = hangs_free, .gpu_data = hangs_gpu_data, .kinds = hangs_kinds },
	{ .name = "KFD functions", .record = kfd_functions_record, .free = kfd_functions_free,
	  .gpu_data = kfd_functions_gpu_data, .kinds = kfd_functions_kinds },
	{ .name = "KFD probe events", .init = kfd_probes_init, .record = kfd_probes_record,
	  .free = kfd_probes_free, .gpu_data = kfd_probes_gpu_data, .kinds = kfd_probes_kinds },
	{ .name = "NVIDIA probe events", .init = nvidia_init, .record = nvidia_record,
	  .free = nvidia_free, .gpu_data = nvidia_gpu_data, .kinds = nvidia_kinds },
	{ .name = "amdgpu user queues", .init = user_queues_join_init,
	  .record = user_queues_join_record, .finish = user_queues_join_finish,
	  .free = user_queues_join_free, .gpu_data = user_queues_gpu_data,
	  .kinds = user_queues_kinds },
	{ .name = "print lines (HIP log, KFD snapshots)", .init = print_lines_init,
	  .record = print_lines_record, .finish = print_lines_finish, .free = print_lines_free,
	  .gpu_data = print_lines_gpu_data, .kinds = print_lines_kinds },
};
_Static_assert(sizeof(analysis_joins) / sizeof(analysis_joins[0]) <= ANALYSIS_MAX_JOINS,
	       "struct analysis keeps ANALYSIS_MAX_JOINS joins' kinds");

const size_t analysis_nr_joins = sizeof(analysis_joins) / sizeof(analysis_joins[0]);
