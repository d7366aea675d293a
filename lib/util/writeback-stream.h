/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_WRITEBACK_STREAM_H
#define GT_WRITEBACK_STREAM_H

#include <stdio.h>

/*
 * A large output (a Perfetto trace of a long recording is hundreds of MB)
 * left dirty in the page cache until the fsync that commits it makes that
 * fsync wait for all of it to reach the disk, after every byte is written;
 * and a page cache full of one file's dirty pages throttles the writes
 * themselves. Started as it goes, the write-back overlaps the work that
 * produces the output.
 */
/**
 * writeback_stream - a stream writing to @fd (which it owns and closes) that starts the
 * write-back of each few MB as soon as they are written (sync_file_range(), without waiting
 * for it: the fsync that commits the file still does); on a pipe or a filesystem that cannot,
 * a plain stream. NULL with errno when it cannot be made (@fd is then left open).
 */
FILE *writeback_stream(int fd);

#endif
