// SPDX-License-Identifier: GPL-2.0
/*
 * Three readers, one pass: every scenario of tests/fixture read through
 * libtracecmd's iterator, through our own stream on this thread, and
 * through the stream with the decoding on a second thread
 * (record-pipe.c, with its batches and with tiny ones) gives the same
 * records, counts and jobs, each job's every time and key folded into
 * one digest. The stream hands out the records themselves in libtracecmd's
 * order, equal times included (every scenario libtracecmd reads, and a
 * file made to tie times across CPUs). And the stream holds a bounded share of
 * memory per CPU whatever CPU table a file claims.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../../lib/analysis/record-pipe.h"
#include "../../../lib/dat/dat-meta.h"
#include "../../../lib/dat/dat-stream.h"
#include "../../fixture/fixture.h"
#include "../../fixture/scenarios.h"
#include "../unit.h"
#include "analysis/hip-runtime.h"
#include "analysis/kfd-queue-table.h"

/* BY_TINY_BATCHES: the pipe with 40-byte batches: most records wait for the next one, some outgrow it */
enum reader { BY_LIBTRACECMD, BY_STREAM, BY_PIPE, BY_TINY_BATCHES };

struct pass {
	uint64_t digest, jobs, records, gpu_events, func_events, missed, short_records;
	uint64_t first_ts, last_ts, hip_lines, probe_records;
};

static void fold(uint64_t *h, uint64_t v)
{
	*h = (*h ^ v) * 0x100000001b3ULL;
}

static void on_job(const struct job *j, void *ctx)
{
	struct pass *p = ctx;

	fold(&p->digest, j->t_submit);
	fold(&p->digest, j->t_queue);
	fold(&p->digest, j->t_run);
	fold(&p->digest, j->t_hw_start);
	fold(&p->digest, j->t_done);
	fold(&p->digest, (uint64_t)j->ring << 32 | (uint32_t)j->pid);
	fold(&p->digest, j->id ^ j->ctx ^ j->seqno ^ j->fence_ptr);
	p->jobs++;
}

/* 0 when read; the reader it was read by in *used */
static int read_with(const char *path, enum reader how, struct pass *p, enum reader *used)
{
	struct analysis_hooks hooks = { .on_job = on_job, .ctx = p };
	struct gt_error err = { 0 };
	struct analysis *a = calloc(1, sizeof(*a));
	cpu_set_t all, one;
	int ret;

	memset(p, 0, sizeof(*p));
	p->digest = 0xcbf29ce484222325ULL;
	if (!a || analysis_open(a, path, &hooks, &err)) {
		free(a);
		return -1;
	}
	if (how == BY_LIBTRACECMD && a->stream) {
		dat_stream_close(a->stream);
		a->stream = NULL;
		a->no_pageout = false;
	}
	*used = !a->stream ? BY_LIBTRACECMD : how;
	sched_getaffinity(0, sizeof(all), &all);
	if (how == BY_STREAM) {
		/* one CPU to run on: the pass stays on this thread */
		CPU_ZERO(&one);
		CPU_SET(sched_getcpu(), &one);
		sched_setaffinity(0, sizeof(one), &one);
	}
	if (how == BY_PIPE && !record_pipe_worth_it())
		*used = BY_STREAM;	/* a one-CPU machine: no second thread here */
	if (how == BY_TINY_BATCHES && a->stream)
		ret = record_pipe_run_batched(a, 40, &err);
	else
		ret = analysis_run(a, &err);
	sched_setaffinity(0, sizeof(all), &all);
	p->records = analysis_totals(a)->records;
	p->gpu_events = analysis_totals(a)->gpu_events;
	p->func_events = analysis_totals(a)->func_events;
	p->missed = analysis_totals(a)->missed;
	p->short_records = analysis_totals(a)->short_records;
	p->first_ts = analysis_totals(a)->first_ts;
	p->last_ts = analysis_totals(a)->last_ts;
	p->hip_lines = hip_runtime_of(a)->lines;
	p->probe_records = kfd_queue_table_of(a)->records;
	analysis_close(a);
	free(a);
	return ret;
}

/* the records' order as (CPU, time, size) folded: NULL meta reads the file's own table */
struct order {
	uint64_t digest, records, ties;	/* ties: a record at its predecessor's time, another CPU */
};

