// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "output/protobuf.h"

enum { WIRE_VARINT = 0, WIRE_FIXED64 = 1, WIRE_LEN = 2 };

#define PB_LEN_BYTES	4
#define PB_LEN_MAX	((1u << (7 * PB_LEN_BYTES)) - 1)

static bool grow(struct pb_buf *b, size_t n)
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

/* the common case inline: a trace is millions of small fields */
static inline bool reserve(struct pb_buf *b, size_t n)
{
	return b->len + n <= b->cap || grow(b, n);
}

static inline void varint(struct pb_buf *b, uint64_t v)
{
	if (reserve(b, 10))
		b->len += pb_varint(b->data + b->len, v);
}

static void tag(struct pb_buf *b, unsigned int field, unsigned int wire)
{
	varint(b, ((uint64_t)field << 3) | wire);
}

void pb_varint_field(struct pb_buf *b, unsigned int field, uint64_t v)
{
	tag(b, field, WIRE_VARINT);
	varint(b, v);
}

void pb_int_field(struct pb_buf *b, unsigned int field, int64_t v)
{
	pb_varint_field(b, field, (uint64_t)v);
}

void pb_fixed64_field(struct pb_buf *b, unsigned int field, uint64_t v)
{
	int i;

	tag(b, field, WIRE_FIXED64);
	if (!reserve(b, 8))
		return;
	for (i = 0; i < 8; i++)
		b->data[b->len++] = (uint8_t)(v >> (8 * i));
}

void pb_double_field(struct pb_buf *b, unsigned int field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	pb_fixed64_field(b, field, bits);
}

void pb_bytes_field(struct pb_buf *b, unsigned int field, const void *p, size_t n)
{
	tag(b, field, WIRE_LEN);
	varint(b, n);
	if (!reserve(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void pb_string_field(struct pb_buf *b, unsigned int field, const char *s)
{
	pb_bytes_field(b, field, s, strlen(s));
}

size_t pb_begin(struct pb_buf *b, unsigned int field)
{
	tag(b, field, WIRE_LEN);
	if (!reserve(b, PB_LEN_BYTES))
		return 0;
	b->len += PB_LEN_BYTES;
	return b->len;
}

void pb_end(struct pb_buf *b, size_t at)
{
	size_t n;
	int i;

	if (b->failed)
		return;
	n = b->len - at;
	if (n > PB_LEN_MAX) {
		b->failed = true;
		return;
	}
	for (i = 0; i < PB_LEN_BYTES; i++)
		b->data[at - PB_LEN_BYTES + i] = (uint8_t)(((n >> (7 * i)) & 0x7f) |
							   (i < PB_LEN_BYTES - 1 ? 0x80 : 0));
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
