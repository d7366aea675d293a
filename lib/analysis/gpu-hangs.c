// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "analysis/gpu-hangs.h"
#include "decode/event-fields.h"
#include "analysis/analysis.h"
#include "analysis/timeline.h"

/* @len bytes of @from into @to as a string, cut to fit */
static void copy(char *to, size_t size, const char *from, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(to, from, len);
	to[len] = '\0';
}

/* dev_err()'s prefix: "amdgpu 0000:03:00.0: message" (or xe's) */
static void device_of(const char *text, struct hang_line *out)
{
	size_t skip = !strncmp(text, "amdgpu ", 7) ? 7 : !strncmp(text, "xe ", 3) ? 3 : 0;
	const char *end;

	if (!skip)
		return;
	end = strstr(text + skip, ": ");
	if (end)
		copy(out->dev, sizeof(out->dev), text + skip, (size_t)(end - text - skip));
}

static bool starts(const char *s, const char *with)
{
	return !strncmp(s, with, strlen(with));
}

/* "ring NAME timeout..." or "Ring NAME reset ...": the kind, or NONE */
static enum hang_line_kind ring_line(const char *text, struct hang_line *out)
{
	const char *p, *name, *rest;

	for (p = text; (p = strstr(p, "ing ")); p += 4) {
		if (p == text || (p[-1] != 'r' && p[-1] != 'R'))
			continue;
		name = p + 4;
		rest = name + strcspn(name, " \n");
		if (rest == name)
			continue;
		if (starts(rest, " timeout, but soft recovered")) {
			copy(out->ring, sizeof(out->ring), name, (size_t)(rest - name));
			return HANG_LINE_SOFT_RECOVERED;
		}
		if (starts(rest, " timeout")) {
			const char *seq = strstr(rest, "signaled seq=");
			unsigned int s, e;

			copy(out->ring, sizeof(out->ring), name, (size_t)(rest - name));
			if (seq && sscanf(seq, "signaled seq=%u, emitted seq=%u", &s, &e) == 2) {
				out->has_seq = true;
				out->signaled = s;
				out->emitted = e;
			}
			return HANG_LINE_TIMEOUT;
		}
		if (starts(rest, " reset succeeded") || starts(rest, " reset failure") ||
		    starts(rest, " reset failed")) {
			copy(out->ring, sizeof(out->ring), name, (size_t)(rest - name));
			return starts(rest, " reset succeeded") ? HANG_LINE_RING_RESET_OK
								 : HANG_LINE_RING_RESET_FAILED;
		}
	}
	return HANG_LINE_NONE;
}

/* "Process information: process NAME pid N thread NAME pid N" (names may hold spaces) */
static bool process_line(const char *text, struct hang_line *out)
{
	const char *p = strstr(text, "Process information: process "), *pid, *thread, *tpid;

	if (!p)
		return false;
	p += strlen("Process information: process ");
	thread = strstr(p, " thread ");
	if (!thread)
		return false;
	pid = strstr(p, " pid ");
	tpid = strstr(thread, " pid ");
	if (!pid || pid > thread || !tpid)
		return false;
	copy(out->process, sizeof(out->process), p, (size_t)(pid - p));
	out->tgid = atoi(pid + 5);
	copy(out->thread, sizeof(out->thread), thread + 8, (size_t)(tpid - thread - 8));
	out->pid = atoi(tpid + 5);
	return true;
}

/*
 * xe: "... GT0: Timedout job: seqno=S, lrc_seqno=L, guc_id=G, flags=0x.. in PROC [PID]"
 * (6.8 has no lrc_seqno, 6.12 no process)
 */
static bool xe_line(const char *text, struct hang_line *out)
{
	const char *p = strstr(text, "Timedout job: seqno="), *gt = strstr(text, "GT"), *in, *open;
	unsigned int seqno, lrc;
	int guc;

	if (!p)
		return false;
	memset(&out->xe, 0, sizeof(out->xe));
	out->xe.gt = -1;
	if (gt && gt < p && sscanf(gt, "GT%d: ", &out->xe.gt) != 1)
		out->xe.gt = -1;
	if (sscanf(p, "Timedout job: seqno=%u, lrc_seqno=%u, guc_id=%d", &seqno, &lrc, &guc) == 3) {
		out->xe.has_lrc_seqno = true;
		out->xe.lrc_seqno = lrc;
	} else if (sscanf(p, "Timedout job: seqno=%u, guc_id=%d", &seqno, &guc) != 2) {
		return false;
	}
	out->xe.seqno = seqno;
	out->xe.guc_id = guc;
	/* the process behind the queue's VM, "no process [0]" for the kernel's own */
	in = strstr(p, " in ");
	open = strrchr(p, '[');
	if (in && open && open > in + 4 && atoi(open + 1) > 0) {
		/* xe names the process, no thread: thread and pid stay empty */
		copy(out->process, sizeof(out->process), in + 4, (size_t)(open - 1 - (in + 4)));
		out->tgid = atoi(open + 1);
	}
	return true;
}

