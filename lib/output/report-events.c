// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <trace-seq.h>

#include "decode/print-guard.h"
#include "output/report-formats.h"
#include "analysis/timeline.h"
#include "analysis/workload-tree.h"

static bool wanted(struct report *rep, struct tep_record *rec, const struct gpu_event *ev)
{
	const struct analysis *a = &rep->analysis;
	const struct timeline *tl = timeline_of(a);
	const struct workload_tree *wt = workload_tree_of(a);
	int pid = tep_data_pid(a->tep, rec);

	return timeline_filter_match(tl, rec->ts, pid, ev ? ev->ring : NULL, ev ? ev->dev : NULL,
				     workload_tree_has(wt, pid));
}

/*
 * The event's own text, by libtraceevent where print_guard_check() lets it
 * read the record, else field by field; a damaged record says so in the line.
 */
static void event_info(struct report *rep, struct trace_seq *s, struct tep_event *event,
		       struct tep_record *rec)
{
	struct report_events *ev = &rep->events;
	struct tep_record *safe;
	char why[128];
	bool damaged;

	if (!ev->guard)
		ev->guard = print_guard_new();
	safe = ev->guard ? print_guard_check(ev->guard, event, rec, why, sizeof(why), &damaged) : NULL;
	if (safe) {
		tep_print_event(rep->analysis.tep, s, safe, "%s", TEP_PRINT_INFO);
		return;
	}
	if (!ev->guard)
		snprintf(why, sizeof(why), "out of memory");
	if (damaged) {
		if (!ev->damaged++)
			snprintf(ev->first, sizeof(ev->first), "%s:%s at %llu: %s", event->system,
				 event->name, (unsigned long long)rec->ts, why);
		trace_seq_printf(s, "[damaged: %s] ", why);
	}
	print_guard_fields(s, event, rec);
}

/* One line per record, as trace-cmd report prints them, with our plugins. */
int report_events_record(struct analysis *a, struct tep_record *rec,
			 const struct gpu_event *ev, void *ctx)
{
	struct report *rep = ctx;
	struct tep_event *event = tep_find_event_by_record(a->tep, rec);
	char name[64];
	struct trace_seq s;
	char ts[32];

	if (rec->missed_events)
		fprintf(rep->stream, "CPU:%d [%lld EVENTS DROPPED]\n", rec->cpu,
			rec->missed_events > 0 ? rec->missed_events : -1LL);
	if (!wanted(rep, rec, ev))
		return 0;
	trace_seq_init(&s);
	/* the common fields: analysis_decode() checked that the record holds them */
	tep_print_event(a->tep, &s, rec, "%16s-%-5d [%03d] ", TEP_PRINT_COMM, TEP_PRINT_PID,
			TEP_PRINT_CPU);
	trace_seq_printf(&s, "%12s: ", report_ts(ts, sizeof(ts), rec->ts));
	snprintf(name, sizeof(name), "%s:", event ? event->name : "unknown");
	trace_seq_printf(&s, "%-21s ", name);
	if (event)
		event_info(rep, &s, event, rec);
	else
		trace_seq_printf(&s, "[no format for event type %d in the file]",
				 tep_data_type(a->tep, rec));
	trace_seq_terminate(&s);
	/* a print record's text ends in its own newline: one line each, still */
	while (s.len && s.buffer[s.len - 1] == '\n')
		s.len--;
	fwrite(s.buffer, 1, s.len, rep->stream);
	fputc('\n', rep->stream);
	trace_seq_destroy(&s);
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
	print_guard_free(rep->events.guard);
	memset(&rep->events, 0, sizeof(rep->events));
}
