// SPDX-License-Identifier: GPL-2.0
/*
 * A pass over an opened file, every record in time order: by our own reader (dat-stream,
 * on a second thread where report has one: record-pipe), else by libtracecmd's iterator,
 * whose silent stops and out-of-order records are found here. Each record goes through
 * analysis_record() (analysis.c); nothing there calls back in here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis-private.h"
#include "analysis/record-pipe.h"
#include "util/file-io.h"

/*
 * libtracecmd's pass: a record stamped before its CPU's previous one is
 * damage, set aside as dat-stream sets it aside (a page stamped back, or
 * deltas that wrap past 2^64), and counted as lost before the CPU's next.
 */
static bool out_of_order(struct analysis *a, int i, struct tep_record *rec, int cpu)
{
	struct cpu_order *o;

	if (i == a->nr_handles || cpu < 0 || cpu >= ANALYSIS_MAX_CPUS)
		return false;
	if (!a->order)
		a->order = calloc((size_t)ANALYSIS_MAX_HANDLES * ANALYSIS_MAX_CPUS, sizeof(*a->order));
	if (!a->order)
		return false;
	o = &a->order[i * ANALYSIS_MAX_CPUS + cpu];
	if (rec->ts < o->last_ts) {
		if (!a->totals.damage.records) {
			a->totals.damage.cpu = cpu;
			a->totals.damage.from_ts = o->last_ts;
			a->totals.damage.to_ts = rec->ts;
		}
		a->totals.damage.records++;
		o->set_aside++;
		return true;
	}
	o->last_ts = rec->ts;
	if (o->set_aside && rec->missed_events >= 0)
		rec->missed_events += (long long)o->set_aside;
	o->set_aside = 0;
	return false;
}

/* The top buffer's data of one CPU, where it lies uncompressed in the file */
static bool raw_cpu_data(const struct dat_meta *m, int cpu, uint64_t *off, uint64_t *size)
{
	int b, i;

	if (m->version == 6) {
		if (cpu >= m->nr_cpus || cpu >= DAT_META_MAX_CPUS)
			return false;
		*off = m->v6_cpu_offset[cpu];
		*size = m->v6_cpu_bytes[cpu];
		return true;
	}
	if (m->compression[0] && strcmp(m->compression, "none"))
		return false;
	for (b = 0; b < m->nr_buffers; b++)
		for (i = 0; !m->buffers[b].name[0] && i < m->buffers[b].nr_cpus; i++)
			if ((int)m->buffers[b].cpus[i].cpu == cpu) {
				*off = m->buffers[b].cpus[i].offset;
				*size = m->buffers[b].cpus[i].size;
				return true;
			}
	return false;
}

/*
 * libtracecmd reads a page of nothing but zeros (no time, no data: no writer
 * leaves one; a damaged copy does) as an empty one, and the records it held
 * are gone without a word. As dat-stream does, the top buffer's pages
 * between a CPU's previous record and this one (where its data lies plain in
 * the file) are looked at: each zeroed one is counted as damage, and this
 * record says missed_events -1, events lost in unknown number. Each page's
 * header is read once in the pass.
 */
static void zeroed_before(struct analysis *a, struct tep_record *rec, int cpu)
{
	const struct dat_meta *m = a->meta;
	struct page_run *r = &a->runs[cpu];
	uint64_t off, size, page, zeroed = 0;

	/* most records: on the page the CPU's last one was, looked at already */
	if (r->scanned_to > rec->offset)
		return;
	if (a->scan_fd < 0 || !m || !m->page_size || !raw_cpu_data(m, cpu, &off, &size) ||
	    rec->offset < off || rec->offset >= off + size)
		return;
	page = off + (rec->offset - off) / m->page_size * m->page_size;
	if (r->scanned_to < off)
		r->scanned_to = off;
	for (; r->scanned_to < page; r->scanned_to += m->page_size) {
		unsigned char head[16];
		uint64_t ts, commit = 0;

		if (read_all_at(a->scan_fd, head, sizeof(head), r->scanned_to))
			return;
		memcpy(&ts, head, 8);
		memcpy(&commit, head + 8, (size_t)(m->long_size == 4 ? 4 : 8));
		zeroed += !ts && !(commit & ((1u << 27) - 1));
	}
	r->scanned_to = page + m->page_size;
	if (!zeroed)
		return;
	if (!a->totals.damage.zeroed_pages) {
		a->totals.damage.zeroed_cpu = cpu;
		/* the CPU's time before it: its previous record's, 0 at its start */
		a->totals.damage.zeroed_after_ts = a->order ? a->order[cpu].last_ts : 0;
	}
	a->totals.damage.zeroed_pages += zeroed;
	a->totals.damage.zeroed_cpus += !r->had_zeroed;
	r->had_zeroed = true;
	rec->missed_events = -1;
}

