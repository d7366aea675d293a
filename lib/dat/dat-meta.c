// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "dat/dat-meta.h"
#include "dat/dat-format.h"

/* Where one CPU's data of one buffer lies in the file. */
struct cpu_range {
	uint64_t start, end;
	int cpu;
	int buffer;		/* 0 the top buffer, else its instance's number */
};

/* Every CPU's range, to find two that overlap (a file can name one chunk for every CPU). */
struct cpu_ranges {
	struct cpu_range *r;
	size_t n, cap;
	bool failed;		/* out of memory: not checked */
};

/* Bounds-checked cursor over the file; any overrun marks it truncated. */
struct cursor {
	int fd;
	uint64_t pos, size;
	bool bad;
	bool every_page;	/* bad_page() walks every page, not only each CPU's first */
	struct cpu_ranges *ranges;	/* where CPU ranges are collected, or NULL */
};

static void add_range(struct cursor *c, int buffer, int cpu, uint64_t off, uint64_t size)
{
	struct cpu_ranges *rs = c->ranges;

	if (!rs || !size || rs->failed)
		return;
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? 2 * rs->cap : 64;
		struct cpu_range *r = realloc(rs->r, cap * sizeof(*r));

		if (!r) {
			rs->failed = true;
			return;
		}
		rs->r = r;
		rs->cap = cap;
	}
	rs->r[rs->n++] = (struct cpu_range){ off, off + size, cpu, buffer };
}