static void order_add(struct order *o, int cpu, uint64_t ts, int size, int *last_cpu, uint64_t *last_ts)
{
	if (o->records && ts == *last_ts && cpu != *last_cpu)
		o->ties++;
	fold(&o->digest, (uint64_t)cpu << 48 ^ (uint64_t)size << 32 ^ ts);
	o->records++;
	*last_cpu = cpu;
	*last_ts = ts;
}

static int stream_order(const char *path, struct order *o)
{
	struct gt_error err = { 0 };
	struct dat_stream *st = dat_stream_open(path, NULL, &err);
	struct tep_record *rec;
	uint64_t last_ts = 0;
	int last_cpu = -1;

	memset(o, 0, sizeof(*o));
	o->digest = 0xcbf29ce484222325ULL;
	if (!st)
		return -1;
	while ((rec = dat_stream_next(st, &err)))
		order_add(o, rec->cpu, rec->ts, rec->size, &last_cpu, &last_ts);
	dat_stream_close(st);
	return err.errnum ? -1 : 0;
}

struct order_walk {
	struct order *o;
	uint64_t last_ts;
	int last_cpu;
};

static int order_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct order_walk *w = data;

	(void)h;
	(void)cpu;
	order_add(w->o, rec->cpu, rec->ts, rec->size, &w->last_cpu, &w->last_ts);
	return 0;
}

static int libtracecmd_order(const char *path, struct order *o)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	struct order_walk w = { o, 0, -1 };

	memset(o, 0, sizeof(*o));
	o->digest = 0xcbf29ce484222325ULL;
	if (!h)
		return -1;
	tracecmd_iterate_events(h, NULL, 0, order_record, &w);
	tracecmd_close(h);
	return 0;
}

static void test_three_readers_one_result(void)
{
	int i, compared = 0, piped = 0, tiny = 0;

	for (i = 0; scenarios[i].name; i++) {
		struct pass by[4];
		enum reader used[4];
		char path[64];
		int r, ret[4];

		if (scenario_tmpfile(scenarios[i].name, path, sizeof(path)))
			continue;


		for (r = BY_LIBTRACECMD; r <= BY_TINY_BATCHES; r++)
			ret[r] = read_with(path, (enum reader)r, &by[r], &used[r]);
		/* the records themselves in libtracecmd's order (a file it reads) */
		if (!ret[BY_LIBTRACECMD] && used[BY_STREAM] == BY_STREAM) {
			struct order ours, theirs;

			CU_ASSERT_EQUAL(stream_order(path, &ours), 0);
			CU_ASSERT_EQUAL(libtracecmd_order(path, &theirs), 0);
			if (memcmp(&ours, &theirs, sizeof(ours)))
				fprintf(stderr, "\n  %s: the stream's order is not libtracecmd's\n",
					scenarios[i].name);
			CU_ASSERT_EQUAL(memcmp(&ours, &theirs, sizeof(ours)), 0);
		}
		unlink(path);
		/* a scenario of a damaged file: refused alike */
		for (r = BY_STREAM; r <= BY_TINY_BATCHES; r++)
			CU_ASSERT_EQUAL(ret[r], ret[BY_LIBTRACECMD]);
		if (ret[BY_LIBTRACECMD]) {
			fprintf(stderr, "[%s refused] ", scenarios[i].name);
			continue;
		}
		for (r = BY_STREAM; r <= BY_TINY_BATCHES; r++) {
			if (memcmp(&by[r], &by[BY_LIBTRACECMD], sizeof(by[r])))
				fprintf(stderr, "\n  %s: reader %d differs from libtracecmd's\n",
					scenarios[i].name, r);
			CU_ASSERT_EQUAL(memcmp(&by[r], &by[BY_LIBTRACECMD], sizeof(by[r])), 0);
		}
		compared += used[BY_STREAM] == BY_STREAM;
		piped += used[BY_PIPE] == BY_PIPE;
		tiny += used[BY_TINY_BATCHES] == BY_TINY_BATCHES;
	}
	/* the comparison compared: our readers took nearly every scenario */
	CU_ASSERT(compared >= i - 2);
	if (record_pipe_worth_it())
		CU_ASSERT(piped >= i - 2);
	CU_ASSERT(tiny >= i - 2);
}

