// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "analysis/nvidia-calls.h"
#include "decode/event-fields.h"
#include "analysis/analysis.h"

#define NV_MAX_PENDING		256

/* the fields the join reads, found once per format */
enum nv_field { NVF_CMD, NVF_XFER_ESCAPE, NVF_CTL_CMD, NVF_XFER_CTL_CMD, NVF_RET, NVF_STATUS,
		NVF_XFER_STATUS, NVF_IRQ, NVF_START, NVF_END, NVF_GPU, NVF_CODE, NVF_DEV, NVF_MSG,
		NVF_NR };

struct nv_format {
	int id;
	enum nv_probe_kind kind;	/* NVP_NR: nvidia_dev_xid */
	struct event_fields fields;		/* field_names[], by enum nv_field */
};

struct nv_pending {
	int key;			/* the thread; -1 - CPU for an ISR */
	enum nv_probe_kind kind;	/* the entry */
	uint64_t ts;
	int pid;
	int irq;
	uint32_t escape, ctl_cmd, xfer_escape;
	bool has_cmd;
	uint64_t bytes, gpu;
};

/* The join's state: what it found (the model nvidia_calls_of() hands out) and how it reads */
struct nvidia_calls_state {
	struct nvidia_calls model;
	struct nv_format formats[NVP_NR + 1];
	struct nv_pending pending[NV_MAX_PENDING];
	int nr_pending;
};

_Static_assert(NVF_NR <= EVENT_FIELDS_MAX, "event_fields keeps EVENT_FIELDS_MAX fields");

/* NULL-terminated: event_fields_of() reads names up to it */
static const char *const field_names[NVF_NR + 1] = {
	[NVF_CMD] = "cmd", [NVF_XFER_ESCAPE] = "xfer_escape", [NVF_CTL_CMD] = "ctl_cmd",
	[NVF_XFER_CTL_CMD] = "xfer_ctl_cmd", [NVF_RET] = "ret", [NVF_STATUS] = "status",
	[NVF_XFER_STATUS] = "xfer_status", [NVF_IRQ] = "irq", [NVF_START] = "start",
	[NVF_END] = "end", [NVF_GPU] = "gpu", [NVF_CODE] = "error_code", [NVF_DEV] = "dev",
	[NVF_MSG] = "msg",
};

static void add_format(struct nvidia_calls_state *n, struct tep_event *ev, enum nv_probe_kind kind)
{
	struct nv_format *fm = &n->formats[n->model.nr_formats++];

	event_fields_of(&fm->fields, ev, field_names);
	fm->id = fm->fields.id;
	fm->kind = kind;
}

/* empty; finds the probe group's and nvidia_dev_xid's formats in @tep */
static void nvidia_calls_init(struct nvidia_calls_state *n, struct tep_handle *tep)
{
	struct tep_event **evs = tep_list_events(tep, TEP_EVENT_SORT_ID);
	const struct event_fields *fields;
	struct event_fields xid;
	int i;

	memset(n, 0, sizeof(*n));
	for (i = 0; evs && evs[i] && n->model.nr_formats < NVP_NR; i++) {
		enum nv_probe_kind kind;

		if (!nv_probe_group_pid(evs[i]->system))
			continue;
		kind = nv_probe_kind_of(evs[i]->name);
		if (kind == NVP_NR)
			continue;
		add_format(n, evs[i], kind);
		fields = &n->formats[n->model.nr_formats - 1].fields;
		if (kind == NVP_IOCTL_RET)
			n->model.statuses = event_field_has(fields, NVF_STATUS);
		if (kind == NVP_IOCTL)
			n->model.commands = event_field_has(fields, NVF_CTL_CMD);
	}
	n->model.probes = n->model.nr_formats > 0;
	if (event_fields_find(&xid, tep, "nvidia", "nvidia_dev_xid", NULL))
		add_format(n, xid.event, NVP_NR);
}

static bool field(const struct nv_format *fm, struct tep_record *rec, enum nv_field f, uint64_t *v)
{
	unsigned long long val;

	/* a cut record (a fuzzer's, a damaged file) has no such field */
	if (!event_field_num(&fm->fields, f, rec, &val))
		return false;
	*v = val;
	return true;
}

static uint64_t num(const struct nv_format *fm, struct tep_record *rec, enum nv_field f)
{
	uint64_t v = 0;

	field(fm, rec, f, &v);
	return v;
}

