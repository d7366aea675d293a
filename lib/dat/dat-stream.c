// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "dat/dat-format.h"
#include "dat/dat-meta.h"
#include "dat/dat-stream.h"
#include "dat/rb-read.h"

/*
 * One CPU of one buffer: its chunks in the file, the one decompressed now;
 * or, uncompressed (v6, v7 "none"), its pages read a block at a time into
 * the same buffer.
 */
struct stream_cpu {
	int cpu;
	bool raw;			/* pages stored as they are: no chunk headers */
	uint64_t next_chunk;		/* file offset of the next chunk's header, or raw block */
	uint64_t end;			/* end of this CPU's data in the file */
	uint32_t chunks_left;		/* not yet taken into chunk */
	uint32_t to_inflate;		/* not yet decompressed (by the inflater, when it runs) */
	unsigned char *chunk;
	size_t chunk_len, chunk_cap, page_off;	/* page_off: the loaded page's */
	unsigned char *packed;		/* compressed bytes of the chunk being read */
	size_t packed_cap;
	struct rb_cursor page;
	bool page_loaded;		/* a page of the chunk is in page */
	bool done;
	struct tep_record rec;
	bool have;			/* rec holds this CPU's next record */
	/* the next chunk, decompressed ahead by the inflater thread */
	unsigned char *ahead;
	size_t ahead_len, ahead_cap;
	enum { AHEAD_EMPTY, AHEAD_READY, AHEAD_FAILED } ahead_state;
};

struct dat_stream {
	int fd;
	size_t page_size;
	struct stream_cpu *cpus;
	int nr_cpus;
	struct stream_cpu *last;	/* handed out last: advance it first */
	bool damaged;
	char why[160];			/* what was damaged, first */
	/*
	 * zstd with a CPU to spare: a thread decompresses each CPU's next
	 * chunk while the reader walks the one it has
	 */
	bool inflating;
	pthread_t inflater;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
	unsigned char *inflater_packed;
	size_t inflater_packed_cap;
};