static int each_record(struct tracecmd_input *h, struct tep_record *rec, int cpu,
		       void *data)
{
	struct analysis *a = data;
	int buffer;

	/* handles[k] is the k-th instance read, as the stream numbers its buffers */
	for (buffer = 0; buffer < a->nr_handles && a->handles[buffer] != h; buffer++)
		;
	if (h == a->handles[0] && cpu >= 0 && cpu < ANALYSIS_MAX_CPUS) {
		a->runs[cpu].read_to = rec->offset + 1;
		zeroed_before(a, rec, cpu);
	}
	if (out_of_order(a, buffer, rec, cpu))
		return 0;
	return analysis_record_of(a, rec, buffer < a->nr_handles ? buffer : 0);
}

/*
 * libtracecmd 3.1.6 stops reading a CPU at a page it cannot read and says
 * nothing: the rest of that CPU is gone from the report, which said "lost
 * none". After its pass, every page of a CPU's data past the last record
 * read must be empty; one that is not is where reading stopped.
 */
static int check_read_whole(struct analysis *a, struct gt_error *err)
{
	const struct dat_meta *m = a->meta;
	int fd, cpu, ret = 0;

	if (!m || !m->page_size)
		return 0;
	fd = open(a->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (cpu = 0; cpu < ANALYSIS_MAX_CPUS && !ret; cpu++) {
		uint64_t off, size, at, read_to = a->runs[cpu].read_to;

		if (!raw_cpu_data(m, cpu, &off, &size) || !size)
			continue;
		at = read_to > off ? off + (read_to - 1 - off) / m->page_size * m->page_size +
				     m->page_size : off;
		for (; at + 16 <= off + size; at += m->page_size) {
			unsigned char head[16];
			uint64_t commit = 0;

			if (pread(fd, head, sizeof(head), (off_t)at) != (ssize_t)sizeof(head))
				break;
			memcpy(&commit, head + 8, (size_t)(m->long_size == 4 ? 4 : 8));
			if (!(commit & ((1u << 27) - 1)))
				continue;
			ret = gt_error_set(err, EIO,
					   "CPU %d's records stop at a damaged page: from byte %llu on (page %llu of %llu, %llu bytes) none was read; the file is damaged",
					   cpu, (unsigned long long)at,
					   (unsigned long long)((at - off) / m->page_size + 1),
					   (unsigned long long)(size / m->page_size),
					   (unsigned long long)(off + size - at));
		}
	}
	close(fd);
	return ret;
}

static int run_stream(struct analysis *a, struct gt_error *err)
{
	struct gt_error e = { 0 };
	struct tep_record *rec;

	while ((rec = dat_stream_next(a->stream, &e)))
		if (analysis_record_of(a, rec, dat_stream_last_buffer(a->stream)) < 0)
			return 0;	/* a hook asked to stop */
	analysis_finish(a);
	if (e.errnum)
		return gt_error_set(err, EIO, "reading the records failed after %llu records: %s; the file may be damaged",
				    (unsigned long long)a->totals.records, e.msg);
	return 0;
}

int analysis_run(struct analysis *a, struct gt_error *err)
{
	int ret;

	if (a->stream && !a->hooks.one_thread && record_pipe_inflate_worth_it())
		dat_stream_inflate_ahead(a->stream);
	if (a->stream && !a->hooks.one_thread && record_pipe_worth_it()) {
		struct gt_error e = { 0 };

		ret = record_pipe_run(a, &e);
		if (!ret || e.errnum != EAGAIN) {
			if (ret)
				*err = e;
			return ret;
		}
	}
	if (a->stream)
		return run_stream(a, err);
	/* the file opened (its pages' offsets are a masked copy's too), else its path */
	a->scan_fd = a->file_fd >= 0 ? fcntl(a->file_fd, F_DUPFD_CLOEXEC, 0) :
		     open(a->path, O_RDONLY | O_CLOEXEC);
	if (a->nr_handles == 1)
		ret = tracecmd_iterate_events(a->handles[0], NULL, 0, each_record, a);
	else
		ret = tracecmd_iterate_events_multi(a->handles, a->nr_handles, each_record, a);
	if (a->scan_fd >= 0)
		close(a->scan_fd);
	a->scan_fd = -1;
	analysis_finish(a);
	if (ret < 0 && !a->stopped)
		return gt_error_set(err, EIO, "reading the records failed after %llu records; the file may be damaged",
				    (unsigned long long)a->totals.records);
	/* a hook that stopped the pass early read less on purpose */
	if (ret >= 0 && check_read_whole(a, err))
		return -1;
	return 0;
}
