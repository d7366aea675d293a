// SPDX-License-Identifier: GPL-2.0
/* The fleet summary as text, JSON and CSV (fleet-summary.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/fleet-summary.h"
#include "output/report-formats.h"
#include "util/json-str.h"

int fleet_view_failed(const struct fleet_view *v)
{
	int i, n = 0;

	for (i = 0; i < v->nr_files; i++)
		n += v->out[i].error != NULL;
	return n;
}

static int hosts_from(const struct fleet *f, enum fleet_host_from from)
{
	size_t i;
	int n = 0;

	for (i = 0; i < f->nr_hosts; i++)
		n += f->hosts[i].from == from;
	return n;
}

static double busy_pct(const struct fleet_row *r)
{
	return r->span_ns ? 100.0 * (double)r->busy_ns / (double)r->span_ns : 0.0;
}

/* how far above the fleet median: the larger of p50's and p99's ratio (q: 50 or 99) */
static double stage_ratio(const struct fleet_row *r, int l, int *q)
{
	double r50 = r->fleet_p50[l] ? (double)fleet_dist_percentile(&r->stage[l], 50) /
				       (double)r->fleet_p50[l] : INFINITY;
	double r99 = r->fleet_p99[l] ? (double)fleet_dist_percentile(&r->stage[l], 99) /
				       (double)r->fleet_p99[l] : INFINITY;

	*q = r99 >= r50 ? 99 : 50;
	return r99 >= r50 ? r99 : r50;
}

static int cmp_by_ring(const void *a, const void *b)
{
	const struct fleet_row *x = *(struct fleet_row *const *)a, *y = *(struct fleet_row *const *)b;
	int c = strcmp(x->ring, y->ring);

	return c ? c : strcmp(x->host, y->host);
}

/* the rows by ring then host, for a table per ring; NULL when out of memory */
static struct fleet_row **rows_by_ring(const struct fleet *f)
{
	struct fleet_row **r = malloc(sizeof(*r) * (f->nr_rows + 1));

	if (!r)
		return NULL;
	if (f->nr_rows) {
		memcpy(r, f->rows, sizeof(*r) * f->nr_rows);
		qsort(r, f->nr_rows, sizeof(*r), cmp_by_ring);
	}
	return r;
}

static size_t distinct_rings(struct fleet_row **by_ring, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += !i || strcmp(by_ring[i]->ring, by_ring[i - 1]->ring);
	return k;
}

static void text_behind(FILE *f, const struct fleet_row *r)
{
	int k;

	if (!r->behind_jobs) {
		fprintf(f, "its jobs waited behind no other process's");
		return;
	}
	fprintf(f, "its jobs waited %.3f ms behind %llu job%s of other processes (",
		(double)r->behind_ns / 1e6, (unsigned long long)r->behind_jobs,
		report_plural(r->behind_jobs));
	for (k = 0; k < r->nr_behind; k++)
		fprintf(f, "%s%d %s", k ? ", " : "", r->behind[k].pid, r->behind[k].comm);
	fprintf(f, "%s)", r->behind_more ? ", ..." : "");
}

static void text_outlier(FILE *f, const struct fleet_row *r)
{
	double p = 1;
	int l, q, n = 0;

	fprintf(f, "  %s %s: ", r->host, r->ring);
	for (l = 0; l < LAT_NR; l++) {
		double ratio;

		if (!(r->called & (1u << l)))
			continue;
		ratio = stage_ratio(r, l, &q);
		if (isinf(ratio))
			fprintf(f, "%sp%d %s above a fleet median of 0", n++ ? ", " : "", q,
				job_latency_name(l));
		else
			fprintf(f, "%sp%d %s %.2fx", n++ ? ", " : "", q, job_latency_name(l), ratio);
		if (r->p[l] < p)
			p = r->p[l];
	}
	fprintf(f, " the fleet median, ");
	if (p < 0.001)
		fprintf(f, "p < 0.001; ");
	else
		fprintf(f, "p %.3f; ", p);
	text_behind(f, r);
	fputc('\n', f);
}

