// SPDX-License-Identifier: GPL-2.0
/*
 * zstd chunks decompressed on a thread of their own (inflate-ahead.c) give
 * the stream exactly the records it reads decompressing them itself: every
 * record's time, CPU and bytes, in the same order, on a trace-cmd v7 file of
 * several CPUs and many chunks; where a chunk is damaged, the same records
 * before it and the same reason; and a stream closed early stops the thread.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../../lib/analysis/record-pipe.h"
#include "../../../lib/dat/dat-meta.h"
#include "../../../lib/dat/dat-stream.h"
#include "../../fixture/scenarios.h"
#include "../unit.h"

struct digest {
	uint64_t hash, records;
	char err[800];
};

static void fold(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		*h = (*h ^ *b++) * 0x100000001b3ULL;
}

/* every record of @path through the stream; @ahead: decompressed on the thread */
static int digest_of(const char *path, bool ahead, struct digest *d)
{
	struct gt_error err = { 0 };
	struct dat_stream *s = dat_stream_open(path, NULL, &err);
	struct tep_record *rec;

	memset(d, 0, sizeof(*d));
	d->hash = 0xcbf29ce484222325ULL;
	if (!s)
		return -1;
	if (ahead)
		CU_ASSERT_EQUAL(dat_stream_inflate_ahead(s), 1);
	while ((rec = dat_stream_next(s, &err))) {
		fold(&d->hash, &rec->ts, sizeof(rec->ts));
		fold(&d->hash, &rec->cpu, sizeof(rec->cpu));
		fold(&d->hash, rec->data, (size_t)rec->size);
		d->records++;
	}
	snprintf(d->err, sizeof(d->err), "%s", err.errnum ? err.msg : "");
	dat_stream_close(s);
	return 0;
}

/* the kernels' format files, as the other tests find them */
static const char *formats(void)
{
	static char root[512];
	const char *dir = getenv("GT_FIXTURES");

	snprintf(root, sizeof(root), "%s/formats", dir ? dir : "tests/fixtures");
	return root;
}

/* trace-cmd's zstd v7 of a bench fixture of @jobs jobs in @v7; -1 (SKIP said) without it */
static int make_v7(unsigned long jobs, char *v7, size_t len)
{
	char v6[] = "/tmp/gt-unit-ahead-XXXXXX";
	struct gt_error err = { 0 };
	int fd = mkstemp(v6), status = -1;
	pid_t pid;

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(v7, len, "%s-v7", v6);
	if (scenario_bench(formats(), v6, jobs, 100, 7, &err)) {
		fprintf(stderr, "bench fixture: %s\n", err.msg);
		unlink(v6);
		return -1;
	}
	pid = fork();
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execlp("trace-cmd", "trace-cmd", "convert", "-i", v6, "-o", v7, "--file-version", "7",
		       "--compression", "zstd", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	unlink(v6);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("SKIP inflate ahead: needs trace-cmd convert to make a zstd v7 file\n");
		unlink(v7);
		return -1;
	}
	return 0;
}

/* chunk @k of the first CPU with more than @k chunks: the file offset of its header */
static uint64_t chunk_at(const char *path, uint32_t k)
{
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct gt_error err = { 0 };
	uint64_t at = 0;
	int fd = open(path, O_RDONLY), i;

	if (!m || fd < 0 || dat_meta_read(path, m, &err))
		goto out;
	for (i = 0; i < m->buffers[0].nr_cpus && !at; i++) {
		uint64_t pos = m->buffers[0].cpus[i].offset;
		uint32_t count = 0, head[2], n;

		if (pread(fd, &count, 4, (off_t)pos) != 4 || count <= k)
			continue;
		for (pos += 4, n = 0; n < k; n++) {
			if (pread(fd, head, 8, (off_t)pos) != 8)
				goto out;
			pos += 8 + head[0];
		}
		at = pos;
	}
out:
	if (fd >= 0)
		close(fd);
	free(m);
	return at;
}

static void test_same_records(void)
{
	struct digest self, ahead;
	char v7[64];

	if (make_v7(20000, v7, sizeof(v7)))
		return;
	CU_ASSERT_EQUAL_FATAL(digest_of(v7, false, &self), 0);
	CU_ASSERT_EQUAL_FATAL(digest_of(v7, true, &ahead), 0);
	/* many chunks on several CPUs: the queues fill, wait and wrap */
	CU_ASSERT(self.records > 100000);
	CU_ASSERT_EQUAL(self.records, ahead.records);
	CU_ASSERT_EQUAL(self.hash, ahead.hash);
	CU_ASSERT_STRING_EQUAL(self.err, "");
	CU_ASSERT_STRING_EQUAL(ahead.err, "");
	unlink(v7);
}

