// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "capture/dat-writer.h"
#include "util/file-io.h"

/* Metadata is built in memory (kallsyms dominates: a few MB), then written. */
struct dbuf {
	char *data;
	size_t len, cap;
	int failed;
};

static void put(struct dbuf *b, const void *p, size_t n)
{
	if (b->failed || !n)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 1 << 16;
		char *d;

		while (cap < b->len + n)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d) {
			b->failed = 1;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void put_u16(struct dbuf *b, uint16_t v) { put(b, &v, sizeof(v)); }
static void put_u32(struct dbuf *b, uint32_t v) { put(b, &v, sizeof(v)); }
static void put_u64(struct dbuf *b, uint64_t v) { put(b, &v, sizeof(v)); }
static void put_str(struct dbuf *b, const char *s) { put(b, s, strlen(s) + 1); }

static void put_sized64(struct dbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u64(b, n);
	put(b, s, n);
}

static void put_sized32(struct dbuf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u32(b, (uint32_t)n);
	put(b, s, n);
}

static void put_option(struct dbuf *b, uint16_t id, const void *data, uint32_t n)
{
	put_u16(b, id);
	put_u32(b, n);
	put(b, data, n);
}

int dat_event_system_load(struct dat_event_system *sys, const char *name)
{
	char **events = tracefs_system_events(NULL, name);
	int i, n = 0;

	memset(sys, 0, sizeof(*sys));
	sys->name = strdup(name);
	for (i = 0; events && events[i]; i++)
		n++;
	sys->formats = calloc((size_t)n + 1, sizeof(char *));
	if (!sys->name || !sys->formats) {
		tracefs_list_free(events);
		dat_event_system_free(sys);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		char *fmt = tracefs_event_file_read(NULL, name, events[i], "format", NULL);

		if (fmt)
			sys->formats[sys->nr_formats++] = fmt;
	}
	tracefs_list_free(events);
	return 0;
}

void dat_event_system_free(struct dat_event_system *sys)
{
	int i;

	for (i = 0; sys->formats && i < sys->nr_formats; i++)
		free(sys->formats[i]);
	free(sys->formats);
	free(sys->name);
	memset(sys, 0, sizeof(*sys));
}

static void put_formats(struct dbuf *b, const struct dat_event_system *sys)
{
	int i;

	put_u32(b, sys ? (uint32_t)sys->nr_formats : 0);
	for (i = 0; sys && i < sys->nr_formats; i++)
		put_sized64(b, sys->formats[i]);
}

static void put_cpu_stats(struct dbuf *b, char *const *stats, int nr_cpus)
{
	int cpu;

	for (cpu = 0; stats && cpu < nr_cpus; cpu++) {
		char *text;
		int n = asprintf(&text, "CPU: %d\n%s", cpu, stats[cpu] ? stats[cpu] : "");

		if (n < 0) {
			b->failed = 1;
			return;
		}
		put_option(b, DAT_OPT_CPUSTAT, text, (uint32_t)n + 1);
		free(text);
	}
}

/*
 * As trace-cmd writes them: each instance's BUFFER option (the offset of
 * its flyrecord, patched in later) followed by that instance's CPU stats.
 * Returns where each offset goes in `b`.
 */
static void put_options(struct dbuf *b, const struct dat_input *in, size_t *buffer_offset_at)
{
	uint32_t ncpus = (uint32_t)in->nr_cpus;
	bool cpucount = true;
	int i;

	put(b, "options  ", 10);
	if (in->trace_clock)
		put_option(b, DAT_OPT_TRACECLOCK, in->trace_clock,
			   in->clock_option_empty ? 0 : (uint32_t)strlen(in->trace_clock) + 1);
	if (in->uname)
		put_option(b, DAT_OPT_UNAME, in->uname, (uint32_t)strlen(in->uname) + 1);
	if (in->version)
		put_option(b, DAT_OPT_VERSION, in->version,
			   (uint32_t)strlen(in->version) + 1);
	for (i = 0; i < in->nr_raw_options; i++) {
		put_option(b, in->raw_options[i].id, in->raw_options[i].data, in->raw_options[i].size);
		if (in->raw_options[i].id == DAT_OPT_CPUCOUNT)
			cpucount = false;
	}
	if (cpucount)
		put_option(b, DAT_OPT_CPUCOUNT, &ncpus, sizeof(ncpus));
	put_cpu_stats(b, in->cpu_stats, in->nr_cpus);
	for (i = 0; i < in->nr_late_options; i++)
		put_option(b, in->late_options[i].id, in->late_options[i].data, in->late_options[i].size);
	for (i = 0; i < in->nr_instances; i++) {
		const char *name = in->instances[i].name;
		size_t n = strlen(name) + 1;

		put_u16(b, DAT_OPT_BUFFER);
		put_u32(b, (uint32_t)(8 + n));
		buffer_offset_at[i] = b->len;
		put_u64(b, 0);
		put(b, name, n);
		put_cpu_stats(b, in->instances[i].cpu_stats, in->nr_cpus);
	}
	put_u16(b, DAT_OPT_DONE);
}

static uint64_t page_align(uint64_t off, int page_size)
{
	return (off + (uint64_t)page_size - 1) / (uint64_t)page_size * (uint64_t)page_size;
}

#define COPY_CHUNK	(1 << 20)

static int copy_range(int out_fd, int in_fd, off_t in_off, size_t len)
{
	while (len) {
		ssize_t n = copy_file_range(in_fd, &in_off, out_fd, NULL, len, 0);

		if (n > 0) {
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || errno == EXDEV || errno == ENOSYS || errno == EOPNOTSUPP ||
		    errno == EINVAL) {
			/* no copy_file_range between these filesystems */
			char buf[1 << 16];

			while (len) {
				ssize_t r = pread(in_fd, buf, len < sizeof(buf) ? len : sizeof(buf), in_off);

				if (r <= 0 || write_all(out_fd, buf, (size_t)r))
					return r == 0 ? (errno = EIO, -1) : -1;
				in_off += r;
				len -= (size_t)r;
			}
			return 0;
		}
		return -1;
	}
	return 0;
}

static int copy_cpu(int out_fd, int in_fd, off_t size, bool consume)
{
	off_t off;

	for (off = 0; off < size; off += COPY_CHUNK) {
		size_t len = (size_t)(size - off) < COPY_CHUNK ? (size_t)(size - off) : COPY_CHUNK;

		if (copy_range(out_fd, in_fd, off, len))
			return -1;
		if (consume)
			fallocate(in_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, (off_t)len);
	}
	return 0;
}

/*
 * "flyrecord", a per-CPU (offset, size) table filled in by place_cpus(),
 * and the clock between brackets, which v6 readers take from here.
 */
static size_t put_flyrecord(struct dbuf *b, int nr_cpus, const char *trace_clock)
{
	char *clock = dat_clock_name(trace_clock);
	size_t table_at;
	int i;

	put(b, "flyrecord", 10);
	table_at = b->len;
	for (i = 0; i < nr_cpus; i++) {
		put_u64(b, 0);
		put_u64(b, 0);
	}
	if (clock) {
		char bracketed[80];

		snprintf(bracketed, sizeof(bracketed), "[%s]", clock);
		put_u64(b, strlen(bracketed));
		put(b, bracketed, strlen(bracketed));
		free(clock);
	}
	return table_at;
}

/* Readers mmap each CPU's data: it starts on a page boundary after `off`. */
static uint64_t place_cpus(struct dbuf *b, size_t table_at, uint64_t off,
			   const struct dat_input *in, const off_t *sizes)
{
	int i;

	for (i = 0; i < in->nr_cpus && !b->failed; i++) {
		uint64_t start = page_align(off, in->page_size);
		uint64_t size = (uint64_t)sizes[i];

		memcpy(b->data + table_at + (size_t)i * 16, &start, 8);
		memcpy(b->data + table_at + (size_t)i * 16 + 8, &size, 8);
		off = start + size;
	}
	return off;
}

static int write_cpus(int out_fd, uint64_t off, const struct dat_input *in,
		      const int *fds, const off_t *sizes)
{
	int i;

	for (i = 0; i < in->nr_cpus; i++) {
		uint64_t start = page_align(off, in->page_size);

		if (ftruncate(out_fd, (off_t)start) || lseek(out_fd, (off_t)start, SEEK_SET) < 0)
			return -1;
		if (copy_cpu(out_fd, fds[i], sizes[i], in->consume_cpu_files))
			return -1;
		off = start + (uint64_t)sizes[i];
	}
	return 0;
}


int dat_write_v6(int out_fd, const struct dat_input *in, struct gt_error *err)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	size_t buffer_offset_at[DAT_MAX_INSTANCES], table_at, inst_table_at[DAT_MAX_INSTANCES];
	struct dbuf inst[DAT_MAX_INSTANCES] = { 0 };
	uint16_t endian_test = 1;
	struct dbuf b = { 0 };
	uint64_t off, at[DAT_MAX_INSTANCES];
	int i, ret = -1;

	if (in->nr_instances > DAT_MAX_INSTANCES)
		return gt_error_set(err, EINVAL, "%d buffer instances; the writer takes %d at most",
				    in->nr_instances, DAT_MAX_INSTANCES);
	put(&b, magic, sizeof(magic));
	put_str(&b, "6");
	put(&b, (*(char *)&endian_test) ? "\0" : "\1", 1);
	put(&b, (char[]){ (char)sizeof(long) }, 1);
	put_u32(&b, (uint32_t)in->page_size);

	put_str(&b, "header_page");
	put_sized64(&b, in->header_page);
	put_str(&b, "header_event");
	put_sized64(&b, in->header_event);

	/* ftrace's own events (print, function, funcgraph_*) */
	put_formats(&b, in->ftrace);
	put_u32(&b, (uint32_t)in->nr_systems);
	for (i = 0; i < in->nr_systems; i++) {
		put_str(&b, in->systems[i].name);
		put_formats(&b, &in->systems[i]);
	}

	put_sized32(&b, in->kallsyms);
	put_sized32(&b, in->printk_formats);
	put_sized64(&b, in->cmdlines);

	put_u32(&b, (uint32_t)in->nr_cpus);
	put_options(&b, in, buffer_offset_at);
	table_at = put_flyrecord(&b, in->nr_cpus, in->trace_clock);

	/* offsets are known once the metadata's length is */
	off = place_cpus(&b, table_at, b.len, in, in->cpu_sizes);
	for (i = 0; i < in->nr_instances; i++) {
		at[i] = off;
		inst_table_at[i] = put_flyrecord(&inst[i], in->nr_cpus, in->trace_clock);
		if (!b.failed && !inst[i].failed)
			memcpy(b.data + buffer_offset_at[i], &at[i], 8);
		off = place_cpus(&inst[i], inst_table_at[i], off + inst[i].len, in,
				 in->instances[i].cpu_sizes);
		if (inst[i].failed)
			b.failed = 1;
	}
	if (b.failed) {
		gt_error_set(err, ENOMEM, "out of memory building the .dat header");
		goto out;
	}

	if (write_all(out_fd, b.data, b.len) ||
	    write_cpus(out_fd, b.len, in, in->cpu_fds, in->cpu_sizes))
		goto io_error;
	for (i = 0; i < in->nr_instances; i++) {
		if (ftruncate(out_fd, (off_t)at[i]) || lseek(out_fd, (off_t)at[i], SEEK_SET) < 0 ||
		    write_all(out_fd, inst[i].data, inst[i].len) ||
		    write_cpus(out_fd, at[i] + inst[i].len, in, in->instances[i].cpu_fds,
			       in->instances[i].cpu_sizes))
			goto io_error;
	}
	/* drop blocks reserved beyond the end (outfile_reserve) */
	if (ftruncate(out_fd, (off_t)off))
		goto io_error;
	ret = 0;
	goto out;
io_error:
	gt_error_set(err, errno, "writing the trace file failed: %s", strerror(errno));
out:
	free(b.data);
	for (i = 0; i < in->nr_instances; i++)
		free(inst[i].data);
	return ret;
}
