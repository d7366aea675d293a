// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "util/keymap.h"

/* A value slot is free when NULL; deletions shift back (no tombstones). */
static size_t slot(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void *keymap_get(const struct keymap *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot(key, m->cap); m->slots[i].val; i = (i + 1) & (m->cap - 1))
		if (m->slots[i].key == key)
			return m->slots[i].val;
	return NULL;
}

static int grow(struct keymap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	struct keymap n = { calloc(cap, sizeof(*n.slots)), cap, 0 };

	if (!n.slots)
		return -1;
	for (i = 0; i < m->cap; i++)
		if (m->slots[i].val)
			keymap_put(&n, m->slots[i].key, m->slots[i].val);
	free(m->slots);
	*m = n;
	return 0;
}

int keymap_put(struct keymap *m, uint64_t key, void *val)
{
	size_t i;

	if ((m->used + 1) * 4 > m->cap * 3 && grow(m))
		return -1;
	for (i = slot(key, m->cap); m->slots[i].val; i = (i + 1) & (m->cap - 1))
		if (m->slots[i].key == key) {
			m->slots[i].val = val;
			return 0;
		}
	m->slots[i].key = key;
	m->slots[i].val = val;
	m->used++;
	return 0;
}

void keymap_del(struct keymap *m, uint64_t key)
{
	size_t i, j, home;

	if (!m->cap)
		return;
	for (i = slot(key, m->cap); m->slots[i].val; i = (i + 1) & (m->cap - 1))
		if (m->slots[i].key == key)
			break;
	if (!m->slots[i].val)
		return;
	m->slots[i].val = NULL;
	m->used--;
	/* move later entries of the same run back into the hole */
	for (j = (i + 1) & (m->cap - 1); m->slots[j].val; j = (j + 1) & (m->cap - 1)) {
		home = slot(m->slots[j].key, m->cap);
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->slots[i] = m->slots[j];
			m->slots[j].val = NULL;
			i = j;
		}
	}
}

int keymap_next(const struct keymap *m, size_t *i, uint64_t *key, void **val)
{
	for (; *i < m->cap; (*i)++)
		if (m->slots[*i].val) {
			*key = m->slots[*i].key;
			*val = m->slots[*i].val;
			(*i)++;
			return 1;
		}
	return 0;
}

void keymap_free(struct keymap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->used = 0;
}
