// SPDX-License-Identifier: GPL-2.0
/* Hosts x rings, their distributions summed over files, the outliers named (fleet-stats.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/name-index.h"
#include "analysis/fleet-stats.h"

struct fleet_index {
	struct name_index rows, hosts;
};

/* the indexes, made on first use; NULL (f->failed) when out of memory */
static struct fleet_index *index_of(struct fleet *f)
{
	if (!f->index)
		f->index = calloc(1, sizeof(*f->index));
	if (!f->index)
		f->failed = true;
	return f->index;
}

void fleet_init(struct fleet *f, double min_change)
{
	memset(f, 0, sizeof(*f));
	f->min_change = min_change;
}

int fleet_dist_from_stats(struct fleet_dist *d, struct latency_stats *s, uint64_t *counts)
{
	uint32_t b, n = 0;

	memset(d, 0, sizeof(*d));
	if (!s->count)
		return 0;
	latency_stats_bucket_counts(s, counts);
	for (b = 0; b < LATENCY_BUCKETS; b++)
		n += counts[b] != 0;
	d->bins = malloc(sizeof(*d->bins) * n);
	if (!d->bins)
		return -1;
	for (b = 0; b < LATENCY_BUCKETS; b++)
		if (counts[b])
			d->bins[d->nr_bins++] = (struct fleet_bin){
				(uint16_t)b,
				counts[b] > UINT32_MAX ? UINT32_MAX : (uint32_t)counts[b] };
	d->count = s->count;
	d->sum = s->sum;
	d->min = s->min;
	d->max = s->max;
	d->exact = true;
	d->exact_p50 = latency_stats_percentile(s, 50);
	d->exact_p99 = latency_stats_percentile(s, 99);
	return 0;
}

int fleet_dist_merge(struct fleet_dist *dst, const struct fleet_dist *src)
{
	struct fleet_bin *m;
	uint32_t i = 0, j = 0, n = 0;

	if (!src->count)
		return 0;
	m = malloc(sizeof(*m) * ((size_t)dst->nr_bins + src->nr_bins));
	if (!m)
		return -1;
	while (i < dst->nr_bins || j < src->nr_bins) {
		if (j == src->nr_bins ||
		    (i < dst->nr_bins && dst->bins[i].bucket < src->bins[j].bucket))
			m[n++] = dst->bins[i++];
		else if (i == dst->nr_bins || src->bins[j].bucket < dst->bins[i].bucket)
			m[n++] = src->bins[j++];
		else
			m[n++] = (struct fleet_bin){ dst->bins[i].bucket,
				dst->bins[i].n > UINT32_MAX - src->bins[j].n ? UINT32_MAX :
				dst->bins[i].n + src->bins[j].n }, i++, j++;
	}
	free(dst->bins);
	dst->bins = m;
	dst->nr_bins = n;
	dst->exact = !dst->count && src->exact;
	dst->exact_p50 = dst->exact ? src->exact_p50 : 0;
	dst->exact_p99 = dst->exact ? src->exact_p99 : 0;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	return 0;
}

uint64_t fleet_dist_percentile(const struct fleet_dist *d, double p)
{
	uint64_t rank, seen = 0, v = 0;
	uint32_t i;

	if (!d->count)
		return 0;
	if (d->exact && (p == 50 || p == 99))
		return p == 50 ? d->exact_p50 : d->exact_p99;
	rank = (uint64_t)ceil(p / 100.0 * (double)d->count);
	rank = rank < 1 ? 1 : rank > d->count ? d->count : rank;
	for (i = 0; i < d->nr_bins; i++) {
		seen += d->bins[i].n;
		v = latency_bucket_value(d->bins[i].bucket);
		if (seen >= rank)
			break;
	}
	return v < d->min ? d->min : v > d->max ? d->max : v;
}

void fleet_dist_free(struct fleet_dist *d)
{
	free(d->bins);
	memset(d, 0, sizeof(*d));
}

static int pid_cmp(int pa, const char *ca, int pb, const char *cb)
{
	return pa != pb ? (pa > pb) - (pa < pb) : strcmp(ca, cb);
}