static enum hang_line_kind reset_line(const char *text, struct hang_line *out)
{
	const char *p;

	if (strstr(text, "GPU reset begin"))
		return HANG_LINE_RESET_BEGIN;
	if ((p = strstr(text, "GPU reset end with ret = "))) {
		out->has_result = true;
		out->result = atoi(p + strlen("GPU reset end with ret = "));
		return HANG_LINE_RESET_END;
	}
	if ((p = strstr(text, "GPU Recovery Failed: "))) {
		out->has_result = true;
		out->result = atoi(p + strlen("GPU Recovery Failed: "));
		return HANG_LINE_RESET_FAILED;
	}
	if ((p = strstr(text, "GPU reset(")) && (p = strchr(p, ')'))) {
		if (starts(p, ") succeeded"))
			return HANG_LINE_RESET_OK;
		if (starts(p, ") failed")) {
			const char *e = strstr(p, "with error ");

			if (e) {
				out->has_result = true;
				out->result = atoi(e + strlen("with error "));
			}
			return HANG_LINE_RESET_FAILED;
		}
	}
	return HANG_LINE_NONE;
}

bool hang_line_parse(const char *text, struct hang_line *out)
{
	memset(out, 0, sizeof(*out));
	/* amdgpu's own (dev_err's "amdgpu DEV: ", DRM_ERROR's "[drm:amdgpu_...]"), not any driver's ring */
	if (!strstr(text, "amdgpu") && !strstr(text, "[drm"))
		return false;
	device_of(text, out);
	out->kind = ring_line(text, out);
	if (out->kind == HANG_LINE_NONE && xe_line(text, out))
		out->kind = HANG_LINE_XE_TIMEOUT;
	if (out->kind == HANG_LINE_NONE && process_line(text, out))
		out->kind = HANG_LINE_PROCESS;
	if (out->kind == HANG_LINE_NONE)
		out->kind = reset_line(text, out);
	return out->kind != HANG_LINE_NONE;
}

/* xe_sched_job_timedout's fields, by their index in gpu_hangs_init's xe_fields */
enum { XE_DEV, XE_GUC_ID, XE_SEQNO, XE_LRC_SEQNO, XE_GT_ID };

/* The join's state: what it found (the model gpu_hangs_of() hands out) and the formats it reads */
struct gpu_hangs_state {
	struct gpu_hangs model;
	struct event_fields console;	/* printk:console and its msg */
	int reg_dump_id;		/* amdgpu_reset_reg_dumps, -1 absent */
	struct event_fields xe_timedout;	/* xe_sched_job_timedout, id -1 absent */
	struct event_fields xe_error;	/* xe_sched_job_set_error, id -1 absent */
};

/* the formats it reads (printk:console, amdgpu_reset_reg_dumps, xe's timeouts) looked up */
static void gpu_hangs_init(struct gpu_hangs_state *s, struct tep_handle *tep)
{
	static const char *const console_fields[] = { "msg", NULL };
	static const char *const xe_fields[] = { "dev", "guc_id", "seqno", "lrc_seqno", "gt_id", NULL };
	static const char *const error_fields[] = { "dev", "guc_id", "seqno", "error", NULL };
	struct event_fields dumps;

	memset(s, 0, sizeof(*s));
	event_fields_find(&s->console, tep, "printk", "console", console_fields);
	event_fields_find(&dumps, tep, "amdgpu", "amdgpu_reset_reg_dumps", NULL);
	s->reg_dump_id = dumps.id;
	event_fields_find(&s->xe_timedout, tep, "xe", "xe_sched_job_timedout", xe_fields);
	event_fields_find(&s->xe_error, tep, "xe", "xe_sched_job_set_error", error_fields);
	s->model.reads_console = event_field_has(&s->console, 0);
	s->model.reads_xe = s->xe_timedout.event != NULL;
}

bool gpu_hangs_present(const struct gpu_hangs *h)
{
	return h->reads_console || h->reads_xe;
}

