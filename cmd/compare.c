// SPDX-License-Identifier: GPL-2.0
/*
 * gpu-trace compare A B: each side a .dat or a directory of them (an
 * experiment case's repetitions); per ring and stage, is B slower than A
 * beyond noise (lib/analysis/compare.c)? Every run goes through the one join.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/compare-verdict.h"
#include "analysis/host-clock.h"
#include "output/report-formats.h"
#include "util/name-index.h"
#include "analysis/analysis.h"
#include "cmd.h"
#include "analysis/hip-runtime.h"
#include "analysis/timeline.h"

#define MAX_RUNS	1000
/* Exit status when neither side holds a GPU job: nothing was compared. */
#define COMPARE_EXIT_NO_JOBS	2

struct cmp_kernel {
	char name[128];
	uint64_t dispatches[2];
	uint64_t spans[2], span_ns[2];	/* dispatch to its command's completion */
};

struct compare_run {
	struct compare c;
	const char *input[2];
	char **files[2];
	int nr_files[2];
	bool json;
	/* the run being read */
	enum cmp_side side;
	struct analysis *a;
	int *ring_map;			/* its timeline ring -> c.rings index */
	int nr_map;
	uint64_t lost_events[2];	/* dropped, as the records say (report's LOST line) */
	bool lost_unknown[2];		/* some windows say no number: lost_events is a floor */
	uint64_t lost_windows[2];
	struct cmp_kernel *kernels;
	int nr_kernels, cap_kernels;
	struct name_index kernel_names;
	uint64_t hip_lines[2];
	/* each side's hosts (record's host marker) and where its runs lie on UTC (clock pairs) */
	struct cmp_side_hosts {
#define CMP_HOST_NAMES	4
		char names[CMP_HOST_NAMES][65];
		int nr_names;
		bool more_names;		/* past CMP_HOST_NAMES distinct */
		int runs_utc;			/* runs with a clock pair */
		int64_t from, to;		/* first record of the earliest, last of the latest, ns */
		uint64_t uncertainty;		/* the widest run's */
	} hosts[2];
};