static void text_header(FILE *f, const struct fleet_view *v, size_t rings)
{
	const struct fleet *fl = v->f;
	int failed = fleet_view_failed(v);

	fprintf(f, "fleet    %d file%s, %zu host%s (named by: %d record marker, %d host= folder, %d file name), %zu ring%s, %zu host ring%s",
		v->nr_files, report_plural((uint64_t)v->nr_files), fl->nr_hosts,
		report_plural(fl->nr_hosts), hosts_from(fl, FLEET_HOST_MARKER),
		hosts_from(fl, FLEET_HOST_PATH), hosts_from(fl, FLEET_HOST_FILE), rings,
		report_plural(rings), fl->nr_rows, report_plural(fl->nr_rows));
	if (failed)
		fprintf(f, "; %d file%s could not be read (said on standard error)", failed,
			report_plural((uint64_t)failed));
	if (v->files_over)
		fprintf(f, "; %llu more files past the limit not read", v->files_over);
	if (fl->rows_dropped)
		fprintf(f, "; %llu rings not kept (past %d host rings or %u histogram buckets)",
			(unsigned long long)fl->rows_dropped, FLEET_MAX_ROWS, FLEET_MAX_BINS);
	fprintf(f, "\nnoise    each host's jobs against the ring's other hosts' pooled (Mann-Whitney over report's histogram, one-sided), Holm-corrected over %zu host x ring x stage test%s at p < %.2f; named only %.0f%% and %.0f MADs above the fleet median of the hosts' p50 or p99, with %d hosts or more on the ring\n",
		fl->tests, report_plural(fl->tests), FLEET_ALPHA, 100 * fl->min_change, FLEET_MAD_K,
		FLEET_MIN_HOSTS);
}

/* "123.456/789.012" of a stage, "*" after it where the host was named for it; "-" without jobs */
static void stage_cell(char *cell, size_t len, bool has, uint64_t p50, uint64_t p99, bool called)
{
	char a[32], b[32];

	if (!has)
		snprintf(cell, len, "-");
	else
		snprintf(cell, len, "%s/%s%s", report_us(a, sizeof(a), true, p50),
			 report_us(b, sizeof(b), true, p99), called ? "*" : "");
}

/* row i's cell of stage l, or the fleet medians' (i == n) */
static void ring_cell(char *cell, size_t len, struct fleet_row **rows, size_t n, size_t i, int l)
{
	const struct fleet_row *r = rows[i < n ? i : 0];

	if (i == n)
		stage_cell(cell, len, true, r->fleet_p50[l], r->fleet_p99[l], false);
	else
		stage_cell(cell, len, r->stage[l].count, fleet_dist_percentile(&r->stage[l], 50),
			   fleet_dist_percentile(&r->stage[l], 99), r->called & (1u << l));
}

static void text_ring(FILE *f, struct fleet_row **rows, size_t n)
{
	int width[LAT_NR] = { 0 }, l, last = -1;
	unsigned int stages = 0;
	char cell[80];
	size_t i;

	for (i = 0; i < n; i++)
		for (l = 0; l < LAT_NR; l++)
			if (rows[i]->stage[l].count)
				stages |= 1u << l;
	/* each stage's column as wide as its widest cell, the fleet medians' included */
	for (l = 0; l < LAT_NR; l++) {
		if (!(stages & (1u << l)))
			continue;
		last = l;
		width[l] = (int)strlen(job_latency_name(l));
		for (i = 0; i <= n; i++) {
			ring_cell(cell, sizeof(cell), rows, n, i, l);
			if ((int)strlen(cell) > width[l])
				width[l] = (int)strlen(cell);
		}
	}
	fprintf(f, "\nring %s: %zu host%s; p50/p99 per stage in us, * where the host is named\n",
		rows[0]->ring, n, report_plural(n));
	fprintf(f, "  %-20s %5s %9s %7s", "host", "files", "jobs", "busy");
	for (l = 0; l < LAT_NR; l++)
		if (stages & (1u << l))
			fprintf(f, "  %-*s", l == last ? 0 : width[l], job_latency_name(l));
	fputc('\n', f);
	for (i = 0; i <= n; i++) {
		const struct fleet_row *r = rows[i < n ? i : 0];
		char busy[16] = "";

		if (i == n)
			fprintf(f, "  %-20s %5s %9s %7s", "(fleet median)", "", "", "");
		else if (r->timed_jobs || !r->jobs)
			snprintf(busy, sizeof(busy), "%.1f%%", busy_pct(r));
		else
			snprintf(busy, sizeof(busy), "-");
		if (i < n)
			fprintf(f, "  %-20s %5d %9llu %7s", r->host, r->files,
				(unsigned long long)r->jobs, busy);
		for (l = 0; l < LAT_NR; l++) {
			if (!(stages & (1u << l)))
				continue;
			ring_cell(cell, sizeof(cell), rows, n, i, l);
			fprintf(f, "  %-*s", l == last ? 0 : width[l], cell);
		}
		fputc('\n', f);
	}
}