void fleet_behind_add(struct fleet_row *r, int pid, const char *comm)
{
	char name[FLEET_COMM_LEN];
	int i, at;

	snprintf(name, sizeof(name), "%s", comm ? comm : "");
	for (at = 0; at < r->nr_behind; at++) {
		int c = pid_cmp(pid, name, r->behind[at].pid, r->behind[at].comm);

		if (!c)
			return;
		if (c < 0)
			break;
	}
	if (at == FLEET_MAX_BEHIND) {
		r->behind_more = true;
		return;
	}
	if (r->nr_behind == FLEET_MAX_BEHIND)
		r->behind_more = true;
	else
		r->nr_behind++;
	for (i = r->nr_behind - 1; i > at; i--)
		r->behind[i] = r->behind[i - 1];
	r->behind[at].pid = pid;
	memcpy(r->behind[at].comm, name, sizeof(name));
}

static const char *row_key_at(void *ctx, int i)
{
	return ((struct fleet *)ctx)->rows[i]->key;
}

static const char *host_at(void *ctx, int i)
{
	return ((struct fleet *)ctx)->hosts[i].name;
}

static void row_key(char *buf, size_t len, const char *host, const char *ring)
{
	/* the host's length first: no host and ring read as another pair */
	snprintf(buf, len, "%zu:%s/%s", strlen(host), host, ring);
}

static struct fleet_row *row_of(struct fleet *f, const char *host, struct fleet_row *r)
{
	char key[sizeof(r->key)];
	struct fleet_row *n, **rows;
	int i;

	if (!index_of(f))
		return NULL;
	row_key(key, sizeof(key), host, r->ring);
	i = name_index_find(&f->index->rows, key, row_key_at, f);
	if (i >= 0)
		return f->rows[i];
	if (f->nr_rows >= FLEET_MAX_ROWS) {
		f->rows_dropped++;
		return NULL;
	}
	if (f->nr_rows == f->cap_rows) {
		size_t cap = f->cap_rows ? 2 * f->cap_rows : 64;

		rows = realloc(f->rows, sizeof(*rows) * cap);
		if (!rows)
			goto oom;
		f->rows = rows;
		f->cap_rows = cap;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		goto oom;
	snprintf(n->host, sizeof(n->host), "%s", host);
	snprintf(n->ring, sizeof(n->ring), "%s", r->ring);
	memcpy(n->key, key, sizeof(key));
	f->rows[f->nr_rows] = n;
	if (name_index_add(&f->index->rows, n->key, (int)f->nr_rows, row_key_at, f)) {
		free(n);
		goto oom;
	}
	f->nr_rows++;
	return n;
oom:
	f->failed = true;
	return NULL;
}

static void add_host(struct fleet *f, const struct fleet_file *ff)
{
	struct fleet_host *h;
	int i;

	if (!index_of(f))
		return;
	i = name_index_find(&f->index->hosts, ff->host, host_at, f);
	if (i >= 0) {
		h = &f->hosts[i];
		/* the surest source a file of the host named it by */
		if (ff->from < h->from)
			h->from = ff->from;
		h->files++;
		return;
	}
	if (f->nr_hosts == f->cap_hosts) {
		size_t cap = f->cap_hosts ? 2 * f->cap_hosts : 64;

		h = realloc(f->hosts, sizeof(*h) * cap);
		if (!h) {
			f->failed = true;
			return;
		}
		f->hosts = h;
		f->cap_hosts = cap;
	}
	h = &f->hosts[f->nr_hosts];
	snprintf(h->name, sizeof(h->name), "%s", ff->host);
	h->from = ff->from;
	h->files = 1;
	if (name_index_add(&f->index->hosts, h->name, (int)f->nr_hosts, host_at, f))
		f->failed = true;
	else
		f->nr_hosts++;
}

void fleet_add_file(struct fleet *f, struct fleet_file *ff)
{
	int i, l, k;

	f->files++;
	add_host(f, ff);
	for (i = 0; i < ff->nr_rings; i++) {
		struct fleet_row *src = &ff->rings[i], *r;
		uint64_t bins = 0;

		for (l = 0; l < LAT_NR; l++)
			bins += src->stage[l].nr_bins;
		/* at most its own buckets more: merged ones may share them */
		if (f->nr_bins + bins > FLEET_MAX_BINS) {
			f->rows_dropped++;
			continue;
		}
		r = row_of(f, ff->host, src);
		if (!r)
			continue;
		r->files++;
		r->jobs += src->jobs;
		r->unfinished += src->unfinished;
		r->lost += src->lost;
		r->timed_jobs += src->timed_jobs;
		r->busy_ns += src->busy_ns;
		r->span_ns += src->span_ns;
		r->behind_ns += src->behind_ns;
		r->behind_jobs += src->behind_jobs;
		r->behind_more |= src->behind_more;
		for (k = 0; k < src->nr_behind; k++)
			fleet_behind_add(r, src->behind[k].pid, src->behind[k].comm);
		for (l = 0; l < LAT_NR; l++) {
			uint32_t before = r->stage[l].nr_bins;

			if (fleet_dist_merge(&r->stage[l], &src->stage[l]))
				f->failed = true;
			f->nr_bins += r->stage[l].nr_bins - before;
		}
	}
	fleet_file_free(ff);
}

void fleet_file_free(struct fleet_file *ff)
{
	int i, l;

	for (i = 0; i < ff->nr_rings; i++)
		for (l = 0; l < LAT_NR; l++)
			fleet_dist_free(&ff->rings[i].stage[l]);
	free(ff->rings);
	ff->rings = NULL;
	ff->nr_rings = 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct fleet_row *x = *(struct fleet_row *const *)a;
	const struct fleet_row *y = *(struct fleet_row *const *)b;
	int c = strcmp(x->host, y->host);

	return c ? c : strcmp(x->ring, y->ring);
}

static int cmp_host(const void *a, const void *b)
{
	return strcmp(((const struct fleet_host *)a)->name, ((const struct fleet_host *)b)->name);
}

/* rows by ring, then host: a ring's hosts side by side */
static int cmp_row_by_ring(const void *a, const void *b)
{
	const struct fleet_row *x = *(struct fleet_row *const *)a;
	const struct fleet_row *y = *(struct fleet_row *const *)b;
	int c = strcmp(x->ring, y->ring);

	return c ? c : strcmp(x->host, y->host);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* the median of n values, sorted in place; the lower middle of an even count, as a rank */
static uint64_t median_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n ? v[(n - 1) / 2] : 0;
}

/* the median absolute deviation of v from m (v is scratch) */
static uint64_t mad_u64(uint64_t *v, size_t n, uint64_t m)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = v[i] > m ? v[i] - m : m - v[i];
	return median_u64(v, n);
}

