// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "output/report-formats.h"
#include "analysis/timeline.h"
#include "analysis/workload-tree.h"

/* the lines held before they are written: a few pipe buffers' worth */
#define FLUSH_AT (1 << 16)
/* other buffers' lines after a function_graph entry that may still fold into a leaf */
#define HELD_PAST (1 << 20)

static bool wanted(struct report *rep, struct tep_record *rec, const struct gpu_event *ev, int pid)
{
	const struct analysis *a = rep->analysis;
	const struct timeline *tl = timeline_of(a);
	const struct workload_tree *wt = workload_tree_of(a);

	return timeline_filter_match(tl, rec->ts, pid, ev ? ev->ring : NULL, ev ? ev->dev : NULL,
				     workload_tree_has(wt, pid));
}

static void write_out(struct report *rep)
{
	struct text_buf *out = &rep->events.out;

	if (out->len && rep->stream)
		fwrite(out->buf, 1, out->len, rep->stream);
	out->len = 0;
}

static void release_held(struct report *rep, const struct gpu_event *exit);

void report_events_flush(struct report *rep)
{
	/* what comes next (a job's line, the next file) follows the entry held */
	release_held(rep, NULL);
	write_out(rep);
}

/*
 * trace-cmd report puts a buffer column before every line of a file that
 * names buffer instances (tracecmd_buffer_instances(), whose pages it holds
 * or not: a split file's top buffer gets two spaces), as wide as the longest
 * name of those it reads: gpu-trace's workload instance reads "workload: ".
 */
static void buffer_column(struct report *rep)
{
	struct report_events *ev = &rep->events;
	int k, n = dat_meta_instances_read(rep->meta);

	ev->by_buffer = dat_meta_instances_named(rep->meta) > 0;
	ev->width = 0;
	for (k = 1; k <= n; k++) {
		int len = (int)strlen(dat_meta_instance_name(rep->meta, k));

		if (len > ev->width)
			ev->width = len;
	}
}

static void buffer_name(struct report *rep)
{
	struct report_events *ev = &rep->events;
	const char *name;
	size_t n;

	if (!ev->by_buffer)
		return;
	name = dat_meta_instance_name(rep->meta, analysis_record_buffer(rep->analysis));
	n = strlen(name);
	text_buf_pad(&ev->out, name, n, ev->width, false);
	text_buf_add(&ev->out, n ? ": " : "  ", 2);
}

/* The printers of this input's formats: made at its first record, once per file. */
static struct event_print *printers(struct report *rep)
{
	struct report_events *ev = &rep->events;

	if (ev->print && ev->tep == analysis_tep(rep->analysis))
		return ev->print;
	event_print_free(ev->print);
	ev->tep = analysis_tep(rep->analysis);
	ev->print = event_print_new(ev->tep, analysis_decoder(rep->analysis));
	ev->who_len = 0;
	buffer_column(rep);
	return ev->print;
}

/*
 * "%16s-%-5d [%03d] " of comm, pid and CPU, as libtraceevent's
 * tep_print_event() prints them. The last line's comm and pid are kept
 * until the pid changes or a record went to libtraceevent's printers,
 * whose plugins may name pids (sched_switch's does): then the name is
 * looked up again, as libtraceevent looks it up for every line.
 */
static void common_header(struct report *rep, struct tep_record *rec, int pid)
{
	struct report_events *ev = &rep->events;
	unsigned long calls = event_print_tep_calls(ev->print);
	const char *comm;

	if (pid == ev->pid && ev->who_len && calls == ev->tep_calls) {
		text_buf_add(&ev->out, ev->who, ev->who_len);
		goto cpu;
	}
	comm = tep_data_comm_from_pid(analysis_tep(rep->analysis), pid);
	ev->tep_calls = calls;
	/* by its text: a name given again may be at the address of one freed */
	if (pid != ev->pid || !ev->who_len || strcmp(comm, ev->comm)) {
		/* room for the name, '-' and any int */
		struct text_buf who = { ev->who, 0, sizeof(ev->who), false };
		size_t n = strlen(comm);

		ev->pid = pid;
		ev->who_len = 0;
		/* a name longer than any comm: written as it is, not kept */
		if (n < sizeof(ev->comm)) {
			memcpy(ev->comm, comm, n + 1);
			text_buf_pad(&who, comm, n, 16, false);
			text_buf_putc(&who, '-');
			text_buf_num(&who, pid, 5, true, false);
			ev->who_len = who.len;
		}
	}
	if (ev->who_len) {
		text_buf_add(&ev->out, ev->who, ev->who_len);
	} else {
		text_buf_pad(&ev->out, comm, strlen(comm), 16, false);
		text_buf_putc(&ev->out, '-');
		text_buf_num(&ev->out, pid, 5, true, false);
	}
cpu:
	text_buf_add(&ev->out, " [", 2);
	text_buf_num(&ev->out, rec->cpu, 3, false, true);
	text_buf_add(&ev->out, "] ", 2);
}

