// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "analysis/kfd-queues.h"
#include "analysis/analysis.h"
#include "decode/event-fields.h"
#include "decode/kfd-names.h"

/* What an operation's records need while it is open, beside its row in the model */
struct kfd_op_live {
	bool open;
	int depth;			/* the root's call depth, for its exit */
};

/*
 * The join's state: what it found (the model kfd_queues_of() hands out), and live[i]
 * for model.ops[i]
 */
struct kfd_queues_state {
	struct kfd_queues model;
	struct kfd_op_live *live;
};

struct kfd_root {
	const char *func;
	enum kfd_op_type type;
	bool only_if_idle;	/* a root only when no ioctl is open on the pid */
};

/* reference/kernel-events.md section 4: the ioctl and worker entry points */
static const struct kfd_root roots[] = {
	{ "kfd_ioctl_create_queue", KFD_OP_CREATE, false },
	{ "kfd_ioctl_update_queue", KFD_OP_UPDATE, false },
	{ "kfd_ioctl_destroy_queue", KFD_OP_DESTROY, false },
	{ "kfd_process_evict_queues", KFD_OP_EVICT, false },
	{ "kfd_process_restore_queues", KFD_OP_RESTORE, false },
	{ "evict_process_queues_cpsch", KFD_OP_EVICT, true },
	{ "evict_process_queues_nocpsch", KFD_OP_EVICT, true },
	{ "restore_process_queues_cpsch", KFD_OP_RESTORE, true },
	{ "restore_process_queues_nocpsch", KFD_OP_RESTORE, true },
};

/* The steps under them that say where the time went. */
static const char *const steps[] = {
	"kfd_alloc_process_doorbells", "kfd_queue_acquire_buffers", "pqm_create_queue",
	"pqm_update_queue_properties", "pqm_destroy_queue", "register_process",
	"init_user_queue", "create_queue_cpsch", "create_queue_nocpsch",
	"destroy_queue_cpsch", "destroy_queue_nocpsch", "update_queue",
	"allocate_doorbell", "deallocate_doorbell", "allocate_sdma_queue",
	"allocate_hqd", "allocate_vmid", "allocate_mqd", "init_mqd",
	"init_mqd_v9_4_3", "init_mqd_sdma", "init_mqd_hiq", "load_mqd",
	"load_mqd_v9_4_3", "update_mqd", "update_mqd_v9_4_3", "kfd_destroy_mqd_cp",
	"kfd_free_mqd_cp", "execute_queues_cpsch", "map_queues_cpsch",
	"unmap_queues_cpsch", "pm_send_runlist", "pm_send_unmap_queue",
	"add_queue_mes", "remove_queue_mes", "evict_process_queues_cpsch",
	"evict_process_queues_nocpsch", "restore_process_queues_cpsch",
	"restore_process_queues_nocpsch", "kgd_gfx_v9_hqd_load", "kgd_hqd_load",
	"hqd_load_v11", NULL
};

const char *kfd_op_name(enum kfd_op_type t)
{
	static const char *const names[KFD_OP_NR] = {
		"create", "update", "destroy", "evict", "restore"
	};

	return t < KFD_OP_NR ? names[t] : "?";
}

static const struct kfd_root *root_of(const char *func)
{
	size_t i;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!strcmp(roots[i].func, func))
			return &roots[i];
	return NULL;
}

static const char *step_of(const char *func)
{
	int i;

	for (i = 0; steps[i]; i++)
		if (!strcmp(steps[i], func))
			return steps[i];
	return NULL;
}

bool kfd_is_queue_function(const char *func)
{
	return func && (root_of(func) || step_of(func));
}

bool kfd_is_function(const char *func)
{
	return func && (!strncmp(func, "kfd_", 4) || !strncmp(func, "pqm_", 4));
}

static struct kfd_op_live *live_of(struct kfd_queues_state *k, const struct kfd_op *op)
{
	return &k->live[op - k->model.ops];
}

static struct kfd_op *open_op(struct kfd_queues_state *k, int pid)
{
	int i;

	for (i = k->model.nr_ops - 1; i >= 0; i--)
		if (k->live[i].open && k->model.ops[i].pid == pid)
			return &k->model.ops[i];
	return NULL;
}