struct fleet_test {
	struct fleet_row *row;
	int stage;
	double p;
};

/*
 * One ring's hosts (rows[0..n), all of that ring name) at one stage: each
 * one's jobs against the others' pooled. Tests are appended at *t.
 */
static void test_stage(struct fleet_row **rows, size_t n, int l, struct fleet_test *t, size_t *nt,
		       uint64_t *total, uint64_t *mine, uint64_t *rest, uint64_t *vals)
{
	uint64_t med50, med99;
	size_t i, k, hosts = 0;
	uint32_t b;

	memset(total, 0, LATENCY_BUCKETS * sizeof(*total));
	for (i = 0; i < n; i++) {
		const struct fleet_dist *d = &rows[i]->stage[l];

		if (d->count < FLEET_MIN_JOBS)
			continue;
		for (b = 0; b < d->nr_bins; b++)
			total[d->bins[b].bucket] += d->bins[b].n;
		vals[hosts++] = fleet_dist_percentile(d, 50);
	}
	if (!hosts)
		return;
	med50 = median_u64(vals, hosts);
	for (i = 0, k = 0; i < n; i++)
		if (rows[i]->stage[l].count >= FLEET_MIN_JOBS)
			vals[k++] = fleet_dist_percentile(&rows[i]->stage[l], 99);
	med99 = median_u64(vals, hosts);
	for (i = 0; i < n; i++) {
		const struct fleet_dist *d = &rows[i]->stage[l];
		double z;

		rows[i]->fleet_p50[l] = med50;
		rows[i]->fleet_p99[l] = med99;
		if (d->count < FLEET_MIN_JOBS || hosts < FLEET_MIN_HOSTS)
			continue;
		memset(mine, 0, LATENCY_BUCKETS * sizeof(*mine));
		for (b = 0; b < d->nr_bins; b++)
			mine[d->bins[b].bucket] = d->bins[b].n;
		for (b = 0; b < LATENCY_BUCKETS; b++)
			rest[b] = total[b] - mine[b];
		z = latency_rank_z_counts(rest, mine);
		rows[i]->z[l] = z;
		t[*nt].row = rows[i];
		t[*nt].stage = l;
		/* one-sided: this host slower than the rest */
		t[*nt].p = 0.5 * erfc(z / sqrt(2.0));
		(*nt)++;
	}
}

