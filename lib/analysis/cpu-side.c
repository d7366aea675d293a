// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis-joins.h"
#include "analysis/cpu-side.h"
#include "analysis/timeline.h"
#include "analysis/workload-tree.h"
#include "decode/event-fields.h"
#include "util/keymap.h"

#define MAX_CPUS	4096	/* interrupts on CPUs past it are not split out */
#define TASK_REPORT_MAX	0x100	/* sched_switch's prev_state of a preempted task (4.14+) */
#define STATE_D		0x2	/* TASK_UNINTERRUPTIBLE as sched_switch reports it */

enum thread_state { T_UNKNOWN, T_ON_CPU, T_RUNNABLE, T_SLEEPING };

/* What a thread is doing now: private to the join. */
struct thread_live {
	enum thread_state state;
	bool blocked;			/* its sleep is uninterruptible */
	uint64_t since;
	int behind;			/* who took its CPU (0: unknown) */
	char behind_comm[16];
	bool in_ioctl;
	uint64_t enter, cmd;
	struct cpu_ioctl_row *row;
	struct cpu_split now;		/* of the ioctl in progress */
	/*
	 * the row's credits before it (credit_behind() adds as it goes): taken
	 * back when it is never left, whose time is in no split
	 */
	struct cpu_behind behind_before[CPU_SIDE_BEHIND];
	int nr_behind_before;
	uint64_t behind_other_before, waking_before;
	bool waiting;			/* inside dma_fence_wait_start -> _end */
	uint64_t wait_from, wait_ctx, wait_seqno;
	char wait_timeline[32];
	uint64_t cpu_ns;		/* on a CPU or runnable since it is followed */
	uint64_t longest;		/* its longest preemption, and by whom */
	int longest_by;
	char longest_comm[16];
};

struct cpu_irq {
	int depth;
	int pid;			/* current at the outermost entry */
	uint64_t since;
};

struct cpu_side_state {
	struct cpu_side model;
	struct event_fields enter, exit, sw, wake, irq_in, irq_out, soft_in, soft_out;
	struct keymap by_pid;		/* tid + 1 -> index + 1 */
	struct keymap job_ioctls;	/* job_key() -> struct cpu_job_ioctl */
	struct thread_live *live;	/* beside model.threads */
	int nr_rows;
	struct cpu_irq *irqs;		/* MAX_CPUS, at the first interrupt */
	uint64_t lost_ts;		/* the last record after lost events */
};

enum { F_CMD };
enum { F_PREV_PID, F_PREV_STATE, F_PREV_COMM, F_NEXT_PID, F_NEXT_COMM };
enum { F_WAKE_PID };

uint64_t cpu_split_total(const struct cpu_split *s)
{
	return s->on_cpu_ns + s->runnable_ns + s->sleeping_ns + s->irq_ns;
}

/*
 * Whose DRM driver numbers the ioctls are: the one GPU driver whose events the
 * file holds (record writes the formats of the systems it enabled), decided
 * before the first record so that every output names them alike; none when
 * several or none.
 */
static enum gpu_ioctl_driver file_driver(const struct analysis *a)
{
	static const struct { const char *system; enum gpu_ioctl_driver driver; } drivers[] = {
		{ "amdgpu", GPU_IOCTL_DRIVER_AMDGPU }, { "i915", GPU_IOCTL_DRIVER_I915 },
		{ "xe", GPU_IOCTL_DRIVER_XE }, { "virtio_gpu", GPU_IOCTL_DRIVER_VIRTIO },
	};
	enum gpu_ioctl_driver found = GPU_IOCTL_DRIVER_UNKNOWN;
	size_t i;

	for (i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		if (!event_system_present(analysis_tep(a), drivers[i].system))
			continue;
		if (found)
			return GPU_IOCTL_DRIVER_UNKNOWN;
		found = drivers[i].driver;
	}
	return found;
}

