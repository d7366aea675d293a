// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/hip-runtime-private.h"
#include "analysis/analysis.h"
#include "analysis/kfd-queues.h"

/* Room for one more of n in *arr (cap doubling): a log's sizes stay linear */
static int grow(void **arr, int *cap, int n, size_t size)
{
	void *grown;
	int c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 16;
	grown = realloc(*arr, size * (size_t)c);
	if (!grown)
		return -1;
	*arr = grown;
	*cap = c;
	return 0;
}

/* The process of pid; NULL past HIP_MAX_PROCS (its lines counted) or out of memory (*oom) */
/* live[] as long as the processes' table */
static int grow_live(struct hip_runtime_state *s)
{
	struct hip_proc_live *l;

	if (s->cap_live == s->model.cap_procs)
		return 0;
	l = realloc(s->live, sizeof(*l) * (size_t)s->model.cap_procs);
	if (!l)
		return -1;
	s->live = l;
	s->cap_live = s->model.cap_procs;
	return 0;
}

static struct hip_proc_live *live_of(struct hip_runtime_state *s, const struct hip_proc *p)
{
	return &s->live[p - s->model.procs];
}

static struct hip_proc *proc(struct hip_runtime_state *s, int pid, bool *oom)
{
	struct hip_runtime *h = &s->model;
	uintptr_t at = (uintptr_t)keymap_get(&s->by_pid, (uint64_t)(unsigned int)pid + 1);
	struct hip_proc *p;

	*oom = false;
	if (at)
		return &h->procs[at - 1];
	if (h->nr_procs == HIP_MAX_PROCS) {
		h->more_procs_lines++;
		return NULL;
	}
	if (grow((void **)&h->procs, &h->cap_procs, h->nr_procs, sizeof(*h->procs)) ||
	    grow_live(s) ||
	    keymap_put(&s->by_pid, (uint64_t)(unsigned int)pid + 1,
		       (void *)(uintptr_t)(h->nr_procs + 1))) {
		*oom = true;
		return NULL;
	}
	memset(&s->live[h->nr_procs], 0, sizeof(s->live[0]));
	p = &h->procs[h->nr_procs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	return p;
}

static int add_queue(struct hip_proc *p, struct hip_proc_live *pl, const struct hip_line *l,
		     uint64_t ts)
{
	if (p->nr_queues == HIP_MAX_QUEUES) {
		p->more_queues++;
		return 0;
	}
	if (grow((void **)&p->queues, &p->cap_queues, p->nr_queues, sizeof(*p->queues)) ||
	    keymap_put(&pl->by_hwq, l->hwq, (void *)(uintptr_t)(p->nr_queues + 1)))
		return -1;
	p->queues[p->nr_queues++] = (struct hip_queue){
		.swq = l->swq, .hwq = l->hwq, .size = l->queue_size, .priority = l->priority,
		.cooperative = l->cooperative, .ts = ts,
	};
	return 0;
}

/* the latest queue on that hardware queue */
static struct hip_queue *queue_of(struct hip_proc *p, struct hip_proc_live *pl, uint64_t hwq)
{
	uintptr_t at = (uintptr_t)keymap_get(&pl->by_hwq, hwq);

