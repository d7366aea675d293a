// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "capture/capture-setup.h"
#include "capture/kernel-join.h"

#define SCHED	"gpu_scheduler"
#define QUEUED_SUFFIX	".queued"

enum { AT_TOP, AT_JOIN, AT_QUEUED };

struct kind_events {
	const char *queue, *run, *done, *key;
};

static const struct kind_events kinds[] = {
	[KERNEL_JOIN_FENCE] = { "drm_sched_job", "drm_run_job", "drm_sched_process_job", "fence" },
	[KERNEL_JOIN_SEQNO] = { "drm_sched_job_queue", "drm_sched_job_run", "drm_sched_job_done",
				"fence_context,fence_seqno" },
};

enum kernel_join_kind kernel_join_detect(const char *tracing_dir)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/events/" SCHED "/drm_sched_job_run", tracing_dir);
	if (!access(path, F_OK))
		return KERNEL_JOIN_SEQNO;
	snprintf(path, sizeof(path), "%s/events/" SCHED "/drm_run_job", tracing_dir);
	return access(path, F_OK) ? KERNEL_JOIN_NONE : KERNEL_JOIN_FENCE;
}

static void step(struct kernel_join_step *s, int where, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void step(struct kernel_join_step *s, int where, const char *file, const char *fmt, ...)
{
	va_list ap;

	s->where = where;
	snprintf(s->file, sizeof(s->file), "%s", file);
	va_start(ap, fmt);
	vsnprintf(s->spec, sizeof(s->spec), fmt, ap);
	va_end(ap);
}

static void event_file(char *buf, size_t len, const char *system, const char *event)
{
	snprintf(buf, len, "events/%s/%s/trigger", system, event);
}

int kernel_join_steps(enum kernel_join_kind kind, int pid, int set, struct kernel_join_step *steps)
{
	const struct kind_events *k = &kinds[kind];
	bool seqno = kind == KERNEL_JOIN_SEQNO;
	char wait[48], exec[48], q[96], r[96], d[96], w[96], x[96];
	int n = 0;

	if (kind == KERNEL_JOIN_NONE)
		return 0;
	snprintf(wait, sizeof(wait), "gpu_trace_%d_wait", pid);
	snprintf(exec, sizeof(exec), "gpu_trace_%d_exec", pid);
	event_file(q, sizeof(q), SCHED, k->queue);
	event_file(r, sizeof(r), SCHED, k->run);
	event_file(d, sizeof(d), SCHED, k->done);
	event_file(w, sizeof(w), "synthetic", wait);
	event_file(x, sizeof(x), "synthetic", exec);
	/* 6.17+'s done event names only the fence: the ring comes by its context */
	step(&steps[n++], AT_TOP, "synthetic_events", "%s char ring[];%s u64 wait_us", wait,
	     seqno ? " u64 ctx;" : "");
	step(&steps[n++], AT_TOP, "synthetic_events", "%s %s; u64 exec_us", exec,
	     seqno ? "u64 ctx" : "char ring[]");
	step(&steps[n++], AT_JOIN, q, "hist:keys=%s:gt_q%d=common_timestamp.usecs:size=%d", k->key,
	     set, KERNEL_JOIN_TABLE);
	step(&steps[n++], AT_JOIN, r,
	     "hist:keys=%s:gt_r%d=common_timestamp.usecs:gt_w%d=common_timestamp.usecs-$gt_q%d:size=%d:onmatch(" SCHED ".%s).trace(%s,name,%s$gt_w%d)",
	     k->key, set, set, set, KERNEL_JOIN_TABLE, k->queue, wait, seqno ? "fence_context," : "",
	     set);
	/* before 6.17 the ring is the run event's, kept by the kernel for the done */
	step(&steps[n++], AT_JOIN, d,
	     "hist:keys=%s:gt_x%d=common_timestamp.usecs-$gt_r%d:size=%d:onmatch(" SCHED ".%s).trace(%s,%s,$gt_x%d)",
	     k->key, set, set, KERNEL_JOIN_TABLE, k->run, exec,
	     seqno ? "fence_context" : SCHED ".drm_run_job.name", set);
	step(&steps[n++], AT_JOIN, w, "hist:keys=ring,wait_us.log2:size=2048");
	if (seqno)
		step(&steps[n++], AT_JOIN, w, "hist:keys=ring,ctx:size=%d", SCHED_HIST_MAX_CONTEXTS);
	step(&steps[n++], AT_JOIN, x, "hist:keys=%s,exec_us.log2:size=%d", seqno ? "ctx" : "ring",
	     seqno ? SCHED_HIST_MAX_CONTEXTS * 8 : 2048);
	step(&steps[n++], AT_QUEUED, q, "hist:keys=name:size=%d", SCHED_HIST_MAX_RINGS * 2);
	return n;
}

/* The steps renew() makes anew: the keyed tables. */
#define FIRST_KEYED	2
#define LAST_KEYED	4

static struct tracefs_instance *where(struct kernel_join *j, int at)
{
	return at == AT_JOIN ? j->join.inst : at == AT_QUEUED ? j->queued.inst : NULL;
}

/* the kernel's reason, from the error_log of the instance the step went to */
static int refused(struct kernel_join *j, const struct kernel_join_step *s, int e,
		   struct gt_error *err)
{
	char *why = tracefs_error_last(where(j, s->where));
	int ret;

	ret = gt_error_set(err, e,
			   "the kernel refused %s in %s: %s%s%s; run gpu-trace top without --in-kernel",
			   s->spec, s->file, strerror(e), why && *why ? ": " : "",
			   why && *why ? why : "");
	free(why);
	return ret;
}

static int make(struct kernel_join *j, int i, struct gt_error *err)
{
	const struct kernel_join_step *s = &j->steps[i];

	if (tracefs_instance_file_append(where(j, s->where), s->file, s->spec) < 0)
		return refused(j, s, errno ? errno : EINVAL, err);
	j->made[i] = true;
	return 0;
}

static int unmake_step(struct tracefs_instance *inst, const struct kernel_join_step *s)
{
	char spec[sizeof(s->spec) + 1];

	snprintf(spec, sizeof(spec), "!%s", s->spec);
	return tracefs_instance_file_append(inst, s->file, spec) < 0 ? -1 : 0;
}

static int unmake(struct kernel_join *j, int i, struct gt_error *err)
{
	if (unmake_step(where(j, j->steps[i].where), &j->steps[i]))
		return refused(j, &j->steps[i], errno ? errno : EINVAL, err);
	j->made[i] = false;
	return 0;
}

int kernel_join_open(struct kernel_join *j, const char *tracing_dir, uint64_t renew_at,
		     struct gt_error *err)
{
	char path[4200];
	int i;

	memset(j, 0, sizeof(*j));
	j->renew_at = renew_at && renew_at < KERNEL_JOIN_RENEW_AT ? renew_at : KERNEL_JOIN_RENEW_AT;
	j->join.top_lock = j->queued.top_lock = -1;
	j->kind = kernel_join_detect(tracing_dir);
	if (j->kind == KERNEL_JOIN_NONE)
		return gt_error_set(err, ENOENT,
				    "this kernel has no gpu_scheduler events (no DRM scheduler driver loaded); load your GPU's driver, or run gpu-trace top without --in-kernel");
	snprintf(path, sizeof(path), "%s/synthetic_events", tracing_dir);
	if (access(path, W_OK))
		return gt_error_set(err, ENOTSUP,
				    "this kernel has no synthetic events (CONFIG_HIST_TRIGGERS off): run gpu-trace top without --in-kernel");
	j->nr_steps = kernel_join_steps(j->kind, (int)getpid(), 0, j->steps);
	snprintf(j->wait, sizeof(j->wait), "gpu_trace_%d_wait", (int)getpid());
	snprintf(j->exec, sizeof(j->exec), "gpu_trace_%d_exec", (int)getpid());
	if (capture_instance_create(&j->join, tracing_dir, "", err) ||
	    capture_instance_create(&j->queued, tracing_dir, QUEUED_SUFFIX, err))
		goto fail;
	for (i = 0; i < j->nr_steps; i++)
		if (make(j, i, err))
			goto fail;
	return 0;
fail:
	kernel_join_close(j, &(struct gt_error){ 0 });
	return -1;
}

/*
 * The keyed tables made anew, empty, under the other set of variable names,
 * before the old ones are taken down. Taken down first (each event left
 * without a trigger for a moment), the done's new trigger joined nothing
 * until the renewal after, in the lab's 6.1, 6.12 and 7.3 guests with jobs
 * running. A job queued and run in the moment both sets stand counts twice.
 */
static int renew(struct kernel_join *j, uint64_t queued, struct gt_error *err)
{
	struct kernel_join_step old[KERNEL_JOIN_STEPS], next[KERNEL_JOIN_STEPS];
	int i;

	memcpy(old, j->steps, sizeof(old));
	j->set = !j->set;
	kernel_join_steps(j->kind, (int)getpid(), j->set, next);
	for (i = FIRST_KEYED; i <= LAST_KEYED; i++) {
		j->steps[i] = next[i];
		if (make(j, i, err))
			return -1;
	}
	for (i = LAST_KEYED; i >= FIRST_KEYED; i--)
		if (unmake_step(where(j, old[i].where), &old[i]))
			return refused(j, &old[i], errno ? errno : EINVAL, err);
	j->renewals++;
	j->queued_at_renewal = queued;
	return 0;
}

static int read_hist(struct kernel_join *j, struct tracefs_instance *inst, const char *system,
		     const char *event, char **text, size_t *len, struct gt_error *err)
{
	char file[128];
	int size = 0;

	snprintf(file, sizeof(file), "events/%s/%s/hist", system, event);
	*text = tracefs_instance_file_read(inst, file, &size);
	if (!*text)
		return gt_error_set(err, errno ? errno : EIO,
				    "cannot read %s of instance %s: %s; check that tracefs is still mounted",
				    file, inst == j->join.inst ? j->join.name : j->queued.name,
				    strerror(errno ? errno : EIO));
	*len = size > 0 ? (size_t)size : 0;
	return 0;
}

/* Each ring's losses so far into @h; with @renewing, its jobs in flight now added first. */
static void account_lost(struct kernel_join *j, struct sched_hist *h, bool renewing)
{
	int r, l;

	for (r = 0; r < h->nr_rings; r++) {
		struct sched_hist_ring *ring = &h->rings[r];
		uint64_t done = sched_hist_sum(ring->exec, HIST_LOG2_MAX);
		uint64_t run = sched_hist_sum(ring->wait, HIST_LOG2_MAX);
		struct sched_hist_ring *lost;

		l = sched_hist_ring_find(&j->lost, ring->name);
		if (l < 0)
			continue;
		lost = &j->lost.rings[l];
		if (renewing && ring->queued > done + lost->lost_queued)
			lost->lost_queued = ring->queued - done;
		if (renewing && run > done + lost->lost_run)
			lost->lost_run = run - done;
		ring->lost_queued = lost->lost_queued;
		ring->lost_run = lost->lost_run;
	}
}

int kernel_join_read(struct kernel_join *j, struct sched_hist *h, struct gt_error *err)
{
	char *waits = NULL, *execs = NULL, *queued = NULL;
	size_t wl, xl, ql;
	uint64_t total = 0;
	int i, ret = -1;

	memset(h, 0, sizeof(*h));
	if (read_hist(j, j->join.inst, "synthetic", j->wait, &waits, &wl, err) ||
	    read_hist(j, j->join.inst, "synthetic", j->exec, &execs, &xl, err) ||
	    read_hist(j, j->queued.inst, SCHED, kinds[j->kind].queue, &queued, &ql, err))
		goto out;
	sched_hist_add_queued(h, queued, ql);
	sched_hist_add_waits(h, waits, wl);
	if (j->kind == KERNEL_JOIN_SEQNO)
		sched_hist_add_contexts(h, waits, wl);
	sched_hist_add_execs(h, execs, xl);
	for (i = 0; i < h->nr_rings; i++)
		total += h->rings[i].queued;
	h->renewals = j->renewals;
	if (total - j->queued_at_renewal < j->renew_at) {
		account_lost(j, h, false);
		ret = 0;
		goto out;
	}
	account_lost(j, h, true);
	ret = renew(j, total, err);
	h->renewals = j->renewals;
out:
	free(waits);
	free(execs);
	free(queued);
	return ret;
}

/*
 * Before 6.17 the done's trigger names the run event's ring: the kernel keeps
 * it in a hist of its own on drm_run_job, which it shares between the done
 * triggers of both sets and leaves when they go. Taken down by its spec as
 * the trigger file lists it (no error where it is not there).
 */
static const struct kernel_join_step field_var_hist = {
	AT_JOIN, "events/" SCHED "/drm_run_job/trigger", "hist:keys=fence:synthetic_name=name:size=2048",
};

int kernel_join_close(struct kernel_join *j, struct gt_error *err)
{
	int ret = 0, i;

	/* the last made first: the kernel refuses to remove what another names */
	for (i = j->nr_steps - 1; i >= 0; i--)
		if (j->made[i] && unmake(j, i, ret ? NULL : err))
			ret = -1;
	if (j->kind == KERNEL_JOIN_FENCE && j->join.inst)
		unmake_step(j->join.inst, &field_var_hist);
	if (session_teardown(&j->queued, ret ? NULL : err))
		ret = -1;
	if (session_teardown(&j->join, ret ? NULL : err))
		ret = -1;
	return ret;
}

/* Its synthetic events are made first and removed last: without them, nothing of it is left. */
static bool left_anything(int pid)
{
	const char *dir = tracefs_tracing_dir();
	char path[4200];

	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/events/synthetic/gpu_trace_%d_wait", dir, pid);
	if (!access(path, F_OK))
		return true;
	snprintf(path, sizeof(path), "%s/events/synthetic/gpu_trace_%d_exec", dir, pid);
	return !access(path, F_OK);
}

void kernel_join_remove_stale(int pid)
{
	struct kernel_join_step steps[KERNEL_JOIN_STEPS];
	enum kernel_join_kind kind;
	char name[64];
	int i, n, set;

	if (!left_anything(pid))
		return;
	for (kind = KERNEL_JOIN_FENCE; kind <= KERNEL_JOIN_SEQNO; kind++) {
		struct tracefs_instance *join, *queued;

		snprintf(name, sizeof(name), "%s%d", GT_INSTANCE_PREFIX, pid);
		join = tracefs_instance_exists(name) ? tracefs_instance_alloc(NULL, name) : NULL;
		snprintf(name, sizeof(name), "%s%d%s", GT_INSTANCE_PREFIX, pid, QUEUED_SUFFIX);
		queued = tracefs_instance_exists(name) ? tracefs_instance_alloc(NULL, name) : NULL;
		/* either set of names; what is not there answers an error: nothing to take down */
		for (set = 0; set < 2; set++) {
			n = kernel_join_steps(kind, pid, set, steps);
			for (i = n - 1; i >= 0; i--) {
				struct tracefs_instance *inst = steps[i].where == AT_JOIN ? join :
							       steps[i].where == AT_QUEUED ? queued : NULL;

				if (steps[i].where == AT_TOP || inst)
					unmake_step(inst, &steps[i]);
			}
		}
		if (join && kind == KERNEL_JOIN_FENCE)
			unmake_step(join, &field_var_hist);
		tracefs_instance_free(join);
		tracefs_instance_free(queued);
	}
}
