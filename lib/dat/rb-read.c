// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "dat/rb-read.h"

#define COMMIT_MASK ((1ULL << 27) - 1)
#define MISSING_EVENTS (1ULL << 31)
#define MISSING_STORED (1ULL << 30)

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

void rb_cursor_load(struct rb_cursor *c, const unsigned char *page, uint64_t page_size)
{
	uint64_t flags = get64(page + 8);

	c->data = page + 16;
	c->area = page_size > 16 ? page_size - 16 : 0;
	c->size = flags & COMMIT_MASK;
	if (c->size > c->area)
		c->size = c->area;
	c->ts = get64(page);
	c->next = 0;
	c->lost = 0;
	if ((flags & MISSING_EVENTS) && (flags & MISSING_STORED) && c->size + 8 <= c->area)
		c->lost = (long long)get64(c->data + c->size);
	else if (flags & MISSING_EVENTS)
		c->lost = -1;
}
