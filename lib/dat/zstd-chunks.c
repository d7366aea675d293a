// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <unistd.h>
#include <zstd.h>

#include "dat/zstd-chunks.h"
#include "util/file-io.h"

int chunk_buf_reserve(struct chunk_buf *b, size_t n)
{
	unsigned char *grown;

	if (n <= b->cap)
		return 0;
	grown = realloc(b->data, n);
	if (!grown)
		return -1;
	b->data = grown;
	b->cap = n;
	return 0;
}

const char *zchunk_next(struct zchunk_inflater *z, int fd, struct zchunk_cursor *at,
			size_t page_size, size_t chunk_max, struct chunk_buf *out)
{
	uint32_t head[2];
	size_t got;

	if (!at->left || at->next + 8 > at->end || read_all_at(fd, head, 8, at->next) ||
	    head[0] > at->end - at->next - 8)
		return "data cannot be read (the file is shorter than it says)";
	if (!head[1] || head[1] % page_size)
		return "data has a compressed chunk that is not whole pages";
	if (head[1] > chunk_max)
		return "data has a compressed chunk larger than this reader holds per CPU";
	/* no more than zstd makes of that many bytes: what is read stays bounded too */
	if (head[0] > ZSTD_compressBound(head[1]))
		return "data has a compressed chunk longer than zstd makes of its size";
	if ((!z->dctx && !(z->dctx = ZSTD_createDCtx())) ||
	    chunk_buf_reserve(&z->packed, head[0]) || chunk_buf_reserve(out, head[1]))
		return "data cannot be held (out of memory)";
	if (read_all_at(fd, z->packed.data, head[0], at->next + 8))
		return "data cannot be read (the file is shorter than it says)";
	got = ZSTD_decompressDCtx(z->dctx, out->data, head[1], z->packed.data, head[0]);
	if (ZSTD_isError(got) || got != head[1])
		return "compressed data does not decompress";
	out->len = head[1];
	at->next += 8 + head[0];
	at->left--;
	return NULL;
}

void zchunk_inflater_free(struct zchunk_inflater *z)
{
	free(z->packed.data);
	ZSTD_freeDCtx(z->dctx);
	*z = (struct zchunk_inflater){ 0 };
}
