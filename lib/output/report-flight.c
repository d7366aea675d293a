// SPDX-License-Identifier: GPL-2.0
/*
 * A flight recorder dump's cause (flight-marks.h): the header's trigger
 * lines and the JSON object's "flight" member. The triggering job itself is
 * flagged T in the job lists (timeline_mark_trigger).
 */
#include <inttypes.h>

#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/flight-marks.h"

/* "23081.035034": seconds as trace-cmd prints a timestamp */
static void secs(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

void report_flight_text(struct report *rep)
{
	const struct flight_marks *m = flight_marks_of(rep->analysis);
	FILE *f = rep->stream;

	if (!m || (!m->nr && !m->dump))
		return;
	if (m->dump) {
		fprintf(f, "dump     written by the flight recorder for %s", m->dump_cause[0] ? m->dump_cause : "?");
		if (m->window_from_ns) {
			fputs("; every CPU's records whole from ", f);
			secs(f, m->window_from_ns);
		}
		fputc('\n', f);
	}
	for (int i = 0; i < m->nr; i++) {
		const struct flight_mark *k = &m->marks[i];

		fprintf(f, "trigger  %s at ", k->cause[0] ? k->cause : "?");
		secs(f, k->ts);
		if (k->has_job)
			fprintf(f, ": a job on %s, %s %.3f ms > %.3f ms, pid %d, done at ", k->ring,
				k->stage, (double)k->ns / 1e6, (double)k->over_ns / 1e6, k->pid);
		if (k->has_job)
			secs(f, k->done_ns);
		else if (k->ring[0])
			fprintf(f, ": ring %s", k->ring);
		if (k->xid)
			fprintf(f, ": Xid %" PRIu64, k->xid);
		if (k->dev[0])
			fprintf(f, " (%s)", k->dev);
		fputs(k->has_job ? " (flagged T in the job list)\n" : "\n", f);
	}
	if (m->more)
		fprintf(f, "trigger  %" PRIu64 " more\n", m->more);
}

void report_flight_json(struct report *rep)
{
	const struct flight_marks *m = flight_marks_of(rep->analysis);
	FILE *f = rep->stream;

	fputs(",\"flight\":", f);
	if (!m || (!m->nr && !m->dump)) {
		fputs("null", f);
		return;
	}
	fputs("{\"triggers\":[", f);
	for (int i = 0; i < m->nr; i++) {
		const struct flight_mark *k = &m->marks[i];

		fprintf(f, "%s{\"ts\":%" PRIu64 ",\"cause\":", i ? "," : "", k->ts);
		json_str(f, k->cause);
		fputs(",\"ring\":", f);
		json_str(f, k->ring);
		fputs(",\"dev\":", f);
		json_str(f, k->dev);
		if (k->has_job) {
			fputs(",\"stage\":", f);
			json_str(f, k->stage);
			fprintf(f, ",\"ns\":%" PRIu64 ",\"over_ns\":%" PRIu64 ",\"pid\":%d,\"done_ns\":%" PRIu64,
				k->ns, k->over_ns, k->pid, k->done_ns);
		}
		if (k->xid)
			fprintf(f, ",\"xid\":%" PRIu64, k->xid);
		fputc('}', f);
	}
	fprintf(f, "],\"more_triggers\":%" PRIu64 ",\"dump_cause\":", m->more);
	json_str(f, m->dump_cause);
	fprintf(f, ",\"window_from_ns\":%" PRIu64 "}", m->window_from_ns);
}
