// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <string.h>

#include "util/name-index.h"

/* The key that holds name, or the first free one along its probe */
static uint64_t key_of(const struct name_index *ix, const char *name, name_at_fn at, void *ctx,
		       int *found)
{
	uint64_t key = keymap_str(name);
	uintptr_t v;

	*found = -1;
	/* other names with an equal hash: the next key along */
	while ((v = (uintptr_t)keymap_get(&ix->map, key))) {
		if (!strcmp(at(ctx, (int)v - 1), name)) {
			*found = (int)v - 1;
			break;
		}
		key++;
	}
	return key;
}

int name_index_find(const struct name_index *ix, const char *name, name_at_fn at, void *ctx)
{
	int found;

	key_of(ix, name, at, ctx, &found);
	return found;
}

int name_index_add(struct name_index *ix, const char *name, int i, name_at_fn at, void *ctx)
{
	int found;
	uint64_t key = key_of(ix, name, at, ctx, &found);

	return keymap_put(&ix->map, key, (void *)(uintptr_t)(i + 1));
}

void name_index_free(struct name_index *ix)
{
	keymap_free(&ix->map);
}