/* "%12s: " of report_ts(), then "%-21s " of "name:" as snprintf() into 64 bytes cuts it */
static void time_and_name(struct text_buf *out, uint64_t ns, const char *name)
{
	char ts[32], *end = ts + sizeof(ts), *p = end;
	uint64_t us = (ns + 500) / 1000, frac = us % 1000000;
	size_t n = strlen(name);
	int i;

	if (!ns) {
		*--p = '-';
	} else {
		for (i = 0; i < 6; i++, frac /= 10)
			*--p = (char)('0' + frac % 10);
		*--p = '.';
		us /= 1000000;
		do {
			*--p = (char)('0' + us % 10);
			us /= 10;
		} while (us);
	}
	text_buf_pad(out, p, (size_t)(end - p), 12, false);
	text_buf_add(out, ": ", 2);
	if (n < 63) {
		char *at = text_buf_room(out, n + 1);

		if (at) {
			memcpy(at, name, n);
			at[n] = ':';
			out->len += n + 1;
		}
		n++;
	} else {
		text_buf_add(out, name, 63);
		n = 63;
	}
	for (; n < 21; n++)
		text_buf_putc(out, ' ');
	text_buf_putc(out, ' ');
}

/*
 * function_graph as trace-cmd report prints it (libtracecmd's trace-ftrace.c):
 * the overhead mark and duration column, two spaces a depth, then "f();" for a
 * leaf (an entry whose next record is its exit), "f() {" for an entry, "}"
 * for an exit; a function with no symbol by its address in hex.
 */
static void graph_duration(struct text_buf *out, unsigned long long ns)
{
	unsigned long long us = ns / 1000;
	char num[48];
	int n;

	text_buf_add(out, ns > 1000000000ULL ? "$ " : ns > 1000000ULL ? "# " :
			  ns > 100000ULL ? "! " : ns > 10000ULL ? "+ " : "  ", 2);
	n = snprintf(num, sizeof(num), "%llu", us);
	/* the nanoseconds while the number has fewer than 7 digits */
	if (n < 7)
		n += snprintf(num + n, sizeof(num) - (size_t)n, ".%03llu", ns % 1000);
	text_buf_add(out, num, (size_t)n);
	text_buf_add(out, " us ", 4);
	for (; n < 7; n++)
		text_buf_putc(out, ' ');
	text_buf_add(out, "|  ", 3);
}

/* two spaces a depth (a crafted depth stops at 128) */
static void graph_indent(struct text_buf *out, int depth)
{
	int i;

	for (i = 0; depth > 0 && i < depth * 2 && i < 256; i++)
		text_buf_putc(out, ' ');
}

/* @tail after the function's name at @depth */
static void graph_func(struct report *rep, int depth, unsigned long long ip, const char *tail)
{
	struct text_buf *out = &rep->events.out;
	const char *func;
	char hex[24];

	graph_indent(out, depth);
	func = tep_find_function(analysis_tep(rep->analysis), ip);
	if (!func) {
		snprintf(hex, sizeof(hex), "%llx", ip);
		func = hex;
	}
	text_buf_add(out, func, strlen(func));
	text_buf_add(out, tail, strlen(tail));
}

/*
 * The held entry's line, in its place before the other buffers' lines that
 * came after it: a leaf ending at @exit, or (NULL) a call that goes on
 */
static void release_held(struct report *rep, const struct gpu_event *exit)
{
	struct report_events *ev = &rep->events;
	size_t at = ev->held_at, tail, n;
	char *room;

	if (!ev->held)
		return;
	ev->held = false;
	tail = ev->out.len - at;
	text_buf_add(&ev->out, ev->held_head, ev->held_len);
	if (exit) {
		graph_duration(&ev->out, exit->duration);
		graph_func(rep, ev->held_depth, ev->held_func, "();");
	} else {
		text_buf_add(&ev->out, "             |  ", 16);
		graph_func(rep, ev->held_depth, ev->held_func, "() {");
	}
	text_buf_putc(&ev->out, '\n');
	if (!tail || ev->out.len < at + tail)	/* nothing after it, or out of memory */
		return;
	/* the line was written after the tail: rotate it to where the entry was */
	n = ev->out.len - at - tail;
	room = malloc(n);
	if (!room)
		return;
	memcpy(room, ev->out.buf + at + tail, n);
	memmove(ev->out.buf + at + n, ev->out.buf + at, tail);
	memcpy(ev->out.buf + at, room, n);
	free(room);
}

/* the exit of the entry held: trace-cmd's look-ahead takes it into the leaf's line */
static bool ends_held(const struct report *rep, const struct gpu_event *gev, int pid)
{
	const struct report_events *ev = &rep->events;

	return ev->held && gev && gev->kind == GEV_FUNC_EXIT && pid == ev->held_pid &&
	       gev->func_ip == ev->held_func &&
	       analysis_record_buffer(rep->analysis) == ev->held_buffer;
}

