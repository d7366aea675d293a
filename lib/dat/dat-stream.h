/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_STREAM_H
#define GT_DAT_STREAM_H

#include <event-parse.h>
#include <stdint.h>

#include "dat/dat-meta.h"

#include "util/gt-error.h"

/*
 * The records of a trace-cmd file (v6, or v7 stored plain or with zstd), in
 * time order across CPUs and buffer instances, each CPU's pages parsed in
 * place one block (or one zstd chunk) at a time, so memory stays flat
 * however large the file. libtracecmd 3.1.6 as Debian builds it keeps every
 * zstd chunk it has read (free_zpage() tests the page address against its
 * chunk the wrong way round and never frees one: 519 MB on a 640k-job
 * recording) and maps a v6 file's pages as it goes; its iterator alone takes
 * a quarter of report's time (BENCHMARKS.md).
 *
 * Streams only what it reads exactly as libtracecmd would: no timestamp
 * adjustment options, a 64-bit kernel's pages, every buffer read by
 * dat-meta. Anything else returns NULL with err's errnum ENOTSUP, and the
 * caller reads the file through libtracecmd.
 */
struct dat_stream;

/**
 * dat_stream_open - a .dat read record by record in time order, pages parsed in place; NULL
 * with @err set. @m: what dat_meta_read() read of this file, or NULL to read it here (it
 * reads every page's header: a second time on a large file is noticeable).
 */
struct dat_stream *dat_stream_open(const char *path, const struct dat_meta *m,
				   struct gt_error *err);
/**
 * dat_stream_next - the next record, valid until the next call; NULL at the end (or on damage:
 * see err).
 */
struct tep_record *dat_stream_next(struct dat_stream *s, struct gt_error *err);
/*
 * Records set aside as damage: a CPU's time that steps back (a page stamped
 * before the one ahead of it, or records whose deltas wrap past 2^64), or a
 * page stamped later than the page after it. Each reads as events lost before
 * the CPU's next record (its missed_events), so the jobs then in flight are
 * flagged as after any loss; none of them is handed out.
 */
struct dat_stream_damage {
	uint64_t records;		/* set aside in all */
	int cpu;			/* the first: its CPU, */
	uint64_t from_ts, to_ts;	/* the time before it and the time it stepped to */
	/*
	 * Pages of nothing but zeros (no time, no data) with records after them:
	 * no writer leaves one, so what they held is lost, in unknown number
	 * (the next record says missed_events -1). The first one's CPU, and that
	 * CPU's time before it (0: at its start).
	 */
	uint64_t zeroed_pages;
	int zeroed_cpus;		/* the CPUs (of each buffer) they were found amid */
	int zeroed_cpu;
	uint64_t zeroed_after_ts;
};

/**
 * dat_stream_last_buffer - the buffer of the record dat_stream_next() handed out last: 0 the
 * top buffer, k the k-th buffer instance read (dat_meta_instance_name() names it)
 */
int dat_stream_last_buffer(const struct dat_stream *s);
/** dat_stream_damage - what the stream set aside so far (records 0: nothing) */
const struct dat_stream_damage *dat_stream_damage(const struct dat_stream *s);

/**
 * dat_stream_inflate_ahead - from here on the zstd chunks are decompressed on a thread of their
 * own, ahead of dat_stream_next(): worth it only with a CPU free for it. 1 when they are; 0 when
 * there is nothing to decompress, the CPUs' shares cannot hold the chunks ahead, or no thread
 * starts (the stream decompresses them itself, as before).
 */
int dat_stream_inflate_ahead(struct dat_stream *s);
/** dat_stream_close - the file closed and the stream freed */
void dat_stream_close(struct dat_stream *s);

#endif
