// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>

#include "output/perfetto-nvidia.h"
#include "output/perfetto-packet.h"
#include "analysis/nvidia-calls.h"

#define MAX_ARGS	8

struct nv_slice {
	struct pf_arg args[MAX_ARGS];
	int nr_args;
	char text[MAX_ARGS][48];
};

static void arg_str(struct nv_slice *s, const char *name, const char *v)
{
	if (s->nr_args < MAX_ARGS)
		s->args[s->nr_args++] = (struct pf_arg){ .name = -1, .name_str = name,
							 .type = ARG_STR, .s = v };
}

static void arg_int(struct nv_slice *s, const char *name, int64_t v)
{
	if (s->nr_args < MAX_ARGS)
		s->args[s->nr_args++] = (struct pf_arg){ .name = -1, .name_str = name,
							 .type = ARG_INT, .i = v };
}

static void arg_hex(struct nv_slice *s, const char *name, uint64_t v)
{
	char *t = s->text[s->nr_args < MAX_ARGS ? s->nr_args : MAX_ARGS - 1];

	snprintf(t, sizeof(s->text[0]), "0x%" PRIx64, v);
	arg_str(s, name, t);
}

static uint64_t root(struct perfetto_export *p)
{
	return perfetto_named_track(p, T_NV_ROOT, 0, 0, "NVIDIA");
}

static uint64_t track(struct perfetto_export *p, enum track_kind kind, uint64_t key,
		      const char *name)
{
	return perfetto_named_track(p, kind, key, root(p), name);
}

static void draw(struct perfetto_export *p, uint64_t on, const struct nv_done *d, const char *name,
		 struct nv_slice *s)
{
	struct pf_event e = { .ts = d->from, .track = on, .name = -1, .name_str = name,
			      .args = s->args, .nr_args = s->nr_args };

	if (d->kind == NVD_XID) {
		e.type = PF_INSTANT;
		perfetto_event(p, &e);
		return;
	}
	perfetto_slice(p, &e, d->to);
}

/* "RM_CONTROL 0x20800102", "RM_ALLOC", "escape 0x5a" */
static void ioctl_name(char *buf, size_t len, const struct nv_slow_call *c)
{
	const char *e = nv_escape_name(c->escape);
	int n = e ? snprintf(buf, len, "%s", e) : snprintf(buf, len, "escape 0x%02x", c->escape);

	if (c->has_cmd && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " 0x%08x", c->ctl_cmd);
}

static uint64_t calls_track(struct perfetto_export *p, int tid)
{
	char name[96];

	snprintf(name, sizeof(name), "ioctls %s %d", analysis_comm(p->a, tid), tid);
	return track(p, T_NV_CALLS, (uint64_t)tid, name);
}

void perfetto_nvidia(struct perfetto_export *p)
{
	const struct nv_done *d = &nvidia_calls_of(p->a)->done;
	struct nv_slice s = { .nr_args = 0 };
	char name[96];

	switch (d->kind) {
	case NVD_IOCTL:
		ioctl_name(name, sizeof(name), &d->call);
		arg_hex(&s, "escape", d->call.escape);
		if (d->call.has_cmd)
			arg_hex(&s, "RM control command", d->call.ctl_cmd);
		arg_int(&s, "ret", d->call.ret);
		if (d->call.has_status)
			arg_hex(&s, "RM status", d->call.status);
		draw(p, calls_track(p, d->tid), d, name, &s);
		break;
	case NVD_OPEN:
	case NVD_CLOSE:
	case NVD_MMAP:
		arg_int(&s, "ret", d->ret);
		if (d->kind == NVD_MMAP)
			arg_int(&s, "bytes", (int64_t)d->bytes);
		draw(p, calls_track(p, d->tid), d,
		     d->kind == NVD_OPEN ? "open" : d->kind == NVD_CLOSE ? "close" : "mmap", &s);
		break;
	case NVD_ISR:
	case NVD_BH:
		snprintf(name, sizeof(name), "irq %d %s", d->irq, d->kind == NVD_ISR ? "ISR" : "bottom half");
		arg_int(&s, "ret", d->ret);
		draw(p, track(p, d->kind == NVD_ISR ? T_NV_ISR : T_NV_BH, (uint64_t)(uint32_t)d->irq, name),
		     d, d->kind == NVD_ISR ? "ISR" : "bottom half", &s);
		break;
	case NVD_UVM:
		snprintf(name, sizeof(name), "UVM %s faults 0x%" PRIx64,
			 d->replayable ? "replayable" : "non-replayable", d->gpu);
		draw(p, track(p, d->replayable ? T_NV_UVM : T_NV_UVM_NR, d->gpu, name), d,
		     "fault service", &s);
		break;
	case NVD_XID:
		if (!d->xid)
			break;
		arg_int(&s, "code", d->xid->code);
		arg_str(&s, "device", d->xid->dev);
		arg_str(&s, "message", d->xid->msg);
		snprintf(name, sizeof(name), "Xid %u", d->xid->code);
		draw(p, track(p, T_NV_XIDS, 0, "Xids"), d, name, &s);
		break;
	case NVD_NONE:
		break;
	}
}
