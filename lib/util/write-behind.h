/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_WRITE_BEHIND_H
#define GT_WRITE_BEHIND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A large output written on a thread of its own: the producer hands over each
 * filled buffer and goes on building the next while this thread copies the
 * last one into the page cache (a few hundred MB of Perfetto trace are a
 * quarter of the producer's time in write()). Buffers are handed over, not
 * copied: the producer gets an empty one back. The bytes reach the stream in
 * the order handed over, exactly as a write of each would have put them.
 */
struct write_behind;

/**
 * write_behind_start - a thread that writes to @out what write_behind_put() hands it
 *
 * Return: the writer, or NULL where this process may run on one CPU only (a second
 * thread would only take turns with the first) or the thread could not start: then
 * the caller writes itself.
 */
struct write_behind *write_behind_start(FILE *out);

/**
 * write_behind_put - @len bytes of *@data (a malloc()ed buffer of *@cap bytes) to be
 * written after everything handed over before
 * @wb:   the writer
 * @data: the buffer, taken over; set to an empty one to fill next (or NULL, *@cap 0)
 * @len:  the bytes in it to write (0: nothing is handed over)
 * @cap:  its size; set to the returned buffer's
 *
 * Waits while four buffers are waiting to be written, so that a slow disk holds
 * the producer back instead of its memory growing.
 *
 * Return: 0, or the errno of the first write that failed (what was handed over
 * after it is dropped).
 */
int write_behind_put(struct write_behind *wb, uint8_t **data, size_t len, size_t *cap);

/**
 * write_behind_finish - everything handed over written (not flushed: the stream's
 * owner flushes it), the thread ended, the writer freed; NULL is fine
 *
 * Return: 0, or the errno of the first write that failed.
 */
int write_behind_finish(struct write_behind *wb);

#endif
