// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "output/protobuf.h"

bool pb_grow(struct pb_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->failed)
		return false;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	p = realloc(b->data, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

void pb_reset(struct pb_buf *b)
{
	b->len = 0;
}

void pb_free(struct pb_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}