static struct nv_pending *push_pending(struct nvidia_calls_state *n, int key,
				       enum nv_probe_kind kind, uint64_t ts, int pid)
{
	struct nv_pending *p;

	if (n->nr_pending == NV_MAX_PENDING) {
		/* a return never seen (the recording stopped inside a call) */
		memmove(n->pending, n->pending + 1, sizeof(n->pending[0]) * (NV_MAX_PENDING - 1));
		n->nr_pending--;
	}
	p = &n->pending[n->nr_pending++];
	memset(p, 0, sizeof(*p));
	p->key = key;
	p->kind = kind;
	p->ts = ts;
	p->pid = pid;
	return p;
}

/* the latest open entry of this kind for this key; taken off the list when @take */
static bool pop_pending(struct nvidia_calls_state *n, int key, enum nv_probe_kind kind,
			struct nv_pending *out, bool take)
{
	int i;

	for (i = n->nr_pending - 1; i >= 0; i--) {
		if (n->pending[i].key != key || n->pending[i].kind != kind)
			continue;
		if (out)
			*out = n->pending[i];
		if (take) {
			memmove(n->pending + i, n->pending + i + 1,
				sizeof(n->pending[0]) * (size_t)(n->nr_pending - i - 1));
			n->nr_pending--;
		}
		return true;
	}
	return false;
}

static struct nv_process *process(struct nvidia_calls_state *n, int pid)
{
	int i;

	for (i = 0; i < n->model.nr_procs; i++)
		if (n->model.procs[i].pid == pid)
			return &n->model.procs[i];
	if (!n->model.procs)
		n->model.procs = calloc(NV_MAX_PROCESSES, sizeof(*n->model.procs));
	if (!n->model.procs || n->model.nr_procs == NV_MAX_PROCESSES) {
		n->model.more_procs++;
		return NULL;
	}
	n->model.procs[n->model.nr_procs].pid = pid;
	return &n->model.procs[n->model.nr_procs++];
}

static struct nv_call_row *call_row(struct nvidia_calls_state *n, const struct nv_pending *p)
{
	struct nv_call_row *r;
	int i;

	for (i = 0; i < n->model.nr_rows; i++) {
		r = &n->model.rows[i];
		if (r->pid == p->pid && r->escape == p->escape && r->has_cmd == p->has_cmd &&
		    r->ctl_cmd == p->ctl_cmd)
			return r;
	}
	if (n->model.nr_rows == NV_MAX_CALL_ROWS)
		return NULL;
	if (n->model.nr_rows == n->model.cap_rows) {
		int cap = n->model.cap_rows ? n->model.cap_rows * 2 : 16;
		struct nv_call_row *rows = realloc(n->model.rows, sizeof(*rows) * (size_t)cap);

		if (!rows)
			return NULL;
		n->model.rows = rows;
		n->model.cap_rows = cap;
	}
	r = &n->model.rows[n->model.nr_rows++];
	memset(r, 0, sizeof(*r));
	r->pid = p->pid;
	r->escape = p->escape;
	r->ctl_cmd = p->ctl_cmd;
	r->has_cmd = p->has_cmd;
	return r;
}

static void keep_slow(struct nvidia_calls_state *n, const struct nv_slow_call *c)
{
	int i;

	if (n->model.nr_slowest == NV_SLOWEST && c->ns <= n->model.slowest[NV_SLOWEST - 1].ns)
		return;
	i = n->model.nr_slowest < NV_SLOWEST ? n->model.nr_slowest++ : NV_SLOWEST - 1;
	for (; i > 0 && n->model.slowest[i - 1].ns < c->ns; i--)
		n->model.slowest[i] = n->model.slowest[i - 1];
	n->model.slowest[i] = *c;
}

/*
 * The escape from the ioctl's number (_IOWR('F', escape, size)); a transfer
 * (NV_ESC_IOCTL_XFER_CMD) is counted as the escape it carries, as the driver runs it.
 */
static void ioctl_entry(struct nvidia_calls_state *n, const struct nv_format *fm,
			struct tep_record *rec, int tid)
{
	uint32_t cmd = (uint32_t)num(fm, rec, NVF_CMD);
	struct nv_pending *p = push_pending(n, tid, NVP_IOCTL, rec->ts, tid);
	uint64_t v;

