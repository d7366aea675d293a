// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dat/dat-format.h"
#include "dat/dat-meta.h"
#include "dat/dat-stream.h"
#include "dat/inflate-ahead.h"
#include "dat/rb-read.h"
#include "util/file-io.h"

/*
 * One CPU of one buffer: its chunks in the file, the one decompressed now;
 * or, uncompressed (v6, v7 "none"), its pages read a block at a time into
 * the same buffer.
 */
struct stream_cpu {
	int cpu;
	int buffer;			/* 0 the top buffer, k the k-th instance read (dat_meta_instance_name) */
	bool raw;			/* pages stored as they are: no chunk headers */
	int ahead;			/* its chunks come from s->ahead's queue ahead; -1 not */
	/* the next chunk's header, or raw block; left: chunks (raw: 1 while a page is left) */
	struct zchunk_cursor at;
	struct chunk_buf chunk;
	size_t page_off;		/* the loaded page's */
	struct rb_cursor page;
	bool page_loaded;		/* a page of the chunk is in page */
	bool done;
	struct tep_record rec;
	bool have;			/* rec holds this CPU's next record */
	uint64_t last_ts;		/* of the record handed out last: time never steps back */
	uint64_t set_aside;		/* records set aside as damaged since the last one handed out */
	uint64_t zeroed;		/* zeroed pages since the last one handed out */
	bool had_zeroed;		/* counted among the damage's zeroed_cpus */
};

/*
 * What all CPUs' blocks and chunks may hold at once. Each CPU keeps its own
 * (the records are merged across CPUs in time order), so a file claiming many
 * CPUs, large pages or CPU ranges that overlap would otherwise have the
 * reader hold gigabytes; its share is what one CPU may read at once.
 */
#define STREAM_BUDGET (256u << 20)
/* an uncompressed block: large enough for few reads, small enough for the caches */
#define RAW_BLOCK (1u << 20)

struct dat_stream {
	int fd;
	size_t page_size;
	size_t raw_block;		/* bytes of pages read at once, whole pages */
	size_t chunk_max;		/* the most a compressed chunk may hold */
	size_t share;			/* what one CPU may hold at once */
	struct stream_cpu *cpus;
	int nr_cpus;
	struct stream_cpu *last;	/* handed out last: advance it first */
	/*
	 * The earliest record of the other CPUs when last was picked: while last's
	 * next ones come before it, they are next (strictly: on a tie the scan
	 * picks the lower CPU). Records are handed out in runs from one CPU.
	 */
	uint64_t runner_up;
	bool damaged;
	char why[160];			/* what was damaged, first */
	/*
	 * zstd's context kept from chunk to chunk (ZSTD_decompress() makes and
	 * clears a new one of about 100 KB for every chunk)
	 */
	struct zchunk_inflater zstd;
	struct inflate_ahead *ahead;	/* the chunks decompressed on a thread of their own */
	struct dat_stream_damage damage;	/* records whose time stepped back */
};

static void damaged(struct dat_stream *s, struct stream_cpu *c, const char *what)
{
	if (!s->damaged)
		snprintf(s->why, sizeof(s->why), "CPU %d's %s", c->cpu, what);
	s->damaged = c->done = true;
}

/*
 * Uncompressed pages: the next block of whole pages, read with pread so
 * nothing of the file stays mapped (flat RSS however large the file).
 * NULL, or why the block cannot be had.
 */
static const char *load_raw(struct dat_stream *s, struct stream_cpu *c)
{
	uint64_t n = c->at.end - c->at.next;

	if (n > s->raw_block)
		n = s->raw_block;
	n -= n % s->page_size;
	if (!n || chunk_buf_reserve(&c->chunk, (size_t)n))
		return "data cannot be held (out of memory)";
	if (read_all_at(s->fd, c->chunk.data, (size_t)n, c->at.next))
		return "data cannot be read (the file is shorter than it says)";
	c->chunk.len = (size_t)n;
	c->page_off = 0;
	c->at.next += n;
	c->at.left = c->at.end - c->at.next >= s->page_size;
	return NULL;
}

/* The CPU's next block of pages, or zstd chunk decompressed here or ahead. */
static const char *load_chunk(struct dat_stream *s, struct stream_cpu *c)
{
	const char *why;

	if (c->raw)
		return load_raw(s, c);
	if (c->ahead < 0)
		why = zchunk_next(&s->zstd, s->fd, &c->at, s->page_size, s->chunk_max, &c->chunk);
	else if (!(why = inflate_ahead_take(s->ahead, c->ahead, &c->chunk)))
		c->at.left--;
	c->page_off = 0;
	return why;
}

