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
	for (i = slot(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return NULL;
}

static int grow(struct keymap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	void **vals = calloc(cap, sizeof(*vals));
	struct keymap n = { keys, vals, cap, 0 };

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (i = 0; i < m->cap; i++)
		if (m->vals[i])
			keymap_put(&n, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

int keymap_put(struct keymap *m, uint64_t key, void *val)
{
	size_t i;

	if ((m->used + 1) * 4 > m->cap * 3 && grow(m))
		return -1;
	for (i = slot(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	m->keys[i] = key;
	m->vals[i] = val;
	m->used++;
	return 0;
}

void keymap_del(struct keymap *m, uint64_t key)
{
	size_t i, j, home;

	if (!m->cap)
		return;
	for (i = slot(key, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			break;
	if (!m->vals[i])
		return;
	m->vals[i] = NULL;
	m->used--;
	/* move later entries of the same run back into the hole */
	for (j = (i + 1) & (m->cap - 1); m->vals[j]; j = (j + 1) & (m->cap - 1)) {
		home = slot(m->keys[j], m->cap);
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->vals[j] = NULL;
			i = j;
		}
	}
}

int keymap_next(const struct keymap *m, size_t *i, uint64_t *key, void **val)
{
	for (; *i < m->cap; (*i)++)
		if (m->vals[*i]) {
			*key = m->keys[*i];
			*val = m->vals[*i];
			(*i)++;
			return 1;
		}
	return 0;
}

void keymap_free(struct keymap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->used = 0;
}