	p->escape = cmd & 0xff;
	if (p->escape == NV_ESC_IOCTL_XFER_CMD && field(fm, rec, NVF_XFER_ESCAPE, &v)) {
		p->xfer_escape = (uint32_t)v;
		p->escape = (uint32_t)v & 0xff;
		p->has_cmd = p->escape == NV_ESC_RM_CONTROL && field(fm, rec, NVF_XFER_CTL_CMD, &v);
	} else {
		p->has_cmd = p->escape == NV_ESC_RM_CONTROL && field(fm, rec, NVF_CTL_CMD, &v);
	}
	if (p->has_cmd)
		p->ctl_cmd = (uint32_t)v;
}

static void ioctl_return(struct nvidia_calls_state *n, const struct nv_format *fm,
			 struct tep_record *rec, const struct nv_pending *p, int tid)
{
	struct nv_slow_call c = { .ts = p->ts, .ns = rec->ts - p->ts, .tid = tid,
				  .escape = p->escape, .ctl_cmd = p->ctl_cmd, .has_cmd = p->has_cmd };
	struct nv_call_row *row = call_row(n, p);
	struct nv_process *proc = process(n, p->pid);
	uint64_t v;

	c.ret = (int64_t)num(fm, rec, NVF_RET);
	/* RM's answer: in the parameters the caller passed, or in the transfer's */
	if (p->escape == NV_ESC_RM_CONTROL &&
	    field(fm, rec, p->xfer_escape ? NVF_XFER_STATUS : NVF_STATUS, &v)) {
		c.has_status = true;
		c.status = (uint32_t)v;
	}
	if (row) {
		latency_stats_add(&row->ns, c.ns);
		row->failed += c.ret != 0;
		row->statuses += c.has_status;
		row->rm_errors += c.has_status && c.status;
	} else {
		n->model.more_rows++;
	}
	if (proc) {
		proc->ioctls++;
		proc->ioctl_ns += c.ns;
	}
	keep_slow(n, &c);
	n->model.done.kind = NVD_IOCTL;
	n->model.done.call = c;
}

static struct nv_irq *irq_line(struct nvidia_calls_state *n, int irq)
{
	int i;

	for (i = 0; i < n->model.nr_irqs; i++)
		if (n->model.irqs[i].irq == irq)
			return &n->model.irqs[i];
	if (n->model.nr_irqs == NV_MAX_IRQS)
		return NULL;
	if (!n->model.irqs && !(n->model.irqs = calloc(NV_MAX_IRQS, sizeof(*n->model.irqs))))
		return NULL;
	n->model.irqs[n->model.nr_irqs].irq = irq;
	return &n->model.irqs[n->model.nr_irqs++];
}

static struct nv_uvm *uvm_row(struct nvidia_calls_state *n, bool replayable, uint64_t gpu)
{
	int i;

	for (i = 0; i < n->model.nr_uvm; i++)
		if (n->model.uvm[i].replayable == replayable && n->model.uvm[i].gpu == gpu)
			return &n->model.uvm[i];
	if (n->model.nr_uvm == NV_MAX_UVM)
		return NULL;
	if (!n->model.uvm && !(n->model.uvm = calloc(NV_MAX_UVM, sizeof(*n->model.uvm))))
		return NULL;
	n->model.uvm[n->model.nr_uvm].replayable = replayable;
	n->model.uvm[n->model.nr_uvm].gpu = gpu;
	return &n->model.uvm[n->model.nr_uvm++];
}

static void xid(struct nvidia_calls_state *n, const struct nv_format *fm, struct tep_record *rec,
		int pid)
{
	struct nv_xid *x;

	if (!n->model.xids)
		n->model.xids = calloc(NV_MAX_XIDS, sizeof(*n->model.xids));
	if (!n->model.xids || n->model.nr_xids == NV_MAX_XIDS) {
		n->model.more_xids++;
		return;
	}
	x = &n->model.xids[n->model.nr_xids++];
	x->ts = rec->ts;
	x->pid = pid;
	x->code = (uint32_t)num(fm, rec, NVF_CODE);
	event_field_str(&fm->fields, NVF_DEV, rec, x->dev, sizeof(x->dev));
	event_field_str(&fm->fields, NVF_MSG, rec, x->msg, sizeof(x->msg));
	n->model.done.xid = x;
}