static struct kfd_op *start_op(struct kfd_queues_state *k, const struct kfd_root *r,
			       const struct gpu_event *ev)
{
	struct kfd_queues *m = &k->model;
	struct kfd_op *op;

	if (m->nr_ops == m->cap_ops) {
		int cap = m->cap_ops ? m->cap_ops * 2 : 16;
		struct kfd_op *n = realloc(m->ops, sizeof(*n) * (size_t)cap);
		struct kfd_op_live *l;

		if (!n)
			return NULL;
		m->ops = n;
		l = realloc(k->live, sizeof(*l) * (size_t)cap);
		if (!l)
			return NULL;
		k->live = l;
		m->cap_ops = cap;
	}
	op = &m->ops[m->nr_ops];
	memset(op, 0, sizeof(*op));
	op->type = r->type;
	op->pid = ev->pid;
	op->root = r->func;
	op->start = ev->ts;
	k->live[m->nr_ops++] = (struct kfd_op_live){ .open = true, .depth = ev->depth };
	return op;
}

static void add_step(struct kfd_op *op, const char *func, uint64_t start,
		     uint64_t duration, bool has_duration)
{
	if (op->nr_steps == KFD_MAX_STEPS) {
		op->more_steps++;
		return;
	}
	op->steps[op->nr_steps++] = (struct kfd_step){ func, start, duration, has_duration };
}

/* one KFD queue-path function record; @func: its name (from kallsyms), NULL if unknown */
static void kfd_queues_add(struct kfd_queues_state *k, const struct gpu_event *ev,
			   const char *func)
{
	const struct kfd_root *r;
	const char *step;
	struct kfd_op *op;

	if (!func)
		return;
	k->model.func_records++;
	k->model.kfd_records++;
	r = root_of(func);
	step = step_of(func);
	op = open_op(k, ev->pid);
	switch (ev->kind) {
	case GEV_FUNC:
		/* order only: an op lasts until the next root on its pid */
		if (r && (!r->only_if_idle || !op)) {
			if (op)
				live_of(k, op)->open = false;
			start_op(k, r, ev);
		} else if (step && op) {
			add_step(op, step, ev->ts, 0, false);
		}
		break;
	case GEV_FUNC_ENTRY:
		k->model.graph = true;
		if (r && (!r->only_if_idle || !op))
			start_op(k, r, ev);
		break;
	case GEV_FUNC_EXIT:
		k->model.graph = true;
		if (op && op->root == (r ? r->func : NULL) && ev->depth == live_of(k, op)->depth) {
			op->duration = ev->duration;
			op->has_duration = true;
			live_of(k, op)->open = false;
		} else if (op && step) {
			add_step(op, step, ev->ts > ev->duration ? ev->ts - ev->duration : ev->ts,
				 ev->duration, true);
		}
		break;
	default:
		break;
	}
}

/* everything the join holds */
static void kfd_queues_free(struct kfd_queues_state *k)
{
	free(k->model.ops);
	free(k->live);
	memset(k, 0, sizeof(*k));
}

/* The join (analysis-joins.h): the function tracer's records of KFD's paths */
const struct kfd_queues *kfd_queues_of(const struct analysis *a)
{
	const struct kfd_queues_state *k = analysis_state(a, JOIN_KFD_FUNCTIONS);

	return k ? &k->model : NULL;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct kfd_queues_state *k = state;
	const char *func;

	if (r->kind != GEV_FUNC && r->kind != GEV_FUNC_ENTRY && r->kind != GEV_FUNC_EXIT)
		return;
	func = event_function_name(analysis_tep(a), r->ev.func_ip);
	if (kfd_is_queue_function(func))
		kfd_queues_add(k, &r->ev, func);
	else if (kfd_is_function(func))
		k->model.kfd_records++;	/* KFD, but no queue path */
	r->taken = true;
}

static void join_free(void *state)
{
	kfd_queues_free(state);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct kfd_queues_state *k = state;

	(void)a;
	return k->model.kfd_records;
}

static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)a;
	(void)state;
	return JOIN_KIND(GEV_FUNC) | JOIN_KIND(GEV_FUNC_ENTRY) | JOIN_KIND(GEV_FUNC_EXIT);
}

const struct analysis_join kfd_queues_join = {
	.name = "KFD functions",
	.state_size = sizeof(struct kfd_queues_state),
	.record = join_record,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