/* The run's host and its span on UTC, into its side's. */
static void note_host(struct compare_run *cr, const struct analysis *a)
{
	const struct analysis_totals *tot = analysis_totals(a);
	const struct host_clock *h = host_clock_of(a);
	struct cmp_side_hosts *s = &cr->hosts[cr->side];
	int64_t off, from, to;
	uint64_t unc;
	int i;

	if (h->known && h->name[0]) {
		for (i = 0; i < s->nr_names && strcmp(s->names[i], h->name); i++)
			;
		if (i == s->nr_names && i < CMP_HOST_NAMES)
			snprintf(s->names[s->nr_names++], sizeof(s->names[0]), "%s", h->name);
		else if (i == s->nr_names)
			s->more_names = true;
	}
	if (!host_clock_offset(h, &off, &unc))
		return;
	from = (int64_t)tot->first_ts + off;
	to = (int64_t)tot->last_ts + off;
	if (!s->runs_utc++ || from < s->from)
		s->from = from;
	if (s->runs_utc == 1 || to > s->to)
		s->to = to;
	if (unc > s->uncertainty)
		s->uncertainty = unc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .dat under dir, depth first, for the side; -1 with err. */
static int find_dats(struct compare_run *cr, int side, const char *dir, int depth,
		     struct gt_error *err)
{
	struct dirent **names;
	int n, i, ret = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return gt_error_set(err, errno, "cannot read %s: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		struct stat st;
		char *path;

		if (ret || name[0] == '.' || asprintf(&path, "%s/%s", dir, name) < 0) {
			free(names[i]);
			continue;
		}
		if (stat(path, &st)) {
			free(path);
		} else if (S_ISDIR(st.st_mode) && depth < 4) {
			ret = find_dats(cr, side, path, depth + 1, err);
			free(path);
		} else if (S_ISREG(st.st_mode) && len > 4 && !strcmp(name + len - 4, ".dat") &&
			   cr->nr_files[side] < MAX_RUNS) {
			char **f = realloc(cr->files[side], sizeof(*f) * (size_t)(cr->nr_files[side] + 1));

			if (!f) {
				free(path);
				ret = gt_error_set(err, ENOMEM, "out of memory");
			} else {
				cr->files[side] = f;
				f[cr->nr_files[side]++] = path;
			}
		} else {
			free(path);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

static int collect_side(struct compare_run *cr, int side, struct gt_error *err)
{
	const char *in = cr->input[side];
	struct stat st;

	if (stat(in, &st))
		return gt_error_set(err, errno, "cannot read %s: %s; give a .dat or a directory of runs",
				    in, strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		if (find_dats(cr, side, in, 0, err))
			return -1;
		if (!cr->nr_files[side])
			return gt_error_set(err, ENOENT, "%s holds no .dat files; give a recording or an experiment case directory",
					    in);
		qsort(cr->files[side], (size_t)cr->nr_files[side], sizeof(char *), cmp_str);
		return 0;
	}
	cr->files[side] = malloc(sizeof(char *));
	if (!cr->files[side] || !(cr->files[side][0] = strdup(in)))
		return gt_error_set(err, ENOMEM, "out of memory");
	cr->nr_files[side] = 1;
	return 0;
}

static void on_job(const struct job *j, void *ctx)
{
	struct compare_run *cr = ctx;
	struct cmp_ring *r;

	if (j->ring < 0)
		return;
	if (j->ring >= cr->nr_map) {
		int *m = realloc(cr->ring_map, sizeof(*m) * (size_t)(j->ring + 1)), i;

		if (!m) {
			cr->c.failed = 1;
			return;
		}
		for (i = cr->nr_map; i <= j->ring; i++)
			m[i] = -1;
		cr->ring_map = m;
		cr->nr_map = j->ring + 1;
	}
	/* the ring was named when its first event came; its index is stable */
	if (cr->ring_map[j->ring] < 0) {
		r = compare_ring(&cr->c, timeline_ring_name(timeline_of(cr->a), j->ring));
		if (!r)
			return;
		cr->ring_map[j->ring] = (int)(r - cr->c.rings);
	}
	compare_add_job(&cr->c, cr->side, &cr->c.rings[cr->ring_map[j->ring]], j);
}

static const char *cmp_kernel_name(void *ctx, int i)
{
	return ((struct compare_run *)ctx)->kernels[i].name;
}

static void count_kernels(struct compare_run *cr, const struct hip_runtime *h)
{
	int i, k, n;

	cr->hip_lines[cr->side] += h->lines;
	for (i = 0; i < h->nr_procs; i++) {
		for (k = 0; k < h->procs[i].nr_kernels; k++) {
			const struct hip_kernel *kn = &h->procs[i].kernels[k];

			n = name_index_find(&cr->kernel_names, kn->name, cmp_kernel_name, cr);
			if (n < 0) {
				struct cmp_kernel *m = cr->kernels;

				n = cr->nr_kernels;
				if (n == cr->cap_kernels) {
					int cap = cr->cap_kernels ? 2 * cr->cap_kernels : 64;

					m = realloc(cr->kernels, sizeof(*m) * (size_t)cap);
					if (!m) {
						cr->c.failed = 1;
						return;
					}
					cr->kernels = m;
					cr->cap_kernels = cap;
				}
				memset(&m[n], 0, sizeof(m[n]));
				snprintf(m[n].name, sizeof(m[n].name), "%s", kn->name);
				if (name_index_add(&cr->kernel_names, m[n].name, n, cmp_kernel_name, cr)) {
					cr->c.failed = 1;
					return;
				}
				cr->nr_kernels++;
			}
			cr->kernels[n].dispatches[cr->side] += kn->dispatches;
			cr->kernels[n].spans[cr->side] += kn->spans;
			cr->kernels[n].span_ns[cr->side] += kn->span_ns;
		}
	}
}

static int read_run(struct compare_run *cr, const char *path, struct gt_error *err)
{
	struct analysis_hooks hooks = { .on_job = on_job, .ctx = cr };
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct analysis *a = analysis_new();
	const struct analysis_totals *t;
	int ret;

	for (ret = 0; ret < cr->nr_map; ret++)
		cr->ring_map[ret] = -1;
	if (!m || !a) {
		free(m);
		analysis_free(a);
		return gt_error_set(err, ENOMEM, "out of memory");
	}
	ret = analysis_open_dat(a, path, m, &hooks, err);
	if (ret) {
		analysis_free(a);
		free(m);
		return -1;
	}
	cr->a = a;
	cmd_say_instances_absent("compare", path, m->v6_instances_absent, m->nr_v6_instances);
	ret = analysis_run(a, err);
	if (!ret) {
		t = analysis_totals(a);
		compare_end_run(&cr->c, cr->side, timeline_of(a), t->last_ts - t->first_ts);
		cr->lost_events[cr->side] += t->missed;
		cr->lost_unknown[cr->side] |= t->missed_unknown;
		cr->lost_windows[cr->side] += timeline_of(a)->lost_windows;
		cmd_say_damage("compare", path, &t->damage);
		count_kernels(cr, hip_runtime_of(a));
		note_host(cr, a);
	}
	cr->a = NULL;
	analysis_free(a);
	free(m);
	return ret;
}

/* microseconds with 3 decimals, "-" for a side without such jobs */
static void us3(char *buf, size_t len, bool has, uint64_t ns)
{
	if (!has)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%llu.%03llu", (unsigned long long)(ns / 1000),
			 (unsigned long long)(ns % 1000));
}

static const char *change_text(char *buf, size_t len, double change)
{
	if (isnan(change))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", 100 * change);
	return buf;
}

static void text_stage(struct compare_run *cr, struct cmp_ring *r, int l, FILE *f)
{
	struct cmp_result res;
	char v[6][32], ch[32], why[96] = "";
	int s;

	compare_stage(&cr->c, r, l, &res);
	if (!res.n[CMP_A] && !res.n[CMP_B])
		return;
	for (s = 0; s < 2; s++) {
		/* the values the change compares: over runs, the median of the runs' p50s */
		us3(v[s], sizeof(v[s]), res.n[s], (uint64_t)llround(res.median[s]));
		us3(v[2 + s], sizeof(v[2 + s]), res.n[s], res.p90[s]);
		us3(v[4 + s], sizeof(v[4 + s]), res.n[s], res.p99[s]);
	}
	if (res.verdict == CMP_SLOWER || res.verdict == CMP_FASTER || res.verdict == CMP_SAME) {
		if (res.by_runs && !isnan(res.p))
			snprintf(why, sizeof(why), " (p %.3f)", res.p);
		else if (!res.by_runs)
			snprintf(why, sizeof(why), " (z %.1f)", res.z);
	}
	fprintf(f, "  %-14s %12s %12s %9s %12s %12s %12s %12s  %s%s\n", job_latency_name(l), v[0], v[1],
	       change_text(ch, sizeof(ch), res.change), v[2], v[3], v[4], v[5],
	       res.under_min ? "under --min-change" : compare_verdict_name(res.verdict), why);
}

/* ", exec +30.0%, total +28.1%": each stage in `stages` with its change */
static void called_stages(struct compare_run *cr, struct cmp_ring *r, unsigned int stages,
			  FILE *f)
{
	struct cmp_result res;
	char ch[32];
	int l, n = 0;

	for (l = 0; l < LAT_NR; l++) {
		if (!(stages & (1u << l)))
			continue;
		compare_stage(&cr->c, r, (enum job_latency)l, &res);
		fprintf(f, "%s%s %s", n++ ? ", " : " ", job_latency_name((enum job_latency)l),
			change_text(ch, sizeof(ch), res.change));
	}
}

/* The ring in one line, under its table. */
static void text_ring_verdict(struct compare_run *cr, struct cmp_ring *r, FILE *f)
{
	struct cmp_ring_verdict v;

	compare_ring_verdict(&cr->c, r, &v);
	fprintf(f, "  => ");
	switch (v.verdict) {
	case CMP_SLOWER:
		fprintf(f, "B slower:");
		called_stages(cr, r, v.slower, f);
		break;
	case CMP_FASTER:
		fprintf(f, "B faster:");
		called_stages(cr, r, v.faster, f);
		break;
	case CMP_SAME:
		/* beyond noise but small: said, not called, so that no one reads it as noise */
		if (!v.slower && !v.faster && v.under_min) {
			fprintf(f, "no change of --min-change %.4g%% or more; beyond noise but under it:",
				cr->c.min_change * 100);
			called_stages(cr, r, v.under_min, f);
			break;
		}
		if (!v.slower && !v.faster) {
			fprintf(f, "no change beyond noise");
			break;
		}
		fprintf(f, "mixed: slower");
		called_stages(cr, r, v.slower, f);
		fprintf(f, "; faster");
		called_stages(cr, r, v.faster, f);
		break;
	case CMP_ONE_SIDE:
		fprintf(f, "jobs on one side only: nothing to compare on this ring");
		break;
	default:
		if (cr->c.runs[0] >= COMPARE_MIN_RUNS && cr->c.runs[1] >= COMPARE_MIN_RUNS)
			fprintf(f, "too few runs with jobs to tell (%d a side at least)", COMPARE_MIN_RUNS);
		else
			fprintf(f, "too few jobs to tell (%d a side at least; A has %llu, B %llu)",
				COMPARE_MIN_JOBS, (unsigned long long)r->jobs[0],
				(unsigned long long)r->jobs[1]);
		break;
	}
	fputc('\n', f);
}

static const char *ring_verdict_name(const struct cmp_ring_verdict *v)
{
	if (v->verdict == CMP_SAME && v->slower && v->faster)
		return "mixed";
	return compare_verdict_name(v->verdict);
}

/* "A: INPUT (N runs; host H; on UTC FROM .. TO, within U us)": who ran it, and when */
static void text_side(struct compare_run *cr, int side, FILE *f)
{
	const struct cmp_side_hosts *s = &cr->hosts[side];
	char a[48], b[48], u[32];
	int i;

	fprintf(f, "%c: %s (%d run%s", side ? 'B' : 'A', cr->input[side], cr->c.runs[side],
		cr->c.runs[side] == 1 ? "" : "s");
	for (i = 0; i < s->nr_names; i++)
		fprintf(f, "%s%s", i ? ", " : s->nr_names > 1 ? "; hosts " : "; host ", s->names[i]);
	if (s->more_names)
		fprintf(f, " and more");
	if (s->runs_utc)
		fprintf(f, "; on UTC %s .. %s, within %s us%s", report_utc_text(a, sizeof(a), s->from),
			report_utc_text(b, sizeof(b), s->to),
			report_us(u, sizeof(u), true, s->uncertainty),
			s->runs_utc < cr->c.runs[side] ? " (the runs with clock pairs)" : "");
	fprintf(f, ")\n");
}

/* "7", or "5.5" for 11 jobs in 2 runs: a mean is not rounded down */
static void per_run_text(char *buf, size_t len, uint64_t jobs, int runs)
{
	if (runs <= 0 || jobs % (uint64_t)runs == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(runs > 0 ? jobs / (uint64_t)runs : 0));
	else
		snprintf(buf, len, "%.1f", (double)jobs / runs);
}

/* f escapes what a terminal obeys: ring and kernel names come from the files */
static void print_text(struct compare_run *cr, FILE *f)
{
	int i, l, k;

	text_side(cr, 0, f);
	text_side(cr, 1, f);
	if (cr->c.runs[0] >= COMPARE_MIN_RUNS && cr->c.runs[1] >= COMPARE_MIN_RUNS)
		fprintf(f, "noise: the runs' own spread (Mann-Whitney over the runs' medians, exact; called at p < %.2f, p shown); p50 columns: the median of the runs' p50s, what the change compares",
			COMPARE_ALPHA);
	else if (cr->c.runs[0] > 1 && cr->c.runs[1] > 1)
		fprintf(f, "noise: over jobs (Mann-Whitney, |z| > 3.29); %d runs a side are too few to measure run-to-run noise (%d or more a side do)",
			cr->c.runs[0] < cr->c.runs[1] ? cr->c.runs[0] : cr->c.runs[1], COMPARE_MIN_RUNS);
	else
		fprintf(f, "noise: over jobs (Mann-Whitney, |z| > 3.29); with one run a side, run-to-run noise is not seen: repeat the runs");
	fprintf(f, "; changes under %.0f%% of A are not called\n", 100 * cr->c.min_change);
	for (i = 0; i < cr->c.nr_rings; i++) {
		struct cmp_ring *r = &cr->c.rings[i];

		char per_run[2][32];

		per_run_text(per_run[0], sizeof(per_run[0]), r->jobs[0], r->runs[0]);
		per_run_text(per_run[1], sizeof(per_run[1]), r->jobs[1], r->runs[1]);
		fprintf(f, "\nring %s: jobs %s / %s per run, busy %.1f%% / %.1f%%, unfinished %llu / %llu and lost-touched %llu / %llu in all runs\n",
		       r->name, per_run[0], per_run[1],
		       r->runs[0] ? r->busy_pct[0] / r->runs[0] : 0.0,
		       r->runs[1] ? r->busy_pct[1] / r->runs[1] : 0.0,
		       (unsigned long long)r->unfinished[0], (unsigned long long)r->unfinished[1],
		       (unsigned long long)r->lost[0], (unsigned long long)r->lost[1]);
		fprintf(f, "  %-14s %12s %12s %9s %12s %12s %12s %12s  %s\n", "stage (us)", "A p50", "B p50",
		       "change", "A p90", "B p90", "A p99", "B p99", "verdict");
		for (l = 0; l < LAT_NR; l++)
			text_stage(cr, r, l, f);
		text_ring_verdict(cr, r, f);
	}
	/* as report's LOST line: "+" where a window says no number */
	fprintf(f, "\nlost events: %llu%s / %llu%s, in %llu / %llu window%s of the data\n",
		(unsigned long long)cr->lost_events[0], cr->lost_unknown[0] ? "+" : "",
		(unsigned long long)cr->lost_events[1], cr->lost_unknown[1] ? "+" : "",
		(unsigned long long)cr->lost_windows[0], (unsigned long long)cr->lost_windows[1],
		cr->lost_windows[0] == 1 && cr->lost_windows[1] == 1 ? "" : "s");
	if (cr->hip_lines[0] && cr->hip_lines[1]) {
		fprintf(f, "\nHIP dispatches per run and their mean span, dispatch to completion (runtime log)\n  %10s %10s %12s %12s  %s\n",
		       "A", "B", "A us", "B us", "kernel");
		for (k = 0; k < cr->nr_kernels; k++) {
			const struct cmp_kernel *kn = &cr->kernels[k];
			char span[2][32];
			int s;

			for (s = 0; s < 2; s++)
				us3(span[s], sizeof(span[s]), kn->spans[s], kn->spans[s] ? kn->span_ns[s] / kn->spans[s] : 0);
			fprintf(f, "  %10.1f %10.1f %12s %12s  %s\n", (double)kn->dispatches[0] / cr->c.runs[0],
			       (double)kn->dispatches[1] / cr->c.runs[1], span[0], span[1], kn->name);
		}
	}
}

static void json_side(struct compare_run *cr, int s)
{
	int i;

	printf("{\"input\":");
	json_str(stdout, cr->input[s]);
	printf(",\"runs\":[");
	for (i = 0; i < cr->nr_files[s]; i++) {
		printf("%s", i ? "," : "");
		json_str(stdout, cr->files[s][i]);
	}
	printf("],\"lost_events\":%llu,\"lost_unknown\":%s,\"lost_windows\":%llu,\"hip_lines\":%llu,\"hosts\":[",
	       (unsigned long long)cr->lost_events[s], cr->lost_unknown[s] ? "true" : "false",
	       (unsigned long long)cr->lost_windows[s], (unsigned long long)cr->hip_lines[s]);
	for (i = 0; i < cr->hosts[s].nr_names; i++) {
		printf("%s", i ? "," : "");
		json_str(stdout, cr->hosts[s].names[i]);
	}
	printf("],\"hosts_more\":%s,\"utc\":", cr->hosts[s].more_names ? "true" : "false");
	if (cr->hosts[s].runs_utc)
		printf("{\"runs\":%d,\"from_ns\":%lld,\"to_ns\":%lld,\"uncertainty_ns\":%llu}}",
		       cr->hosts[s].runs_utc, (long long)cr->hosts[s].from, (long long)cr->hosts[s].to,
		       (unsigned long long)cr->hosts[s].uncertainty);
	else
		printf("null}");
}

static void json_num(const char *key, double v)
{
	if (isfinite(v))
		printf(",\"%s\":%.6g", key, v);
	else
		printf(",\"%s\":null", key);
}

static void json_stage_list(const char *key, unsigned int stages)
{
	int l, n = 0;

	printf(",\"%s\":[", key);
	for (l = 0; l < LAT_NR; l++)
		if (stages & (1u << l))
			printf("%s\"%s\"", n++ ? "," : "", job_latency_key((enum job_latency)l));
	printf("]");
}

static void json_ring_verdict(struct compare_run *cr, struct cmp_ring *r)
{
	struct cmp_ring_verdict v;

	compare_ring_verdict(&cr->c, r, &v);
	printf(",\"verdict\":\"%s\"", ring_verdict_name(&v));
	json_stage_list("slower", v.slower);
	json_stage_list("faster", v.faster);
	json_stage_list("under_min_change", v.under_min);
}

static void print_json(struct compare_run *cr)
{
	struct cmp_result res;
	int i, l, s, k, n;

	printf("{\"schema\":\"gpu-trace-compare/3\",\"a\":");
	json_side(cr, 0);
	printf(",\"b\":");
	json_side(cr, 1);
	printf(",\"noise\":\"%s\",\"min_change\":%.4g,\"rings\":[",
	       cr->c.runs[0] >= COMPARE_MIN_RUNS && cr->c.runs[1] >= COMPARE_MIN_RUNS ? "runs" : "jobs",
	       cr->c.min_change);
	for (i = 0; i < cr->c.nr_rings; i++) {
		struct cmp_ring *r = &cr->c.rings[i];

		printf("%s\n{\"name\":", i ? "," : "");
		json_str(stdout, r->name);
		for (s = 0; s < 2; s++)
			printf(",\"%s\":{\"runs\":%d,\"jobs\":%llu,\"unfinished\":%llu,\"lost\":%llu,\"busy_pct\":%.3f}",
			       s ? "b" : "a", r->runs[s], (unsigned long long)r->jobs[s],
			       (unsigned long long)r->unfinished[s], (unsigned long long)r->lost[s],
			       r->runs[s] ? r->busy_pct[s] / r->runs[s] : 0.0);
		printf(",\"stages\":[");
		for (l = 0, n = 0; l < LAT_NR; l++) {
			compare_stage(&cr->c, r, l, &res);
			if (!res.n[0] && !res.n[1])
				continue;
			printf("%s{\"stage\":\"%s\"", n++ ? "," : "", job_latency_key(l));
			for (s = 0; s < 2; s++) {
				const struct cmp_stage *st = &r->stage[s][l];

				printf(",\"%s\":{\"jobs\":%llu,\"p50_ns\":%llu,\"p90_ns\":%llu,\"p99_ns\":%llu,\"compared_ns\":%.0f,\"run_p50_ns\":[",
				       s ? "b" : "a", (unsigned long long)res.n[s],
				       (unsigned long long)res.p50[s], (unsigned long long)res.p90[s],
				       (unsigned long long)res.p99[s], res.median[s]);
				for (k = 0; k < st->nr_runs; k++)
					printf("%s%.0f", k ? "," : "", st->run_p50[k]);
				printf("]}");
			}
			json_num("change", res.change);
			if (res.by_runs) {
				json_num("p", res.p);
			} else {
				json_num("z", res.z);
			}
			printf(",\"verdict\":\"%s\",\"under_min_change\":%s}", compare_verdict_name(res.verdict),
			       res.under_min ? "true" : "false");
		}
		printf("]");
		json_ring_verdict(cr, r);
		printf("}");
	}
	printf("],\"hip_kernels\":[");
	for (k = 0; k < cr->nr_kernels; k++) {
		printf("%s{\"name\":", k ? "," : "");
		json_str(stdout, cr->kernels[k].name);
		printf(",\"a\":%llu,\"b\":%llu", (unsigned long long)cr->kernels[k].dispatches[0],
		       (unsigned long long)cr->kernels[k].dispatches[1]);
		for (s = 0; s < 2; s++)
			if (cr->kernels[k].spans[s])
				printf(",\"%s_mean_span_ns\":%llu", s ? "b" : "a",
				       (unsigned long long)(cr->kernels[k].span_ns[s] / cr->kernels[k].spans[s]));
			else
				printf(",\"%s_mean_span_ns\":null", s ? "b" : "a");
		putchar('}');
	}
	printf("]}\n");
}

static const struct option long_options[] = {
	{ "format", required_argument, NULL, 'F' },
	{ "min-change", required_argument, NULL, 'm' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int parse(int argc, char **argv, struct compare_run *cr, struct gt_error *err)
{
	double min_change = 0.05;
	int c;

	optind = 0;	/* a full restart of getopt, also when called again in one process */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return gt_error_set(err, EINVAL, "unknown --format '%s'; use text or json", optarg);
			cr->json = !strcmp(optarg, "json");
			break;
		case 'm':
			if (cmd_parse_min_change(optarg, &min_change, err))
				return -1;
			break;
		case 'h':
			fputs(cmd_usage("compare"), stdout);
			return 1;
		default:
			return cmd_option_error("compare", c, argv[optind - 1], err);
		}
	}
	if (argc - optind != 2)
		return gt_error_set(err, EINVAL, "compare takes two inputs, A and B (each a .dat or a directory of runs); see gpu-trace help compare");
	cr->input[0] = argv[optind];
	cr->input[1] = argv[optind + 1];
	compare_init(&cr->c, min_change);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_run cr = { 0 };
	struct gt_error err = { 0 };
	int ret = GT_EXIT_FAILURE, s, i;

	i = parse(argc, argv, &cr, &err);
	if (i)
		return i > 0 ? 0 : cmd_fail("compare", &err);
	for (s = 0; s < 2; s++)
		if (collect_side(&cr, s, &err))
			goto out;
	cmd_open_guard("compare");
	for (s = 0; s < 2; s++) {
		cr.side = s;
		for (i = 0; i < cr.nr_files[s]; i++)
			if (read_run(&cr, cr.files[s][i], &err))
				goto out;
	}
	if (cr.c.failed) {
		gt_error_set(&err, ENOMEM, "out of memory");
		goto out;
	}
	/* the HIP runtime's dispatches compare without a GPU job (no driver events) */
	if (!compare_has_jobs(&cr.c) && !(cr.hip_lines[0] && cr.hip_lines[1])) {
		cmd_failf("compare", "neither %s (%d run%s) nor %s (%d run%s) holds a GPU job: nothing to compare; record where the GPU driver's events are (gpu-trace check says what is there)",
			  cr.input[0], cr.c.runs[0], cr.c.runs[0] == 1 ? "" : "s", cr.input[1],
			  cr.c.runs[1], cr.c.runs[1] == 1 ? "" : "s");
		ret = COMPARE_EXIT_NO_JOBS;
		goto free;
	}
	if (cr.json) {
		print_json(&cr);
	} else {
		FILE *safe = term_safe_stream(stdout);

		if (!safe) {
			gt_error_set(&err, ENOMEM, "out of memory");
			goto out;
		}
		print_text(&cr, safe);
		fclose(safe);
	}
	ret = fflush(stdout) || ferror(stdout) ? GT_EXIT_FAILURE : 0;
	if (ret)
		gt_error_set(&err, EIO, "writing the comparison failed; check the disk or pipe it goes to");
out:
	if (ret)
		cmd_fail("compare", &err);
free:
	for (s = 0; s < 2; s++) {
		for (i = 0; i < cr.nr_files[s]; i++)
			free(cr.files[s][i]);
		free(cr.files[s]);
	}
	free(cr.ring_map);
	free(cr.kernels);
	name_index_free(&cr.kernel_names);
	compare_free(&cr.c);
	return ret;
}