static int join_init(void *state, struct analysis *a)
{
	static const char *const enter_fields[] = { "cmd", NULL };
	static const char *const sw_fields[] = {
		"prev_pid", "prev_state", "prev_comm", "next_pid", "next_comm", NULL
	};
	static const char *const wake_fields[] = { "pid", NULL };
	struct cpu_side_state *s = state;
	struct tep_handle *tep = analysis_tep(a);

	event_fields_find_all(&s->enter, tep, "syscalls", "sys_enter_ioctl", enter_fields);
	event_fields_find_all(&s->exit, tep, "syscalls", "sys_exit_ioctl", NULL);
	event_fields_find_all(&s->sw, tep, "sched", "sched_switch", sw_fields);
	event_fields_find_all(&s->wake, tep, "sched", "sched_wakeup", wake_fields);
	event_fields_find_all(&s->irq_in, tep, "irq", "irq_handler_entry", NULL);
	event_fields_find_all(&s->irq_out, tep, "irq", "irq_handler_exit", NULL);
	event_fields_find_all(&s->soft_in, tep, "irq", "softirq_entry", NULL);
	event_fields_find_all(&s->soft_out, tep, "irq", "softirq_exit", NULL);
	s->model.driver = file_driver(a);
	s->model.scheduling = s->sw.id >= 0;
	s->model.interrupts = s->irq_in.id >= 0 && s->irq_out.id >= 0;
	return 0;
}