/*
 * A page stamped later than the one after it, which itself follows what
 * came before: the stamp is damaged (a flipped bit, a crafted file), and
 * read as it stands its records would hold the CPU back to the end of the
 * merge and every later one would step back behind them. Only where the
 * next page is at hand (in the same block or chunk).
 */
static bool page_out_of_line(const struct dat_stream *s, const struct stream_cpu *c)
{
	const unsigned char *page = c->chunk.data + c->page_off, *next;
	size_t at = c->page_off + s->page_size;

	for (; at + s->page_size <= c->chunk.len; at += s->page_size) {
		next = c->chunk.data + at;
		if (rb_page_holds_data(next))
			return rb_page_ts(next) < rb_page_ts(page) && rb_page_ts(next) >= c->last_ts;
	}
	return false;
}

/* a record of a CPU whose time stepped back (or wrapped past 2^64): damage, counted */
static void set_aside(struct dat_stream *s, struct stream_cpu *c, uint64_t ts, uint64_t n)
{
	if (!s->damage.records) {
		s->damage.cpu = c->cpu;
		s->damage.from_ts = c->last_ts;
		s->damage.to_ts = ts;
	}
	s->damage.records += n;
	c->set_aside += n;
}

static void skip_page(struct dat_stream *s, struct stream_cpu *c)
{
	struct rb_entry e;
	uint64_t n = 0;

	while (rb_cursor_next(&c->page, &e))
		n++;
	if (n)
		set_aside(s, c, rb_page_ts(c->chunk.data + c->page_off), n);
}

/* The CPU's next record into c->rec; c->done at its end. */
static void advance(struct dat_stream *s, struct stream_cpu *c)
{
	uint64_t before;
	struct rb_entry e;
	const char *why;

	c->have = false;
	if (c->done)
		return;
next:
	while (!c->page_loaded || !rb_cursor_next(&c->page, &e)) {
		/* the next page: in this chunk, else the first of the next one */
		if (c->page_loaded)
			c->page_off += s->page_size;
		if (!c->page_loaded || c->page_off >= c->chunk.len) {
			if (!c->at.left) {
				c->done = true;
				return;
			}
			why = load_chunk(s, c);
			if (why) {
				damaged(s, c, why);
				return;
			}
		}
		if (!dat_page_fits(c->chunk.data + c->page_off, s->page_size, 8)) {
			damaged(s, c, "data has a page that claims more than a page holds, or whose events run past it");
			return;
		}
		rb_cursor_load(&c->page, c->chunk.data + c->page_off, s->page_size);
		c->page_loaded = true;
		if (!rb_page_ts(c->chunk.data + c->page_off) && !rb_page_holds_data(c->chunk.data + c->page_off))
			c->zeroed++;
		if (rb_page_holds_data(c->chunk.data + c->page_off) && page_out_of_line(s, c))
			skip_page(s, c);
	}
	if (e.ts < c->last_ts) {
		set_aside(s, c, e.ts, 1);
		goto next;
	}
	rb_entry_record(&e, c->cpu, &c->rec);
	before = c->last_ts;
	c->last_ts = e.ts;
	/* what was set aside reads as events lost before this record */
	if (c->set_aside) {
		if (c->rec.missed_events >= 0)
			c->rec.missed_events += (long long)c->set_aside;
		c->set_aside = 0;
	}
	/* ... and a zeroed page before it as events lost, how many unknown */
	if (c->zeroed) {
		if (!s->damage.zeroed_pages) {
			s->damage.zeroed_cpu = c->cpu;
			s->damage.zeroed_after_ts = before;
		}
		s->damage.zeroed_pages += c->zeroed;
		if (!c->had_zeroed)
			s->damage.zeroed_cpus++;
		c->had_zeroed = true;
		c->rec.missed_events = -1;
		c->zeroed = 0;
	}
	c->have = true;
}

static int add_cpu(struct dat_stream *s, int buffer, int cpu, uint64_t off, uint64_t size, bool raw,
		   uint64_t file_size, struct gt_error *err)
{
	struct stream_cpu *c = &s->cpus[s->nr_cpus++];
	uint32_t count = 0;

	c->buffer = buffer;
	c->cpu = cpu;
	c->raw = raw;
	c->ahead = -1;
	/* compressed: u32 chunk count, then the chunks; the size trace-cmd notes leaves the count out */
	c->at.next = raw ? off : off + 4;
	c->at.end = c->at.next + size;
	if (c->at.end > file_size || (!raw && size && read_all_at(s->fd, &count, 4, off)))
		return gt_error_set(err, EIO, "the file is truncated in CPU %d's data; record it again",
				    cpu);
	c->at.left = raw ? size >= s->page_size : count;
	advance(s, c);
	return 0;
}

