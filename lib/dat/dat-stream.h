/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_STREAM_H
#define GT_DAT_STREAM_H

#include <event-parse.h>

#include "util/gt-error.h"

/*
 * The records of a zstd-compressed trace-cmd v7 file, in time order across
 * CPUs and buffer instances, decompressed one chunk per CPU at a time so
 * memory stays flat however large the file. libtracecmd 3.1.6 as Debian
 * builds it (in-memory decompression) keeps every chunk it has read:
 * free_zpage() tests the page address against its chunk the wrong way
 * round and never frees one, so RSS grows with the file (519 MB on a
 * 640k-job recording).
 *
 * Streams only what it reads exactly as libtracecmd would: v7, zstd, no
 * timestamp adjustment options. Anything else returns NULL with err's
 * errnum ENOTSUP, and the caller reads the file through libtracecmd.
 */
struct dat_stream;

/**
 * dat_stream_open - a .dat read record by record in time order, pages parsed in place; NULL
 * with @err set
 */
struct dat_stream *dat_stream_open(const char *path, struct tep_handle *tep,
				   struct gt_error *err);
/**
 * dat_stream_next - the next record, valid until the next call; NULL at the end (or on damage:
 * see err).
 */
struct tep_record *dat_stream_next(struct dat_stream *s, struct gt_error *err);
/** dat_stream_close - the file closed and the stream freed */
void dat_stream_close(struct dat_stream *s);

#endif
