// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel i915 section of the report, in each format: per engine, the
 * requests the driver's events named, how many ran, completed and were
 * preempted (i915_request_out with completed?=0), and the CPU's waits on
 * them (i915-requests.h). The requests themselves are jobs on the rings.
 */
#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/i915-requests.h"

static const char *source(const struct i915_requests *q)
{
	return q->low_level ? "in/out events: each request's start and time on the engine are the engine's own" :
	       "no in/out events (a kernel without CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS, or GuC submission): a request runs from its submit to its fence's signal where recorded, else to retire";
}

static int nr_engines(const struct i915_requests *q)
{
	return q->nr_engines + (q->engines[I915_MAX_ENGINES].requests != 0);
}

static void text_i915(struct report *rep)
{
	const struct i915_requests *q = i915_requests_of(rep->analysis);
	char a[32], b[32];
	int i;

	if (!q->records)
		return;
	fprintf(rep->stream, "\nIntel i915 requests on %d engine%s (%s)\n", nr_engines(q),
		report_plural((uint64_t)nr_engines(q)), source(q));
	fprintf(rep->stream, "  %-16s %9s %9s %9s %9s %9s %14s %12s\n", "engine", "requests", "ran",
		"completed", "preempted", "CPU waits", "waited (us)", "longest (us)");
	for (i = 0; i <= I915_MAX_ENGINES; i++) {
		const struct i915_engine *e = &q->engines[i];

		if (i >= q->nr_engines && (i < I915_MAX_ENGINES || !e->requests))
			continue;
		fprintf(rep->stream, "  %-16s %9llu %9llu %9llu %9llu %9llu %14s %12s\n", e->name,
			(unsigned long long)e->requests, (unsigned long long)e->ran,
			(unsigned long long)e->completed, (unsigned long long)e->preempted,
			(unsigned long long)e->waits, report_us(a, sizeof(a), e->waits, e->wait_ns),
			report_us(b, sizeof(b), e->waits, e->max_wait_ns));
	}
}

static void json_i915(struct report *rep)
{
	const struct i915_requests *q = i915_requests_of(rep->analysis);
	FILE *f = rep->stream;
	int i, n = 0;

	fprintf(f, ",\"i915_requests\":");
	if (!q->records) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"records\":%llu,\"low_level\":%s,\"engines\":[", (unsigned long long)q->records,
		q->low_level ? "true" : "false");
	for (i = 0; i <= I915_MAX_ENGINES; i++) {
		const struct i915_engine *e = &q->engines[i];

		if (i >= q->nr_engines && (i < I915_MAX_ENGINES || !e->requests))
			continue;
		fprintf(f, "%s{\"engine\":", n++ ? "," : "");
		json_str(f, e->name);
		fprintf(f, ",\"requests\":%llu,\"ran\":%llu,\"completed\":%llu,\"preempted\":%llu,\"cpu_waits\":%llu,\"cpu_wait_ns\":%llu,\"cpu_wait_max_ns\":%llu}",
			(unsigned long long)e->requests, (unsigned long long)e->ran,
			(unsigned long long)e->completed, (unsigned long long)e->preempted,
			(unsigned long long)e->waits, (unsigned long long)e->wait_ns,
			(unsigned long long)e->max_wait_ns);
	}
	fputs("]}", f);
}

static void csv_i915(struct report *rep)
{
	const struct i915_requests *q = i915_requests_of(rep->analysis);
	int i;

	if (!q->records)
		return;
	fprintf(rep->stream, "\n# i915 requests\nengine,requests,ran,completed,preempted,cpu_waits,cpu_wait_ns,cpu_wait_max_ns\n");
	for (i = 0; i <= I915_MAX_ENGINES; i++) {
		const struct i915_engine *e = &q->engines[i];

		if (i >= q->nr_engines && (i < I915_MAX_ENGINES || !e->requests))
			continue;
		report_csv_text(rep->stream, e->name);
		fprintf(rep->stream, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)e->requests,
			(unsigned long long)e->ran, (unsigned long long)e->completed,
			(unsigned long long)e->preempted, (unsigned long long)e->waits,
			(unsigned long long)e->wait_ns, (unsigned long long)e->max_wait_ns);
	}
}

const struct report_section report_section_i915_requests = {
	.name = "i915 requests",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_i915,
		[REPORT_SECTION_JSON] = json_i915,
		[REPORT_SECTION_CSV] = csv_i915,
	},
};