	return at ? &p->queues[at - 1] : NULL;
}

static int add_cmd(struct hip_proc *p, struct hip_proc_live *pl, const struct hip_line *l,
		   uint64_t ts)
{
	struct hip_cmd *c;

	if (strcmp(l->name, "KernelExecution"))
		return 0;
	if (pl->nr_cmds == HIP_MAX_CMDS) {
		/* a log whose completions never come (level < 4, a crash) */
		memmove(pl->cmds, pl->cmds + 1, sizeof(*pl->cmds) * (HIP_MAX_CMDS - 1));
		pl->nr_cmds--;
		p->dropped_cmds++;
	}
	c = realloc(pl->cmds, sizeof(*c) * (size_t)(pl->nr_cmds + 1));
	if (!c)
		return -1;
	pl->cmds = c;
	pl->cmds[pl->nr_cmds++] = (struct hip_cmd){ .cmd = l->command, .enqueued = ts, .kernel = -1 };
	return 0;
}

static void bind_dispatch(struct hip_proc_live *pl, const struct hip_line *l, uint64_t ts,
			  int kernel)
{
	int i;

	for (i = 0; i < pl->nr_cmds; i++) {
		struct hip_cmd *c = &pl->cmds[i];

		if (c->dispatched)
			continue;
		c->dispatched = true;
		c->dispatch_ts = ts;
		c->dispatch_id = l->dispatch_id;
		c->hwq = l->hwq;
		c->kernel = kernel;
		return;
	}
}

static int note_overlaps(struct hip_proc *p, const struct hip_cmd *c, uint64_t done,
			 const struct kfd_queues *kfd)
{
	int i;

	for (i = 0; kfd && i < kfd->nr_ops; i++) {
		const struct kfd_op *op = &kfd->ops[i];
		uint64_t end = op->has_duration ? op->start + op->duration : op->start;
		struct hip_overlap *o;

		if ((op->type != KFD_OP_EVICT && op->type != KFD_OP_RESTORE) ||
		    op->start > done || end < c->dispatch_ts)
			continue;
		if (p->nr_overlaps == HIP_MAX_OVERLAPS) {
			p->more_overlaps++;
			continue;
		}
		o = realloc(p->overlaps, sizeof(*o) * (size_t)(p->nr_overlaps + 1));
		if (!o)
			return -1;
		p->overlaps = o;
		p->overlaps[p->nr_overlaps++] = (struct hip_overlap){
			.dispatch_id = c->dispatch_id, .hwq = c->hwq, .from = c->dispatch_ts, .to = done,
			.kernel = c->kernel, .op = op->type, .op_pid = op->pid, .op_start = op->start,
			.op_duration = op->has_duration ? op->duration : 0,
		};
	}
	return 0;
}

/* The command's completion: a dispatched kernel's span ends. */
static int end_cmd(struct hip_proc *p, struct hip_proc_live *pl, const struct hip_line *l,
		   uint64_t ts, const struct kfd_queues *kfd)
{
	struct hip_cmd *c;
	int i, ret = 0;

	for (i = 0; i < pl->nr_cmds; i++)
		if (pl->cmds[i].cmd == l->command)
			break;
	if (i == pl->nr_cmds)
		return 0;
	c = &pl->cmds[i];
	if (c->dispatched) {
		p->spans++;
		if (c->kernel >= 0 && ts >= c->dispatch_ts) {
			p->kernels[c->kernel].spans++;
			p->kernels[c->kernel].span_ns += ts - c->dispatch_ts;
		}
		ret = note_overlaps(p, c, ts, kfd);
	}
	memmove(pl->cmds + i, pl->cmds + i + 1, sizeof(*pl->cmds) * (size_t)(pl->nr_cmds - i - 1));
	pl->nr_cmds--;
	return ret;
}

static const char *kernel_name_at(void *ctx, int i)
{
	return ((struct hip_proc *)ctx)->kernels[i].name;
}

/* The kernel of that name: its index, -1 out of memory, -2 past HIP_MAX_KERNELS */
static int kernel_of(struct hip_proc *p, struct hip_proc_live *pl, const char *name, uint64_t ts)
{
	struct hip_kernel *k;
	int i = name_index_find(&pl->by_name, name, kernel_name_at, p);

	if (i >= 0)
		return i;
	if (p->nr_kernels == HIP_MAX_KERNELS)
		return -2;
	if (grow((void **)&p->kernels, &p->cap_kernels, p->nr_kernels, sizeof(*p->kernels)))
		return -1;
	i = p->nr_kernels;
	k = &p->kernels[i];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->first_ts = ts;
	if (name_index_add(&pl->by_name, k->name, i, kernel_name_at, p))
		return -1;
	p->nr_kernels++;
	return i;
}

/* The dispatch's kernel index; -1 out of memory, -2 a name past the cap (counted) */
static int add_dispatch(struct hip_proc *p, struct hip_proc_live *pl, const struct hip_line *l,
			uint64_t ts)
{
	struct hip_queue *q = queue_of(p, pl, l->hwq);
	char name[sizeof(p->kernels[0].name)];
	int i;

	if (pl->next_name[0])
		snprintf(name, sizeof(name), "%s", pl->next_name);
	else
		snprintf(name, sizeof(name), "kernel_obj 0x%llx", (unsigned long long)l->kernel_obj);
	pl->next_name[0] = '\0';
	i = kernel_of(p, pl, name, ts);
	if (i == -2) {
		p->more_kernels++;
		bind_dispatch(pl, l, ts, -1);
		return -2;
	}
	if (i < 0)
		return -1;
	p->kernels[i].dispatches++;
	p->kernels[i].last_ts = ts;
	if (q)
		q->dispatches++;
	bind_dispatch(pl, l, ts, i);
	return i;
}

static int dispatch(struct hip_runtime_state *s, struct hip_proc *p, const struct hip_line *l,
		    uint64_t ts)
{
	struct hip_runtime *h = &s->model;
	int k = add_dispatch(p, live_of(s, p), l, ts);

	if (k == -2)
		return 0;
	if (k < 0)
		return -1;
	h->last_kernel = p->kernels[k].name;
	h->last_proc = (int)(p - h->procs);
	h->last_kernel_index = k;
	return 0;
}

/* A log's numbers are anyone's: its sums saturate rather than overflow */
static int64_t add_saturating(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

int hip_runtime_add(struct hip_runtime_state *s, int pid, uint64_t ts, const char *text,
		    struct hip_line *l, const struct kfd_queues *kfd)
{
	struct hip_runtime *h = &s->model;
	struct hip_proc_live *pl;
	struct hip_proc *p;
	bool oom;
	int ret = 0;

	/* record's own note is stamped pid 0, which no line of the workload's can be */
	if (!pid && !strncmp(text, HIP_LOG_CAPTURE_NOTE, strlen(HIP_LOG_CAPTURE_NOTE))) {
		if (!h->capture_note[0])
			snprintf(h->capture_note, sizeof(h->capture_note), "%s",
				 text + strlen(HIP_LOG_CAPTURE_NOTE));
		return 0;
	}
	if (text[0] != ':' || hip_log_parse(text, l))
		return 0;
	h->lines++;
	h->last_kernel = NULL;
	if (h->failed)
		return 1;
	p = proc(s, pid, &oom);
	if (!p) {
		h->failed = oom;
		return 1;
	}
	pl = live_of(s, p);
	if (!p->lines++)
		p->first_ts = ts;
	p->last_ts = ts;
	p->by_kind[l->kind]++;
	switch (l->kind) {
	case HIP_QUEUE_CREATE:
		ret = add_queue(p, pl, l, ts);
		break;
	case HIP_SHADER_NAME:
		snprintf(pl->next_name, sizeof(pl->next_name), "%s", l->name);
		break;
	case HIP_DISPATCH:
		ret = dispatch(s, p, l, ts);
		break;
	case HIP_CMD_ENQUEUED:
		ret = add_cmd(p, pl, l, ts);
		break;
	case HIP_CMD_COMPLETE:
		p->commands_complete++;
		if (l->has_gpu) {
			p->gpu_us = add_saturating(p->gpu_us, l->gpu_us);
			p->gpu_measured++;
			p->gpu_nonzero += l->gpu_us > 0;
		}
		if (l->has_wall) {
			p->wall_us = add_saturating(p->wall_us, l->wall_us);
			p->wall_measured++;
		}
		ret = end_cmd(p, pl, l, ts, kfd);
		break;
	case HIP_COPY:
		p->copy_bytes += l->copy_size;
		break;
	default:
		break;
	}
	if (ret)
		h->failed = 1;
	return 1;
}

void hip_runtime_free(struct hip_runtime_state *s)
{
	struct hip_runtime *h = &s->model;
	int i;

	for (i = 0; i < h->nr_procs; i++) {
		free(h->procs[i].queues);
		keymap_free(&s->live[i].by_hwq);
		free(h->procs[i].kernels);
		name_index_free(&s->live[i].by_name);
		free(s->live[i].cmds);
		free(h->procs[i].overlaps);
	}
	free(h->procs);
	free(s->live);
	keymap_free(&s->by_pid);
	memset(s, 0, sizeof(*s));
}

/*
 * What a log captured apart says of its pids, for its lines that name none
 * (level 3 and below): the pid each thread id came with on a line that has
 * both, and the one pid of a log that names only one
 */
struct log_pids {
	struct keymap by_tid;		/* tid -> pid */
	int sole;			/* the only pid named; 0: none or several */
	bool several;
};

static ssize_t next_line(FILE *f, char **line, size_t *cap)
{
	ssize_t len = getline(line, cap, f);

	while (len > 0 && ((*line)[len - 1] == '\n' || (*line)[len - 1] == '\r'))
		(*line)[--len] = '\0';
	return len;
}

/* what one line names of the log's pids */
static void learn_pid(struct log_pids *lp, const struct hip_line *l)
{
	if (!l->has_pid || l->pid <= 0)
		return;
	if (l->has_tid && !keymap_get(&lp->by_tid, l->tid))
		keymap_put(&lp->by_tid, l->tid, (void *)(uintptr_t)l->pid);
	if (lp->sole && lp->sole != l->pid)
		lp->several = true;
	lp->sole = lp->several ? 0 : l->pid;
}

static void learn_pids(FILE *f, struct log_pids *lp)
{
	struct hip_line l;
	char *line = NULL;
	size_t cap = 0;

	while (next_line(f, &line, &cap) >= 0)
		if (!hip_log_parse(line, &l))
			learn_pid(lp, &l);
	free(line);
}

/* a line's pid: its own, else its thread's, else the log's only one (0: none known) */
static int line_pid(const struct hip_line *l, const struct log_pids *lp)
{
	if (l->has_pid)
		return l->pid;
	if (l->has_tid && keymap_get(&lp->by_tid, l->tid))
		return (int)(uintptr_t)keymap_get(&lp->by_tid, l->tid);
	return lp->sole;
}

int hip_runtime_add_file(struct analysis *a, const char *path)
{
	struct hip_runtime_state *h = analysis_state(a, JOIN_HIP);
	const struct kfd_queues *kfd = kfd_queues_of(a);
	const char *under = strrchr(path, '_');
	struct log_pids lp = { 0 };
	struct hip_line l;
	struct stat st;
	char *line = NULL, *end;
	size_t cap = 0;
	ssize_t len;
	int pid = 0;
	FILE *f;

	if (under) {
		long v = strtol(under + 1, &end, 10);

		if (!*end && v > 0)
			pid = (int)v;
	}
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/*
	 * a file is read twice, its pids learnt first; a pipe (--hip-log <(zcat ...))
	 * once, learning as it goes: a line before its thread's first pid has the
	 * pid seen so far, if one
	 */
	if (!pid && !fstat(fileno(f), &st) && S_ISREG(st.st_mode)) {
		learn_pids(f, &lp);
		rewind(f);
	}
	while (next_line(f, &line, &cap) >= 0) {
		if (hip_log_parse(line, &l))
			continue;
		learn_pid(&lp, &l);
		hip_runtime_add(h, pid ? pid : line_pid(&l, &lp), l.ts_us * 1000, line, &l, kfd);
	}
	free(line);
	keymap_free(&lp.by_tid);
	len = ferror(f) ? -EIO : 0;
	fclose(f);
	return (int)len;
}

const struct kfd_op *hip_queue_kfd_create(const struct hip_proc *p, int queue,
					  const struct kfd_queues *k)
{
	int i, n = 0;

	for (i = 0; i < k->nr_ops; i++) {
		const struct kfd_op *op = &k->ops[i];

		if (op->type != KFD_OP_CREATE || op->pid != p->pid)
			continue;
		if (n++ == queue)
			return op->start <= p->queues[queue].ts ? op : NULL;
	}
	return NULL;
}

/*
 * The join (analysis-joins.h): every print line no join before took is the
 * HIP runtime's log (--hip-log) or a trace_marker write
 */
const struct hip_runtime *hip_runtime_of(const struct analysis *a)
{
	const struct hip_runtime_state *s = analysis_state(a, JOIN_HIP);

	return s ? &s->model : NULL;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct hip_runtime_state *s = state;

	if (r->taken || !r->print)
		return;
	r->taken = true;
	if (hip_runtime_add(s, r->pid, r->ts, r->print, &s->line, kfd_queues_of(a)))
		analysis_set_hip_line(a, &s->line);
}

static void join_free(void *state)
{
	hip_runtime_free(state);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct hip_runtime_state *s = state;

	(void)a;
	return s->model.lines;
}

/* ftrace's print lines, when the file has their format */
static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)state;
	return analysis_print_kinds(a);
}

const struct analysis_join hip_runtime_join = {
	.name = "HIP runtime log",
	.state_size = sizeof(struct hip_runtime_state),
	.record = join_record,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