/* NULL past the bound: counted */
static void *grow(struct gpu_hangs *h, void **list, size_t *nr, size_t size)
{
	void *n;

	if (*nr == GPU_HANGS_MAX || !(n = realloc(*list, size * (*nr + 1)))) {
		h->dropped++;
		return NULL;
	}
	*list = n;
	memset((char *)n + size * *nr, 0, size);
	return (char *)n + size * (*nr)++;
}

/* The same device, or one of the two lines does not name it */
static bool same_dev(const char *a, const char *b)
{
	return !a[0] || !b[0] || !strcmp(a, b);
}

static void timed_out(struct gpu_hangs *h, struct timeline *tl, uint64_t ts,
		      const struct hang_line *l)
{
	struct gpu_hang *g = grow(h, (void **)&h->hangs, &h->nr_hangs, sizeof(*g));
	struct job_in_flight scratch[GPU_HANG_JOBS];
	size_t total;

	if (!g) {
		/* not listed, but its jobs are still what hung */
		timeline_ring_timed_out(tl, timeline_ring_find(tl, l->ring), ts, scratch,
					GPU_HANG_JOBS, &total);
		return;
	}
	g->ts = ts;
	memcpy(g->dev, l->dev, sizeof(g->dev));
	memcpy(g->ring, l->ring, sizeof(g->ring));
	g->soft_recovered = l->kind == HANG_LINE_SOFT_RECOVERED;
	g->has_seq = l->has_seq;
	g->signaled = l->signaled;
	g->emitted = l->emitted;
	g->reset = -1;
	g->nr_jobs = timeline_ring_timed_out(tl, timeline_ring_find(tl, l->ring), ts, g->jobs,
					     GPU_HANG_JOBS, &g->jobs_in_flight);
}

/* the newest hang a line about it follows */
static struct gpu_hang *last_hang(struct gpu_hangs *h, const struct hang_line *l, bool by_ring)
{
	size_t i;

	for (i = h->nr_hangs; i > 0; i--) {
		struct gpu_hang *g = &h->hangs[i - 1];

		if (same_dev(g->dev, l->dev) && (!by_ring || !strcmp(g->ring, l->ring)))
			return g;
	}
	return NULL;
}

static struct gpu_reset *open_reset(struct gpu_hangs *h, const struct hang_line *l)
{
	size_t i;

	for (i = h->nr_resets; i > 0; i--)
		if (!h->resets[i - 1].ended && same_dev(h->resets[i - 1].dev, l->dev))
			return &h->resets[i - 1];
	return NULL;
}

static void reset_begins(struct gpu_hangs *h, uint64_t ts, const struct hang_line *l)
{
	struct gpu_reset *r = grow(h, (void **)&h->resets, &h->nr_resets, sizeof(*r));
	size_t i;

	if (!r)
		return;
	r->begin = ts;
	memcpy(r->dev, l->dev, sizeof(r->dev));
	/* the hangs of the device not yet followed by a reset led to this one */
	for (i = 0; i < h->nr_hangs; i++)
		if (h->hangs[i].reset < 0 && !h->hangs[i].soft_recovered &&
		    same_dev(h->hangs[i].dev, l->dev))
			h->hangs[i].reset = (int)(h->nr_resets - 1);
}

static void reset_ends(struct gpu_hangs *h, uint64_t ts, const struct hang_line *l)
{
	struct gpu_reset *r = open_reset(h, l);

	if (!r)
		return;
	if (l->kind == HANG_LINE_RESET_FAILED)
		r->failed = true;
	if (l->has_result) {
		r->has_result = true;
		r->result = l->result;
		r->failed |= l->result != 0;
	}
	/* "GPU reset(N) succeeded!" comes before "end with ret", which closes it */
	if (l->kind == HANG_LINE_RESET_END || !r->end)
		r->end = ts;
	r->ended |= l->kind == HANG_LINE_RESET_END;
}

/*
 * xe names an exec queue's scheduler after its engine class and GuC id
 * (xe_exec_queue_assign_name: "rcs5", "ccs5"): the ring of GuC queue G on
 * @dev, when exactly one ring there has such a name (a media GT's GuC
 * numbers its queues apart: vcs5 and rcs5 can both be there)
 */
static int xe_sched_ring(const struct timeline *tl, const char *dev, int guc_id, int *matches)
{
	static const char *const classes[] = { "rcs", "vcs", "vecs", "bcs", "ccs", "gsccs" };
	char name[GEV_STR_LEN];
	int i, c, found = -1;

	*matches = 0;
	for (i = 0; i < tl->nr_rings; i++) {
		const struct ring_stats *r = tl->rings[i];

		if (dev[0] && r->dev[0] && strcmp(r->dev, dev))
			continue;
		for (c = 0; c < (int)(sizeof(classes) / sizeof(classes[0])); c++) {
			snprintf(name, sizeof(name), "%s%d", classes[c], guc_id);
			if (!strcmp(r->name, name)) {
				found = i;
				(*matches)++;
			}
		}
	}
	return *matches == 1 ? found : -1;
}