/* v6: a buffer instance's CPU table, after its "flyrecord" tag */
static int add_v6_instance(struct dat_stream *s, const struct dat_meta *m, int buffer, uint64_t at,
			   struct gt_error *err)
{
	uint64_t table[2 * DAT_META_MAX_CPUS];
	char tag[10];
	int cpu;

	if (read_all_at(s->fd, tag, sizeof(tag), at) || memcmp(tag, "flyrecord", sizeof(tag)) ||
	    read_all_at(s->fd, table, 16 * (size_t)m->nr_cpus, at + sizeof(tag)))
		return gt_error_set(err, EIO, "the buffer instance at byte %llu is damaged; record it again",
				    (unsigned long long)at);
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		if (add_cpu(s, buffer, cpu, table[2 * cpu], table[2 * cpu + 1], true, m->file_size, err))
			return -1;
	return 0;
}

static int add_cpus(struct dat_stream *s, const struct dat_meta *m, struct gt_error *err)
{
	bool raw = m->version == 6 || !strcmp(m->compression, "none") || !m->compression[0];
	int b, i, named = 0;

	if (m->version == 6) {
		for (i = 0; i < m->nr_cpus; i++)
			if (add_cpu(s, 0, i, m->v6_cpu_offset[i], m->v6_cpu_bytes[i], true,
				    m->file_size, err))
				return -1;
		for (b = 0; b < m->nr_v6_instances; b++)
			if (add_v6_instance(s, m, b + 1, m->v6_instances[b], err))
				return -1;
		return 0;
	}
	for (b = 0; b < m->nr_buffers; b++) {
		/* as dat_meta_instance_name() numbers them: the named ones in the file's order */
		int buffer = m->buffers[b].name[0] ? ++named : 0;

		for (i = 0; i < m->buffers[b].nr_cpus; i++)
			if (add_cpu(s, buffer, (int)m->buffers[b].cpus[i].cpu, m->buffers[b].cpus[i].offset,
				    m->buffers[b].cpus[i].size, raw, m->file_size, err))
				return -1;
	}
	return 0;
}

/* What this reader streams exactly as libtracecmd reads it; the rest is libtracecmd's. */
static const char *not_streamed(const struct dat_meta *m)
{
	int b;

	if (m->ts_adjusted)
		return "times shifted by options";
	if (m->long_size != 8)
		return "a 32-bit kernel's pages";
	if (m->nr_cpus > DAT_META_MAX_CPUS || m->unread_buffers)
		return "buffers or options not read";
	if (m->version == 6)
		return m->page_size ? NULL : "no page size";
	if (m->version != 7 || !m->nr_buffers ||
	    (m->compression[0] && strcmp(m->compression, "zstd") && strcmp(m->compression, "none")))
		return "not v6, nor v7 stored plain or with zstd";
	for (b = 0; b < m->nr_buffers; b++)
		if (m->buffers[b].page_size != (uint32_t)m->buffers[0].page_size ||
		    !m->buffers[b].page_size)
			return "buffers of different page sizes";
	return NULL;
}

/*
 * Each CPU's share of STREAM_BUDGET: at least a page, which it must hold to
 * read at all. A file needing more is not streamed (analysis falls back to
 * libtracecmd, which maps its pages from the file instead).
 */
static int share_budget(struct dat_stream *s, int nr_streams, uint64_t file_size,
			struct gt_error *err)
{
	uint64_t budget = dat_memory_budget(file_size);
	size_t share;

	/* a small file may not make the reader hold more than it could hold anyway */
	if (budget > STREAM_BUDGET)
		budget = STREAM_BUDGET;
	share = (size_t)budget / (size_t)(nr_streams ? nr_streams : 1);

	share -= share % s->page_size;
	s->share = share;
	if (!share)
		return gt_error_set(err, E2BIG,
				    "%d CPU buffers of %zu-byte pages need more than %llu MB at once to read",
				    nr_streams, s->page_size, (unsigned long long)(budget >> 20));
	s->raw_block = RAW_BLOCK - RAW_BLOCK % s->page_size;
	if (s->raw_block < s->page_size)
		s->raw_block = s->page_size;
	if (s->raw_block > share)
		s->raw_block = share;
	s->chunk_max = DAT_MAX_CHUNK_PAGES * s->page_size;
	if (s->chunk_max > share)
		s->chunk_max = share;
	return 0;
}

