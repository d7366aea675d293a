/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_INFLATE_AHEAD_H
#define GT_INFLATE_AHEAD_H

#include "dat/zstd-chunks.h"

/*
 * zstd chunks decompressed on a thread of their own, a few ahead of the
 * reader for each CPU, so that where a third CPU is free the decompression
 * (a third of the reading thread's work on a v7 file) leaves the two threads
 * that parse and join the records. The chunks come out of it exactly as
 * zchunk_next() makes them, in each CPU's order, with the same reason where
 * one cannot be had.
 */
struct inflate_ahead;

/*
 * chunks decompressed and not yet taken, at the most, per CPU: a few
 * milliseconds of reading, so one wake-up fills several
 */
#define INFLATE_AHEAD_MAX_DEPTH 8

/**
 * inflate_ahead_start - a thread decompressing the chunks of @n CPUs, each from its cursor in
 * @at (copied), out of @fd; NULL when it cannot start (out of memory, no thread) or @depth is
 * below 2. Each CPU holds up to @depth (at most INFLATE_AHEAD_MAX_DEPTH) chunks of up to
 * @chunk_max bytes.
 */
struct inflate_ahead *inflate_ahead_start(int fd, const struct zchunk_cursor *at, int n,
					  size_t page_size, size_t chunk_max, unsigned int depth);
/**
 * inflate_ahead_take - CPU @i's next chunk into @out (its buffers swapped, not copied), waiting
 * for it if need be; NULL, or why it cannot be had. Only for chunks the CPU's cursor counted.
 */
const char *inflate_ahead_take(struct inflate_ahead *ia, int i, struct chunk_buf *out);
/** inflate_ahead_stop - the thread stopped and everything freed */
void inflate_ahead_stop(struct inflate_ahead *ia);

#endif
