// SPDX-License-Identifier: GPL-2.0
/* Many files through report's pass on a pool of threads, each summarised per ring (fleet-run.h). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/fleet-run.h"
#include "analysis/host-clock.h"
#include "analysis/open-prober.h"

static void name_host(struct fleet_file *ff, struct analysis *a, const char *path)
{
	const struct host_clock *h = host_clock_of(a);

	if (h && h->known && h->name[0]) {
		snprintf(ff->host, sizeof(ff->host), "%s", h->name);
		ff->from = FLEET_HOST_MARKER;
	} else if (fleet_host_from_path(path, ff->host, sizeof(ff->host))) {
		ff->from = FLEET_HOST_PATH;
	} else {
		fleet_host_from_name(path, ff->host, sizeof(ff->host));
		ff->from = FLEET_HOST_FILE;
	}
}

/* One ring of the pass as report left it (ring_stats), its distributions made bins. */
static int summarise_ring(struct fleet_row *r, struct analysis *a, int i, uint64_t span,
			  uint64_t *counts)
{
	struct timeline *tl = timeline_of(a);
	struct ring_stats *rs = tl->rings[i];
	int l, k;

	snprintf(r->ring, sizeof(r->ring), "%s", timeline_ring_name(tl, i));
	r->files = 1;
	r->jobs = rs->jobs;
	r->unfinished = rs->unfinished;
	r->lost = rs->lost;
	r->timed_jobs = rs->timed_jobs;
	r->busy_ns = rs->busy_ns;
	r->span_ns = span;
	r->behind_ns = rs->behind_ns;
	r->behind_jobs = rs->behind_jobs;
	r->behind_more = rs->behind_pids_more;
	for (k = 0; k < rs->nr_behind_pids; k++)
		fleet_behind_add(r, rs->behind_pids[k], analysis_comm(a, rs->behind_pids[k]));
	for (l = 0; l < LAT_NR; l++)
		if (fleet_dist_from_stats(&r->stage[l], &rs->lat[l], counts))
			return -1;
	return 0;
}

static int summarise(struct fleet_file *ff, struct analysis *a, const char *path,
		     uint64_t *counts, struct gt_error *err)
{
	const struct analysis_totals *tot = analysis_totals(a);
	struct timeline *tl = timeline_of(a);
	uint64_t span = tot->last_ts > tot->first_ts ? tot->last_ts - tot->first_ts : 0;
	int i;

	name_host(ff, a, path);
	ff->rings = calloc((size_t)tl->nr_rings + 1, sizeof(*ff->rings));
	if (!ff->rings)
		return gt_error_set(err, ENOMEM, "out of memory summarising %s", path);
	for (i = 0; i < tl->nr_rings; i++) {
		ff->nr_rings++;
		if (summarise_ring(&ff->rings[i], a, i, span, counts))
			return gt_error_set(err, ENOMEM, "out of memory summarising %s", path);
	}
	return 0;
}

int fleet_read_file(const char *path, struct fleet_file *ff, struct fleet_outcome *o,
		    bool one_thread, uint64_t *counts, struct gt_error *err)
{
	struct analysis_hooks hooks = { .no_groups = true, .one_thread = one_thread };
	struct analysis *a = analysis_new();
	struct dat_meta *m = calloc(1, sizeof(*m));
	int ret = -1;

	memset(ff, 0, sizeof(*ff));
	if (!a || !m) {
		gt_error_set(err, ENOMEM, "out of memory opening %s", path);
		goto out;
	}
	if (analysis_open_dat(a, path, m, &hooks, err))
		goto out;
	if (!analysis_run(a, err)) {
		o->gpu = analysis_has_gpu_data(a);
		o->damage = analysis_totals(a)->damage;
		o->instances_absent = m->v6_instances_absent;
		o->instances_read = m->nr_v6_instances;
		ret = summarise(ff, a, path, counts, err);
		if (ret)
			fleet_file_free(ff);
	}
out:
	analysis_free(a);
	free(m);
	return ret;
}

struct fleet_pool {
	struct fleet *f;
	char *const *files;
	int nr, next;
	struct open_prober *probers;	/* one per thread */
	int nr_probers, started;
	struct fleet_outcome *out;
	bool one_thread;
	pthread_mutex_t lock;
};

static void *fleet_worker(void *arg)
{
	struct fleet_pool *p = arg;
	uint64_t *counts = malloc(sizeof(*counts) * LATENCY_BUCKETS);
	int me;

	pthread_mutex_lock(&p->lock);
	me = p->started++;
	pthread_mutex_unlock(&p->lock);
	/* this thread's opens tried by its own prober, never by a fork of this threaded process */
	if (me < p->nr_probers)
		analysis_set_prober(p->probers[me].fd);
	for (;;) {
		struct gt_error e = { 0 };
		struct fleet_file ff;
		int i;

		pthread_mutex_lock(&p->lock);
		i = p->next < p->nr ? p->next++ : -1;
		pthread_mutex_unlock(&p->lock);
		if (i < 0)
			break;
		if (!counts) {
			p->out[i].error = strdup("out of memory");
			continue;
		}
		if (fleet_read_file(p->files[i], &ff, &p->out[i], p->one_thread, counts, &e)) {
			p->out[i].error = strdup(e.msg[0] ? e.msg : "cannot be read");
			continue;
		}
		pthread_mutex_lock(&p->lock);
		fleet_add_file(p->f, &ff);
		pthread_mutex_unlock(&p->lock);
	}
	free(counts);
	analysis_set_prober(-1);
	return NULL;
}

int fleet_run(struct fleet *f, char *const *files, int nr, int jobs, struct fleet_outcome *out,
	      struct gt_error *err)
{
	struct fleet_pool p = { .f = f, .files = files, .nr = nr, .out = out };
	pthread_t *threads;
	int i, started = 0, ret = 0;

	if (jobs < 1)
		jobs = 1;
	if (jobs > nr)
		jobs = nr > 0 ? nr : 1;
	/* files side by side: each pass on its own thread alone, not two */
	p.one_thread = jobs > 1;
	pthread_mutex_init(&p.lock, NULL);
	threads = calloc((size_t)jobs, sizeof(*threads));
	p.probers = calloc((size_t)jobs, sizeof(*p.probers));
	if (!threads || !p.probers) {
		free(threads);
		free(p.probers);
		pthread_mutex_destroy(&p.lock);
		return gt_error_set(err, ENOMEM, "out of memory starting %d threads", jobs);
	}
	/* while this process has one thread: the probers are forked now */
	p.nr_probers = open_probers_start(p.probers, jobs);
	for (i = 0; i < jobs; i++) {
		if (pthread_create(&threads[i], NULL, fleet_worker, &p))
			break;
		started++;
	}
	if (!started) {
		/* no thread at all: this one reads them */
		fleet_worker(&p);
	}
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	open_probers_stop(p.probers, p.nr_probers);
	free(p.probers);
	free(threads);
	pthread_mutex_destroy(&p.lock);
	for (i = 0; i < nr && !ret; i++)
		if (out[i].error && !strcmp(out[i].error, "out of memory"))
			ret = gt_error_set(err, ENOMEM, "out of memory reading %s", files[i]);
	if (!ret && f->failed)
		ret = gt_error_set(err, ENOMEM, "out of memory adding up the files");
	return ret;
}