/* an interrupt line's ISR: the first since its last bottom half began starts the wait */
static void isr_entry(struct nvidia_calls_state *n, enum nv_probe_kind kind, int cpu, int irq,
		      uint64_t ts)
{
	struct nv_irq *l = irq_line(n, irq);

	push_pending(n, -1 - cpu, kind, ts, 0)->irq = irq;
	if (!l) {
		n->model.more_isrs += kind != NVP_ISR_MSIX;
		return;
	}
	if (kind == NVP_ISR_MSIX) {
		l->msix++;
		return;
	}
	if (!l->isrs++)
		l->first = ts;
	l->last = ts;
	if (!l->waiting_since)
		l->waiting_since = ts;
}

static void bh_entry(struct nvidia_calls_state *n, enum nv_probe_kind kind, int tid, int irq,
		     uint64_t ts)
{
	struct nv_irq *l;

	/* a bottom half that calls the other (an MSI-X one the plain one) is one */
	if (pop_pending(n, tid, kind == NVP_BH ? NVP_BH_MSIX : NVP_BH, NULL, false)) {
		push_pending(n, tid, kind, ts, 0)->irq = -1;
		return;
	}
	push_pending(n, tid, kind, ts, 0)->irq = irq;
	l = irq_line(n, irq);
	if (!l)
		return;
	l->bhs++;
	if (l->waiting_since) {
		latency_stats_add(&l->to_bh_ns, ts - l->waiting_since);
		l->waiting_since = 0;
	}
}

static void other_return(struct nvidia_calls_state *n, enum nv_probe_kind entry,
			 const struct nv_format *fm, struct tep_record *rec,
			 const struct nv_pending *p)
{
	struct nv_process *proc;
	struct nv_irq *l;
	struct nv_uvm *u;
	int64_t ret = (int64_t)num(fm, rec, NVF_RET);
	uint64_t ns = rec->ts - p->ts;

	n->model.done.ret = ret;
	n->model.done.irq = p->irq;
	n->model.done.bytes = p->bytes;
	switch (entry) {
	case NVP_OPEN:
	case NVP_MMAP:
		n->model.done.kind = entry == NVP_OPEN ? NVD_OPEN : NVD_MMAP;
		proc = process(n, p->pid);
		if (proc && entry == NVP_OPEN) {
			proc->opens++;
			proc->open_failed += ret != 0;
		} else if (proc) {
			proc->mmaps++;
			proc->mmap_failed += ret != 0;
			proc->mmap_bytes += ret ? 0 : p->bytes;
		}
		break;
	case NVP_CLOSE:
		n->model.done.kind = NVD_CLOSE;
		proc = process(n, p->pid);
		if (proc)
			proc->closes++;
		break;
	case NVP_ISR:
		n->model.done.kind = NVD_ISR;
		n->model.done.tid = -1;
		l = p->irq >= 0 ? irq_line(n, p->irq) : NULL;
		if (l) {
			latency_stats_add(&l->isr_ns, ns);
			l->unhandled += ret == 0;	/* IRQ_NONE: not this device's */
		}
		break;
	case NVP_BH:
	case NVP_BH_MSIX:
		n->model.done.kind = p->irq >= 0 ? NVD_BH : NVD_NONE;	/* nested: drawn once */
		l = p->irq >= 0 ? irq_line(n, p->irq) : NULL;
		if (l)
			latency_stats_add(&l->bh_ns, ns);
		break;
	case NVP_UVM_REPLAYABLE:
	case NVP_UVM_NON_REPLAYABLE:
		u = uvm_row(n, entry == NVP_UVM_REPLAYABLE, p->gpu);
		if (u)
			latency_stats_add(&u->ns, ns);
		else
			n->model.more_uvm_passes++;
		n->model.done.kind = NVD_UVM;
		n->model.done.replayable = entry == NVP_UVM_REPLAYABLE;
		n->model.done.gpu = p->gpu;
		break;
	default:
		break;
	}
}

/* a new record: nothing finished yet (n->model.done) */
static void nvidia_calls_next(struct nvidia_calls_state *n)
{
	n->model.done.kind = NVD_NONE;
}

/*
 * one record (@type: its event id, @tid: its common_pid); true when it was one of theirs;
 * n->model.done what it finished
 */