static int by_start(const void *a, const void *b)
{
	const struct cpu_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static const char *buffer_name(int buffer, char *buf, size_t len)
{
	if (!buffer)
		return "";
	snprintf(buf, len, " of buffer %d", buffer);
	return buf;
}

/*
 * No two CPUs' data may share bytes: readers would read one CPU's records as
 * another's (duplicated, and the real CPU's gone), and a file could name one
 * chunk for a thousand CPUs to have it decompressed a thousand times.
 */
static int ranges_overlap(struct cpu_ranges *rs, const char *path, struct gt_error *err)
{
	char a[32], b[32];
	size_t i;

	if (rs->failed || rs->n < 2)
		return 0;
	qsort(rs->r, rs->n, sizeof(*rs->r), by_start);
	for (i = 1; i < rs->n; i++) {
		const struct cpu_range *x = &rs->r[i - 1], *y = &rs->r[i];

		if (y->start < x->end)
			return gt_error_set(err, EIO, "%s is damaged: CPU %d's data%s (bytes %llu to %llu) and CPU %d's%s (from byte %llu) overlap; record it again",
					    path, x->cpu, buffer_name(x->buffer, a, sizeof(a)),
					    (unsigned long long)x->start, (unsigned long long)x->end,
					    y->cpu, buffer_name(y->buffer, b, sizeof(b)),
					    (unsigned long long)y->start);
	}
	return 0;
}

static void get(struct cursor *c, void *buf, uint64_t n)
{
	if (c->bad || n > c->size - c->pos || pread(c->fd, buf, n, (off_t)c->pos) != (ssize_t)n) {
		c->bad = true;
		memset(buf, 0, n);
		return;
	}
	c->pos += n;
}

static uint64_t get_u(struct cursor *c, int n)
{
	uint64_t v = 0;

	get(c, &v, (uint64_t)n);
	return v;
}

static void skip(struct cursor *c, uint64_t n)
{
	if (n > c->size - c->pos)
		c->bad = true;
	else
		c->pos += n;
}

static void get_str(struct cursor *c, char *out, size_t len)
{
	size_t i = 0;
	char ch;

	do {
		get(c, &ch, 1);
		if (i + 1 < len)
			out[i++] = ch;
	} while (!c->bad && ch);
	out[i] = '\0';
}

static void skip_formats(struct cursor *c)
{
	uint32_t n = (uint32_t)get_u(c, 4), i;

	for (i = 0; i < n && !c->bad; i++)
		skip(c, get_u(c, 8));
}

/*
 * The CPU stats that follow are buffer instance @name's (@len bytes, or up
 * to a NUL or newline): a BUFFER option (gpu-trace's workload instance), or
 * trace-cmd's CPUSTAT text "\nBuffer: NAME\n\n" before the instance's own.
 * Theirs were read as more CPUs of the top buffer ("LOST cpu0 0, cpu1 0,
 * cpu2 17296": a file of 2 CPUs), as v7 writes the BUFFER options after.
 */
static void stats_of_instance(struct dat_meta *m, const char *name, size_t len)
{
	size_t n = 0;

	while (n < len && name[n] && name[n] != '\n')
		n++;
	m->in_instance = true;
	if (!n)
		return;
	/* a name longer than kept is the same name when what is kept matches */
	if (n >= sizeof(m->instance_name))
		n = sizeof(m->instance_name) - 1;
	if (!m->instance_name[0])
		snprintf(m->instance_name, sizeof(m->instance_name), "%.*s", (int)n, name);
	else if (strncmp(m->instance_name, name, n) || m->instance_name[n])
		m->instances_apart = true;
}

/* u64 section, name, clock, u32 page size, u32 CPUs, per CPU: u32 id, u64 offset, u64 size */
static void parse_v7_buffer(struct dat_meta *m, const char *data, uint32_t size)
{
	struct dat_buffer_data *b;
	const char *p = data + 8, *end = data + size;
	uint32_t nr, i;

	m->unread_buffers++;	/* until it is read whole */
	if (size < 8 || m->nr_buffers == DAT_META_MAX_BUFFERS)
		return;
	b = &m->buffers[m->nr_buffers];
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%.*s", (int)strnlen(p, (size_t)(end - p)), p);
	p += strnlen(p, (size_t)(end - p)) + 1;
	p += p < end ? strnlen(p, (size_t)(end - p)) + 1 : 0;	/* the clock */
	if (p + 8 > end)
		return;
	memcpy(&b->page_size, p, 4);
	memcpy(&nr, p + 4, 4);
	p += 8;
	if (nr > DAT_META_MAX_CPUS || (uint64_t)nr * 20 > (uint64_t)(end - p))
		return;
	for (i = 0; i < nr; i++, p += 20) {
		memcpy(&b->cpus[i].cpu, p, 4);
		memcpy(&b->cpus[i].offset, p + 4, 8);
		memcpy(&b->cpus[i].size, p + 12, 8);
	}
	b->nr_cpus = (int)nr;
	if (b->name[0])
		stats_of_instance(m, b->name, sizeof(b->name));
	m->nr_buffers++;
	m->unread_buffers--;
}

static void parse_option(struct dat_meta *m, uint16_t id, const char *data, uint32_t size)
{
	uint64_t at;
	size_t skip;
	char *clock;

	switch (id) {
	case DAT_OPT_TRACECLOCK:
		clock = dat_clock_name(data);
		if (clock)
			snprintf(m->clock, sizeof(m->clock), "%s", clock);
		free(clock);
		break;
	case DAT_OPT_UNAME:
		snprintf(m->uname, sizeof(m->uname), "%.*s", (int)size, data);
		break;
	case DAT_OPT_VERSION:
		snprintf(m->writer, sizeof(m->writer), "%.*s", (int)size, data);
		break;
	case DAT_OPT_CPUCOUNT:
		if (size >= 4)
			memcpy(&m->nr_cpus, data, 4);
		break;
	case DAT_OPT_GT_BUFFER_KB:	/* files of gpu-trace 0.1 before the stats line */
		if (size == 8) {
			memcpy(&m->buffer_kb, data, 8);
			m->has_buffer_kb = true;
		}
		break;
	case DAT_OPT_STRINGS:
		m->strings_size += size;
		break;
	case DAT_OPT_BUFFER:
		/* the CPU stats that follow are that buffer instance's */
		if (m->version == 7) {
			parse_v7_buffer(m, data, size);
			break;
		}
		stats_of_instance(m, data + 8, size - 8);	/* dat_option_fits: 8 and more */
		memcpy(&at, data, 8);
		/*
		 * trace-cmd split copies the options, not the instances' pages, and
		 * writes offset 0 (the file's magic); so does a record cut short
		 * before it wrote them. libtracecmd then opens no handle for it and
		 * trace-cmd report reads the top buffer; so do we (as many as the
		 * instances we read: each is an open libtracecmd tries)
		 */
		m->in_absent_instance = !at;
		if (!at && m->v6_instances_absent < DAT_META_MAX_BUFFERS)
			m->v6_instances_absent++;
		else if (at && m->nr_v6_instances < DAT_META_MAX_BUFFERS) {
			snprintf(m->v6_instance_names[m->nr_v6_instances],
				 sizeof(m->v6_instance_names[0]), "%s", data + 8);	/* it ends: fits */
			m->v6_instances[m->nr_v6_instances++] = at;
		}
		else
			m->unread_buffers++;
		break;
	case DAT_OPT_HEADER_INFO ... DAT_OPT_CMDLINES:
		if (m->version == 7 && size >= 8 && m->nr_sections < 8)
			memcpy(&m->sections[m->nr_sections++], data, 8);
		break;
	case DAT_OPT_DATE:
	case DAT_OPT_OFFSET:
	case DAT_OPT_TIME_SHIFT:
	case DAT_OPT_TSC2NSEC:
		m->ts_adjusted = true;
		break;
	case DAT_OPT_CPUSTAT:
		skip = strspn(data, "\n");
		if (size - skip > 8 && !strncmp(data + skip, "Buffer: ", 8))
			stats_of_instance(m, data + skip + 8, size - skip - 8);
		else if (m->in_instance) {
			struct cpu_stats st = { 0 };

			/* an absent instance's losses are of pages no reader sees */
			cpu_stats_parse(data, &st);
			if (!m->in_absent_instance)
				m->instance_lost += cpu_stats_lost(&st);
		} else if (m->nr_cpustats < DAT_META_MAX_CPUS && !strncmp(data, "CPU: ", 5)) {
			struct cpu_stats *st = &m->cpustats[m->nr_cpustats];

			m->cpustat_cpu[m->nr_cpustats++] = atoi(data + 5);
			cpu_stats_parse(data, st);
			if (st->buffer_kb && !m->has_buffer_kb) {
				m->buffer_kb = st->buffer_kb;
				m->has_buffer_kb = true;
			}
		}
		break;
	default:
		break;
	}
}

/* v6 options: u16 id, u32 size, data; v7 the same inside option sections. */
static void parse_options(struct cursor *c, struct dat_meta *m, uint64_t end, bool v7,
			  uint64_t *next)
{
	*next = 0;
	while (!c->bad && c->pos < end) {
		uint64_t at = c->pos;
		uint16_t id = (uint16_t)get_u(c, 2);
		uint32_t size;
		char *data;

		if (!id && !v7)
			return;
		size = (uint32_t)get_u(c, 4);
		if (c->bad || size > c->size - c->pos || size > (64u << 20)) {
			c->bad = true;
			return;
		}
		if (!id) {
			if (size == 8)
				*next = get_u(c, 8);
			return;
		}
		data = calloc(1, (size_t)size + 1);
		if (!data) {
			c->bad = true;
			return;
		}
		get(c, data, size);
		if (c->bad) {
			free(data);
			return;
		}
		if (!v7 && id == DAT_OPT_TRACECLOCK && !size)
			m->clock_after_cpus = true;
		else if (dat_option_fits(id, data, size))
			parse_option(m, id, data, size);
		else if (m->nr_skipped < DAT_META_MAX_SKIPPED)
			m->skipped[m->nr_skipped++] = (struct dat_skipped_option){ id, size, at };
		free(data);
	}
}

/*
 * Every reader takes a page of this size from each CPU's data: a damaged
 * header claiming 87 MB had kbuffer walk far past a 4 KB CPU's data.
 * Kernels use 4 KB to 64 KB pages, sub-buffers of up to a few MB.
 */
static bool page_size_ok(uint32_t size)
{
	return size >= 4096 && size <= (16u << 20) && !(size & (size - 1));
}

/*
 * libtracecmd 3.1.6 loads each CPU's first page when it opens a file; a
 * page whose commit (data size) exceeds the page makes that fail and, with
 * the CPUs after it left uninitialised, crash in tracecmd_close().
 */
static bool page_header_ok(const unsigned char *page, size_t len, const struct dat_meta *m)
{
	if (len < 16 || (m->long_size != 8 && m->long_size != 4))
		return len == 0;
	return len < m->page_size ? dat_page_header_fits(page, m->page_size, m->long_size)
				  : dat_page_fits(page, m->page_size, m->long_size);
}

/*
 * Every page of a CPU's uncompressed data claims no more than a page holds:
 * libtracecmd hands each to kbuffer as it iterates, which reads past a
 * damaged one (a crash fuzz-report found on the second page of a CPU). The
 * headers are read a megabyte at a time; 0, or the offset of the first bad
 * page.
 */
static uint64_t bad_page(struct cursor *c, uint64_t at, uint64_t size, const struct dat_meta *m)
{
	unsigned char *buf;
	uint64_t done = 0, bad = 0;
	size_t block = 1u << 20;

	if (!m->page_size || size < m->page_size)
		return 0;
	if (!c->every_page)
		size = m->page_size;
	if (block < m->page_size)
		block = m->page_size;
	block -= block % m->page_size;
	buf = malloc(block);
	if (!buf)
		return 0;
	while (!bad && done + m->page_size <= size) {
		size_t n = size - done < block ? (size_t)(size - done) : block, i;

		n -= n % m->page_size;
		if (pread(c->fd, buf, n, (off_t)(at + done)) != (ssize_t)n)
			break;
		for (i = 0; i < n && !bad; i += m->page_size)
			if (!dat_page_fits(buf + i, m->page_size, m->long_size))
				bad = at + done + i;
		done += n;
	}
	free(buf);
	return bad;
}

/* header_page text: libtracecmd reads only 64-bit page timestamps */
static bool header_page_bad(struct cursor *c, uint64_t len)
{
	char *text, *ts;
	bool bad = false;

	if (c->bad || len > c->size - c->pos || len > (1 << 20)) {
		c->bad = true;
		return false;
	}
	text = calloc(1, (size_t)len + 1);
	if (!text) {
		c->bad = true;
		return false;
	}
	get(c, text, len);
	ts = strstr(text, "timestamp;");
	if (ts && (ts = strstr(ts, "size:")))
		bad = atoi(ts + 5) != 8;
	free(text);
	return bad;
}

/*
 * A v6 buffer instance (the workload's, or trace-cmd -B): at its offset a
 * "flyrecord" tag and a CPU table like the top buffer's, which libtracecmd
 * reads when report opens the instance: the same checks, every page.
 */
static bool v6_instance_bad(struct cursor *c, const struct dat_meta *m, uint64_t at, int nr)
{
	char tag[10];
	int cpu;

	if (at >= c->size)
		return true;
	c->pos = at;
	get(c, tag, sizeof(tag));
	if (c->bad || memcmp(tag, "flyrecord", sizeof(tag)))
		return true;
	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		uint64_t off, size, table;

		c->pos = at + sizeof(tag) + 16 * (uint64_t)cpu;
		off = get_u(c, 8);
		size = get_u(c, 8);
		if (c->bad || off > c->size || size > c->size - off || size % m->page_size)
			return true;
		add_range(c, nr, cpu, off, size);
		table = c->pos;
		if (bad_page(c, off, size, m))
			return true;
		c->pos = table;
	}
	return false;
}

