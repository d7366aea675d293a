// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kfd-queue-table-private.h"
#include "decode/event-fields.h"
#include "analysis/analysis.h"

static const struct {
	const char *name;
	enum kfd_probe_kind kind;
} probe_names[] = {
	{ "kfd_create_queue", KP_CREATE }, { "kfd_create_queue_ret", KP_CREATE_RET },
	{ "kfd_destroy_queue", KP_DESTROY }, { "kfd_destroy_queue_ret", KP_DESTROY_RET },
	{ "kfd_update_queue", KP_UPDATE }, { "kfd_update_queue_ret", KP_UPDATE_RET },
	{ "kfd_evict_queues", KP_EVICT }, { "kfd_evict_queues_ret", KP_EVICT_RET },
	{ "kfd_restore_queues", KP_RESTORE }, { "kfd_restore_queues_ret", KP_RESTORE_RET },
};

const char *kfd_id_from_name(enum kfd_id_from f)
{
	switch (f) {
	case KFD_FROM_RETPROBE:
		return "return probe";
	case KFD_FROM_PR_DEBUG:
		return "pr_debug";
	default:
		return "none";
	}
}

void kfd_queue_table_init(struct kfd_queue_table_state *t, struct tep_handle *tep)
{
	struct tep_event **evs = tep_list_events(tep, TEP_EVENT_SORT_ID);
	struct event_fields console_fields;
	struct tep_event *console = event_fields_find(&console_fields, tep, "printk", "console",
						      NULL) ? console_fields.event : NULL;
	size_t p;
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; evs && evs[i] && t->nr_formats < KFD_TABLE_MAX_FORMATS - 1; i++) {
		if (!kfd_probe_group_pid(evs[i]->system))
			continue;
		for (p = 0; p < sizeof(probe_names) / sizeof(probe_names[0]); p++) {
			if (strcmp(evs[i]->name, probe_names[p].name))
				continue;
			t->formats[t->nr_formats].id = evs[i]->id;
			t->formats[t->nr_formats].kind = probe_names[p].kind;
			t->formats[t->nr_formats++].event = evs[i];
		}
	}
	t->model.probes = t->nr_formats > 0;
	if (t->model.probes && console) {
		t->formats[t->nr_formats].id = console->id;
		t->formats[t->nr_formats].kind = KP_CONSOLE;
		t->formats[t->nr_formats++].event = console;
	}
}

static bool field(struct tep_event *ev, struct tep_record *rec, const char *name, uint64_t *v)
{
	unsigned long long val;

	/* a cut record (a fuzzer's, a damaged file) has no such field */
	if (!event_field_named(ev, name, rec, &val))
		return false;
	*v = val;
	return true;
}

static uint64_t num(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	uint64_t v = 0;

	field(ev, rec, name, &v);
	return v;
}

static int ret_of(struct tep_event *ev, struct tep_record *rec)
{
	return (int)(int32_t)(uint32_t)num(ev, rec, "ret");
}

static void *grow(void *arr, int *cap, size_t size)
{
	int n = *cap ? *cap * 2 : 16;
	void *p = realloc(arr, size * (size_t)n);

	if (p)
		*cap = n;
	return p;
}

static struct kfd_pending *push_pending(struct kfd_queue_table_state *t, int tid,
					enum kfd_probe_kind kind, uint64_t ts)
{
	struct kfd_pending *p;

	if (t->nr_pending == KFD_TABLE_MAX_PENDING) {
		/* a return never seen (the recording stopped inside a call) */
		memmove(t->pending, t->pending + 1, sizeof(t->pending[0]) * (KFD_TABLE_MAX_PENDING - 1));
		t->nr_pending--;
	}
	p = &t->pending[t->nr_pending++];
	memset(p, 0, sizeof(*p));
	p->tid = tid;
	p->kind = kind;
	p->ts = ts;
	p->index = -1;
	return p;
}

/* The open call of this kind on this thread; removed when take. */
static bool pop_pending(struct kfd_queue_table_state *t, int tid, enum kfd_probe_kind kind,
			struct kfd_pending *out, bool take)
{
	int i;

	for (i = t->nr_pending - 1; i >= 0; i--) {
		if (t->pending[i].tid != tid || t->pending[i].kind != kind)
			continue;
		*out = t->pending[i];
		if (take) {
			memmove(t->pending + i, t->pending + i + 1,
				sizeof(t->pending[0]) * (size_t)(t->nr_pending - i - 1));
			t->nr_pending--;
		}
		return true;
	}
	return false;
}

static int pid_of_process(const struct kfd_queue_table_state *t, uint64_t process)
{
	int i;

	for (i = t->model.nr_queues - 1; i >= 0; i--)
		if (t->model.queues[i].process == process)
			return t->model.queues[i].pid;
	return 0;
}