/* an entry's line up to the graph column, held; false: no room, printed as any record */
static bool hold_entry(struct report *rep, size_t start, const struct gpu_event *gev, int pid)
{
	struct report_events *ev = &rep->events;
	size_t n = ev->out.len - start;

	if (n > sizeof(ev->held_head))
		return false;
	memcpy(ev->held_head, ev->out.buf + start, n);
	ev->held_len = n;
	ev->out.len = start;
	ev->held_at = start;
	ev->held = true;
	ev->held_pid = pid;
	ev->held_func = gev->func_ip;
	ev->held_depth = gev->depth;
	ev->held_buffer = analysis_record_buffer(rep->analysis);
	return true;
}

/* One line per record, as trace-cmd report prints them, with our plugins. */
int report_events_record(struct analysis *a, struct tep_record *rec,
			 const struct gpu_event *gev, void *ctx)
{
	struct report *rep = ctx;
	struct report_events *ev = &rep->events;
	struct tep_event *event = tep_find_event_by_record(analysis_tep(a), rec);
	struct event_print *print;
	size_t start;
	char why[128];
	int pid;

	/* this input's printers and buffer column, made at its first record */
	print = printers(rep);
	if (!event)
		print = NULL;
	/* the common fields: analysis_decode() checked that the record holds them */
	pid = tep_data_pid(analysis_tep(a), rec);
	if (ends_held(rep, gev, pid)) {
		release_held(rep, gev);		/* a leaf: its exit is in its line */
		goto out;
	}
	/*
	 * trace-cmd looks ahead in the entry's own buffer: another buffer's
	 * records print after it, the entry still held (as far as a bound)
	 */
	if (!ev->held || analysis_record_buffer(a) == ev->held_buffer ||
	    ev->out.len - ev->held_at > HELD_PAST)
		release_held(rep, NULL);
	/* trace-cmd's: the buffer column, then the drop and the record's line in one */
	if (rec->missed_events) {
		char line[64];
		int n = rec->missed_events > 0 ?
			snprintf(line, sizeof(line), "CPU:%d [%lld EVENTS DROPPED]\n", rec->cpu,
				 rec->missed_events) :
			snprintf(line, sizeof(line), "CPU:%d [EVENTS DROPPED]\n", rec->cpu);

		buffer_name(rep);
		text_buf_add(&ev->out, line, (size_t)n);
	}
	if (!wanted(rep, rec, gev, pid))
		goto out;
	start = ev->out.len;
	if (!rec->missed_events)
		buffer_name(rep);
	if (print)
		common_header(rep, rec, pid);
	else if (event)
		text_buf_add(&ev->out, "[damaged: out of memory]", strlen("[damaged: out of memory]"));
	else
		text_buf_add(&ev->out, "[UNKNOWN EVENT]", strlen("[UNKNOWN EVENT]"));
	time_and_name(&ev->out, rec->ts, event ? event->name : "unknown");
	if (print && gev && gev->kind == GEV_FUNC_ENTRY && hold_entry(rep, start, gev, pid))
		goto out;
	if (print && gev && gev->kind == GEV_FUNC_EXIT) {
		graph_duration(&ev->out, gev->duration);
		graph_indent(&ev->out, gev->depth);
		text_buf_putc(&ev->out, '}');
	} else if (print && event_print_info(print, event, rec, gev, &ev->out, why, sizeof(why))) {
		if (!ev->damaged++)
			snprintf(ev->first, sizeof(ev->first), "%s:%s at %llu: %s", event->system,
				 event->name, (unsigned long long)rec->ts, why);
	} else if (!event) {
		char line[80];
		int n = snprintf(line, sizeof(line), "[no format for event type %d in the file]",
				 tep_data_type(analysis_tep(a), rec));

		text_buf_add(&ev->out, line, (size_t)n);
	}
	/* a print record's text ends in its own newline: one line each, still */
	while (ev->out.len > start && ev->out.buf[ev->out.len - 1] == '\n')
		ev->out.len--;
	text_buf_putc(&ev->out, '\n');
out:
	if (ev->out.len >= FLUSH_AT && !ev->held)
		write_out(rep);
	return 0;
}

int report_events_note(struct report *rep, char *buf, size_t len)
{
	struct report_events *ev = &rep->events;

	if (!ev->damaged)
		return 0;
	snprintf(buf, len, "%s: %llu record%s whose format reads past %s end, printed field by field (the first: %s); the file is damaged or crafted",
		 rep->opts.file, (unsigned long long)ev->damaged, report_plural(ev->damaged),
		 ev->damaged == 1 ? "its" : "their", ev->first);
	return 1;
}

void report_events_done(struct report *rep)
{
	report_events_flush(rep);
	event_print_free(rep->events.print);
	text_buf_free(&rep->events.out);
	memset(&rep->events, 0, sizeof(rep->events));
}
