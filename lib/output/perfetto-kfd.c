// SPDX-License-Identifier: GPL-2.0
/*
 * KFD queues as record --kfd-args's probes and the KFD debugfs snapshots saw
 * them, in the Perfetto trace: "KFD queues" / "COMM PID" / one track per queue
 * created (its life, with the values the runtime passed and the kernel's
 * answer as arguments, the create ioctl inside), "ioctls" lanes (failed
 * creates, updates and destroys with their answers) and "evictions" lanes;
 * "debugfs snapshots" with an instant per snapshot. Written at the end from
 * the probe table, which is bounded like every table of the analysis.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "decode/kfd-names.h"
#include "output/perfetto-kfd.h"
#include "output/perfetto-packet.h"
#include "analysis/kfd-queue-table.h"
#include "analysis/kfd-snapshots.h"

#define MAX_ARGS	16

struct kfd_writer {
	struct perfetto_export *p;
	uint64_t root;
	struct keymap lanes;	/* keymap_pair(kind, pid) -> struct pf_lanes * */
	char text[MAX_ARGS][48];
	struct pf_arg args[MAX_ARGS];
	int nr_args;
};

static void arg(struct kfd_writer *w, struct pf_arg a)
{
	if (w->nr_args < MAX_ARGS)
		w->args[w->nr_args++] = a;
}

static void arg_u(struct kfd_writer *w, const char *name, uint64_t v)
{
	arg(w, (struct pf_arg){ .name = -1, .name_str = name, .type = ARG_UINT, .u = v });
}

static void arg_s(struct kfd_writer *w, const char *name, const char *s)
{
	arg(w, (struct pf_arg){ .name = -1, .name_str = name, .type = ARG_STR, .s = s });
}

static void arg_us(struct kfd_writer *w, const char *name, uint64_t ns)
{
	arg(w, (struct pf_arg){ .name = -1, .name_str = name, .type = ARG_DOUBLE,
				.d = (double)ns / 1e3 });
}

/* Text of the argument about to be added, kept until the event is written. */
static char *arg_text(struct kfd_writer *w)
{
	return w->text[w->nr_args < MAX_ARGS ? w->nr_args : MAX_ARGS - 1];
}

static void arg_hex(struct kfd_writer *w, const char *name, uint64_t v)
{
	char *t = arg_text(w);

	snprintf(t, sizeof(w->text[0]), "0x%" PRIx64, v);
	arg_s(w, name, t);
}

static void arg_result(struct kfd_writer *w, bool known, int ret)
{
	char *t = arg_text(w);

	if (!known)
		arg_s(w, "result", "not returned in the file");
	else
		arg_s(w, "result", ret ? kfd_errno_name(ret, t, sizeof(w->text[0])) : "ok");
}

static uint64_t root(struct kfd_writer *w)
{
	if (!w->root)
		w->root = perfetto_named_track(w->p, T_KFDQ_ROOT, 0, 0, "KFD queues");
	return w->root;
}

static uint64_t process_track(struct kfd_writer *w, int pid)
{
	char name[80];

	snprintf(name, sizeof(name), "%s %d", analysis_comm(w->p->a, pid), pid);
	return perfetto_named_track(w->p, T_KFDQ_PROCESS, (uint64_t)pid, root(w), name);
}

/* A free lane of the process's ioctls or evictions, from start to end. */
static uint64_t lane(struct kfd_writer *w, enum track_kind kind, int pid, uint64_t start,
		     uint64_t end)
{
	const char *base = kind == T_KFDQ_CALLS ? "ioctls" : "evictions";
	uint64_t key = keymap_pair(kind, (uint64_t)pid);
	struct pf_lanes *l = keymap_get(&w->lanes, key);
	char name[32];
	int n;

	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l || keymap_put(&w->lanes, key, l)) {
			free(l);
			return 0;
		}
	}
	n = perfetto_lane_take(l, start, end);
	if (n < 0)
		return 0;
	if (n)
		snprintf(name, sizeof(name), "%s %d", base, n);
	else
		snprintf(name, sizeof(name), "%s", base);
	return perfetto_track(w->p, &(struct pf_track){
		.uuid = perfetto_track_uuid(w->p, kind, (uint64_t)pid, (uint64_t)n),
		.parent = process_track(w, pid), .name = name });
}

static void slice_on(struct kfd_writer *w, uint64_t track, uint64_t from, uint64_t to,
		     const char *name)
{
	struct pf_event e = { .ts = from, .track = track, .name = -1, .name_str = name,
			      .args = w->args, .nr_args = w->nr_args };

	if (!track)
		return;
	perfetto_slice(w->p, &e, to < from ? from : to);
}

static void queue_args(struct kfd_writer *w, const struct kfd_queue *q)
{
	const char *type = kfd_queue_type_name(q->type);

	w->nr_args = 0;
	arg_hex(w, "gpu id", q->gpu_id);
	arg_s(w, "type", type ? type : "unknown");
	arg_u(w, "priority", q->priority);
	arg_u(w, "percentage", q->percentage);
	arg_hex(w, "ring", q->ring);
	arg_u(w, "ring size", q->ring_size);
	if (q->has_doorbell)
		arg_hex(w, "doorbell offset", q->doorbell_offset);
	arg_result(w, q->has_result, q->result);
	if (q->reason[0])
		arg_s(w, "kernel says", q->reason);
}

