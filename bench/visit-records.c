// SPDX-License-Identifier: GPL-2.0
/*
 * visit-records MODE FILE: the least work that reaches every record of a .dat, for
 * bench/report.sh's baselines (BENCHMARKS.md), so report's time reads against what this
 * machine allows and not only against trace-cmd.
 *   pages:      the file mapped, each CPU's ring-buffer pages walked (v6) as report's
 *               reader walks them (rb-read.h) and every record reached in time order
 *               across CPUs: nothing decoded, no page checked, no library
 *   libtracecmd: tracecmd_iterate_events() with a callback that only counts, as report
 *               reads a v6 file (the reader's own cost)
 *   stream:     report's own reader (dat-stream.h), v6 or v7: its blocks read, zstd chunks
 *               decompressed, pages checked, every record in time order, nothing decoded
 *   stream-ahead: the same with the zstd chunks decompressed on a thread of their own
 *               (report does so with a third CPU free): the reading thread's cost without
 *               zstd's
 * Prints "records N"; exits 1 on a file it cannot read so.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <trace-cmd.h>
#include <unistd.h>

#include "dat/dat-meta.h"
#include "dat/dat-stream.h"
#include "dat/rb-read.h"

struct cursor {
	const unsigned char *page, *end;	/* this CPU's next page, the end of its data */
	size_t page_size;
	struct rb_cursor rb;			/* the page being walked */
	struct rb_entry e;			/* its record reached last */
	bool loaded;
};

/* to the next data record of this CPU, its time in c->e.ts; false at the end */
static bool next_record(struct cursor *c)
{
	while (!c->loaded || !rb_cursor_next(&c->rb, &c->e)) {
		if (c->page + c->page_size > c->end)
			return false;
		rb_cursor_load(&c->rb, c->page, c->page_size);
		c->page += c->page_size;
		c->loaded = true;
	}
	return true;
}

static int visit_pages(const char *path)
{
	struct cursor c[DAT_META_MAX_CPUS];
	struct gt_error err = { 0 };
	static struct dat_meta m;
	unsigned long long n = 0;
	int fd, cpu, nr = 0;
	struct stat st;
	unsigned char *map;

	if (dat_meta_read(path, &m, &err)) {
		fprintf(stderr, "visit-records: %s\n", err.msg);
		return 1;
	}
	if (m.version != 6 || m.long_size != 8) {
		fprintf(stderr, "visit-records: pages: v6 files of 64-bit kernels only\n");
		return 1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		return perror(path), 1;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return perror("mmap"), 1;
	madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	for (cpu = 0; cpu < m.nr_cpus && cpu < DAT_META_MAX_CPUS; cpu++) {
		uint64_t off = m.v6_cpu_offset[cpu], size = m.v6_cpu_bytes[cpu];

		if (off > (uint64_t)st.st_size || size > (uint64_t)st.st_size - off)
			continue;
		c[nr] = (struct cursor){ .page = map + off, .end = map + off + size,
					 .page_size = m.page_size ? m.page_size : 4096 };
		if (next_record(&c[nr]))
			nr++;
	}
	/* in time order: the CPU whose record is first goes next */
	while (nr) {
		int min = 0, i;

		for (i = 1; i < nr; i++)
			if (c[i].e.ts < c[min].e.ts)
				min = i;
		n++;
		if (!next_record(&c[min]))
			c[min] = c[--nr];
	}
	printf("records %llu\n", n);
	munmap(map, (size_t)st.st_size);
	close(fd);
	return 0;
}

static int count(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	(void)h;
	(void)rec;
	(void)cpu;
	(*(unsigned long long *)data)++;
	return 0;
}

static int visit_libtracecmd(const char *path)
{
	struct tracecmd_input *h = tracecmd_open(path, 0);
	unsigned long long n = 0;

	if (!h) {
		fprintf(stderr, "visit-records: libtracecmd cannot open %s\n", path);
		return 1;
	}
	tracecmd_iterate_events(h, NULL, 0, count, &n);
	tracecmd_close(h);
	printf("records %llu\n", n);
	return 0;
}

static int visit_stream(const char *path, bool ahead)
{
	struct gt_error err = { 0 };
	struct dat_stream *s = dat_stream_open(path, NULL, &err);
	unsigned long long n = 0;

	if (!s) {
		fprintf(stderr, "visit-records: %s\n", err.msg);
		return 1;
	}
	/* a file whose chunks were all read at the open (one per CPU) has none left for it */
	if (ahead && !dat_stream_inflate_ahead(s))
		fprintf(stderr, "visit-records: stream-ahead: no zstd chunks of %s left to decompress ahead\n",
			path);
	while (dat_stream_next(s, &err))
		n++;
	dat_stream_close(s);
	if (err.errnum) {
		fprintf(stderr, "visit-records: %s\n", err.msg);
		return 1;
	}
	printf("records %llu\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "pages"))
		return visit_pages(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "libtracecmd"))
		return visit_libtracecmd(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "stream"))
		return visit_stream(argv[2], false);
	if (argc == 3 && !strcmp(argv[1], "stream-ahead"))
		return visit_stream(argv[2], true);
	fprintf(stderr, "usage: visit-records pages|libtracecmd|stream|stream-ahead FILE\n");
	return 2;
}