static bool live(const struct kfd_queue *q)
{
	return q->has_result && !q->result && !q->destroyed;
}

static struct kfd_queue *find_queue(struct kfd_queue_table_state *t, uint64_t process, uint32_t id)
{
	int i;

	for (i = t->model.nr_queues - 1; i >= 0; i--)
		if (live(&t->model.queues[i]) && t->model.queues[i].has_id &&
		    t->model.queues[i].process == process && t->model.queues[i].queue_id == id)
			return &t->model.queues[i];
	return NULL;
}

static void on_create(struct kfd_queue_table_state *t, struct tep_event *ev,
		      struct tep_record *rec, int pid)
{
	struct kfd_queue *q;

	if (t->model.nr_queues == t->model.cap_queues) {
		struct kfd_queue *n = grow(t->model.queues, &t->model.cap_queues, sizeof(*n));

		if (!n)
			return;
		t->model.queues = n;
	}
	q = &t->model.queues[t->model.nr_queues];
	memset(q, 0, sizeof(*q));
	q->pid = pid;
	q->created = rec->ts;
	q->process = num(ev, rec, "process");
	q->ring = num(ev, rec, "ring");
	q->wptr = num(ev, rec, "wptr");
	q->rptr = num(ev, rec, "rptr");
	q->ring_size = (uint32_t)num(ev, rec, "ring_size");
	q->gpu_id = (uint32_t)num(ev, rec, "gpu_id");
	q->type = (uint32_t)num(ev, rec, "type");
	q->percentage = (uint32_t)num(ev, rec, "percentage");
	q->priority = (uint32_t)num(ev, rec, "priority");
	q->eop = num(ev, rec, "eop");
	q->eop_size = num(ev, rec, "eop_size");
	q->ctx_save = num(ev, rec, "ctx_save");
	q->ctx_save_size = (uint32_t)num(ev, rec, "ctx_save_size");
	push_pending(t, pid, KP_CREATE, rec->ts)->index = t->model.nr_queues++;
}

static void on_create_ret(struct kfd_queue_table_state *t, struct tep_event *ev,
			  struct tep_record *rec, int tid)
{
	struct kfd_pending p;
	struct kfd_queue *q;
	uint64_t v;

	if (!pop_pending(t, tid, KP_CREATE, &p, true) || p.index < 0)
		return;
	q = &t->model.queues[p.index];
	q->has_result = true;
	q->result = ret_of(ev, rec);
	q->create_ns = rec->ts - q->created;
	if (q->result)
		return;
	q->reason[0] = '\0';
	if (field(ev, rec, "queue_id", &v)) {
		q->has_id = true;
		q->queue_id = (uint32_t)v;
		q->id_from = KFD_FROM_RETPROBE;
	}
	if (field(ev, rec, "doorbell_offset", &v)) {
		q->has_doorbell = true;
		q->doorbell_offset = v;
	}
}

/* printk:console's msg (__data_loc: low 16 bits offset, high 16 length), inside the record */
static const char *console_text(struct tep_event *ev, struct tep_record *rec, int *len)
{
	uint64_t loc;
	unsigned int off, n;

	if (!field(ev, rec, "msg", &loc))
		return NULL;
	off = (unsigned int)(loc & 0xffff);
	n = (unsigned int)(loc >> 16 & 0xffff);
	if (off >= (unsigned int)rec->size || !n)
		return NULL;
	if (n > (unsigned int)rec->size - off)
		n = (unsigned int)rec->size - off;
	*len = (int)n;
	return (const char *)rec->data + off;
}

/* kfd_ioctl_create_queue's pr_debug lines, in the caller's context */
static void on_console(struct kfd_queue_table_state *t, struct tep_event *ev,
		       struct tep_record *rec, int tid)
{
	struct kfd_pending p;
	struct kfd_queue *q;
	const char *msg, *id;
	int len = 0;
	char line[128];

	if (!pop_pending(t, tid, KP_CREATE, &p, false) || p.index < 0)
		return;
	msg = console_text(ev, rec, &len);
	if (!msg)
		return;
	snprintf(line, sizeof(line), "%.*s", len, msg);
	line[strcspn(line, "\n")] = '\0';
	q = &t->model.queues[p.index];
	id = strstr(line, "Queue id ");
	if (id && strstr(line, "was created successfully")) {
		q->has_id = true;
		q->queue_id = (uint32_t)strtoul(id + strlen("Queue id "), NULL, 10);
		q->id_from = KFD_FROM_PR_DEBUG;
	} else {
		snprintf(q->reason, sizeof(q->reason), "%s", line);
	}
}

