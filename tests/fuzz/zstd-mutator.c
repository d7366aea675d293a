// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer custom mutator for fuzz-report: damage inside zstd v7 pages, and
 * in the structures a byte mutator seldom hits whole. Mutating a compressed
 * file's bytes almost always breaks the zstd frame, so the page decoders
 * behind decompression are seldom reached with hostile pages. Half the time
 * the input is parsed (dat-meta) and one of these is done, no offset in the
 * file moving:
 *  - one chunk of one CPU (zstd v7) decompressed, its pages mutated, and
 *    compressed again in place: a smaller frame is padded with a zstd
 *    skippable frame to the old length;
 *  - a page's timestamp (v6 in place, v7 in its chunk) set back before the
 *    CPU's first, past 2^64 less a little, or to a value of the seed's;
 *  - a CPU's chunk count (zstd v7) lowered or raised;
 *  - one CPU's range (offset and size, in the v6 flyrecord table or the v7
 *    BUFFER option) made another's.
 * Anything else gets libFuzzer's own mutations.
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

static bool read_meta(const uint8_t *data, size_t size)
{
	struct gt_error err = { 0 };
	int fd = memfd_create("mutate.dat", MFD_CLOEXEC), ret = -1;

	if (fd < 0)
		return false;
	if (write(fd, data, size) == (ssize_t)size)
		ret = dat_meta_read_fd(fd, "mutate.dat", &meta, &err);
	close(fd);
	return !ret;
}

static bool zstd_v7(void)
{
	return meta.version == 7 && !strcmp(meta.compression, "zstd");
}

static const struct dat_buffer_data *top_buffer(void)
{
	int i;

	for (i = 0; meta.version == 7 && i < meta.nr_buffers; i++)
		if (!meta.buffers[i].name[0])
			return &meta.buffers[i];
	return NULL;
}

/* CPU n of the top buffer: where its data lies in the file; false if none */
static bool cpu_range(int n, uint64_t *off, uint64_t *len)
{
	const struct dat_buffer_data *top = top_buffer();

	if (meta.version == 6 && n < meta.nr_cpus && n < DAT_META_MAX_CPUS) {
		*off = meta.v6_cpu_offset[n];
		*len = meta.v6_cpu_bytes[n];
		return *len > 0;
	}
	if (!top || n >= top->nr_cpus)
		return false;
	*off = top->cpus[n].offset;
	*len = top->cpus[n].size;
	return *len > 0;
}

static int nr_cpus(void)
{
	const struct dat_buffer_data *top = top_buffer();

	return meta.version == 6 ? meta.nr_cpus : top ? top->nr_cpus : 0;
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

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* page k of n bytes of pages at p: its stamp set back, near 2^64, or to the seed's */
static void restamp(uint8_t *p, size_t n, unsigned int seed)
{
	size_t ps = meta.page_size, k;
	uint64_t first;

	if (!ps || n < 2 * ps)
		return;
	k = 1 + (seed >> 4) % (n / ps - 1);
	first = get64(p);
	switch ((seed >> 2) & 3) {
	case 0:
		put64(p + k * ps, first / 1000);
		break;
	case 1:
		put64(p + k * ps, ~0ULL - (seed & 0xfffff));
		break;
	default:
		put64(p + k * ps, get64(p + k * ps) ^ (1ULL << (seed % 64)));
		break;
	}
}

/* Decompress, mutate (or restamp), recompress in place; false when it does not fit. */
static bool mutate_chunk(uint8_t *data, size_t at, unsigned int seed, bool stamps)
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
	if (stamps) {
		restamp(buf, plain, seed);
	} else {
		/* the same length: page boundaries stay where the reader expects them */
		n = LLVMFuzzerMutate(buf, plain, plain);
		if (n < plain)
			memset(buf + n, (int)(seed & 0xff), plain - n);
	}
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

/* CPU b's range made CPU a's, where the file's table holds it (found by its bytes) */
static bool copy_range(uint8_t *data, size_t size, int a, int b)
{
	uint64_t ao, al, bo, bl;
	uint8_t want[16];
	size_t i;

	if (a == b || !cpu_range(a, &ao, &al) || !cpu_range(b, &bo, &bl))
		return false;
	put64(want, bo);
	put64(want + 8, bl);
	for (i = 0; i + 16 <= size; i++)
		if (!memcmp(data + i, want, 16)) {
			put64(data + i, ao);
			put64(data + i + 8, al);
			return true;
		}
	return false;
}

static bool structural(uint8_t *data, size_t size, unsigned int seed)
{
	int n = nr_cpus(), cpu;
	uint64_t off, len;
	size_t at;

	if (n <= 0)
		return false;
	cpu = (int)((seed >> 8) % (unsigned int)n);
	if (!cpu_range(cpu, &off, &len) || off + len > size)
		return false;
	switch ((seed >> 1) & 3) {
	case 0:		/* pages */
		at = zstd_v7() ? find_chunk(data, size, off, len, seed >> 12) : 0;
		return at && mutate_chunk(data, at, seed, false);
	case 1:		/* stamps */
		if (!zstd_v7()) {
			restamp(data + off, (size_t)len, seed);
			return true;
		}
		at = find_chunk(data, size, off, len, seed >> 12);
		return at && mutate_chunk(data, at, seed, true);
	case 2:		/* the chunk count */
		if (!zstd_v7() || off + 4 > size)
			return false;
		put32(data + off, (seed & 4) ? get32(data + off) + 1 + (seed >> 20) % 3 :
				  get32(data + off) / 2);
		return true;
	default:	/* a range */
		return copy_range(data, size, cpu, (int)((seed >> 16) % (unsigned int)n));
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	if ((seed & 1) && read_meta(data, size) && structural(data, size, seed))
		return size;
	return LLVMFuzzerMutate(data, size, max_size);
}