static void damaged(struct dat_stream *s, struct stream_cpu *c, const char *what)
{
	if (!s->damaged)
		snprintf(s->why, sizeof(s->why), "CPU %d's %s", c->cpu, what);
	s->damaged = c->done = true;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* The CPU's buffers are reused chunk after chunk: memory is one chunk's. */
static int reserve(unsigned char **buf, size_t *cap, size_t n)
{
	unsigned char *grown;

	if (n <= *cap)
		return 0;
	grown = realloc(*buf, n);
	if (!grown)
		return -1;
	*buf = grown;
	*cap = n;
	return 0;
}

/*
 * Uncompressed pages: the next block of DAT_MAX_CHUNK_PAGES pages, as much
 * memory as a compressed chunk takes, read with pread so nothing of the
 * file stays mapped (flat RSS however large the file).
 */
static int load_raw(struct dat_stream *s, struct stream_cpu *c)
{
	uint64_t n = c->end - c->next_chunk;

	if (n > DAT_MAX_CHUNK_PAGES * s->page_size)
		n = DAT_MAX_CHUNK_PAGES * s->page_size;
	n -= n % s->page_size;
	if (!n || reserve(&c->chunk, &c->chunk_cap, (size_t)n) ||
	    read_at(s->fd, c->chunk, (size_t)n, c->next_chunk))
		return -1;
	c->chunk_len = (size_t)n;
	c->page_off = 0;
	c->next_chunk += n;
	c->chunks_left = c->end - c->next_chunk >= s->page_size;
	return 0;
}

/*
 * Chunks: u32 compressed size, u32 size, then the zstd frame. The CPU's
 * next one decompressed into *buf (grown as needed); -1 when it is damaged.
 */
static int inflate_next(struct dat_stream *s, struct stream_cpu *c, unsigned char **buf,
			size_t *cap, size_t *len, unsigned char **packed, size_t *packed_cap)
{
	uint32_t head[2];
	size_t got;

	if (!c->to_inflate || c->next_chunk + 8 > c->end ||
	    read_at(s->fd, head, 8, c->next_chunk))
		return -1;
	if (head[0] > c->end - c->next_chunk - 8 || !head[1] ||
	    head[1] > DAT_MAX_CHUNK_PAGES * s->page_size ||
	    head[1] % s->page_size)
		return -1;
	if (reserve(packed, packed_cap, head[0]) || reserve(buf, cap, head[1]) ||
	    read_at(s->fd, *packed, head[0], c->next_chunk + 8))
		return -1;
	got = ZSTD_decompress(*buf, head[1], *packed, head[0]);
	if (ZSTD_isError(got) || got != head[1])
		return -1;
	*len = head[1];
	c->next_chunk += 8 + head[0];
	c->to_inflate--;
	return 0;
}

/* The chunk the inflater made ready for this CPU, once it is. */
static int take_ahead(struct dat_stream *s, struct stream_cpu *c)
{
	unsigned char *t;
	size_t cap;
	int ret = 0;

	pthread_mutex_lock(&s->lock);
	while (c->ahead_state == AHEAD_EMPTY)
		pthread_cond_wait(&s->cond, &s->lock);
	if (c->ahead_state == AHEAD_READY) {
		t = c->chunk;
		cap = c->chunk_cap;
		c->chunk = c->ahead;
		c->chunk_cap = c->ahead_cap;
		c->chunk_len = c->ahead_len;
		c->ahead = t;
		c->ahead_cap = cap;
		c->ahead_state = AHEAD_EMPTY;
		pthread_cond_broadcast(&s->cond);
	} else {
		ret = -1;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

static int load_chunk(struct dat_stream *s, struct stream_cpu *c)
{
	if (c->raw)
		return load_raw(s, c);
	if (!c->chunks_left)
		return -1;
	if (s->inflating ? take_ahead(s, c) :
	    inflate_next(s, c, &c->chunk, &c->chunk_cap, &c->chunk_len, &c->packed, &c->packed_cap))
		return -1;
	c->page_off = 0;
	c->chunks_left--;
	return 0;
}

/* A CPU whose next chunk the inflater should make: its slot empty, chunks left. */
static struct stream_cpu *wanting(struct dat_stream *s)
{
	int i;

	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].ahead_state == AHEAD_EMPTY && s->cpus[i].to_inflate)
			return &s->cpus[i];
	return NULL;
}

static void *inflater_main(void *arg)
{
	struct dat_stream *s = arg;

	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		struct stream_cpu *c = wanting(s);
		size_t len = 0;
		int ret;

		if (!c) {
			pthread_cond_wait(&s->cond, &s->lock);
			continue;
		}
		/* the slot is empty: the reader does not touch it until it is ready */
		pthread_mutex_unlock(&s->lock);
		ret = inflate_next(s, c, &c->ahead, &c->ahead_cap, &len, &s->inflater_packed,
				   &s->inflater_packed_cap);
		pthread_mutex_lock(&s->lock);
		c->ahead_len = len;
		c->ahead_state = ret ? AHEAD_FAILED : AHEAD_READY;
		if (ret)
			c->to_inflate = 0;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Only where a second CPU can take it: on one it would only add switching. */
static void start_inflater(struct dat_stream *s)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 2)
		return;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	s->inflating = !pthread_create(&s->inflater, NULL, inflater_main, s);
	if (!s->inflating) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
	}
}

/* The CPU's next record into c->rec; c->done at its end. */
static void advance(struct dat_stream *s, struct stream_cpu *c)
{
	struct rb_entry e;

	c->have = false;
	if (c->done)
		return;
	while (!c->page_loaded || !rb_cursor_next(&c->page, &e)) {
		/* the next page: in this chunk, else the first of the next one */
		if (c->page_loaded)
			c->page_off += s->page_size;
		if (!c->page_loaded || c->page_off >= c->chunk_len) {
			if (!c->chunks_left) {
				c->done = true;
				return;
			}
			if (load_chunk(s, c)) {
				damaged(s, c, c->raw ? "data cannot be read (the file is shorter than it says)"
					       : "compressed data does not decompress");
				return;
			}
		}
		if (!dat_page_fits(c->chunk + c->page_off, s->page_size, 8)) {
			damaged(s, c, "data has a page that claims more than a page holds, or whose events run past it");
			return;
		}
		rb_cursor_load(&c->page, c->chunk + c->page_off, s->page_size);
		c->page_loaded = true;
	}
	rb_entry_record(&e, c->cpu, &c->rec);
	c->have = true;
}