/* Is the row's stage far enough above the fleet's hosts to be named? */
static bool stands_out(const struct fleet *f, struct fleet_row **rows, size_t n,
		       const struct fleet_row *r, int l, uint64_t *vals)
{
	int q;

	for (q = 0; q < 2; q++) {
		double pct = q ? 99 : 50, v, med = (double)(q ? r->fleet_p99[l] : r->fleet_p50[l]);
		size_t i, k = 0;
		uint64_t mad;

		v = (double)fleet_dist_percentile(&r->stage[l], pct);
		for (i = 0; i < n; i++)
			if (rows[i]->stage[l].count >= FLEET_MIN_JOBS)
				vals[k++] = fleet_dist_percentile(&rows[i]->stage[l], pct);
		mad = mad_u64(vals, k, (uint64_t)med);
		/* 1.4826 MAD: the standard deviation of normal spread */
		if (v >= med * (1 + f->min_change) && v > med + FLEET_MAD_K * 1.4826 * (double)mad)
			return true;
	}
	return false;
}

static int cmp_test(const void *a, const void *b)
{
	const struct fleet_test *x = a, *y = b;
	int c;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	c = cmp_row(&x->row, &y->row);
	return c ? c : x->stage - y->stage;
}

static int cmp_p_index(const void *a, const void *b, void *ctx)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const double *p = ctx;

	if (p[x] != p[y])
		return p[x] < p[y] ? -1 : 1;
	return (x > y) - (x < y);
}

int fleet_holm(double *p, size_t n)
{
	size_t *order = malloc(sizeof(*order) * (n ? n : 1)), i;
	double run = 0;

	if (!order)
		return -1;
	for (i = 0; i < n; i++)
		order[i] = i;
	/* by (p, index): the same for any order of equal values */
	if (n)
		qsort_r(order, n, sizeof(*order), cmp_p_index, p);
	for (i = 0; i < n; i++) {
		double adj = (double)(n - i) * p[order[i]];

		run = adj > run ? adj : run;
		p[order[i]] = run > 1 ? 1 : run;
	}
	free(order);
	return 0;
}

/* The tests of every ring's hosts, corrected together; called stages marked. */
static void judge_rings(struct fleet *f, struct fleet_row **by_ring, struct fleet_test *t,
			uint64_t *scratch)
{
	uint64_t *total = scratch, *mine = total + LATENCY_BUCKETS, *rest = mine + LATENCY_BUCKETS;
	uint64_t *vals = rest + LATENCY_BUCKETS;
	size_t start, end, i, nt = 0;
	double *p;
	int l;

	for (start = 0; start < f->nr_rows; start = end) {
		for (end = start + 1; end < f->nr_rows &&
		     !strcmp(by_ring[end]->ring, by_ring[start]->ring); end++)
			;
		for (l = 0; l < LAT_NR; l++)
			test_stage(by_ring + start, end - start, l, t, &nt, total, mine, rest,
				   vals);
	}
	/* sorted, so that the correction sees the same order whatever the files' */
	if (nt)
		qsort(t, nt, sizeof(*t), cmp_test);
	p = malloc(sizeof(*p) * (nt ? nt : 1));
	if (!p) {
		f->failed = true;
		return;
	}
	for (i = 0; i < nt; i++)
		p[i] = t[i].p;
	if (fleet_holm(p, nt)) {
		f->failed = true;
		free(p);
		return;
	}
	f->tests = nt;
	for (i = 0; i < nt; i++)
		t[i].row->p[t[i].stage] = p[i];
	free(p);
	for (start = 0; start < f->nr_rows; start = end) {
		for (end = start + 1; end < f->nr_rows &&
		     !strcmp(by_ring[end]->ring, by_ring[start]->ring); end++)
			;
		for (i = start; i < end; i++)
			for (l = 0; l < LAT_NR; l++)
				if (!isnan(by_ring[i]->p[l]) && by_ring[i]->p[l] < FLEET_ALPHA &&
				    stands_out(f, by_ring + start, end - start, by_ring[i], l,
					       vals))
					by_ring[i]->called |= 1u << l;
	}
}