/* v6: the top buffer's CPUs' pages and each instance's (c->every_page: all, or each CPU's first) */
static int v6_pages_bad(struct cursor *c, const struct dat_meta *m, const char *path,
			struct gt_error *err)
{
	int cpu, i;

	for (cpu = 0; cpu < m->nr_cpus && cpu < DAT_META_MAX_CPUS; cpu++) {
		uint64_t bad = bad_page(c, m->v6_cpu_offset[cpu], m->v6_cpu_bytes[cpu], m);

		if (bad)
			return gt_error_set(err, EIO, "%s is damaged: CPU %d's page at byte %llu claims more data than a page holds, or its events run past it; record it again",
					    path, cpu, (unsigned long long)bad);
	}
	for (i = 0; i < m->nr_v6_instances; i++)
		if (v6_instance_bad(c, m, m->v6_instances[i], i + 1))
			return gt_error_set(err, EIO, "%s is damaged in the buffer instance at byte %llu (its CPU table or a page); record it again",
					    path, (unsigned long long)m->v6_instances[i]);
	return 0;
}

/*
 * trace-cmd 2.x's v6 clock: a u64 length and the trace_clock file's text
 * ("local [global] ...") right after the CPU table. libtracecmd reads it
 * there and takes "local" where it cannot; so do we, but say nothing we
 * could not read (the clock then reads as not recorded).
 */