/* chunk @k's size field set to @plain (+ its own when @add): damage found only on the way */
static int damage_chunk(const char *path, uint32_t k, uint32_t plain, bool add)
{
	uint64_t at = chunk_at(path, k);
	uint32_t head[2];
	int fd = open(path, O_RDWR), ret = -1;

	if (at && fd >= 0 && pread(fd, head, 8, (off_t)at) == 8) {
		head[1] = add ? head[1] + plain : plain;
		ret = pwrite(fd, head, 8, (off_t)at) == 8 ? 0 : -1;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

static void test_damage_same_place(void)
{
	static const struct {
		uint32_t plain;
		bool add;
		const char *why;
	} damage[] = {
		{ 4096, true, "compressed data does not decompress" },
		{ 4097, false, "not whole pages" },
	};
	struct digest self, ahead;
	char v7[64];
	size_t i;

	for (i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
		if (make_v7(20000, v7, sizeof(v7)))
			return;
		/* past the first queue's worth: the thread has waited and wrapped before it */
		CU_ASSERT_EQUAL_FATAL(damage_chunk(v7, 20, damage[i].plain, damage[i].add), 0);
		CU_ASSERT_EQUAL(digest_of(v7, false, &self), 0);
		CU_ASSERT_EQUAL(digest_of(v7, true, &ahead), 0);
		CU_ASSERT(self.records > 1000);
		CU_ASSERT_EQUAL(self.records, ahead.records);
		CU_ASSERT_EQUAL(self.hash, ahead.hash);
		CU_ASSERT_PTR_NOT_NULL(strstr(self.err, damage[i].why));
		CU_ASSERT_STRING_EQUAL(self.err, ahead.err);
		unlink(v7);
	}
}

static void on_job(const struct job *j, void *ctx)
{
	uint64_t *h = ctx;

	fold(h, &j->t_queue, sizeof(j->t_queue));
	fold(h, &j->t_run, sizeof(j->t_run));
	fold(h, &j->t_done, sizeof(j->t_done));
	fold(h, &j->seqno, sizeof(j->seqno));
}

/* the jobs of @path joined through the record pipe, chunks decompressed @ahead or not */
static uint64_t jobs_through_pipe(const char *path, bool ahead, uint64_t *records)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct analysis_hooks hooks = { .on_job = on_job, .ctx = &h };
	struct analysis *a = analysis_new();	/* aligned as the session must be */
	struct gt_error err = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL_FATAL(analysis_open(a, path, &hooks, &err), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a->stream);
	if (ahead)
		CU_ASSERT_EQUAL(dat_stream_inflate_ahead(a->stream), 1);
	CU_ASSERT_EQUAL(record_pipe_run(a, &err), 0);
	*records = analysis_totals(a)->records;
	analysis_free(a);
	return h;
}

/* three threads (chunks, records, joins), as on a machine with three CPUs: the same jobs */
static void test_pipe_with_chunks_ahead(void)
{
	uint64_t n_self = 0, n_ahead = 0, self, ahead;
	char v7[64];

	if (make_v7(20000, v7, sizeof(v7)))
		return;
	self = jobs_through_pipe(v7, false, &n_self);
	ahead = jobs_through_pipe(v7, true, &n_ahead);
	CU_ASSERT(n_self > 100000);
	/* jobs were joined: the digest moved */
	CU_ASSERT_NOT_EQUAL(self, 0xcbf29ce484222325ULL);
	CU_ASSERT_EQUAL(n_self, n_ahead);
	CU_ASSERT_EQUAL(self, ahead);
	unlink(v7);
}

/* closed after a few records, the thread waiting with full queues: it stops */
static void test_close_early(void)
{
	struct gt_error err = { 0 };
	struct dat_stream *s;
	char v7[64];
	int i;

	if (make_v7(8000, v7, sizeof(v7)))
		return;
	s = dat_stream_open(v7, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(dat_stream_inflate_ahead(s), 1);
	/* a second call starts no second thread */
	CU_ASSERT_EQUAL(dat_stream_inflate_ahead(s), 1);
	for (i = 0; i < 10; i++)
		CU_ASSERT_PTR_NOT_NULL(dat_stream_next(s, &err));
	usleep(20000);
	dat_stream_close(s);
	unlink(v7);
}

/* a v6 file has nothing to decompress: no thread */
static void test_v6_nothing(void)
{
	struct gt_error err = { 0 };
	struct dat_stream *s;
	char v6[] = "/tmp/gt-unit-ahead6-XXXXXX";
	int fd = mkstemp(v6);

	CU_ASSERT_TRUE_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(scenario_bench(formats(), v6, 2000, 100, 7, &err), 0);
	s = dat_stream_open(v6, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(dat_stream_inflate_ahead(s), 0);
	dat_stream_close(s);
	unlink(v6);
}

void suite_inflate_ahead(void)
{
	CU_pSuite s = CU_add_suite("inflate ahead", NULL, NULL);

	CU_add_test(s, "the records decompressed here and ahead are one", test_same_records);
	CU_add_test(s, "a damaged chunk: the same records before it, the same reason",
		    test_damage_same_place);
	CU_add_test(s, "the record pipe with chunks ahead: the same jobs", test_pipe_with_chunks_ahead);
	CU_add_test(s, "a stream closed early stops the thread", test_close_early);
	CU_add_test(s, "v6: nothing to decompress, no thread", test_v6_nothing);
}