/* The thread's index, its entry made at its first GPU ioctl when @make; -1 past the table. */
static int thread_index(struct cpu_side_state *s, int pid, bool make)
{
	struct cpu_side *m = &s->model;
	uintptr_t v = (uintptr_t)keymap_get(&s->by_pid, (uint64_t)(unsigned int)pid + 1);
	struct cpu_thread *t;

	if (v)
		return (int)v - 1;
	if (!make || m->nr_threads == CPU_SIDE_MAX_THREADS)
		return -1;
	if (!m->threads) {
		m->threads = calloc(CPU_SIDE_MAX_THREADS, sizeof(*m->threads));
		s->live = calloc(CPU_SIDE_MAX_THREADS, sizeof(*s->live));
		if (!m->threads || !s->live)
			return -1;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -1;
	if (keymap_put(&s->by_pid, (uint64_t)(unsigned int)pid + 1,
		       (void *)(uintptr_t)(m->nr_threads + 1))) {
		free(t);
		return -1;
	}
	t->pid = pid;
	m->threads[m->nr_threads] = t;
	return m->nr_threads++;
}

static struct cpu_ioctl_row *new_row(struct cpu_side_state *s, uint64_t cmd, bool other)
{
	struct cpu_ioctl_row *r;

	if (s->nr_rows == CPU_SIDE_MAX_ROWS || !(r = calloc(1, sizeof(*r))))
		return NULL;
	s->nr_rows++;
	r->cmd = cmd;
	r->other = other;
	return r;
}

/* The thread's row for @cmd: its own, else (past its rows or the table's) its "other". */
static struct cpu_ioctl_row *row_of(struct cpu_side_state *s, struct cpu_thread *t, uint64_t cmd)
{
	int i;

	for (i = 0; i < t->nr_rows; i++)
		if (t->rows[i]->cmd == cmd)
			return t->rows[i];
	if (t->nr_rows < CPU_SIDE_ROWS_PER_THREAD) {
		struct cpu_ioctl_row *r = new_row(s, cmd, false);

		if (r)
			return t->rows[t->nr_rows++] = r;
	}
	s->model.untracked_rows++;
	if (!t->other)
		t->other = new_row(s, 0, true);
	return t->other;
}

static void credit_behind(struct cpu_ioctl_row *r, int pid, const char *comm, uint64_t ns)
{
	int i;

	if (!pid) {
		r->waking_ns += ns;
		return;
	}
	for (i = 0; i < r->nr_behind; i++)
		if (r->behind[i].pid == pid) {
			r->behind[i].ns += ns;
			return;
		}
	if (r->nr_behind == CPU_SIDE_BEHIND) {
		r->behind_other_ns += ns;
		return;
	}
	r->behind[r->nr_behind].pid = pid;
	memcpy(r->behind[r->nr_behind].comm, comm, sizeof(r->behind[0].comm));
	r->behind[r->nr_behind++].ns = ns;
}

/* The time since the thread's last change, into the ioctl in progress. */
static void account(struct thread_live *l, uint64_t ts)
{
	uint64_t d = ts > l->since ? ts - l->since : 0;

	l->since = ts;
	if (l->state == T_ON_CPU || l->state == T_RUNNABLE)
		l->cpu_ns += d;
	if (!l->in_ioctl)
		return;
	switch (l->state) {
	case T_ON_CPU:
		l->now.on_cpu_ns += d;
		break;
	case T_RUNNABLE:
		l->now.runnable_ns += d;
		if (l->row)
			credit_behind(l->row, l->behind, l->behind_comm, d);
		if (l->behind && d > l->longest) {
			l->longest = d;
			l->longest_by = l->behind;
			memcpy(l->longest_comm, l->behind_comm, sizeof(l->longest_comm));
		}
		break;
	case T_SLEEPING:
		l->now.sleeping_ns += d;
		if (l->blocked)
			l->now.blocked_ns += d;
		break;
	default:
		break;
	}
}

static void split_add(struct cpu_split *to, const struct cpu_split *from)
{
	to->on_cpu_ns += from->on_cpu_ns;
	to->runnable_ns += from->runnable_ns;
	to->sleeping_ns += from->sleeping_ns;
	to->blocked_ns += from->blocked_ns;
	to->irq_ns += from->irq_ns;
}

/* on CPU is measured with the interrupts inside it: they are their own state */
static void split_settle(struct cpu_split *s)
{
	s->on_cpu_ns = s->on_cpu_ns > s->irq_ns ? s->on_cpu_ns - s->irq_ns : 0;
}

/* on a CPU or runnable until ts, the interval since its last change included */
static uint64_t cpu_until(const struct thread_live *l, uint64_t ts)
{
	bool busy = l->state == T_ON_CPU || l->state == T_RUNNABLE;

	return l->cpu_ns + (busy && ts > l->since ? ts - l->since : 0);
}

/* a GPU call of the thread at ts: its span, and its CPU time up to its last call */
static void touch(struct cpu_thread *t, const struct thread_live *l, uint64_t ts)
{
	if (!t->first_ns || ts < t->first_ns) {
		t->first_ns = ts;
		t->cpu_from = cpu_until(l, ts);
	}
	if (ts > t->last_ns) {
		t->last_ns = ts;
		t->cpu_to = cpu_until(l, ts);
	}
}

const char *cpu_verdict_name(enum cpu_verdict_kind kind)
{
	static const char *const names[] = {
		[CPU_VERDICT_GPU_BOUND] = "GPU-bound", [CPU_VERDICT_CPU_BOUND] = "CPU-bound",
		[CPU_VERDICT_MIXED] = "mixed",
	};

	return kind > CPU_VERDICT_NONE && kind <= CPU_VERDICT_MIXED ? names[kind] : NULL;
}

/* the thread that took the CPU longest from its ioctls, over all its rows */
static void top_behind(const struct cpu_thread *t, struct cpu_behind *top)
{
	memset(top, 0, sizeof(*top));
	for (int i = 0; i <= t->nr_rows; i++) {
		const struct cpu_ioctl_row *r = i < t->nr_rows ? t->rows[i] : t->other;

		for (int k = 0; r && k < r->nr_behind; k++)
			if (r->behind[k].ns > top->ns)
				*top = r->behind[k];
	}
}

void cpu_side_verdict(struct cpu_thread *t, bool scheduling, struct cpu_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->span_ns = t->last_ns > t->first_ns ? t->last_ns - t->first_ns : 0;
	v->gpu_wait_ns = t->waits.ns;
	/* with its scheduling: on or waiting for a CPU, or waiting on the GPU; idle is neither */
	v->scheduling = scheduling;
	v->active_ns = scheduling ? (t->cpu_to > t->cpu_from ? t->cpu_to - t->cpu_from : 0) +
				    v->gpu_wait_ns : v->span_ns;
	if (v->active_ns > v->span_ns)
		v->active_ns = v->span_ns;
	if (t->to_queued) {
		v->jobs = t->to_queued->count;
		v->to_queued_ns = t->to_queued->sum;
		v->to_queued_p50_ns = latency_stats_percentile(t->to_queued, 50);
		v->runnable_ns = t->queued_split.runnable_ns;
	}
	top_behind(t, &v->behind);
	if (!v->active_ns || (!v->jobs && !t->waits.count))
		return;
	if (2 * v->gpu_wait_ns >= v->active_ns)
		v->kind = CPU_VERDICT_GPU_BOUND;
	else if (10 * v->gpu_wait_ns < v->active_ns && v->jobs)
		v->kind = CPU_VERDICT_CPU_BOUND;
	else
		v->kind = CPU_VERDICT_MIXED;
}

static void ioctl_enter(struct cpu_side_state *s, struct join_record *r)
{
	unsigned long long cmd;
	struct thread_live *l;
	int i;

	if (!event_field_num(&s->enter, F_CMD, r->rec, &cmd))
		return;
	if (!gpu_ioctl_is_gpu(cmd)) {
		/* recorded unfiltered (the kernel refused the filter): not a GPU ioctl */
		i = thread_index(s, r->pid, false);
		if (i >= 0)
			s->live[i].in_ioctl = false;
		return;
	}
	s->model.ioctls++;
	i = thread_index(s, r->pid, true);
	if (i < 0) {
		s->model.untracked++;
		return;
	}
	l = &s->live[i];
	touch(s->model.threads[i], l, r->ts);
	/* the time before it, in whatever state it was (a syscall: it ran), not the ioctl's */
	l->cpu_ns = cpu_until(l, r->ts);
	memset(&l->now, 0, sizeof(l->now));
	l->longest = 0;
	l->longest_by = 0;
	l->in_ioctl = true;
	l->enter = r->ts;
	l->cmd = cmd & 0xffffffffu;
	l->row = row_of(s, s->model.threads[i], cmd & 0xffffffffu);
	if (l->row) {
		memcpy(l->behind_before, l->row->behind, sizeof(l->behind_before));
		l->nr_behind_before = l->row->nr_behind;
		l->behind_other_before = l->row->behind_other_ns;
		l->waking_before = l->row->waking_ns;
	}
	/* it makes a syscall: it runs */
	l->state = T_ON_CPU;
	l->since = r->ts;
}

static void ioctl_exit(struct cpu_side_state *s, struct join_record *r)
{
	int i = thread_index(s, r->pid, false);
	struct thread_live *l;

	if (i < 0 || !s->live[i].in_ioctl)
		return;
	l = &s->live[i];
	touch(s->model.threads[i], l, r->ts);
	account(l, r->ts);
	l->in_ioctl = false;
	if (!l->row)
		return;
	split_settle(&l->now);
	latency_stats_add(&l->row->dur, r->ts > l->enter ? r->ts - l->enter : 0);
	split_add(&l->row->split, &l->now);
	s->model.done_seq++;
	s->model.last = (struct cpu_ioctl_done){
		.pid = r->pid, .cmd = l->cmd, .enter = l->enter,
		.exit = r->ts, .split = l->now, .preempted_by = l->longest_by,
	};
	memcpy(s->model.last.preempted_comm, l->longest_comm, sizeof(l->longest_comm));
}

/*
 * A job's names, as a queue record gives them and as the timeline's job has
 * them: its fence context:seqno, virtio-gpu's fence id, or (drm_sched up to
 * 6.16) its ring's name and scheduler job id; tagged apart
 */
static uint64_t fence_key(uint64_t ctx, uint64_t seqno)
{
	return keymap_pair(keymap_pair(1, ctx), seqno);
}

static uint64_t virtio_key(uint64_t fence_id)
{
	return keymap_pair(2, fence_id);
}

static uint64_t id_key(const char *ring, uint64_t id)
{
	return keymap_pair(keymap_pair(3, keymap_str(ring)), id);
}

/* the key a queue record names its job by; 0: none */
static uint64_t queued_key(const struct join_record *r)
{
	const struct gpu_event *ev = &r->ev;

	if (r->kind == GEV_VIRTIO_CMD_QUEUE)
		return ev->id ? virtio_key(ev->id) : 0;
	if (r->kind == GEV_I915_REQUEST || ev->has_fence)
		return fence_key(ev->ctx, ev->seqno);
	return ev->has_id ? id_key(ev->ring, ev->id) : 0;
}

/* the job's ioctl kept under its name, with ioctl -> queued and its split */
static void keep_job_ioctl(struct cpu_side_state *s, const struct join_record *r,
			   const struct thread_live *l, const struct cpu_split *so_far)
{
	uint64_t key = queued_key(r);
	struct cpu_job_ioctl *j;

	if (!key || keymap_get(&s->job_ioctls, key))
		return;
	if (s->job_ioctls.used >= CPU_SIDE_MAX_JOBS || !(j = malloc(sizeof(*j)))) {
		s->model.jobs_untracked++;
		return;
	}
	*j = (struct cpu_job_ioctl){
		.pid = r->pid, .cmd = l->cmd, .enter = l->enter,
		.to_queued_ns = r->ts > l->enter ? r->ts - l->enter : 0, .split = *so_far,
	};
	if (keymap_put(&s->job_ioctls, key, j))
		free(j);
}

const struct cpu_job_ioctl *cpu_side_job_ioctl(const struct analysis *a, const struct job *j)
{
	const struct cpu_side_state *s = analysis_state(a, JOIN_CPU_SIDE);
	const struct cpu_job_ioctl *found = NULL;

	if (!s || !s->job_ioctls.used)
		return NULL;
	if (j->has_fence)
		found = keymap_get(&s->job_ioctls, fence_key(j->ctx, j->seqno));
	if (!found && j->virtio_fence_id)
		found = keymap_get(&s->job_ioctls, virtio_key(j->virtio_fence_id));
	if (!found && j->has_id)
		found = keymap_get(&s->job_ioctls,
				   id_key(timeline_of(a)->rings[j->ring]->name, j->id));
	return found;
}

/* A job queued from inside the thread's ioctl: ioctl -> queued, split so far. */
static void job_queued(struct cpu_side_state *s, struct join_record *r)
{
	int i = thread_index(s, r->pid, false);
	struct cpu_thread *t;
	struct thread_live *l;
	struct cpu_split so_far;

	if (i < 0 || !s->live[i].in_ioctl)
		return;
	t = s->model.threads[i];
	l = &s->live[i];
	account(l, r->ts);
	so_far = l->now;
	split_settle(&so_far);
	keep_job_ioctl(s, r, l, &so_far);
	/* a distribution is 8 KB: they come out of the rows' budget */
	if (!t->to_queued) {
		if (s->nr_rows == CPU_SIDE_MAX_ROWS) {
			s->model.untracked_rows++;
			return;
		}
		if (!(t->to_queued = calloc(1, sizeof(*t->to_queued))))
			return;
		s->nr_rows++;
	}
	s->model.jobs_queued++;
	latency_stats_add(t->to_queued, r->ts > l->enter ? r->ts - l->enter : 0);
	split_add(&t->queued_split, &so_far);
}

static void set_state(struct thread_live *l, enum thread_state st, uint64_t ts)
{
	account(l, ts);
	l->state = st;
}

static void switched(struct cpu_side_state *s, struct join_record *r)
{
	unsigned long long prev, next, state;
	int i;

	if (!event_field_num(&s->sw, F_PREV_PID, r->rec, &prev) ||
	    !event_field_num(&s->sw, F_NEXT_PID, r->rec, &next) ||
	    !event_field_num(&s->sw, F_PREV_STATE, r->rec, &state))
		return;
	i = thread_index(s, (int)prev, false);
	if (i >= 0) {
		struct thread_live *l = &s->live[i];
		/* preempted (TASK_REPORT_MAX and up) or yielded (0): still runnable */
		bool runnable = state == 0 || state >= TASK_REPORT_MAX;

		set_state(l, runnable ? T_RUNNABLE : T_SLEEPING, r->ts);
		l->blocked = !runnable && (state & STATE_D);
		l->behind = runnable ? (int)next : 0;
		event_field_str(&s->sw, F_NEXT_COMM, r->rec, l->behind_comm, sizeof(l->behind_comm));
	}
	i = thread_index(s, (int)next, false);
	if (i >= 0) {
		struct thread_live *l = &s->live[i];

		/*
		 * Runnable since a wakeup: it waited for the thread that had the CPU
		 * until now (a busy loop on its CPU), unless that was the idle task
		 * (then it waited for an idle CPU to wake: after_wakeup)
		 */
		if (l->state == T_RUNNABLE && !l->behind && prev) {
			l->behind = (int)prev;
			event_field_str(&s->sw, F_PREV_COMM, r->rec, l->behind_comm, sizeof(l->behind_comm));
		}
		set_state(l, T_ON_CPU, r->ts);
	}
}

static void woken(struct cpu_side_state *s, struct join_record *r)
{
	unsigned long long pid;
	int i;

	if (!event_field_num(&s->wake, F_WAKE_PID, r->rec, &pid))
		return;
	i = thread_index(s, (int)pid, false);
	if (i >= 0 && s->live[i].state == T_SLEEPING) {
		set_state(&s->live[i], T_RUNNABLE, r->ts);
		s->live[i].behind = 0;
	}
}

/* Hard and soft interrupts nest on a CPU: their time is the outermost's. */
static void interrupt(struct cpu_side_state *s, struct join_record *r, bool entry)
{
	struct cpu_irq *c;
	int i;

	if (r->cpu < 0 || r->cpu >= MAX_CPUS)
		return;
	if (!s->irqs && !(s->irqs = calloc(MAX_CPUS, sizeof(*s->irqs))))
		return;
	c = &s->irqs[r->cpu];
	if (entry) {
		if (!c->depth++) {
			c->since = r->ts;
			c->pid = r->pid;
		}
		return;
	}
	if (!c->depth || --c->depth)
		return;
	i = thread_index(s, c->pid, false);
	if (i >= 0 && s->live[i].in_ioctl && s->live[i].state == T_ON_CPU && r->ts > c->since)
		s->live[i].now.irq_ns += r->ts - c->since;
}

/*
 * A thread's wait on a fence. Only the workload's threads: a wait is in the
 * waiter's context, and dma_fence is recorded system-wide, so the others' are
 * in the file too; a thread becomes the CPU side's at its first GPU ioctl or
 * at its first wait while the workload's pid tree says it is the workload's.
 */
static void fence_wait(struct cpu_side_state *s, struct analysis *a, struct join_record *r)
{
	struct thread_live *l;
	struct cpu_waits *w;
	int i = thread_index(s, r->pid, false);
	size_t n;

	if (i < 0 && r->kind == GEV_FENCE_WAIT_START && workload_tree_has(workload_tree_of(a), r->pid))
		i = thread_index(s, r->pid, true);
	if (i < 0)
		return;
	l = &s->live[i];
	w = &s->model.threads[i]->waits;
	touch(s->model.threads[i], l, r->ts);
	if (r->kind == GEV_FENCE_WAIT_START) {
		if (l->waiting)
			w->unended++;
		l->waiting = true;
		l->wait_from = r->ts;
		l->wait_ctx = r->ev.ctx;
		l->wait_seqno = r->ev.seqno;
		/* as "%.31s" would: every wait of the workload comes here (snprintf was 3% of report) */
		n = strnlen(r->ev.timeline, sizeof(l->wait_timeline) - 1);
		memcpy(l->wait_timeline, r->ev.timeline, n);
		l->wait_timeline[n] = '\0';
		return;
	}
	if (!l->waiting || r->ev.ctx != l->wait_ctx || r->ev.seqno != l->wait_seqno)
		return;
	l->waiting = false;
	s->model.fence_waits++;
	w->count++;
	if (r->ts <= l->wait_from)
		return;
	w->ns += r->ts - l->wait_from;
	if (r->ts - l->wait_from > w->longest_ns) {
		w->longest_ns = r->ts - l->wait_from;
		w->longest_ctx = l->wait_ctx;
		w->longest_seqno = l->wait_seqno;
		memcpy(w->longest_timeline, l->wait_timeline, sizeof(w->longest_timeline));
	}
}

static void gpu_record(struct cpu_side_state *s, struct join_record *r)
{
	switch (r->kind) {
	case GEV_VIRTIO_CMD_QUEUE:
		/* an unfenced command (a resource's backing, a transfer) is no job */
		if (r->ev.id)
			job_queued(s, r);
		break;
	case GEV_I915_REQUEST:
		if (r->ev.name && strstr(r->ev.name, "request_add"))
			job_queued(s, r);
		break;
	case GEV_QUEUE:
		job_queued(s, r);
		break;
	default:
		break;
	}
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct cpu_side_state *s = state;

	if (r->missed)
		s->lost_ts = r->ts;
	if (r->kind == GEV_FENCE_WAIT_START || r->kind == GEV_FENCE_WAIT_END) {
		fence_wait(s, a, r);
		return;
	}
	if (r->kind != GEV_NONE) {
		gpu_record(s, r);
		return;
	}
	if (r->type < 0 || r->too_short)
		return;
	if (r->type == s->enter.id)
		ioctl_enter(s, r);
	else if (r->type == s->exit.id)
		ioctl_exit(s, r);
	else if (r->type == s->sw.id)
		switched(s, r);
	else if (r->type == s->wake.id)
		woken(s, r);
	else if (r->type == s->irq_in.id || r->type == s->soft_in.id)
		interrupt(s, r, true);
	else if (r->type == s->irq_out.id || r->type == s->soft_out.id)
		interrupt(s, r, false);
	else
		return;
	s->model.records++;
}

static void join_finish(void *state, struct analysis *a)
{
	struct cpu_side_state *s = state;
	uint64_t last = analysis_totals(a)->last_ts;
	int i;

	for (i = 0; i < s->model.nr_threads; i++) {
		struct thread_live *l = &s->live[i];

		if (l->waiting)
			s->model.threads[i]->waits.unended++;
		if (!l->in_ioctl || !l->row)
			continue;
		/* its time is in no split: nor are those it was preempted by */
		memcpy(l->row->behind, l->behind_before, sizeof(l->behind_before));
		l->row->nr_behind = l->nr_behind_before;
		l->row->behind_other_ns = l->behind_other_before;
		l->row->waking_ns = l->waking_before;
		/* entered before events were lost (before lost_ts's record): its exit may be among them */
		if (l->enter < s->lost_ts)
			continue;
		l->row->unended++;
		l->row->unended_ns = last > l->enter ? last - l->enter : 0;
	}
}

static void free_row(struct cpu_ioctl_row *r)
{
	if (!r)
		return;
	latency_stats_free(&r->dur);
	free(r);
}

static void free_job_ioctls(struct keymap *m)
{
	size_t i = 0;
	uint64_t key;
	void *j;

	while (keymap_next(m, &i, &key, &j))
		free(j);
	keymap_free(m);
}

static void join_free(void *state)
{
	struct cpu_side_state *s = state;
	int i, j;

	for (i = 0; i < s->model.nr_threads; i++) {
		struct cpu_thread *t = s->model.threads[i];

		for (j = 0; j < t->nr_rows; j++)
			free_row(t->rows[j]);
		free_row(t->other);
		if (t->to_queued)
			latency_stats_free(t->to_queued);
		free(t->to_queued);
		free(t);
	}
	free(s->model.threads);
	free(s->live);
	free(s->irqs);
	keymap_free(&s->by_pid);
	free_job_ioctls(&s->job_ioctls);
}

static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)state;
	(void)a;
	return JOIN_KIND(GEV_NONE) | JOIN_KIND(GEV_QUEUE) | JOIN_KIND(GEV_VIRTIO_CMD_QUEUE) |
	       JOIN_KIND(GEV_I915_REQUEST) | JOIN_KIND(GEV_FENCE_WAIT_START) |
	       JOIN_KIND(GEV_FENCE_WAIT_END);
}

struct cpu_side *cpu_side_of(const struct analysis *a)
{
	struct cpu_side_state *s = analysis_state(a, JOIN_CPU_SIDE);

	return s ? &s->model : NULL;
}

const struct analysis_join cpu_side_join = {
	.name = "cpu side",
	.state_size = sizeof(struct cpu_side_state),
	.init = join_init,
	.record = join_record,
	.finish = join_finish,
	.free = join_free,
	.kinds = join_kinds,
};