/*
 * Four CPUs whose times meet: every third of CPU 0 and every second of CPU 1
 * at the same nanosecond, CPU 2 in runs of five equal times, CPU 3 a
 * record every nanosecond (long runs from one CPU, then ties to break).
 */
static int write_ties(const char *path)
{
	const char *root = getenv("GT_FIXTURES");
	struct gt_error err = { 0 };
	char formats[512];
	struct fixture *f;
	int cpu, k, ret = 0;

	snprintf(formats, sizeof(formats), "%s/formats/linux-6.1", root ? root : "tests/fixtures");
	f = fixture_new(formats, 4, &err);
	if (!f)
		return -1;
	for (cpu = 0; cpu < 4; cpu++)
		for (k = 0; k < 300; k++) {
			static const unsigned int step[] = { 3, 2, 0, 1 };
			unsigned long long ts = 1000000000ULL +
				(cpu == 2 ? (unsigned long long)(k / 5) * 30 : (unsigned long long)k * step[cpu]);
			struct fv fields[] = { FS("driver", "drm_sched"), FS("timeline", "gfx_0.0.0"),
					       FV("context", cpu + 1), FV("seqno", k), FV_END };

			ret |= fixture_add(f, cpu, ts, 100 + cpu, "dma_fence/dma_fence_signaled", fields);
		}
	ret |= fixture_write(f, path, &err);
	fixture_free(f);
	return ret;
}

static void test_stream_order_is_libtracecmds(void)
{
	struct order ours, theirs;
	char path[64] = "/tmp/gt-unit-ties-XXXXXX";
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_FATAL(write_ties(path) == 0);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	CU_ASSERT_EQUAL(stream_order(path, &ours), 0);
	CU_ASSERT_EQUAL(libtracecmd_order(path, &theirs), 0);
	unlink(path);
	CU_ASSERT_EQUAL(ours.records, 1200);
	CU_ASSERT(ours.ties >= 100);
	CU_ASSERT_EQUAL(memcmp(&ours, &theirs, sizeof(ours)), 0);
}

/* records of a file read through a CPU table made up over it */
static long stream_count(const char *path, const struct dat_meta *m, struct gt_error *err)
{
	struct dat_stream *st = dat_stream_open(path, m, err);
	long n = 0;

	if (!st)
		return -1;
	while (dat_stream_next(st, err))
		n++;
	dat_stream_close(st);
	return n;
}

static void test_stream_bounds_what_cpus_claim(void)
{
	struct dat_meta *m = calloc(1, sizeof(*m)), *real = calloc(1, sizeof(*real));
	struct gt_error err = { 0 };
	char path[64];
	long one, all;
	int cpu = 0, i;

	CU_ASSERT_FATAL(m && real && !scenario_tmpfile(scenarios[0].name, path, sizeof(path)));
	CU_ASSERT_FATAL(dat_meta_read(path, real, &err) == 0 && real->version == 6);
	while (cpu < real->nr_cpus - 1 && !real->v6_cpu_bytes[cpu])
		cpu++;
	*m = *real;
	m->nr_v6_instances = 0;
	m->nr_cpus = 1;
	m->v6_cpu_offset[0] = real->v6_cpu_offset[cpu];
	m->v6_cpu_bytes[0] = real->v6_cpu_bytes[cpu];
	one = stream_count(path, m, &err);
	CU_ASSERT(one > 0);

	/* 512 CPUs over the same bytes: each reads its share, the records all come out */
	m->nr_cpus = 512;
	for (i = 0; i < m->nr_cpus; i++) {
		m->v6_cpu_offset[i] = real->v6_cpu_offset[cpu];
		m->v6_cpu_bytes[i] = real->v6_cpu_bytes[cpu];
	}
	all = stream_count(path, m, &err);
	CU_ASSERT_EQUAL(all, 512 * one);

	/*
	 * 64 CPUs of 16 MB pages: a gigabyte to hold one page each; refused, not
	 * allocated. A file this small may make the reader hold no more than
	 * dat_memory_budget() of it (64 MB and 16 times the file).
	 */
	m->nr_cpus = 64;
	m->page_size = 16u << 20;
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(stream_count(path, m, &err), -1);
	CU_ASSERT_EQUAL(err.errnum, E2BIG);
	{
		char want[64];

		snprintf(want, sizeof(want), "need more than %llu MB",
			 (unsigned long long)(dat_memory_budget(m->file_size) >> 20));
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
	}
	unlink(path);
	free(m);
	free(real);
}

