/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KEYMAP_H
#define GT_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

/* uint64 -> pointer, open addressing; sized by what is in it, not by history. */
struct keymap_slot {
	uint64_t key;
	void *val;		/* NULL: free */
};

struct keymap {
	struct keymap_slot *slots;	/* key beside value: one cache line a probe */
	size_t cap, used;
};

/** keymap_get - the value at @key, or NULL */
void *keymap_get(const struct keymap *m, uint64_t key);
/** keymap_put - adds or replaces; -1 when out of memory. */
int keymap_put(struct keymap *m, uint64_t key, void *val);
/** keymap_del - @key and its value out of the map; nothing when absent */
void keymap_del(struct keymap *m, uint64_t key);
/** keymap_free - the map's memory (not the values) */
void keymap_free(struct keymap *m);

/** keymap_next - iterate: for (i = 0; keymap_next(m, &i, &k, &v); ) */
int keymap_next(const struct keymap *m, size_t *i, uint64_t *key, void **val);

/** keymap_pair - two 64-bit values folded into one key (fence context:seqno). */
static inline uint64_t keymap_pair(uint64_t a, uint64_t b)
{
	return (a * 0x9e3779b97f4a7c15ULL) ^ b;
}

/** keymap_str - a string's key (FNV-1a): names of rings, devices */
static inline uint64_t keymap_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

#endif