static int add_cpu(struct dat_stream *s, int cpu, uint64_t off, uint64_t size, bool raw,
		   uint64_t file_size, struct gt_error *err)
{
	struct stream_cpu *c = &s->cpus[s->nr_cpus++];
	uint32_t count = 0;

	c->cpu = cpu;
	c->raw = raw;
	/* compressed: u32 chunk count, then the chunks; the size trace-cmd notes leaves the count out */
	c->next_chunk = raw ? off : off + 4;
	c->end = c->next_chunk + size;
	if (c->end > file_size || (!raw && size && read_at(s->fd, &count, 4, off)))
		return gt_error_set(err, EIO, "the file is truncated in CPU %d's data; record it again",
				    cpu);
	c->chunks_left = raw ? size >= s->page_size : count;
	c->to_inflate = raw ? 0 : count;
	advance(s, c);
	return 0;
}

/* v6: a buffer instance's CPU table, after its "flyrecord" tag */
static int add_v6_instance(struct dat_stream *s, const struct dat_meta *m, uint64_t at,
			   struct gt_error *err)
{
	uint64_t table[2 * DAT_META_MAX_CPUS];
	char tag[10];
	int cpu;

	if (read_at(s->fd, tag, sizeof(tag), at) || memcmp(tag, "flyrecord", sizeof(tag)) ||
	    read_at(s->fd, table, 16 * (size_t)m->nr_cpus, at + sizeof(tag)))
		return gt_error_set(err, EIO, "the buffer instance at byte %llu is damaged; record it again",
				    (unsigned long long)at);
	for (cpu = 0; cpu < m->nr_cpus; cpu++)
		if (add_cpu(s, cpu, table[2 * cpu], table[2 * cpu + 1], true, m->file_size, err))
			return -1;
	return 0;
}

static int add_cpus(struct dat_stream *s, const struct dat_meta *m, struct gt_error *err)
{
	bool raw = m->version == 6 || !strcmp(m->compression, "none") || !m->compression[0];
	int b, i;

	if (m->version == 6) {
		for (i = 0; i < m->nr_cpus; i++)
			if (add_cpu(s, i, m->v6_cpu_offset[i], m->v6_cpu_bytes[i], true,
				    m->file_size, err))
				return -1;
		for (b = 0; b < m->nr_v6_instances; b++)
			if (add_v6_instance(s, m, m->v6_instances[b], err))
				return -1;
		return 0;
	}
	for (b = 0; b < m->nr_buffers; b++)
		for (i = 0; i < m->buffers[b].nr_cpus; i++)
			if (add_cpu(s, (int)m->buffers[b].cpus[i].cpu, m->buffers[b].cpus[i].offset,
				    m->buffers[b].cpus[i].size, raw, m->file_size, err))
				return -1;
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
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		gt_error_set(err, errno, "cannot open %s: %s", path, strerror(errno));
		goto fail;
	}
	if (add_cpus(s, m, err))
		goto fail;
	if (m->version == 7 && !strcmp(m->compression, "zstd"))
		start_inflater(s);
	goto out;
fail:
	dat_stream_close(s);
	s = NULL;
out:
	free(read);
	return s;
}

struct tep_record *dat_stream_next(struct dat_stream *s, struct gt_error *err)
{
	struct stream_cpu *best = NULL;
	int i;

	if (s->last)
		advance(s, s->last);
	s->last = NULL;
	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].have && (!best || s->cpus[i].rec.ts < best->rec.ts))
			best = &s->cpus[i];
	if (!best) {
		if (s->damaged)
			gt_error_set(err, EIO, "the trace data is damaged: %s", s->why);
		return NULL;
	}
	s->last = best;
	return &best->rec;
}

size_t dat_stream_page_size(const struct dat_stream *s)
{
	return s->page_size;
}

void dat_stream_close(struct dat_stream *s)
{
	int i;

	if (!s)
		return;
	if (s->inflating) {
		pthread_mutex_lock(&s->lock);
		s->stop = true;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->inflater, NULL);
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
	}
	for (i = 0; i < s->nr_cpus; i++) {
		free(s->cpus[i].chunk);
		free(s->cpus[i].packed);
		free(s->cpus[i].ahead);
	}
	free(s->inflater_packed);
	if (s->fd > 0)
		close(s->fd);
	free(s->cpus);
	free(s);
}
