// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "dat/rb-read.h"

#define COMMIT_MASK ((1ULL << 27) - 1)
#define MISSING_EVENTS (1ULL << 31)
#define MISSING_STORED (1ULL << 30)
/* an absolute stamp holds 59 bits: the top 5 come from the time before it */
#define TS_MSB (0xf8ULL << 56)

enum { RB_PADDING = 29, RB_TIME_EXTEND = 30, RB_TIME_STAMP = 31 };

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

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

bool rb_cursor_next(struct rb_cursor *c, struct rb_entry *e)
{
	while (c->next < c->size && c->next + 8 <= c->area) {
		uint64_t at = c->next, payload = at + 4, len;
		uint32_t head = get32(c->data + at), type = head & 31, delta = head >> 5;
		uint32_t word = get32(c->data + at + 4);

		switch (type) {
		case RB_PADDING:
			c->ts += delta;
			/*
			 * kbuffer adds the length as an int (a length of 0 steps past
			 * the header only); dat_page_fits() refused a step back
			 */
			if ((int32_t)word < 0)
				return false;
			c->next = payload + word;
			continue;
		case RB_TIME_EXTEND:
			c->ts += ((uint64_t)word << 27) + delta;
			c->next = at + 8;
			continue;
		case RB_TIME_STAMP:
			c->ts = (((uint64_t)word << 27) + delta) | (c->ts & TS_MSB);
			c->next = at + 8;
			continue;
		case 0:
			/* as kbuffer: the length word counts itself, rounded up to words */
			if ((int32_t)word <= 0)
				return false;
			len = (uint64_t)(((int64_t)word - 4 + 3) & ~(int64_t)3);
			payload += 4;
			break;
		default:
			len = 4ULL * type;
			break;
		}
		if (payload + len > c->area)
			return false;
		c->ts += delta;
		c->next = payload + len;
		e->data = c->data + payload;
		e->size = (int)len;
		e->record_size = (int)(payload + len - at);
		e->ts = c->ts;
		e->missed = at ? 0 : c->lost;
		return true;
	}
	return false;
}
