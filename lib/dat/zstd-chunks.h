/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_ZSTD_CHUNKS_H
#define GT_ZSTD_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

/*
 * A CPU's data as trace-cmd v7 stores it compressed: chunks of whole pages,
 * each a u32 compressed size, a u32 size and one zstd frame. Every claim of
 * a chunk's header is checked against the file and the reader's bounds
 * before a byte is read into memory.
 */

/* bytes a chunk was decompressed into, the buffer reused chunk after chunk */
struct chunk_buf {
	unsigned char *data;
	size_t len, cap;
};

/* where a CPU's next chunk is */
struct zchunk_cursor {
	uint64_t next;			/* file offset of the next chunk's header */
	uint64_t end;			/* end of the CPU's data */
	uint32_t left;			/* chunks not yet read */
};

/* what decompressing keeps from chunk to chunk: the compressed bytes and zstd's context */
struct zchunk_inflater {
	struct chunk_buf packed;
	struct ZSTD_DCtx_s *dctx;
};

/** chunk_buf_reserve - room for @n bytes in @b (its contents kept); -1 out of memory */
int chunk_buf_reserve(struct chunk_buf *b, size_t n);
/**
 * zchunk_next - the chunk at @at read from @fd and decompressed into @out, @at moved past it;
 * NULL, or why it cannot be had (then @at is unchanged). @page_size: the pages it must hold
 * whole; @chunk_max: the most it may hold.
 */
const char *zchunk_next(struct zchunk_inflater *z, int fd, struct zchunk_cursor *at,
			size_t page_size, size_t chunk_max, struct chunk_buf *out);
/** zchunk_inflater_free - its buffer and context freed */
void zchunk_inflater_free(struct zchunk_inflater *z);

#endif
