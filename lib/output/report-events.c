// SPDX-License-Identifier: GPL-2.0
#include <string.h>
#include <trace-seq.h>

#include "output/report.h"

static bool wanted(struct report *rep, struct tep_record *rec, const struct gpu_event *ev)
{
	const struct analysis *a = &rep->analysis;
	int pid = tep_data_pid(a->tep, rec);

	return timeline_filter_match(&a->tl, rec->ts, pid, ev ? ev->ring : NULL, ev ? ev->dev : NULL,
				     workload_tree_has(&a->workload, pid));
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
	tep_print_event(a->tep, &s, rec, "%16s-%-5d [%03d] ", TEP_PRINT_COMM, TEP_PRINT_PID,
			TEP_PRINT_CPU);
	trace_seq_printf(&s, "%12s: ", report_ts(ts, sizeof(ts), rec->ts));
	snprintf(name, sizeof(name), "%s:", event ? event->name : "unknown");
	trace_seq_printf(&s, "%-21s ", name);
	tep_print_event(a->tep, &s, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	/* a print record's text ends in its own newline: one line each, still */
	while (s.len && s.buffer[s.len - 1] == '\n')
		s.len--;
	fwrite(s.buffer, 1, s.len, rep->stream);
	fputc('\n', rep->stream);
	trace_seq_destroy(&s);
	return 0;
}
