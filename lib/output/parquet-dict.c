// SPDX-License-Identifier: GPL-2.0
/*
 * Dictionary encoding of a string column chunk (parquet-dict.h). The ids
 * go into the RLE/bit-packed hybrid whole as one or the other: runs where
 * names come in long runs (one process's jobs), bit-packed groups where they
 * take turns (rings).
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/parquet-dict.h"

/* FNV-1a: the open-addressing table's hash of a value's bytes */
static uint32_t hash_bytes(const uint8_t *p, uint32_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

static uint32_t get_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

/* one RLE run of @run copies of @id, @width bytes a value */
static void put_run(struct pb_buf *out, uint32_t run, uint32_t id, int width)
{
	uint8_t v[10 + 4];
	size_t n = pb_varint(v, (uint64_t)run << 1);
	uint32_t le = htole32(id);

	memcpy(v + n, &le, (size_t)width);
	pb_append(out, v, n + (size_t)width);
}

/* the ids as bit-packed groups of eight, @bits each, LSB first; the last group padded with 0 */
static void put_packed(struct pb_buf *out, const uint32_t *id, size_t n, uint8_t bits)
{
	size_t groups = (n + 7) / 8, g, j;
	uint8_t v[10], *w;
	size_t hn = pb_varint(v, ((uint64_t)groups << 1) | 1);

	pb_append(out, v, hn);
	w = pb_claim(out, groups * bits);
	if (!w)
		return;
	memset(w, 0, groups * bits);
	for (g = 0; g < groups; g++, w += bits)
		for (j = 0; j < 8 && g * 8 + j < n; j++) {
			uint64_t x = (uint64_t)id[g * 8 + j] << ((j * bits) % 8);
			size_t at = (j * bits) / 8;

			for (; x; x >>= 8)
				w[at++] |= (uint8_t)x;
		}
	pb_commit(out, w);
}

/*
 * The ids in the RLE/bit-packed hybrid: as runs where a value mostly repeats
 * (a ring's jobs in a row), else as bit-packed groups (rings taking turns:
 * two bits an id instead of two bytes a run).
 */
static int ids_hybrid(const uint32_t *id, size_t n, uint32_t entries, struct pb_buf *out)
{
	uint8_t bits = 1;
	size_t i = 0, run, runs = 0;
	int width;

	while (bits < 32 && (1ull << bits) < entries)
		bits++;
	width = (bits + 7) / 8;
	pb_append(out, &bits, 1);
	for (i = 0; i < n; i += run, runs++)
		for (run = 1; i + run < n && id[i + run] == id[i]; run++)
			;
	if (runs * 8 > n) {
		put_packed(out, id, n, bits);
		return out->failed ? -ENOMEM : 0;
	}
	for (i = 0; i < n; i += run) {
		for (run = 1; i + run < n && id[i + run] == id[i] && run < (1u << 30); run++)
			;
		put_run(out, (uint32_t)run, id[i], width);
	}
	return out->failed ? -ENOMEM : 0;
}

int pq_dict_encode(const struct pb_buf *plain, struct pb_buf *dict, struct pb_buf *ids,
		   uint32_t *entries)
{
	size_t n = 0, at, cap, i;
	uint32_t *slots = NULL, *id = NULL, *first = NULL, len, k;
	int ret = -ENOMEM;

	dict->len = ids->len = 0;
	*entries = 0;
	for (at = 0; at + 4 <= plain->len; n++)
		at += 4 + (size_t)get_le32(plain->data + at);
	if (at != plain->len)
		return -EINVAL;			/* not PLAIN byte arrays: the writer's bug */
	for (cap = 64; cap < 2 * n; cap *= 2)
		;
	slots = calloc(cap, sizeof(*slots));
	id = malloc((n ? n : 1) * sizeof(*id));
	first = malloc(PQ_DICT_MAX_ENTRIES * sizeof(*first));
	if (!slots || !id || !first)
		goto out;
	for (at = 0, i = 0; i < n; i++, at += 4 + len) {
		const uint8_t *p = plain->data + at + 4;
		size_t s;

		len = get_le32(plain->data + at);
		for (s = hash_bytes(p, len) & (cap - 1); slots[s]; s = (s + 1) & (cap - 1)) {
			const uint8_t *e = plain->data + first[slots[s] - 1];

			if (get_le32(e) == len && !memcmp(e + 4, p, len))
				break;
		}
		if (!slots[s]) {
			k = *entries;
			if (k == PQ_DICT_MAX_ENTRIES || dict->len + 4 + len > PQ_DICT_MAX_BYTES) {
				ret = 1;
				goto out;
			}
			first[k] = (uint32_t)at;
			slots[s] = ++*entries;
			pb_append(dict, plain->data + at, 4 + (size_t)len);
		}
		id[i] = slots[s] - 1;
	}
	/* mostly distinct (fences, times as text): the ids would add to the values */
	if (*entries > n / 2 + 1) {
		ret = 1;
		goto out;
	}
	ret = dict->failed ? -ENOMEM : ids_hybrid(id, n, *entries, ids);
out:
	if (ret) {
		dict->len = ids->len = 0;
		*entries = 0;
	}
	free(slots);
	free(id);
	free(first);
	return ret;
}
