/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_NAME_INDEX_H
#define GT_NAME_INDEX_H

#include "util/keymap.h"

/*
 * Names to array indices in constant time (a log or a file says how many
 * names there are: a linear search made them quadratic). The caller keeps
 * the names in its array; name_at(ctx, i) gives the one at i.
 */
struct name_index {
	struct keymap map;		/* hash of a name (probed on) -> index + 1 */
};

typedef const char *(*name_at_fn)(void *ctx, int i);

/** name_index_find - the index of name, or -1 when it is not there. */
int name_index_find(const struct name_index *ix, const char *name, name_at_fn at, void *ctx);
/** name_index_add - remember that name is at index i (not there yet); -1 out of memory. */
int name_index_add(struct name_index *ix, const char *name, int i, name_at_fn at, void *ctx);
/** name_index_free - the index's memory */
void name_index_free(struct name_index *ix);

#endif