static bool nvidia_calls_record(struct nvidia_calls_state *n, struct tep_record *rec, int type,
				int tid)
{
	int i;
	const struct nv_format *fm = NULL;
	enum nv_probe_kind kind, entry;
	struct nv_pending p, *np;
	int key;

	for (i = 0; i < n->model.nr_formats && !fm; i++)
		if (n->formats[i].id == type)
			fm = &n->formats[i];
	if (!fm)
		return false;
	kind = fm->kind;
	n->model.records++;
	if (kind == NVP_NR) {
		n->model.done = (struct nv_done){ .kind = NVD_XID, .from = rec->ts, .to = rec->ts,
					    .tid = tid };
		xid(n, fm, rec, tid);
		return true;
	}
	key = kind == NVP_ISR || kind == NVP_ISR_RET || kind == NVP_ISR_MSIX ||
	      kind == NVP_ISR_MSIX_RET ? -1 - rec->cpu : tid;
	switch (kind) {
	case NVP_IOCTL:
		ioctl_entry(n, fm, rec, tid);
		return true;
	case NVP_ISR:
	case NVP_ISR_MSIX:
		isr_entry(n, kind, rec->cpu, (int)(int32_t)num(fm, rec, NVF_IRQ), rec->ts);
		return true;
	case NVP_BH:
	case NVP_BH_MSIX:
		bh_entry(n, kind, tid, (int)(int32_t)num(fm, rec, NVF_IRQ), rec->ts);
		return true;
	case NVP_OPEN:
	case NVP_CLOSE:
	case NVP_MMAP:
	case NVP_UVM_REPLAYABLE:
	case NVP_UVM_NON_REPLAYABLE:
		np = push_pending(n, key, kind, rec->ts, tid);
		np->bytes = num(fm, rec, NVF_END) - num(fm, rec, NVF_START);
		np->gpu = num(fm, rec, NVF_GPU);
		return true;
	default:
		break;
	}
	entry = (enum nv_probe_kind)(kind - 1);	/* every return follows its entry */
	if (!pop_pending(n, key, entry, &p, true)) {
		n->model.unmatched++;
		return true;
	}
	n->model.done = (struct nv_done){ .from = p.ts, .to = rec->ts, .tid = tid };
	if (entry == NVP_IOCTL)
		ioctl_return(n, fm, rec, &p, tid);
	else
		other_return(n, entry, fm, rec, &p);
	return true;
}

bool nvidia_calls_any(const struct nvidia_calls *n)
{
	return n->records > 0;
}

/* everything it holds */
static void nvidia_calls_free(struct nvidia_calls_state *n)
{
	int i;

	for (i = 0; i < n->model.nr_rows; i++)
		latency_stats_free(&n->model.rows[i].ns);
	for (i = 0; i < n->model.nr_irqs; i++) {
		latency_stats_free(&n->model.irqs[i].isr_ns);
		latency_stats_free(&n->model.irqs[i].to_bh_ns);
		latency_stats_free(&n->model.irqs[i].bh_ns);
	}
	for (i = 0; i < n->model.nr_uvm; i++)
		latency_stats_free(&n->model.uvm[i].ns);
	free(n->model.rows);
	free(n->model.irqs);
	free(n->model.uvm);
	free(n->model.procs);
	free(n->model.xids);
	memset(n, 0, sizeof(*n));
}

/* The join (analysis-joins.h): record --preset nvidia's probe events and Xids */
struct nvidia_calls *nvidia_calls_of(const struct analysis *a)
{
	struct nvidia_calls_state *n = analysis_state(a, JOIN_NVIDIA);

	return n ? &n->model : NULL;
}

static int join_init(void *state, struct analysis *a)
{
	nvidia_calls_init(state, analysis_tep(a));
	return 0;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct nvidia_calls_state *n = state;

	(void)a;
	nvidia_calls_next(n);
	if (r->kind == GEV_NONE && n->model.nr_formats &&
	    nvidia_calls_record(n, r->rec, r->type, r->pid))
		r->taken = true;
}

static void join_free(void *state)
{
	nvidia_calls_free(state);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct nvidia_calls_state *n = state;

	(void)a;
	return nvidia_calls_any(&n->model);
}

/* with its probes, every record: each clears the call the one before it completed */
static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)a;
	const struct nvidia_calls_state *n = state;

	return n->model.nr_formats ? ~0ULL : 0;
}

const struct analysis_join nvidia_calls_join = {
	.name = "NVIDIA probe events",
	.state_size = sizeof(struct nvidia_calls_state),
	.init = join_init,
	.record = join_record,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
