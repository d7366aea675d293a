// SPDX-License-Identifier: GPL-2.0
/*
 * What every format prints the same way: times, job keys and flags, busy
 * and lost. The formats include this and the driver (report.c) includes
 * the formats, never the reverse.
 */
#include <stdio.h>
#include <string.h>

#include "output/report-formats.h"
#include "analysis/timeline.h"
#include "analysis/workload-tree.h"

const char *report_us(char *buf, size_t len, bool has, uint64_t ns)
{
	if (!has)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%llu.%03llu", (unsigned long long)(ns / 1000),
			 (unsigned long long)(ns % 1000));
	return buf;
}

const char *report_size(char *buf, size_t len, uint64_t bytes)
{
	if (bytes < 1024 * 1024)
		snprintf(buf, len, "%.1f KiB", (double)bytes / 1024.0);
	else
		snprintf(buf, len, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
	return buf;
}

const char *report_ts(char *buf, size_t len, uint64_t ns)
{
	uint64_t us = (ns + 500) / 1000;

	if (!ns)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%llu.%06llu", (unsigned long long)(us / 1000000),
			 (unsigned long long)(us % 1000000));
	return buf;
}

const char *report_job_flags(char *buf, size_t len, unsigned int flags)
{
	job_flag_letters(buf, len, flags);
	if (!buf[0])
		snprintf(buf, len, "-");
	return buf;
}

const char *report_key(char *buf, size_t len, bool has_fence, uint64_t ctx, uint64_t seqno,
		       bool has_id, uint64_t id, uint64_t fence_ptr)
{
	if (has_fence)
		snprintf(buf, len, "%llu:%llu", (unsigned long long)ctx, (unsigned long long)seqno);
	else if (has_id)
		snprintf(buf, len, "id %llu", (unsigned long long)id);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)fence_ptr);
	return buf;
}

const char *report_job_key(char *buf, size_t len, const struct job *j)
{
	return report_key(buf, len, j->has_fence, j->ctx, j->seqno, j->has_id, j->id, j->fence_ptr);
}

bool report_has_workload(const struct report *rep)
{
	return workload_tree_of(rep->analysis)->known;
}

double report_busy_pct(const struct report *rep, const struct ring_stats *ring)
{
	const struct analysis_totals *tot = analysis_totals(rep->analysis);
	const struct timeline_filter *f = &timeline_of(rep->analysis)->filter;
	uint64_t from = tot->first_ts, to = tot->last_ts, span;

	/* busy_ns under --from/--to is the window's: so is the span it is a share of */
	if (f->from > from)
		from = f->from;
	if (f->to && f->to < to)
		to = f->to;
	span = to > from ? to - from : 0;

	return span ? 100.0 * (double)ring->busy_ns / (double)span : 0.0;
}

bool report_busy_known(const struct ring_stats *ring)
{
	return ring->timed_jobs || !ring->jobs;
}

uint64_t report_busy_ns(const struct report *rep)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	uint64_t busy = 0;
	int i;

	for (i = 0; i < tl->nr_rings; i++)
		busy += tl->rings[i]->busy_ns;
	return busy;
}

uint64_t report_lost_stats(const struct report *rep)
{
	uint64_t lost = 0;
	int i;

	for (i = 0; i < rep->meta->nr_cpustats; i++)
		lost += cpu_stats_lost(&rep->meta->cpustats[i]);
	return lost + rep->meta->instance_lost;
}

const char *report_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

uint64_t report_ring_jobs(const struct report *rep, int pid, int ring)
{
	return (uintptr_t)keymap_get(&rep->ring_jobs, (uint64_t)pid << 20 | (uint64_t)ring);
}

/* a value never measured is null in JSON, never a 0 that reads as 0 ns */
void report_json_u64(FILE *f, bool has, uint64_t v)
{
	if (has)
		fprintf(f, "%llu", (unsigned long long)v);
	else
		fputs("null", f);
}

void report_json_latency(FILE *f, const char *key, struct latency_stats *s)
{
	fprintf(f, ",\"%s\":{\"count\":%llu,\"p50_ns\":", key, (unsigned long long)s->count);
	report_json_u64(f, s->count, latency_stats_percentile(s, 50));
	fprintf(f, ",\"p99_ns\":");
	report_json_u64(f, s->count, latency_stats_percentile(s, 99));
	fprintf(f, ",\"max_ns\":");
	report_json_u64(f, s->count, s->max);
	fputc('}', f);
}

void report_json_hex(FILE *f, const char *key, uint64_t v)
{
	fprintf(f, ",\"%s\":\"0x%llx\"", key, (unsigned long long)v);
}

/* ... and an empty field in CSV */
void report_csv_u64(FILE *f, bool has, uint64_t v)
{
	if (has)
		fprintf(f, ",%llu", (unsigned long long)v);
	else
		fputc(',', f);
}

/* commas and quotes in comms and ring names are quoted as RFC 4180 says */
void report_csv_text(FILE *f, const char *s)
{
	/*
	 * A cell a spreadsheet would take for a formula (a comm of "=cmd|..."):
	 * quoted behind an apostrophe, as OWASP's CSV injection advice has it
	 */
	bool formula = strchr("=+-@\t\r", s[0]) && s[0];

	if (!formula && !strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

const char *report_zeroed_pages(char *buf, size_t len, const struct dat_stream_damage *d)
{
	char after[48], where[64], ts[32];
	bool one = d->zeroed_pages == 1;

	if (d->zeroed_after_ts)
		snprintf(after, sizeof(after), "after %s", report_ts(ts, sizeof(ts), d->zeroed_after_ts));
	else
		snprintf(after, sizeof(after), "at its start");
	if (d->zeroed_cpus > 1)
		snprintf(where, sizeof(where), "the data of %d CPUs (the first amid CPU %d's, ",
			 d->zeroed_cpus, d->zeroed_cpu);
	else
		snprintf(where, sizeof(where), "CPU %d's data (%s", d->zeroed_cpu, one ? "" : "the first ");
	snprintf(buf, len, "%llu page%s of zeros amid %s%s): the records %s held are lost, their number unknown",
		 (unsigned long long)d->zeroed_pages, one ? "" : "s", where, after, one ? "it" : "they");
	return buf;
}

const char *report_instances_absent(int absent, int read)
{
	if (!read)
		return "only the top buffer is read";
	return absent == 1 ? "its records are not read" : "their records are not read";
}
