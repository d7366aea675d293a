// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer custom mutator for fuzz-report: damage inside zstd v7 pages.
 * Mutating a compressed file's bytes almost always breaks the zstd frame,
 * so the page decoders behind decompression are seldom reached with hostile
 * pages. Half the time, for a zstd v7 input, one chunk of one CPU is
 * decompressed, its pages mutated, and compressed again in place: a smaller
 * frame is padded with a zstd skippable frame to the old length, so no offset
 * in the file moves. Anything else gets libFuzzer's own mutations.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#include "../../lib/dat/dat-meta.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

#define SKIPPABLE_MAGIC	0x184D2A50u

static struct dat_meta meta;

static const struct dat_buffer_data *top_buffer(const uint8_t *data, size_t size)
{
	struct gt_error err = { 0 };
	int fd = memfd_create("mutate.dat", MFD_CLOEXEC), i, ret = -1;

	if (fd < 0)
		return NULL;
	if (write(fd, data, size) == (ssize_t)size)
		ret = dat_meta_read_fd(fd, "mutate.dat", &meta, &err);
	close(fd);
	if (ret || meta.version != 7 || strcmp(meta.compression, "zstd"))
		return NULL;
	for (i = 0; i < meta.nr_buffers; i++)
		if (!meta.buffers[i].name[0])
			return &meta.buffers[i];
	return NULL;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* The chunk'th chunk of the CPU data at off: where its header is, or 0. */
static size_t find_chunk(const uint8_t *data, size_t size, uint64_t off, uint64_t len,
			 unsigned int pick)
{
	uint64_t end = off + 4 + len, at = off + 4;
	uint32_t count, n;

	if (end > size || end < off)
		return 0;
	count = get32(data + off);
	if (!count)
		return 0;
	for (n = 0; n < pick % count; n++) {
		if (at + 8 > end || get32(data + at) > end - at - 8)
			return 0;
		at += 8 + get32(data + at);
	}
	return at + 8 <= end && get32(data + at) <= end - at - 8 ? (size_t)at : 0;
}

/* Decompress, mutate, recompress in place; false when it does not fit. */
static bool mutate_chunk(uint8_t *data, size_t at, unsigned int seed)
{
	uint32_t packed = get32(data + at), plain = get32(data + at + 4);
	uint8_t *buf, *out;
	size_t n, bound;
	bool done = false;

	if (!plain || plain > 64 << 20)
		return false;
	buf = malloc(plain);
	bound = ZSTD_compressBound(plain);
	out = malloc(bound);
	if (!buf || !out || ZSTD_decompress(buf, plain, data + at + 8, packed) != plain)
		goto out;
	/* the same length: page boundaries stay where the reader expects them */
	n = LLVMFuzzerMutate(buf, plain, plain);
	if (n < plain)
		memset(buf + n, (int)(seed & 0xff), plain - n);
	n = ZSTD_compress(out, bound, buf, plain, 19);
	if (ZSTD_isError(n) || (n != packed && n + 8 > packed))
		goto out;
	memcpy(data + at + 8, out, n);
	if (n < packed) {
		put32(data + at + 8 + n, SKIPPABLE_MAGIC | (seed & 0xf));
		put32(data + at + 8 + n + 4, (uint32_t)(packed - n - 8));
		memset(data + at + 8 + n + 8, 0, packed - n - 8);
	}
	done = true;
out:
	free(buf);
	free(out);
	return done;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	const struct dat_buffer_data *top;
	size_t at;

	if (seed & 1) {
		top = top_buffer(data, size);
		if (top && top->nr_cpus > 0) {
			int cpu = (int)((seed >> 1) % (unsigned int)top->nr_cpus);

			at = find_chunk(data, size, top->cpus[cpu].offset, top->cpus[cpu].size,
					seed >> 8);
			if (at && mutate_chunk(data, at, seed))
				return size;
		}
	}
	return LLVMFuzzerMutate(data, size, max_size);
}