/*
 * An xe job timed out: the log line and the tracepoint just after it tell the same
 * timeout (one hang); either alone is one too. The jobs in flight are those of the
 * scheduler ring xe named after the queue.
 */
static void xe_timed_out(struct gpu_hangs *h, struct timeline *tl, uint64_t ts, const char *dev,
			 const struct xe_job_id *x, const struct hang_line *l)
{
	struct gpu_hang *g = NULL;
	size_t i;
	int ring;

	for (i = h->nr_hangs; i > 0 && !g; i--) {
		struct gpu_hang *o = &h->hangs[i - 1];

		if (o->is_xe && o->xe.guc_id == x->guc_id && o->xe.seqno == x->seqno &&
		    same_dev(o->dev, dev) && (l ? !o->xe_logged : !o->xe_traced))
			g = o;
	}
	if (!g) {
		g = grow(h, (void **)&h->hangs, &h->nr_hangs, sizeof(*g));
		if (!g)
			return;
		g->ts = ts;
		g->reset = -1;
		g->is_xe = true;
		g->xe = *x;
		snprintf(g->ring, sizeof(g->ring), "GuC queue %d", x->guc_id);
		ring = xe_sched_ring(tl, dev, x->guc_id, &g->xe_rings);
		if (ring >= 0) {
			snprintf(g->xe_ring, sizeof(g->xe_ring), "%s", tl->rings[ring]->name);
			g->nr_jobs = timeline_ring_timed_out(tl, ring, ts, g->jobs, GPU_HANG_JOBS,
							     &g->jobs_in_flight);
		}
	}
	if (!g->dev[0])
		snprintf(g->dev, sizeof(g->dev), "%s", dev);
	if (x->gt >= 0)
		g->xe.gt = x->gt;
	if (x->has_lrc_seqno) {
		g->xe.has_lrc_seqno = true;
		g->xe.lrc_seqno = x->lrc_seqno;
	}
	if (l) {
		g->xe_logged = true;
		if (l->tgid && !g->has_process) {
			g->has_process = true;
			memcpy(g->process, l->process, sizeof(g->process));
			memcpy(g->thread, l->thread, sizeof(g->thread));
			g->tgid = l->tgid;
			g->pid = l->pid;
		}
	} else {
		g->xe_traced = true;
	}
}

/* xe_sched_job_timedout: the job's GuC queue, seqno, and (7.x) its GT */
static void xe_tracepoint(struct gpu_hangs_state *s, struct timeline *tl, struct tep_record *rec)
{
	const struct event_fields *e = &s->xe_timedout;
	struct xe_job_id x = { .gt = -1 };
	char dev[GPU_HANG_NAME] = "";
	unsigned long long v;

	/* bounds-checked reads: the record may be short in a damaged file */
	event_field_str(e, XE_DEV, rec, dev, sizeof(dev));
	if (event_field_num(e, XE_GUC_ID, rec, &v))
		x.guc_id = (int)v;
	if (event_field_num(e, XE_SEQNO, rec, &v))
		x.seqno = (uint32_t)v;
	if (event_field_num(e, XE_LRC_SEQNO, rec, &v)) {
		x.lrc_seqno = (uint32_t)v;
		x.has_lrc_seqno = true;
	}
	if (event_field_num(e, XE_GT_ID, rec, &v))
		x.gt = (int)v;
	xe_timed_out(&s->model, tl, rec->ts, dev, &x, NULL);
}

/* xe_sched_job_set_error: a job's fence got an error (banned, killed by a reset) */
static void xe_job_error(struct gpu_hangs_state *s, struct tep_record *rec)
{
	const struct event_fields *e = &s->xe_error;
	struct gpu_hangs *h = &s->model;
	unsigned long long v;

	h->job_errors++;
	memset(&h->last_job_error, 0, sizeof(h->last_job_error));
	h->last_job_error.ts = rec->ts;
	event_field_str(e, 0, rec, h->last_job_error.dev, sizeof(h->last_job_error.dev));
	if (event_field_num(e, 1, rec, &v))
		h->last_job_error.guc_id = (int)v;
	if (event_field_num(e, 2, rec, &v))
		h->last_job_error.seqno = (uint32_t)v;
	if (event_field_num(e, 3, rec, &v))
		h->last_job_error.error = (int)(int32_t)v;
}