void fleet_judge(struct fleet *f)
{
	struct fleet_row **by_ring;
	struct fleet_test *t;
	uint64_t *scratch;
	size_t i;
	int l;

	if (f->nr_rows)
		qsort(f->rows, f->nr_rows, sizeof(*f->rows), cmp_row);
	if (f->nr_hosts)
		qsort(f->hosts, f->nr_hosts, sizeof(*f->hosts), cmp_host);
	for (i = 0; i < f->nr_rows; i++) {
		for (l = 0; l < LAT_NR; l++)
			f->rows[i]->z[l] = f->rows[i]->p[l] = NAN;
		f->rows[i]->called = 0;
	}
	/* the indexes point at the old order: rebuilt for anyone who looks up or adds after */
	if (!index_of(f))
		return;
	name_index_free(&f->index->rows);
	name_index_free(&f->index->hosts);
	for (i = 0; i < f->nr_rows; i++)
		if (name_index_add(&f->index->rows, f->rows[i]->key, (int)i, row_key_at, f))
			f->failed = true;
	for (i = 0; i < f->nr_hosts; i++)
		if (name_index_add(&f->index->hosts, f->hosts[i].name, (int)i, host_at, f))
			f->failed = true;
	by_ring = malloc(sizeof(*by_ring) * (f->nr_rows + 1));
	t = malloc(sizeof(*t) * (f->nr_rows * LAT_NR + 1));
	scratch = malloc(sizeof(*scratch) * (3 * LATENCY_BUCKETS + f->nr_rows + 1));
	if (!by_ring || !t || !scratch) {
		f->failed = true;
		goto out;
	}
	if (f->nr_rows) {
		memcpy(by_ring, f->rows, sizeof(*by_ring) * f->nr_rows);
		qsort(by_ring, f->nr_rows, sizeof(*by_ring), cmp_row_by_ring);
	}
	judge_rings(f, by_ring, t, scratch);
	f->nr_called = 0;
	for (i = 0; i < f->nr_rows; i++)
		f->nr_called += f->rows[i]->called != 0;
out:
	free(by_ring);
	free(t);
	free(scratch);
}

const struct fleet_host *fleet_host_find(const struct fleet *f, const char *name)
{
	int i = f->index ? name_index_find(&f->index->hosts, name, host_at, (void *)f) : -1;

	return i >= 0 ? &f->hosts[i] : NULL;
}

void fleet_free(struct fleet *f)
{
	size_t i;
	int l;

	for (i = 0; i < f->nr_rows; i++) {
		for (l = 0; l < LAT_NR; l++)
			fleet_dist_free(&f->rows[i]->stage[l]);
		free(f->rows[i]);
	}
	free(f->rows);
	free(f->hosts);
	if (f->index) {
		name_index_free(&f->index->rows);
		name_index_free(&f->index->hosts);
		free(f->index);
	}
	memset(f, 0, sizeof(*f));
}

bool fleet_host_from_path(const char *path, char *buf, size_t len)
{
	const char *s, *found = NULL;
	size_t n = 0;

	/* the nearest host=NAME folder to the file (not the file's own name) */
	for (s = path; *s; s++) {
		const char *end;

		if ((s != path && s[-1] != '/') || strncmp(s, "host=", 5))
			continue;
		end = strchr(s, '/');
		if (!end)
			break;
		if (end > s + 5) {
			found = s + 5;
			n = (size_t)(end - found);
		}
	}
	if (!found)
		return false;
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), found);
	return true;
}

void fleet_host_from_name(const char *path, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".dat"))
		n -= 4;
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), base);
}

const char *fleet_host_from_text(enum fleet_host_from from)
{
	return from == FLEET_HOST_MARKER ? "marker" : from == FLEET_HOST_PATH ? "path" : "file";
}