struct dat_stream *dat_stream_open(const char *path, const struct dat_meta *known,
				   struct gt_error *err)
{
	struct dat_meta *read = known ? NULL : calloc(1, sizeof(*read));
	const struct dat_meta *m = known ? known : read;
	struct dat_stream *s = NULL;
	const char *why;
	int n;

	if (!m) {
		gt_error_set(err, ENOMEM, "out of memory");
		goto out;
	}
	if (read && dat_meta_read(path, read, err))
		goto out;
	why = not_streamed(m);
	if (why) {
		gt_error_set(err, ENOTSUP, "not a file this reader streams: %s", why);
		goto out;
	}
	n = m->version == 6 ? m->nr_cpus * (1 + m->nr_v6_instances) : 0;
	for (int b = 0; m->version == 7 && b < m->nr_buffers; b++)
		n += m->buffers[b].nr_cpus;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->cpus = calloc((size_t)n + 1, sizeof(*s->cpus)))) {
		gt_error_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	s->page_size = m->version == 6 ? m->page_size : m->buffers[0].page_size;
	if (share_budget(s, n, m->file_size, err))
		goto fail;
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		gt_error_set(err, errno, "cannot open %s: %s", path, strerror(errno));
		goto fail;
	}
	if (add_cpus(s, m, err))
		goto fail;
	goto out;
fail:
	dat_stream_close(s);
	s = NULL;
out:
	free(read);
	return s;
}

int dat_stream_last_buffer(const struct dat_stream *s)
{
	return s->last ? s->last->buffer : 0;
}

struct tep_record *dat_stream_next(struct dat_stream *s, struct gt_error *err)
{
	struct stream_cpu *best = NULL;
	int i;

	if (s->last) {
		advance(s, s->last);
		/* still ahead of every other CPU: the scan would pick it again */
		if (s->last->have && s->last->rec.ts < s->runner_up)
			return &s->last->rec;
	}
	s->last = NULL;
	s->runner_up = UINT64_MAX;
	for (i = 0; i < s->nr_cpus; i++) {
		if (!s->cpus[i].have)
			continue;
		if (!best || s->cpus[i].rec.ts < best->rec.ts) {
			if (best)
				s->runner_up = best->rec.ts;
			best = &s->cpus[i];
		} else if (s->cpus[i].rec.ts < s->runner_up) {
			s->runner_up = s->cpus[i].rec.ts;
		}
	}
	if (!best) {
		if (s->damaged)
			gt_error_set(err, EIO, "the trace data is damaged: %s", s->why);
		return NULL;
	}
	s->last = best;
	return &best->rec;
}

const struct dat_stream_damage *dat_stream_damage(const struct dat_stream *s)
{
	return &s->damage;
}

int dat_stream_inflate_ahead(struct dat_stream *s)
{
	/* each CPU's chunks in its queue and the one in use: its share holds them all */
	size_t fit = s->share / s->chunk_max - 1;
	unsigned int depth = fit < INFLATE_AHEAD_MAX_DEPTH ? (unsigned int)fit : INFLATE_AHEAD_MAX_DEPTH;
	struct zchunk_cursor *at;
	int i, n = 0;

	if (s->ahead)
		return 1;
	at = calloc((size_t)s->nr_cpus, sizeof(*at));
	if (!at)
		return 0;
	for (i = 0; i < s->nr_cpus; i++)
		if (!s->cpus[i].raw && !s->cpus[i].done && s->cpus[i].at.left)
			at[n++] = s->cpus[i].at;
	s->ahead = n ? inflate_ahead_start(s->fd, at, n, s->page_size, s->chunk_max, depth) : NULL;
	free(at);
	if (!s->ahead)
		return 0;
	for (i = 0, n = 0; i < s->nr_cpus; i++)
		if (!s->cpus[i].raw && !s->cpus[i].done && s->cpus[i].at.left)
			s->cpus[i].ahead = n++;
	return 1;
}

void dat_stream_close(struct dat_stream *s)
{
	int i;

	if (!s)
		return;
	inflate_ahead_stop(s->ahead);
	for (i = 0; i < s->nr_cpus; i++)
		free(s->cpus[i].chunk.data);
	zchunk_inflater_free(&s->zstd);
	if (s->fd > 0)
		close(s->fd);
	free(s->cpus);
	free(s);
}