static void read_clock_after_cpus(struct cursor *c, struct dat_meta *m)
{
	uint64_t len = get_u(c, 8);
	char text[512], *clock;

	if (c->bad || !len || len >= sizeof(text) || len > c->size - c->pos) {
		c->bad = false;
		return;
	}
	get(c, text, len);
	text[len] = '\0';
	clock = c->bad ? NULL : dat_clock_name(text);
	c->bad = false;
	if (clock && !m->clock[0])
		snprintf(m->clock, sizeof(m->clock), "%s", clock);
	free(clock);
}

static int read_v6(struct cursor *c, struct dat_meta *m, struct gt_error *err,
		   const char *path)
{
	char tag[16];
	uint32_t nsys, i;
	uint64_t next, header_cpus;
	int cpu;

	get_str(c, tag, sizeof(tag));			/* "header_page" */
	if (header_page_bad(c, get_u(c, 8)))
		return gt_error_set(err, EINVAL, "%s has a damaged header_page (its timestamp is not 64 bits); record it again",
				    path);
	get_str(c, tag, sizeof(tag));			/* "header_event" */
	skip(c, get_u(c, 8));
	skip_formats(c);
	nsys = (uint32_t)get_u(c, 4);
	for (i = 0; i < nsys && !c->bad; i++) {
		get_str(c, tag, sizeof(tag));
		skip_formats(c);
	}
	skip(c, get_u(c, 4));				/* kallsyms */
	skip(c, get_u(c, 4));				/* printk formats */
	skip(c, get_u(c, 8));				/* cmdlines */
	header_cpus = get_u(c, 4);
	m->nr_cpus = (int)header_cpus;
	get(c, tag, 10);
	if (!c->bad && !strcmp(tag, "options  ")) {
		parse_options(c, m, c->size, false, &next);
		get(c, tag, 10);
	}
	if (c->bad)
		return gt_error_set(err, EIO, "%s is truncated: its header ends at byte %llu; record it again",
				    path, (unsigned long long)c->size);
	/* libtracecmd sizes its per-CPU tables by the header's count */
	if ((uint32_t)m->nr_cpus != header_cpus)
		return gt_error_set(err, EIO, "%s is damaged: its header claims %llu CPUs, its CPU count option %d; record it again",
				    path, (unsigned long long)header_cpus, m->nr_cpus);
	if (header_cpus > DAT_MAX_CPUS)
		return gt_error_set(err, ENOTSUP, "%s claims %llu CPUs; gpu-trace reads recordings of at most %d (damaged, or record fewer CPUs)",
				    path, (unsigned long long)header_cpus, DAT_MAX_CPUS);
	if (strcmp(tag, "flyrecord"))
		return gt_error_set(err, ENOTSUP, "%s holds a latency (text) trace, not per-CPU data; record with gpu-trace record or trace-cmd record",
				    path);
	for (cpu = 0; cpu < m->nr_cpus && !c->bad; cpu++) {
		uint64_t off = get_u(c, 8), size = get_u(c, 8);

		if (cpu < DAT_META_MAX_CPUS) {
			m->v6_cpu_offset[cpu] = off;
			m->v6_cpu_bytes[cpu] = size;
		}
		if (!c->bad && (off > c->size || size > c->size - off))
			return gt_error_set(err, EIO, "%s is truncated: CPU %d's data should end at byte %llu but the file has %llu bytes",
					    path, cpu, (unsigned long long)(off + size),
					    (unsigned long long)c->size);
		add_range(c, 0, cpu, off, size);
		/* libtracecmd reads a whole page where a part of one is left */
		if (!c->bad && size % m->page_size)
			return gt_error_set(err, EIO, "%s is damaged: CPU %d's data (%llu bytes) is not whole %u-byte pages; record it again",
					    path, cpu, (unsigned long long)size, m->page_size);
	}
	if (c->bad)
		return gt_error_set(err, EIO, "%s is truncated inside its CPU table; record it again", path);
	if (m->clock_after_cpus)
		read_clock_after_cpus(c, m);
	if (v6_pages_bad(c, m, path, err))
		return -1;
	return c->ranges ? ranges_overlap(c->ranges, path, err) : 0;
}

/*
 * A v7 section header names itself by an offset into the strings read so
 * far. libtracecmd 3.1.6 (get_metadata_string) has that bound inverted: an
 * offset past the strings is handed to strdup(), one inside is dropped.
 * Once there are strings, a name past them is damage.
 */
static bool section_name_ok(const struct dat_meta *m, uint32_t name)
{
	return !m->strings_size || (int32_t)name < 0 || name <= m->strings_size;
}