static void line(struct gpu_hangs *h, struct timeline *tl, uint64_t ts, const struct hang_line *l)
{
	struct gpu_hang *g;

	h->lines++;
	switch (l->kind) {
	case HANG_LINE_XE_TIMEOUT:
		xe_timed_out(h, tl, ts, l->dev, &l->xe, l);
		break;
	case HANG_LINE_TIMEOUT:
	case HANG_LINE_SOFT_RECOVERED:
		timed_out(h, tl, ts, l);
		break;
	case HANG_LINE_PROCESS:
		g = last_hang(h, l, false);
		if (g && !g->has_process) {
			g->has_process = true;
			memcpy(g->process, l->process, sizeof(g->process));
			memcpy(g->thread, l->thread, sizeof(g->thread));
			g->tgid = l->tgid;
			g->pid = l->pid;
		}
		break;
	case HANG_LINE_RING_RESET_OK:
	case HANG_LINE_RING_RESET_FAILED:
		g = last_hang(h, l, true);
		if (g && g->ring_reset == RING_RESET_NONE) {
			g->ring_reset = l->kind == HANG_LINE_RING_RESET_OK ? RING_RESET_OK : RING_RESET_FAILED;
			g->ring_reset_ts = ts;
		}
		break;
	case HANG_LINE_RESET_BEGIN:
		reset_begins(h, ts, l);
		break;
	default:
		reset_ends(h, ts, l);
		break;
	}
}

/*
 * One record, in time order; @tl is the job join at this time, whose jobs in flight on a
 * ring that timed out are listed and flagged; @type its event id. true when the record was ours.
 */
static bool gpu_hangs_record(struct gpu_hangs_state *s, struct timeline *tl, struct tep_record *rec,
			     int type, const struct gpu_event *ev)
{
	struct gpu_hangs *h = &s->model;
	struct hang_line l;
	char buf[512];

	/* GPU events: only the register dumps and xe's timeouts are ours; the job join counts them too */
	if (ev) {
		if (ev->kind == GEV_XE_JOB && h->reads_xe && type == s->xe_timedout.id)
			xe_tracepoint(s, tl, rec);
		if (ev->kind == GEV_XE_JOB && s->xe_error.event && type == s->xe_error.id)
			xe_job_error(s, rec);
		if (ev->kind == GEV_AMDGPU_OTHER && s->reg_dump_id >= 0 &&
		    type == s->reg_dump_id) {
			struct gpu_reset *r = h->nr_resets ? &h->resets[h->nr_resets - 1] : NULL;

			if (r && !r->ended)
				r->reg_dumps++;
			else
				h->reg_dumps_alone++;
		}
		return false;
	}
	if (!h->reads_console || type != s->console.id)
		return false;
	event_field_str(&s->console, 0, rec, buf, sizeof(buf));
	if (!hang_line_parse(buf, &l))
		return false;
	line(h, tl, rec->ts, &l);
	return true;
}

/* the hangs and resets kept */
static void gpu_hangs_free(struct gpu_hangs_state *s)
{
	free(s->model.hangs);
	free(s->model.resets);
	memset(s, 0, sizeof(*s));
}

/* The join (analysis-joins.h): the kernel's lines, devcoredump, xe's timeouts */
const struct gpu_hangs *gpu_hangs_of(const struct analysis *a)
{
	const struct gpu_hangs_state *s = analysis_state(a, JOIN_HANGS);

	return s ? &s->model : NULL;
}

static int join_init(void *state, struct analysis *a)
{
	gpu_hangs_init(state, analysis_tep(a));
	return 0;
}

/* after the job join: a timeout finds the ring's jobs as they stand at that record */
static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	if (gpu_hangs_record(state, timeline_of(a), r->rec, r->type,
			     r->kind == GEV_NONE ? NULL : &r->ev))
		r->taken = true;
}

static void join_free(void *state)
{
	gpu_hangs_free(state);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct gpu_hangs_state *s = state;

	(void)a;
	return s->model.lines;
}

static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)a;
	const struct gpu_hangs_state *s = state;

	return (s->model.reads_console ? JOIN_KIND(GEV_NONE) : 0) |
	       (s->model.reads_xe || s->xe_error.event ? JOIN_KIND(GEV_XE_JOB) : 0) |
	       (s->reg_dump_id >= 0 ? JOIN_KIND(GEV_AMDGPU_OTHER) : 0);
}

const struct analysis_join gpu_hangs_join = {
	.name = "GPU hangs and resets",
	.state_size = sizeof(struct gpu_hangs_state),
	.init = join_init,
	.record = join_record,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