/* The update or destroy that returned: one call, and its queue if known. */
static struct kfd_queue *end_call(struct kfd_queue_table_state *t, enum kfd_probe_kind kind,
				  struct tep_event *ev, struct tep_record *rec, int tid,
				  struct kfd_pending *p)
{
	struct kfd_queue *q;
	struct kfd_call *c;

	if (!pop_pending(t, tid, kind, p, true))
		return NULL;
	q = find_queue(t, p->process, p->queue_id);
	if (t->model.nr_calls == t->model.cap_calls) {
		struct kfd_call *n = grow(t->model.calls, &t->model.cap_calls, sizeof(*n));

		if (!n)
			return NULL;
		t->model.calls = n;
	}
	c = &t->model.calls[t->model.nr_calls++];
	*c = (struct kfd_call){ .kind = kind, .pid = tid, .ts = p->ts, .ns = rec->ts - p->ts,
				.process = p->process, .queue_id = p->queue_id, .has_ret = true,
				.ret = ret_of(ev, rec), .matched = q != NULL };
	if (c->ret) {
		if (kind == KP_DESTROY)
			t->model.failed_destroys++;
		return NULL;
	}
	if (!q && kind == KP_DESTROY)
		t->model.unknown_destroys++;
	return q;
}

static void on_destroy_ret(struct kfd_queue_table_state *t, struct tep_event *ev,
			   struct tep_record *rec, int tid)
{
	struct kfd_pending p;
	struct kfd_queue *q = end_call(t, KP_DESTROY, ev, rec, tid, &p);

	if (!q)
		return;
	q->destroyed = true;
	q->destroyed_at = rec->ts;
}

static void on_update_ret(struct kfd_queue_table_state *t, struct tep_event *ev,
			  struct tep_record *rec, int tid)
{
	struct kfd_pending p;
	struct kfd_queue *q = end_call(t, KP_UPDATE, ev, rec, tid, &p);

	if (!q)
		return;
	q->updates++;
	q->ring = p.ring;
	q->ring_size = p.ring_size;
	q->percentage = p.percentage;
	q->priority = p.priority;
}

static struct kfd_evict *new_evict(struct kfd_queue_table_state *t, uint64_t process)
{
	struct kfd_evict *e;

	if (t->model.nr_evicts == t->model.cap_evicts) {
		struct kfd_evict *n = grow(t->model.evicts, &t->model.cap_evicts, sizeof(*n));

		if (!n)
			return NULL;
		t->model.evicts = n;
	}
	e = &t->model.evicts[t->model.nr_evicts++];
	memset(e, 0, sizeof(*e));
	e->process = process;
	e->pid = pid_of_process(t, process);
	return e;
}

static void on_evict(struct kfd_queue_table_state *t, struct tep_event *ev,
		     struct tep_record *rec, int tid)
{
	struct kfd_evict *e = new_evict(t, num(ev, rec, "process"));
	uint64_t trigger = 0;
	int i;

	if (!e)
		return;
	e->tid = tid;
	e->start = rec->ts;
	e->has_trigger = field(ev, rec, "trigger", &trigger);
	e->trigger = (uint32_t)trigger;
	for (i = 0; i < t->model.nr_queues; i++) {
		if (live(&t->model.queues[i]) && t->model.queues[i].process == e->process) {
			t->model.queues[i].evictions++;
			e->nr_queues++;
		}
	}
	push_pending(t, tid, KP_EVICT, rec->ts)->index = t->model.nr_evicts - 1;
}

static struct kfd_evict *open_evict(struct kfd_queue_table_state *t, uint64_t process)
{
	int i;

	for (i = t->model.nr_evicts - 1; i >= 0; i--)
		if (t->model.evicts[i].process == process && !t->model.evicts[i].restore_start)
			return &t->model.evicts[i];
	return NULL;
}

static void on_restore(struct kfd_queue_table_state *t, struct tep_event *ev,
		       struct tep_record *rec, int tid)
{
	uint64_t process = num(ev, rec, "process");
	struct kfd_evict *e = open_evict(t, process);

	if (!e)
		e = new_evict(t, process);	/* evicted before the recording */
	if (!e)
		return;
	e->restore_start = rec->ts;
	push_pending(t, tid, KP_RESTORE, rec->ts)->index = (int)(e - t->model.evicts);
}

static void on_evict_ret(struct kfd_queue_table_state *t, struct tep_event *ev,
			 struct tep_record *rec, int tid, bool restore)
{
	struct kfd_pending p;
	struct kfd_evict *e;
	int i;