/*
 * A section the options point at: its 16-byte header (u16 id, u16 flags,
 * u32 string id, u64 size) and its size within the file. libtracecmd
 * allocates what the size says before it reads.
 */
static int check_sections(struct cursor *c, const struct dat_meta *m)
{
	int i;

	for (i = 0; i < m->nr_sections; i++) {
		uint64_t size;

		c->pos = m->sections[i];
		if (m->sections[i] >= c->size)
			return -1;
		skip(c, 4);
		if (!section_name_ok(m, (uint32_t)get_u(c, 4)))
			return -1;
		size = get_u(c, 8);
		if (c->bad || size > c->size - c->pos)
			return -1;
	}
	return 0;
}

/* The first chunk of a CPU must decompress: libtracecmd reads it at open. */
static bool first_chunk_ok(struct cursor *c, uint64_t cpu_at, const char *compression,
			   const struct dat_meta *m)
{
	uint32_t zsize, size;
	void *packed, *plain;
	bool ok = false;

	if (strcmp(compression, "zstd"))
		return true;	/* another algorithm: libtracecmd's to judge */
	c->pos = cpu_at;
	if (!get_u(c, 4))
		return !c->bad;	/* no chunk */
	zsize = (uint32_t)get_u(c, 4);
	size = (uint32_t)get_u(c, 4);
	if (c->bad || !size || size > DAT_MAX_CHUNK_PAGES * m->page_size || zsize > c->size - c->pos)
		return false;
	packed = malloc(zsize ? zsize : 1);
	plain = malloc(size);
	if (packed && plain) {
		size_t got;

		get(c, packed, zsize);
		got = ZSTD_decompress(plain, size, packed, zsize);
		ok = !c->bad && !ZSTD_isError(got) && got == size &&
		     page_header_ok(plain, size, m);
	}
	free(packed);
	free(plain);
	return ok;
}

/*
 * Each CPU's compressed data: u32 chunk count, then per chunk u32 size,
 * u32 uncompressed size and the data. libtracecmd 3.1.6 reads this table
 * and decompresses the first chunk when it opens the file; if that fails
 * for one CPU, it frees the CPUs after it uninitialised and crashes. So
 * check both first.
 *
 * The chunks must fill what the CPU's BUFFER entry declares (trace-cmd's
 * size leaves the count out; a writer that counts it is 4 bytes longer): a
 * count lowered from 3 to 1 hid two chunks' records from every reader.
 */
static int walk_chunks(struct cursor *c, uint64_t pos, uint64_t size,
		       uint64_t *first, uint64_t *total, uint64_t *big)
{
	uint64_t count, n;

	c->pos = pos;
	count = get_u(c, 4);
	/* every chunk has at least its 8-byte header */
	if (c->bad || count > (c->size - c->pos) / 8)
		return -1;
	for (n = 0; n < count && !c->bad; n++) {
		uint64_t zsize = get_u(c, 4), plain = get_u(c, 4);

		if (!n)
			*first += plain;
		*total += plain;
		if (plain > *big)
			*big = plain;
		skip(c, zsize);
	}
	if (c->bad || c->pos > pos + 4 + size || c->pos < pos + size)
		return -2;
	return 0;
}

static int check_chunks(struct cursor *c, struct dat_meta *m, struct gt_error *err,
			const char *path)
{
	uint64_t budget = dat_memory_budget(c->size), big = 0;
	int b, i, ret;

	for (b = 0; b < m->nr_buffers; b++) {
		for (i = 0; i < m->buffers[b].nr_cpus; i++) {
			const uint64_t pos = m->buffers[b].cpus[i].offset, size = m->buffers[b].cpus[i].size;

			if (!size)
				continue;
			ret = walk_chunks(c, pos, size, &m->plain_first, &m->plain_total, &big);
			if (ret == -2 && !c->bad)
				return gt_error_set(err, EIO, "%s is damaged: CPU %u's chunks end at byte %llu, where its data is declared to end at byte %llu (a chunk count or size changed); record it again",
						    path, m->buffers[b].cpus[i].cpu, (unsigned long long)c->pos,
						    (unsigned long long)(pos + 4 + size));
			if (ret)
				return gt_error_set(err, EIO, "%s is truncated or damaged in CPU %u's compressed data; record it again",
						    path, m->buffers[b].cpus[i].cpu);
		}
	}
	if (big > DAT_MAX_CHUNK_PAGES * m->page_size)
		return gt_error_set(err, EFBIG, "%s claims a compressed chunk of %llu bytes, more than the %u pages any writer makes (trace-cmd: 10); it is damaged or made to exhaust memory",
				    path, (unsigned long long)big, DAT_MAX_CHUNK_PAGES);
	if (big > budget || m->plain_first > budget)
		return gt_error_set(err, EFBIG, "%s claims %llu MB decompressed at once from a %llu KB file (%s), past the %llu MB gpu-trace holds for it (64 MB and 16x the file): damaged or made to exhaust memory; a real one reads after trace-cmd convert --file-version 6",
				    path, (unsigned long long)((big > m->plain_first ? big : m->plain_first) >> 20),
				    (unsigned long long)(c->size >> 10),
				    big > budget ? "one chunk" : "its CPUs' first chunks",
				    (unsigned long long)(budget >> 20));
	/* every reader decompresses every chunk: time, where memory is bounded above */
	if (m->plain_total / 64 > c->size + (16u << 20))
		return gt_error_set(err, EFBIG, "%s claims %llu MB of trace data from a %llu KB file, more than 64 times its size and 1 GB: damaged or made to keep a reader busy; record it again",
				    path, (unsigned long long)(m->plain_total >> 20),
				    (unsigned long long)(c->size >> 10));
	for (b = 0; b < m->nr_buffers; b++)
		for (i = 0; i < m->buffers[b].nr_cpus; i++)
			if (m->buffers[b].cpus[i].size &&
			    !first_chunk_ok(c, m->buffers[b].cpus[i].offset, m->compression, m))
				return gt_error_set(err, EIO, "%s is truncated or damaged in CPU %u's compressed data; record it again",
						    path, m->buffers[b].cpus[i].cpu);
	return 0;
}