/*
 * A page of zeros amid CPU 0's data (a damaged copy: no writer leaves one)
 * lost what it held: the next record of that CPU says missed_events -1
 * (unknown), and the damage names the CPU and its time before; another amid
 * CPU 2's is counted, on a second CPU. One at the end of CPU 1's data, with
 * nothing after it, is not said: nothing shows records were there.
 */
static void test_stream_zeroed_page_is_a_loss(void)
{
	struct dat_meta *m = calloc(1, sizeof(*m));
	char path[64] = "/tmp/gt-unit-zeroed-XXXXXX", *zeros;
	const struct dat_stream_damage *d;
	struct gt_error err = { 0 };
	struct dat_stream *st;
	struct tep_record *rec;
	uint64_t last0 = 0, before_gap = 0;
	long n = 0, unknown = 0;
	int fd = mkstemp(path);

	CU_ASSERT_FATAL(fd >= 0 && m);
	close(fd);
	CU_ASSERT_FATAL(write_ties(path) == 0);
	CU_ASSERT_FATAL(dat_meta_read(path, m, &err) == 0);
	CU_ASSERT_FATAL(m->v6_cpu_bytes[0] >= 3 * m->page_size && m->v6_cpu_bytes[1] >= 2 * m->page_size &&
			m->v6_cpu_bytes[2] >= 3 * m->page_size);
	zeros = calloc(1, m->page_size);
	fd = open(path, O_WRONLY);
	CU_ASSERT_FATAL(fd >= 0 && zeros);
	CU_ASSERT(pwrite(fd, zeros, m->page_size, (off_t)(m->v6_cpu_offset[0] + m->page_size)) ==
		  (ssize_t)m->page_size);
	CU_ASSERT(pwrite(fd, zeros, m->page_size,
			 (off_t)(m->v6_cpu_offset[1] + m->v6_cpu_bytes[1] - m->page_size)) ==
		  (ssize_t)m->page_size);
	CU_ASSERT(pwrite(fd, zeros, m->page_size, (off_t)(m->v6_cpu_offset[2] + m->page_size)) ==
		  (ssize_t)m->page_size);
	close(fd);
	st = dat_stream_open(path, m, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	while ((rec = dat_stream_next(st, &err))) {
		n++;
		if (rec->missed_events < 0) {
			unknown++;
			CU_ASSERT(rec->cpu == 0 || rec->cpu == 2);
			if (rec->cpu == 0)
				before_gap = last0;
		}
		if (rec->cpu == 0)
			last0 = rec->ts;
	}
	d = dat_stream_damage(st);
	CU_ASSERT(n < 1200);
	CU_ASSERT_EQUAL(unknown, 2);
	CU_ASSERT_EQUAL(d->zeroed_pages, 2);
	CU_ASSERT_EQUAL(d->zeroed_cpus, 2);
	CU_ASSERT_EQUAL(d->zeroed_cpu, 0);	/* CPU 0's record after its gap comes first */
	CU_ASSERT(before_gap > 0);
	CU_ASSERT_EQUAL(d->zeroed_after_ts, before_gap);
	CU_ASSERT_EQUAL(d->records, 0);
	dat_stream_close(st);
	unlink(path);
	free(zeros);
	free(m);
}

void suite_readers(void)
{
	CU_pSuite s = CU_add_suite("readers: libtracecmd, stream, pipe", NULL, NULL);

	CU_add_test(s, "every scenario read the same by all three", test_three_readers_one_result);
	CU_add_test(s, "the stream's order is libtracecmd's, equal times too",
		    test_stream_order_is_libtracecmds);
	CU_add_test(s, "a page of zeros amid a CPU's data is a loss, said", test_stream_zeroed_page_is_a_loss);
	CU_add_test(s, "the stream's memory bounded whatever CPUs a file claims",
		    test_stream_bounds_what_cpus_claim);
}
