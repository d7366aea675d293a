// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-seq.h>

#include "decode/event-print.h"
#include "decode/format-print.h"
#include "decode/gpu-event.h"
#include "decode/gpu-plugin.h"
#include "decode/kfd-probe-print.h"
#include "decode/print-guard.h"

/* how an event's records are printed, judged once from its format */
enum printer {
	PRINTER_UNJUDGED,
	PRINTER_GPU,		/* our one-line printer, called straight */
	PRINTER_FORMAT,		/* its print fmt, by format-print.c */
	PRINTER_TEP,		/* libtraceevent's print of the format (or a plugin's) */
};

struct event_print {
	struct tep_handle *tep;
	const struct gpu_decoder *dec;
	struct print_guard *guard;
	struct trace_seq seq;		/* what libtraceevent prints into, reused */
	unsigned char *printer;		/* by event id, 0 .. max_id */
	const struct tep_event **judged; /* by event id: the format judged */
	struct format_print **formats;	/* by event id: PRINTER_FORMAT's */
	int max_id;
	unsigned long tep_calls;	/* records printed by libtraceevent */
};

struct event_print *event_print_new(struct tep_handle *tep, const struct gpu_decoder *dec)
{
	struct event_print *p = calloc(1, sizeof(*p));
	int i, n = tep_get_events_count(tep);

	if (!p)
		return NULL;
	p->tep = tep;
	p->dec = dec;
	p->guard = print_guard_new();
	p->max_id = -1;
	for (i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(tep, i);

		if (e && e->id > p->max_id && e->id < (1 << 20))
			p->max_id = e->id;
	}
	p->printer = calloc((size_t)p->max_id + 1, 1);
	p->formats = calloc((size_t)p->max_id + 1, sizeof(*p->formats));
	p->judged = calloc((size_t)p->max_id + 1, sizeof(*p->judged));
	if (!p->guard || !p->printer || !p->formats || !p->judged) {
		event_print_free(p);
		return NULL;
	}
	trace_seq_init(&p->seq);
	return p;
}

void event_print_free(struct event_print *p)
{
	int i;

	if (!p)
		return;
	if (p->printer && p->formats && p->judged)
		trace_seq_destroy(&p->seq);
	for (i = 0; p->formats && i <= p->max_id; i++)
		format_print_free(p->formats[i]);
	print_guard_free(p->guard);
	free(p->printer);
	free(p->formats);
	free(p->judged);
	free(p);
}

/*
 * The printer of @event, judged at its first record, and its print fmt
 * parsed (@fmt) where it is PRINTER_FORMAT's. A damaged file may give two
 * formats one id: the table is by id and holds the first one met; the
 * other is judged again at each of its records (ours, or libtraceevent's).
 */
static enum printer printer_of(struct event_print *p, struct tep_event *event,
			       const struct format_print **fmt)
{
	unsigned char *slot;

	if (event->id < 0 || event->id > p->max_id ||
	    (p->judged[event->id] && p->judged[event->id] != event))
		return gpu_plugin_prints(event) ? PRINTER_GPU : PRINTER_TEP;
	slot = &p->printer[event->id];
	if (*slot == PRINTER_UNJUDGED) {
		p->judged[event->id] = event;
		if (gpu_plugin_prints(event)) {
			*slot = PRINTER_GPU;
		} else if (kfd_probe_prints(event)) {
			*slot = PRINTER_TEP;	/* kfd_probe_print(), registered on the tep */
		} else {
			p->formats[event->id] = format_print_new(event);
			*slot = p->formats[event->id] ? PRINTER_FORMAT : PRINTER_TEP;
		}
	}
	*fmt = p->formats[event->id];
	return (enum printer)*slot;
}

/* what libtraceevent or print_guard_fields() wrote, appended as it is (NULs too) */
static void take_seq(struct event_print *p, struct text_buf *out)
{
	text_buf_add(out, p->seq.buffer, p->seq.len);
	trace_seq_reset(&p->seq);
}

/*
 * Our printer's line: of @gev where the decoder made it of this very format
 * (its name is the format's own string), else decoded here
 */
static bool gpu_line(struct event_print *p, struct tep_event *event, struct tep_record *rec,
		     const struct gpu_event *gev, struct text_buf *out)
{
	char *line = text_buf_room(out, GPU_PLUGIN_LINE);
	size_t n;

	if (!line)
		return true;
	/* the line holds no NUL of its own: its length is strlen()'s, as trace_seq_puts() takes it */
	if (gev && gev->name == event->name)
		n = gpu_event_format(gev, line, GPU_PLUGIN_LINE);
	else if (!gpu_plugin_line(p->dec, event, rec, line, &n))
		return false;
	out->len += n;
	return true;
}

bool event_print_info(struct event_print *p, struct tep_event *event, struct tep_record *rec,
		      const struct gpu_event *gev, struct text_buf *out, char *why, size_t len)
{
	const struct format_print *fmt = NULL;
	struct tep_record *safe = NULL;
	enum printer printer;
	bool damaged;

	if (print_guard_allows(p->guard, event, rec, why, len, &damaged)) {
		/* ours read the record through bounded readers: no copy */
		printer = printer_of(p, event, &fmt);
		if (printer == PRINTER_GPU && gpu_line(p, event, rec, gev, out))
			return false;
		if (printer == PRINTER_FORMAT) {
			format_print_record(fmt, rec, out);
			return false;
		}
		safe = print_guard_copy(p->guard, rec, why, len);
	}
	if (safe) {
		p->tep_calls++;
		tep_print_event(p->tep, &p->seq, safe, "%s", TEP_PRINT_INFO);
		take_seq(p, out);
		return false;
	}
	if (damaged)
		trace_seq_printf(&p->seq, "[damaged: %s] ", why);
	print_guard_fields(&p->seq, event, rec);
	take_seq(p, out);
	return damaged;
}

unsigned long event_print_tep_calls(const struct event_print *p)
{
	return p->tep_calls;
}
