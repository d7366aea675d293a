/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RECORD_PIPE_H
#define GT_RECORD_PIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/gt-error.h"

struct analysis;

/**
 * record_pipe_run - a stream's records through the joins, read and decoded on a second
 * thread (pages parsed, each record's event id, pid and GPU fields read) while this one joins
 * them in time order: the reading half is about half of report's time. Batches of records go
 * through a small ring, so memory stays flat; a batch the joins are waiting for goes
 * undecoded, and this thread decodes it (zstd chunks make reading the slower half). Returns what analysis_run() would; -1 with
 * errnum EAGAIN when no thread could be started (nothing read: run it on one thread).
 */
int record_pipe_run(struct analysis *a, struct gt_error *err);

/**
 * record_pipe_run_batched - record_pipe_run() with batches of this many record bytes (the
 * tests make them tiny so records wait for the next batch, or outgrow one)
 */
int record_pipe_run_batched(struct analysis *a, size_t batch_bytes, struct gt_error *err);

/** record_pipe_worth_it - more than one CPU to run on */
bool record_pipe_worth_it(void);
/**
 * record_pipe_inflate_worth_it - a third CPU to run on: zstd's decompression can have it
 * (dat_stream_inflate_ahead()) while the pipe's two threads have the others
 */
bool record_pipe_inflate_worth_it(void);

#endif