	if (!pop_pending(t, tid, restore ? KP_RESTORE : KP_EVICT, &p, true) || p.index < 0)
		return;
	e = &t->model.evicts[p.index];
	if (!restore) {
		e->has_evict_ret = true;
		e->evict_ret = ret_of(ev, rec);
		e->evict_ns = rec->ts - e->start;
		return;
	}
	e->restored = true;
	e->restore_ret = ret_of(ev, rec);
	e->restore_ns = rec->ts - e->restore_start;
	for (i = 0; i < t->model.nr_queues; i++) {
		struct kfd_queue *q = &t->model.queues[i];

		if (!live(q) || q->process != e->process)
			continue;
		q->restores++;
		q->restore_call_ns += e->restore_ns;
		q->evict_call_ns += e->evict_ns;
		if (e->start)
			q->evicted_ns += rec->ts - e->start;
	}
}

bool kfd_queue_table_record(struct kfd_queue_table_state *t, struct tep_handle *tep,
			    struct tep_record *rec, int type)
{
	struct tep_event *ev = NULL;
	enum kfd_probe_kind kind = KP_NR;
	struct kfd_pending *p;
	int i, tid;

	for (i = 0; i < t->nr_formats && !ev; i++) {
		if (t->formats[i].id == type) {
			ev = t->formats[i].event;
			kind = t->formats[i].kind;
		}
	}
	if (!ev)
		return false;
	tid = tep_data_pid(tep, rec);
	if (kind != KP_CONSOLE)
		t->model.records++;
	switch (kind) {
	case KP_CREATE:
		on_create(t, ev, rec, tid);
		break;
	case KP_CREATE_RET:
		on_create_ret(t, ev, rec, tid);
		break;
	case KP_CONSOLE:
		on_console(t, ev, rec, tid);
		break;
	case KP_DESTROY:
	case KP_UPDATE:
		p = push_pending(t, tid, kind, rec->ts);
		p->process = num(ev, rec, "process");
		p->queue_id = (uint32_t)num(ev, rec, "queue_id");
		p->ring = num(ev, rec, "ring");
		p->ring_size = (uint32_t)num(ev, rec, "ring_size");
		p->percentage = (uint32_t)num(ev, rec, "percentage");
		p->priority = (uint32_t)num(ev, rec, "priority");
		break;
	case KP_DESTROY_RET:
		on_destroy_ret(t, ev, rec, tid);
		break;
	case KP_UPDATE_RET:
		on_update_ret(t, ev, rec, tid);
		break;
	case KP_EVICT:
		on_evict(t, ev, rec, tid);
		break;
	case KP_RESTORE:
		on_restore(t, ev, rec, tid);
		break;
	case KP_EVICT_RET:
	case KP_RESTORE_RET:
		on_evict_ret(t, ev, rec, tid, kind == KP_RESTORE_RET);
		break;
	default:
		break;
	}
	return kind != KP_CONSOLE;
}

const struct kfd_queue *kfd_queue_table_find_ring(const struct kfd_queue_table *t, int pid,
						  uint64_t ring, uint64_t by)
{
	int i;

	for (i = t->nr_queues - 1; i >= 0; i--)
		if (t->queues[i].pid == pid && t->queues[i].ring == ring &&
		    t->queues[i].has_result && !t->queues[i].result && t->queues[i].created <= by)
			return &t->queues[i];
	return NULL;
}

void kfd_queue_table_free(struct kfd_queue_table_state *t)
{
	free(t->model.queues);
	free(t->model.evicts);
	free(t->model.calls);
	memset(t, 0, sizeof(*t));
}

/* The join (analysis-joins.h): record --kfd-args's probe events */
const struct kfd_queue_table *kfd_queue_table_of(const struct analysis *a)
{
	const struct kfd_queue_table_state *t = analysis_state(a, JOIN_KFD_PROBES);

	return t ? &t->model : NULL;
}

static int join_init(void *state, struct analysis *a)
{
	kfd_queue_table_init(state, analysis_tep(a));
	return 0;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct kfd_queue_table_state *t = state;

	if (r->kind == GEV_NONE && t->nr_formats &&
	    kfd_queue_table_record(t, analysis_tep(a), r->rec, r->type))
		r->taken = true;
}

static void join_free(void *state)
{
	kfd_queue_table_free(state);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct kfd_queue_table_state *t = state;

	(void)a;
	return t->model.records;
}

static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)a;
	const struct kfd_queue_table_state *t = state;

	return t->nr_formats ? JOIN_KIND(GEV_NONE) : 0;
}

const struct analysis_join kfd_queue_table_join = {
	.name = "KFD probe events",
	.state_size = sizeof(struct kfd_queue_table_state),
	.init = join_init,
	.record = join_record,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