int dat_meta_inflates_too_much(const struct dat_meta *m, const char *path, struct gt_error *err)
{
	uint64_t budget = dat_memory_budget(m->file_size);

	if (m->plain_total <= budget)
		return 0;
	return gt_error_set(err, EFBIG, "%s would hold %llu MB decompressed through libtracecmd (it keeps every chunk), past the %llu MB gpu-trace allows a %llu KB file; convert it first: trace-cmd convert --file-version 6",
			    path, (unsigned long long)(m->plain_total >> 20), (unsigned long long)(budget >> 20),
			    (unsigned long long)(m->file_size >> 10));
}

/*
 * An options section with the compressed flag: u32 compressed size, u32
 * size, the frame. Read through a memfd cursor, so the options are parsed
 * as any others; an option skipped in it (a misfit id) cannot be masked in
 * place (dat-masked.h), so it is marked at UINT64_MAX.
 */
#define MAX_OPTIONS_SECTION (16u << 20)

static int parse_compressed_options(struct cursor *c, struct dat_meta *m, uint64_t size,
				    uint64_t *next, struct gt_error *err, const char *path)
{
	uint32_t zsize, plain_size;
	void *packed = NULL, *plain = NULL;
	int before = m->nr_skipped, fd = -1, i, ret = -1;

	if (strcmp(m->compression, "zstd"))
		return gt_error_set(err, ENOTSUP, "%s has options compressed with %s; gpu-trace reads zstd: convert it with trace-cmd convert --compression zstd",
				    path, m->compression);
	zsize = (uint32_t)get_u(c, 4);
	plain_size = (uint32_t)get_u(c, 4);
	if (c->bad || size < 8 || zsize > size - 8 || !plain_size || plain_size > MAX_OPTIONS_SECTION)
		return gt_error_set(err, EIO, "%s is damaged in a compressed options section (%u bytes claimed); record it again",
				    path, plain_size);
	packed = malloc(zsize ? zsize : 1);
	plain = malloc(plain_size);
	if (!packed || !plain) {
		gt_error_set(err, ENOMEM, "out of memory");
		goto out;
	}
	get(c, packed, zsize);
	if (c->bad || ZSTD_decompress(plain, plain_size, packed, zsize) != plain_size) {
		gt_error_set(err, EIO, "%s is damaged: a compressed options section does not decompress; record it again",
			     path);
		goto out;
	}
	fd = memfd_create("gpu-trace-options", MFD_CLOEXEC);
	if (fd < 0 || pwrite(fd, plain, plain_size, 0) != (ssize_t)plain_size) {
		gt_error_set(err, errno ? errno : EIO, "cannot read a compressed options section of %s: %s",
			     path, strerror(errno ? errno : EIO));
		goto out;
	}
	{
		struct cursor in = { .fd = fd, .size = plain_size };

		parse_options(&in, m, plain_size, true, next);
		if (in.bad) {
			gt_error_set(err, EIO, "%s is truncated inside a compressed options section; record it again",
				     path);
			goto out;
		}
	}
	for (i = before; i < m->nr_skipped; i++)
		m->skipped[i].at = UINT64_MAX;
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(packed);
	free(plain);
	return ret;
}

#define MAX_OPTIONS_SECTIONS 64
#define MAX_SECTIONS 65536

/*
 * libtracecmd 3.1.6 finds the strings section by walking every section
 * from the end of the header: each 16-byte header, then lseek(size,
 * SEEK_CUR). A size of 2^63 or more is an off_t below 0, a step back, and
 * the walk never ends (fuzz-report: 60 s, until the probe child's alarm).
 */
static bool section_walk_ends(struct cursor *c, uint64_t pos)
{
	int n;

	for (n = 0; pos <= c->size && c->size - pos >= 16; n++) {
		uint64_t size;

		if (n == MAX_SECTIONS)
			return false;
		c->pos = pos + 8;
		size = get_u(c, 8);
		if (c->bad || size >= (1ULL << 63))
			return false;
		pos += 16 + size;
	}
	return true;
}

/* v7 stored plain: each buffer's CPUs' pages (c->every_page: all, or each CPU's first) */
static int v7_plain_pages_bad(struct cursor *c, const struct dat_meta *m, const char *path,
			      struct gt_error *err)
{
	int b, i;

	for (b = 0; b < m->nr_buffers; b++)
		for (i = 0; i < m->buffers[b].nr_cpus; i++) {
			uint64_t bad = bad_page(c, m->buffers[b].cpus[i].offset,
						m->buffers[b].cpus[i].size, m);

			if (bad)
				return gt_error_set(err, EIO, "%s is damaged: CPU %u's page at byte %llu claims more data than a page holds, or its events run past it; record it again",
						    path, m->buffers[b].cpus[i].cpu, (unsigned long long)bad);
		}
	return 0;
}