void fleet_summary_text(FILE *f, const struct fleet_view *v)
{
	const struct fleet *fl = v->f;
	struct fleet_row **by_ring = rows_by_ring(fl);
	size_t i, end;

	text_header(f, v, by_ring ? distinct_rings(by_ring, fl->nr_rows) : 0);
	if (!fl->nr_called) {
		fprintf(f, "\noutliers: none beyond noise\n");
	} else {
		fprintf(f, "\noutliers (%zu host ring%s)\n", fl->nr_called, report_plural(fl->nr_called));
		for (i = 0; i < fl->nr_rows; i++)
			if (fl->rows[i]->called)
				text_outlier(f, fl->rows[i]);
	}
	if (!by_ring)
		return;
	for (i = 0; i < fl->nr_rows; i = end) {
		for (end = i + 1; end < fl->nr_rows && !strcmp(by_ring[end]->ring, by_ring[i]->ring); end++)
			;
		text_ring(f, by_ring + i, end - i);
	}
	free(by_ring);
}

static void json_num(FILE *f, const char *key, double v)
{
	if (isfinite(v))
		fprintf(f, ",\"%s\":%.6g", key, v);
	else
		fprintf(f, ",\"%s\":null", key);
}

static void json_stages(FILE *f, const struct fleet_row *r)
{
	int l, n = 0;

	fputs(",\"stages\":[", f);
	for (l = 0; l < LAT_NR; l++) {
		const struct fleet_dist *d = &r->stage[l];

		if (!d->count)
			continue;
		fprintf(f, "%s{\"stage\":\"%s\",\"jobs\":%llu,\"p50_ns\":%llu,\"p99_ns\":%llu,\"fleet_p50_ns\":%llu,\"fleet_p99_ns\":%llu",
			n++ ? "," : "", job_latency_key(l), (unsigned long long)d->count,
			(unsigned long long)fleet_dist_percentile(d, 50),
			(unsigned long long)fleet_dist_percentile(d, 99),
			(unsigned long long)r->fleet_p50[l], (unsigned long long)r->fleet_p99[l]);
		json_num(f, "z", r->z[l]);
		json_num(f, "p", r->p[l]);
		fprintf(f, ",\"called\":%s}", r->called & (1u << l) ? "true" : "false");
	}
	fputc(']', f);
}

static void json_row(FILE *f, const struct fleet_row *r)
{
	int k, l, n = 0;

	fputs("{\"host\":", f);
	json_str(f, r->host);
	fputs(",\"ring\":", f);
	json_str(f, r->ring);
	fprintf(f, ",\"files\":%d,\"jobs\":%llu,\"unfinished\":%llu,\"lost\":%llu,\"busy_ns\":%llu,\"span_ns\":%llu",
		r->files, (unsigned long long)r->jobs, (unsigned long long)r->unfinished,
		(unsigned long long)r->lost, (unsigned long long)r->busy_ns,
		(unsigned long long)r->span_ns);
	if (r->timed_jobs || !r->jobs)
		fprintf(f, ",\"busy_pct\":%.3f", busy_pct(r));
	else
		fputs(",\"busy_pct\":null", f);
	fprintf(f, ",\"behind_ns\":%llu,\"behind_jobs\":%llu,\"behind\":[",
		(unsigned long long)r->behind_ns, (unsigned long long)r->behind_jobs);
	for (k = 0; k < r->nr_behind; k++) {
		fprintf(f, "%s{\"pid\":%d,\"comm\":", k ? "," : "", r->behind[k].pid);
		json_str(f, r->behind[k].comm);
		fputc('}', f);
	}
	fprintf(f, "],\"behind_more\":%s", r->behind_more ? "true" : "false");
	json_stages(f, r);
	fputs(",\"called\":[", f);
	for (l = 0; l < LAT_NR; l++)
		if (r->called & (1u << l))
			fprintf(f, "%s\"%s\"", n++ ? "," : "", job_latency_key(l));
	fputs("]}", f);
}