static void queue(struct kfd_writer *w, const struct kfd_queue *q, int index)
{
	const char *type = kfd_queue_type_name(q->type);
	uint64_t last = analysis_totals(w->p->a)->last_ts;
	uint64_t end = q->destroyed ? q->destroyed_at : last, track;
	char name[96], err[32];

	queue_args(w, q);
	if (q->has_result && q->result) {
		snprintf(name, sizeof(name), "create failed: %s",
			 kfd_errno_name(q->result, err, sizeof(err)));
		slice_on(w, lane(w, T_KFDQ_CALLS, q->pid, q->created, q->created + q->create_ns),
			 q->created, q->created + q->create_ns, name);
		return;
	}
	if (q->has_id)
		arg_u(w, "queue id", q->queue_id);
	arg_s(w, "queue id from", kfd_id_from_name(q->id_from));
	arg_u(w, "updates", q->updates);
	arg_u(w, "evictions", q->evictions);
	arg_us(w, "evicted (us)", q->evicted_ns);
	if (q->has_id)
		snprintf(name, sizeof(name), "queue %u (%s)", q->queue_id, type ? type : "?");
	else
		snprintf(name, sizeof(name), "queue ? (%s)", type ? type : "?");
	track = perfetto_track(w->p, &(struct pf_track){
		.uuid = perfetto_track_uuid(w->p, T_KFDQ_QUEUE, (uint64_t)q->pid, (uint64_t)index),
		.parent = process_track(w, q->pid), .name = name });
	slice_on(w, track, q->created, end < q->created ? q->created : end, name);
	if (q->create_ns && q->created + q->create_ns <= end) {
		w->nr_args = 0;
		slice_on(w, track, q->created, q->created + q->create_ns, "create");
	}
}

static void call(struct kfd_writer *w, const struct kfd_call *c)
{
	char name[80], err[32];

	w->nr_args = 0;
	arg_u(w, "queue id", c->queue_id);
	arg_result(w, c->has_ret, c->ret);
	if (!c->matched)
		arg_s(w, "note", "no create of that id in the file");
	snprintf(name, sizeof(name), "%s queue %u: %s", c->kind == KP_UPDATE ? "update" : "destroy",
		 c->queue_id, !c->has_ret ? "no answer in the file" :
		 c->ret ? kfd_errno_name(c->ret, err, sizeof(err)) : "ok");
	slice_on(w, lane(w, T_KFDQ_CALLS, c->pid, c->ts, c->ts + c->ns), c->ts, c->ts + c->ns, name);
}

static void eviction(struct kfd_writer *w, const struct kfd_evict *e)
{
	uint64_t from = e->start ? e->start : e->restore_start;
	uint64_t last = analysis_totals(w->p->a)->last_ts;
	uint64_t to = e->restored ? e->restore_start + e->restore_ns : last;
	const char *why = e->has_trigger ? kfd_trigger_name(e->trigger) : "restore only";
	char name[64];

	if (!from || e->pid <= 0)
		return;
	w->nr_args = 0;
	arg_s(w, "trigger", why);
	arg_u(w, "queues", (uint64_t)(e->nr_queues > 0 ? e->nr_queues : 0));
	if (e->has_evict_ret) {
		arg_us(w, "evict (us)", e->evict_ns);
		arg_result(w, true, e->evict_ret);
	}
	if (e->restored)
		arg_us(w, "restore (us)", e->restore_ns);
	else
		arg_s(w, "restored", "not in the file");
	snprintf(name, sizeof(name), "evicted (%s)", why);
	slice_on(w, lane(w, T_KFDQ_EVICTIONS, e->pid, from, to < from ? from : to), from, to, name);
}

static void snapshots(struct kfd_writer *w)
{
	const struct kfd_snapshots *s = kfd_snapshots_of(w->p->a);
	uint64_t track = 0;
	char name[48];
	int i;

	for (i = 0; i < s->nr; i++) {
		const struct kfd_snapshot *snap = &s->snaps[i];

		if (!track)
			track = perfetto_named_track(w->p, T_KFD_SNAPSHOTS, 0, root(w),
						     "debugfs snapshots");
		w->nr_args = 0;
		arg_u(w, "processes", (uint64_t)snap->nr_processes);
		arg_u(w, "MQDs", (uint64_t)snap->nr_mqds);
		arg_u(w, "HQDs", (uint64_t)snap->nr_hqds);
		if (snap->error[0])
			arg_s(w, "error", snap->error);
		snprintf(name, sizeof(name), "snapshot (%s)", snap->why);
		perfetto_event(w->p, &(struct pf_event){ .ts = snap->ts, .track = track,
							 .type = PF_INSTANT, .name = -1,
							 .name_str = name, .args = w->args,
							 .nr_args = w->nr_args });
	}
}

void perfetto_kfd_probes(struct perfetto_export *p)
{
	const struct kfd_queue_table *t = kfd_queue_table_of(p->a);
	struct kfd_writer w = { .p = p };
	uint64_t key;
	void *val;
	size_t at = 0;
	int i;

	for (i = 0; i < t->nr_queues; i++)
		queue(&w, &t->queues[i], i);
	for (i = 0; i < t->nr_calls; i++)
		call(&w, &t->calls[i]);
	for (i = 0; i < t->nr_evicts; i++)
		eviction(&w, &t->evicts[i]);
	snapshots(&w);
	while (keymap_next(&w.lanes, &at, &key, &val)) {
		free(((struct pf_lanes *)val)->ends);
		free(val);
	}
	keymap_free(&w.lanes);
}