static int read_v7(struct cursor *c, struct dat_meta *m, struct gt_error *err,
		   const char *path)
{
	uint64_t next, seen[MAX_OPTIONS_SECTIONS];
	char version[32];
	int sections = 0, i;

	get_str(c, m->compression, sizeof(m->compression));
	get_str(c, version, sizeof(version));
	next = get_u(c, 8);
	if (!c->bad && !section_walk_ends(c, c->pos))
		return gt_error_set(err, EIO, "%s is damaged: a section claims a size that steps back (or more than %d sections), where libtracecmd would read for ever; record it again",
				    path, MAX_SECTIONS);
	while (next && !c->bad) {
		uint16_t id, flags;
		uint32_t name;
		uint64_t size;

		/* libtracecmd follows the chain for ever: a loop in it is a hang */
		for (i = 0; i < sections; i++)
			if (seen[i] == next)
				return gt_error_set(err, EIO, "%s is damaged: its options sections point back to the one at byte %llu, in a loop; record it again",
						    path, (unsigned long long)next);
		if (sections == MAX_OPTIONS_SECTIONS)
			return gt_error_set(err, EIO, "%s chains more than %d options sections (damaged, or made to exhaust a reader); record it again",
					    path, MAX_OPTIONS_SECTIONS);
		seen[sections++] = next;
		c->pos = next;
		if (next >= c->size) {
			c->bad = true;
			break;
		}
		id = (uint16_t)get_u(c, 2);
		flags = (uint16_t)get_u(c, 2);
		name = (uint32_t)get_u(c, 4);
		size = get_u(c, 8);
		if (!c->bad && !section_name_ok(m, name))
			return gt_error_set(err, EIO, "%s is damaged: the options section at byte %llu names string %u, past the file's %llu bytes of strings; record it again",
					    path, (unsigned long long)next, name,
					    (unsigned long long)m->strings_size);
		if (id != 0)
			break;
		/* libtracecmd reads its options whatever the size says */
		if (!c->bad && size > c->size - c->pos)
			return gt_error_set(err, EIO, "%s is damaged: the options section at byte %llu claims %llu bytes, past the end of the file; record it again",
					    path, (unsigned long long)next, (unsigned long long)size);
		if (!(flags & 1)) {
			parse_options(c, m, c->pos + size, true, &next);
			continue;
		}
		/* compressed: read all the same, or every check below is skipped */
		if (parse_compressed_options(c, m, size, &next, err, path))
			return -1;
	}
	if (c->bad)
		return gt_error_set(err, EIO, "%s is truncated inside its options; record it again", path);
	if (m->nr_cpus < 0 || m->nr_cpus > DAT_MAX_CPUS)
		return gt_error_set(err, ENOTSUP, "%s claims %d CPUs; gpu-trace reads recordings of at most %d (damaged, or record fewer CPUs)",
				    path, m->nr_cpus, DAT_MAX_CPUS);
	if (check_sections(c, m))
		return gt_error_set(err, EIO, "%s is truncated or damaged in a metadata section; record it again",
				    path);
	/* compressed data may run 4 bytes past its size (walk_chunks()): as far as it may */
	for (i = 0; i < m->nr_buffers; i++)
		for (int k = 0; k < m->buffers[i].nr_cpus; k++)
			add_range(c, i, (int)m->buffers[i].cpus[k].cpu, m->buffers[i].cpus[k].offset,
				  m->buffers[i].cpus[k].size +
				  (m->buffers[i].cpus[k].size && strcmp(m->compression, "none") &&
				   m->compression[0] ? 4 : 0));
	if (c->ranges && ranges_overlap(c->ranges, path, err))
		return -1;
	if (strcmp(m->compression, "none") && m->compression[0])
		return check_chunks(c, m, err, path);
	return v7_plain_pages_bad(c, m, path, err);
}

/* The chunk at c->pos decompressed (into *plain, reused) and every page in it checked. */
static bool chunk_pages_ok(struct cursor *c, uint32_t page_size, int long_size,
			   unsigned char **plain, unsigned char **packed)
{
	uint32_t zsize = (uint32_t)get_u(c, 4), size = (uint32_t)get_u(c, 4), i;

	if (c->bad || !size || size % page_size || size > DAT_MAX_CHUNK_PAGES * page_size ||
	    zsize > c->size - c->pos)
		return false;
	free(*plain);
	free(*packed);
	*plain = malloc(size);
	*packed = malloc(zsize ? zsize : 1);
	if (!*plain || !*packed)
		return false;
	get(c, *packed, zsize);
	if (c->bad || ZSTD_decompress(*plain, size, *packed, zsize) != size)
		return false;
	for (i = 0; i < size; i += page_size)
		if (!dat_page_fits(*plain + i, page_size, long_size))
			return false;
	return true;
}

static int check_compressed_pages(int fd, const char *path, const struct dat_meta *m,
				    struct gt_error *err)
{
	struct cursor c = { .fd = fd, .size = m->file_size };
	unsigned char *plain = NULL, *packed = NULL;
	int b, i, ret = 0;