void fleet_summary_json(FILE *f, const struct fleet_view *v)
{
	const struct fleet *fl = v->f;
	size_t i;
	int k, n = 0;

	fprintf(f, "{\"schema\":\"gpu-trace-fleet/1\",\"files\":%d,\"files_failed\":%d,\"files_over_limit\":%llu,\"rows_dropped\":%llu",
		v->nr_files, fleet_view_failed(v), v->files_over,
		(unsigned long long)fl->rows_dropped);
	fprintf(f, ",\"noise\":{\"test\":\"mann-whitney\",\"sides\":\"one (slower)\",\"correction\":\"holm\",\"tests\":%zu,\"alpha\":%.3g,\"min_change\":%.4g,\"mad_k\":%.3g,\"min_hosts\":%d,\"min_jobs\":%d}",
		fl->tests, FLEET_ALPHA, fl->min_change, FLEET_MAD_K, FLEET_MIN_HOSTS, FLEET_MIN_JOBS);
	fputs(",\"hosts\":[", f);
	for (i = 0; i < fl->nr_hosts; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		json_str(f, fl->hosts[i].name);
		fprintf(f, ",\"from\":\"%s\",\"files\":%d}", fleet_host_from_text(fl->hosts[i].from),
			fl->hosts[i].files);
	}
	fputs("],\"rows\":[", f);
	for (i = 0; i < fl->nr_rows; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_row(f, fl->rows[i]);
	}
	fputs("],\"outliers\":[", f);
	for (i = 0; i < fl->nr_rows; i++) {
		if (!fl->rows[i]->called)
			continue;
		fputs(n++ ? ",{\"host\":" : "{\"host\":", f);
		json_str(f, fl->rows[i]->host);
		fputs(",\"ring\":", f);
		json_str(f, fl->rows[i]->ring);
		fputc('}', f);
	}
	fputs("],\"failed\":[", f);
	for (k = 0, n = 0; k < v->nr_files; k++) {
		if (!v->out[k].error)
			continue;
		fputs(n++ ? ",{\"file\":" : "{\"file\":", f);
		json_str(f, v->files[k]);
		fputs(",\"error\":", f);
		json_str(f, v->out[k].error);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

static void csv_double(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fputc(',', f);
}

void fleet_summary_csv(FILE *f, const struct fleet_view *v)
{
	const struct fleet *fl = v->f;
	size_t i;
	int l;

	fputs("host,host_from,ring,files,jobs,unfinished,lost,busy_pct,behind_ns,behind_jobs,stage,stage_jobs,p50_ns,p99_ns,fleet_p50_ns,fleet_p99_ns,z,p,called\n",
	      f);
	for (i = 0; i < fl->nr_rows; i++) {
		const struct fleet_row *r = fl->rows[i];
		const struct fleet_host *host = fleet_host_find(fl, r->host);
		const char *from = host ? fleet_host_from_text(host->from) : "";
		bool any = false;

		for (l = 0; l < LAT_NR || !any; l++) {
			const struct fleet_dist *d = l < LAT_NR ? &r->stage[l] : NULL;

			if (d && !d->count)
				continue;
			any = true;
			report_csv_text(f, r->host);
			fputc(',', f);
			report_csv_text(f, from);
			fputc(',', f);
			report_csv_text(f, r->ring);
			fprintf(f, ",%d,%llu,%llu,%llu", r->files, (unsigned long long)r->jobs,
				(unsigned long long)r->unfinished, (unsigned long long)r->lost);
			csv_double(f, r->timed_jobs || !r->jobs ? busy_pct(r) : NAN);
			fprintf(f, ",%llu,%llu,", (unsigned long long)r->behind_ns,
				(unsigned long long)r->behind_jobs);
			if (!d) {
				fputs(",,,,,,,,\n", f);
				break;
			}
			fputs(job_latency_key(l), f);
			fprintf(f, ",%llu,%llu,%llu,%llu,%llu", (unsigned long long)d->count,
				(unsigned long long)fleet_dist_percentile(d, 50),
				(unsigned long long)fleet_dist_percentile(d, 99),
				(unsigned long long)r->fleet_p50[l], (unsigned long long)r->fleet_p99[l]);
			csv_double(f, r->z[l]);
			csv_double(f, r->p[l]);
			fprintf(f, ",%d\n", r->called & (1u << l) ? 1 : 0);
		}
	}
}
