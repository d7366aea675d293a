// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbuffer.h>
#include <zstd.h>

#include "dat/dat-format.h"
#include "dat/dat-windows.h"
#include "util/file-io.h"

/* raw pages read at the most: 64 at each end; a chunk: DAT_MAX_CHUNK_PAGES */
#define MAX_CHUNK (DAT_MAX_CHUNK_PAGES * 65536u)

/* The first (or last) record's time on one page; false if it holds none. */
static bool page_time(struct kbuffer *kb, unsigned char *page, uint32_t page_size,
		      int long_size, bool last, uint64_t *ts)
{
	unsigned long long t = 0, next;

	if (!dat_page_fits(page, page_size, long_size) || kbuffer_load_subbuffer(kb, page) < 0 ||
	    !kbuffer_read_event(kb, &t))
		return false;
	while (last && kbuffer_next_event(kb, &next))
		t = next;
	*ts = t;
	return true;
}

/* In a run of whole pages: the first record from the front, the last from the back. */
static bool pages_time(struct kbuffer *kb, unsigned char *pages, uint64_t len,
		       uint32_t page_size, int long_size, bool last, uint64_t *ts)
{
	uint64_t n = len / page_size, i;

	for (i = 0; i < n && i < 64; i++) {
		uint64_t at = (last ? n - 1 - i : i) * page_size;

		if (page_time(kb, pages + at, page_size, long_size, last, ts))
			return true;
	}
	return false;
}

static unsigned char *read_region(int fd, uint64_t off, uint64_t len)
{
	unsigned char *buf = len && len <= MAX_CHUNK ? malloc(len) : NULL;

	if (buf && read_all_at(fd, buf, len, off)) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

/* Raw pages in [off, off+size): read the first and the last 64 pages at most. */
static int plain_window(int fd, struct kbuffer *kb, uint64_t off, uint64_t size,
			uint32_t ps, int ls, uint64_t *first, uint64_t *last)
{
	uint64_t pages = size / ps, span = (pages < 64 ? pages : 64) * ps;
	unsigned char *head, *tail;
	bool ok;

	if (!pages)
		return -1;
	head = read_region(fd, off, span);
	tail = read_region(fd, off + (pages * ps - span), span);
	ok = head && tail && pages_time(kb, head, span, ps, ls, false, first) &&
	     pages_time(kb, tail, span, ps, ls, true, last);
	free(head);
	free(tail);
	return ok ? 0 : -1;
}

static unsigned char *load_chunk(int fd, uint64_t at, uint64_t end, uint32_t ps,
				 uint32_t *len)
{
	uint32_t head[2];
	unsigned char *packed, *plain;

	if (at + 8 > end || read_all_at(fd, head, 8, at) || head[0] > end - at - 8 ||
	    !head[1] || head[1] > DAT_MAX_CHUNK_PAGES * ps || head[1] % ps)
		return NULL;
	packed = read_region(fd, at + 8, head[0]);
	plain = packed ? malloc(head[1]) : NULL;
	if (plain && ZSTD_decompress(plain, head[1], packed, head[0]) != head[1]) {
		free(plain);
		plain = NULL;
	}
	free(packed);
	*len = head[1];
	return plain;
}

/*
 * zstd v7: at off a u32 chunk count, then `size` bytes of chunks, each a u32
 * compressed size, a u32 plain size and the frame.
 */
static int zstd_window(int fd, struct kbuffer *kb, uint64_t off, uint64_t size,
		       uint32_t ps, int ls, uint64_t *first, uint64_t *last)
{
	uint64_t end = off + 4 + size, at = off + 4, last_at = 0;
	uint32_t count, n, len = 0, head[2];
	unsigned char *chunk;
	bool ok;

	if (read_all_at(fd, &count, 4, off) || !count || count > size / 8)
		return -1;
	for (n = 0; n < count; n++) {
		if (at + 8 > end || read_all_at(fd, head, 8, at) || head[0] > end - at - 8)
			return -1;
		last_at = at;
		at += 8 + head[0];
	}
	chunk = load_chunk(fd, off + 4, end, ps, &len);
	ok = chunk && pages_time(kb, chunk, len, ps, ls, false, first);
	free(chunk);
	chunk = ok ? load_chunk(fd, last_at, end, ps, &len) : NULL;
	ok = chunk && pages_time(kb, chunk, len, ps, ls, true, last);
	free(chunk);
	return ok ? 0 : -1;
}

/* What CPU @cpu's stats in the file say its writer overwrote; -1: the file has none */
static long long overrun_of(const struct dat_meta *m, int cpu)
{
	int i;

	for (i = 0; i < m->nr_cpustats; i++)
		if (m->cpustat_cpu[i] == cpu)
			return (long long)m->cpustats[i].overrun;
	return -1;
}

int dat_cpu_windows(const char *path, const struct dat_meta *m, struct cpu_coverage *c)
{
	const struct dat_buffer_data *top = NULL;
	struct kbuffer *kb;
	bool zstd = false;
	int fd, i, n;

	cpu_coverage_init(c);
	if (m->long_size != 8 && m->long_size != 4)
		return -1;
	if (m->version == 7) {
		for (i = 0; i < m->nr_buffers && !top; i++)
			if (!m->buffers[i].name[0])
				top = &m->buffers[i];
		if (!top || (m->compression[0] && strcmp(m->compression, "none") &&
			     !(zstd = !strcmp(m->compression, "zstd"))))
			return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	kb = kbuffer_alloc(m->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			   KBUFFER_ENDIAN_LITTLE);
	n = top ? top->nr_cpus : m->nr_cpus;
	for (i = 0; kb && i < n && i < DAT_META_MAX_CPUS; i++) {
		uint64_t off = top ? top->cpus[i].offset : m->v6_cpu_offset[i];
		uint64_t size = top ? top->cpus[i].size : m->v6_cpu_bytes[i];
		uint32_t ps = top ? top->page_size : m->page_size;
		int cpu = top ? (int)top->cpus[i].cpu : i;
		uint64_t first = 0, last = 0;
		int ret;

		if (!size || !ps)
			continue;
		ret = zstd ? zstd_window(fd, kb, off, size, ps, m->long_size, &first, &last)
			   : plain_window(fd, kb, off, size, ps, m->long_size, &first, &last);
		if (!ret)
			cpu_coverage_add(c, cpu, first, last, size, overrun_of(m, cpu));
	}
	if (kb)
		kbuffer_free(kb);
	close(fd);
	return kb ? 0 : -1;
}

bool dat_meta_written_by_record(const struct dat_meta *m)
{
	return !strncmp(m->writer, "gpu-trace ", 10) && isdigit((unsigned char)m->writer[10]);
}