	if (m->version != 7 || strcmp(m->compression, "zstd"))
		return 0;
	for (b = 0; b < m->nr_buffers && !ret; b++) {
		const struct dat_buffer_data *buf = &m->buffers[b];

		for (i = 0; i < buf->nr_cpus && !ret; i++) {
			uint32_t count, n;

			if (!buf->cpus[i].size)
				continue;
			c.pos = buf->cpus[i].offset;
			count = (uint32_t)get_u(&c, 4);
			for (n = 0; n < count && !ret; n++)
				if (!chunk_pages_ok(&c, buf->page_size, m->long_size, &plain, &packed))
					ret = gt_error_set(err, EIO, "%s is damaged in CPU %u's compressed data (a chunk that does not decompress whole, or a page that claims more than a page holds); record it again",
							   path, buf->cpus[i].cpu);
		}
	}
	free(plain);
	free(packed);
	return ret;
}

int dat_meta_check_pages(int fd, const char *path, const struct dat_meta *m, struct gt_error *err)
{
	struct cursor c = { .fd = fd, .size = m->file_size, .every_page = true };

	if (m->version == 6)
		return v6_pages_bad(&c, m, path, err);
	if (strcmp(m->compression, "none") && m->compression[0])
		return check_compressed_pages(fd, path, m, err);
	return v7_plain_pages_bad(&c, m, path, err);
}

const char *dat_meta_instance_name(const struct dat_meta *m, int k)
{
	int b, named = 0;

	if (k <= 0)
		return "";
	if (m->version == 6)
		return k <= m->nr_v6_instances ? m->v6_instance_names[k - 1] : "";
	for (b = 0; b < m->nr_buffers; b++)
		if (m->buffers[b].name[0] && ++named == k)
			return m->buffers[b].name;
	return "";
}

int dat_meta_instances_read(const struct dat_meta *m)
{
	int b, named = 0;

	if (m->version == 6)
		return m->nr_v6_instances;
	for (b = 0; b < m->nr_buffers; b++)
		named += m->buffers[b].name[0] != '\0';
	return named;
}

int dat_meta_instances_named(const struct dat_meta *m)
{
	return dat_meta_instances_read(m) + (m->version == 6 ? m->v6_instances_absent : 0);
}

int dat_meta_read(const char *path, struct dat_meta *m, struct gt_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0) {
		memset(m, 0, sizeof(*m));
		return gt_error_set(err, errno, "cannot open %s: %s", path, strerror(errno));
	}
	ret = dat_meta_read_fd(fd, path, m, err);
	close(fd);
	return ret;
}

int dat_meta_read_fd(int fd, const char *path, struct dat_meta *m, struct gt_error *err)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cpu_ranges ranges = { 0 };
	struct cursor c = { .fd = fd, .ranges = &ranges };
	unsigned char head[10];
	char version[8];
	struct stat st;
	int ret, i;

	memset(m, 0, sizeof(*m));
	if (fstat(c.fd, &st) || !S_ISREG(st.st_mode))
		return gt_error_set(err, EINVAL, "%s is not a regular file; give a .dat file", path);
	c.size = m->file_size = (uint64_t)st.st_size;
	get(&c, head, sizeof(head));
	if (c.bad || memcmp(head, magic, sizeof(magic)))
		return gt_error_set(err, EINVAL, "%s is not a trace-cmd .dat file (no tracing magic); record one with gpu-trace record",
				    path);
	get_str(&c, version, sizeof(version));
	m->version = atoi(version);
	if (get_u(&c, 1) != 0)
		return gt_error_set(err, ENOTSUP, "%s is big-endian; read it on a big-endian machine with trace-cmd", path);
	m->long_size = (int)get_u(&c, 1);
	m->page_size = (uint32_t)get_u(&c, 4);
	if (!page_size_ok(m->page_size))
		return gt_error_set(err, EIO, "%s is damaged: its page size %u is not a power of two from 4 KB to 16 MB; record it again",
				    path, m->page_size);
	if (m->version == 6)
		ret = read_v6(&c, m, err, path);
	else if (m->version == 7)
		ret = read_v7(&c, m, err, path);
	else
		ret = gt_error_set(err, ENOTSUP, "%s is .dat version %s; gpu-trace reads versions 6 and 7",
				   path, version);
	free(ranges.r);
	if (!ret && m->unread_buffers)
		ret = gt_error_set(err, ENOTSUP, "%s has %d buffer%s gpu-trace cannot check (damaged, over %d CPUs or over %d buffers); record it again",
				   path, m->unread_buffers, m->unread_buffers == 1 ? "" : "s",
				   DAT_MAX_CPUS, DAT_META_MAX_BUFFERS);
	for (i = 0; !ret && i < m->nr_buffers; i++)
		if (!page_size_ok(m->buffers[i].page_size))
			ret = gt_error_set(err, EIO, "%s is damaged: buffer '%s' has a page size of %u, not a power of two from 4 KB to 16 MB; record it again",
					   path, m->buffers[i].name, m->buffers[i].page_size);
	return ret;
}

uint64_t dat_meta_cpu_bytes(const struct dat_meta *m, int cpu)
{
	int b, i;

	if (m->version == 6)
		return cpu >= 0 && cpu < DAT_META_MAX_CPUS ? m->v6_cpu_bytes[cpu] : 0;
	for (b = 0; b < m->nr_buffers; b++) {
		if (m->buffers[b].name[0])
			continue;
		for (i = 0; i < m->buffers[b].nr_cpus; i++)
			if ((int)m->buffers[b].cpus[i].cpu == cpu)
				return m->buffers[b].cpus[i].size;
	}
	return 0;
}
