/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PROTOBUF_H
#define GT_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The few protocol buffer encodings the Perfetto exporter writes, into one
 * growable buffer. A nested message reserves four bytes for its length and
 * pb_end() fills them as a padded varint (as Perfetto's own protozero
 * does), so nothing is encoded twice; a message is at most 256 MB.
 * Allocation failures set `failed` and later calls do nothing.
 */
struct pb_buf {
	uint8_t *data;
	size_t len, cap;
	bool failed;
};

/**
 * pb_varint - @v as a base-128 varint (LEB128, low groups first) into @out; returns its length
 * (at most 10)
 */
static inline size_t pb_varint(uint8_t out[10], uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

enum { PB_WIRE_VARINT = 0, PB_WIRE_FIXED64 = 1, PB_WIRE_LEN = 2 };

#define PB_LEN_BYTES	4

/** pb_grow - room for @n more bytes (the slow path of pb_reserve); false once allocation failed */
bool pb_grow(struct pb_buf *b, size_t n);

/* Inline: a trace is millions of small fields, and a call each costs more than the field. */
static inline bool pb_reserve(struct pb_buf *b, size_t n)
{
	return b->len + n <= b->cap || pb_grow(b, n);
}

static inline void pb_raw_varint(struct pb_buf *b, uint64_t v)
{
	if (pb_reserve(b, 10))
		b->len += pb_varint(b->data + b->len, v);
}

/** pb_varint_field - a varint field */
static inline void pb_varint_field(struct pb_buf *b, unsigned int field, uint64_t v)
{
	pb_raw_varint(b, ((uint64_t)field << 3) | PB_WIRE_VARINT);
	pb_raw_varint(b, v);
}

/** pb_int_field - int32/int64 fields: negative values as ten-byte two's complement varints */
static inline void pb_int_field(struct pb_buf *b, unsigned int field, int64_t v)
{
	pb_varint_field(b, field, (uint64_t)v);
}

/** pb_fixed64_field - a fixed 64-bit field */
static inline void pb_fixed64_field(struct pb_buf *b, unsigned int field, uint64_t v)
{
	int i;

	pb_raw_varint(b, ((uint64_t)field << 3) | PB_WIRE_FIXED64);
	if (!pb_reserve(b, 8))
		return;
	for (i = 0; i < 8; i++)
		b->data[b->len++] = (uint8_t)(v >> (8 * i));
}

/** pb_double_field - a double field */
static inline void pb_double_field(struct pb_buf *b, unsigned int field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	pb_fixed64_field(b, field, bits);
}

/** pb_bytes_field - a length-delimited field of @n bytes */
static inline void pb_bytes_field(struct pb_buf *b, unsigned int field, const void *p, size_t n)
{
	pb_raw_varint(b, ((uint64_t)field << 3) | PB_WIRE_LEN);
	pb_raw_varint(b, n);
	if (!pb_reserve(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

/** pb_string_field - a length-delimited field of @s without its NUL */
static inline void pb_string_field(struct pb_buf *b, unsigned int field, const char *s)
{
	pb_bytes_field(b, field, s, strlen(s));
}

/** pb_begin - opens a nested message; returns what pb_end() needs. */
static inline size_t pb_begin(struct pb_buf *b, unsigned int field)
{
	pb_raw_varint(b, ((uint64_t)field << 3) | PB_WIRE_LEN);
	if (!pb_reserve(b, PB_LEN_BYTES))
		return 0;
	b->len += PB_LEN_BYTES;
	return b->len;
}

/** pb_end - closes the message pb_begin() opened at @at: its length is written in front */
static inline void pb_end(struct pb_buf *b, size_t at)
{
	size_t n = b->len - at;
	uint8_t *l;

	if (b->failed)
		return;
	if (n >= (size_t)1 << (7 * PB_LEN_BYTES)) {
		b->failed = true;	/* over 256 MB */
		return;
	}
	l = b->data + at - PB_LEN_BYTES;
	l[0] = (uint8_t)((n & 0x7f) | 0x80);
	l[1] = (uint8_t)(((n >> 7) & 0x7f) | 0x80);
	l[2] = (uint8_t)(((n >> 14) & 0x7f) | 0x80);
	l[3] = (uint8_t)((n >> 21) & 0x7f);
}

/** pb_reset - empties the buffer, keeping its memory */
void pb_reset(struct pb_buf *b);
/** pb_free - the buffer's memory */
void pb_free(struct pb_buf *b);

#endif
