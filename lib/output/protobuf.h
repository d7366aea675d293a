/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PROTOBUF_H
#define GT_PROTOBUF_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/utf8.h"

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

/**
 * pb_reserve - room for @n more bytes; false once allocation failed. Inline, as the writers
 * below: a trace is millions of small fields, and a call each costs more than the field.
 */
static inline bool pb_reserve(struct pb_buf *b, size_t n)
{
	return b->len + n <= b->cap || pb_grow(b, n);
}

/** pb_append - @n bytes as they are (a Parquet page's values, a header's raw bytes) */
static inline void pb_append(struct pb_buf *b, const void *p, size_t n)
{
	if (!n || !pb_reserve(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

/*
 * A cursor for a message whose size is bounded up front: pb_claim() makes
 * room for all of it, the pbw_* writers then put fields in without a check
 * each (and without reloading the buffer's fields after every byte stored,
 * which a byte store through b->data forces), pb_commit() takes the end.
 * The bound must be below 256 MB, so that every nested length fits.
 */
#define PB_MESSAGE_MAX	(((size_t)1 << (7 * PB_LEN_BYTES)) - 1)

/** pb_claim - room for @n bytes; where to write them, or NULL (allocation failed) */
static inline uint8_t *pb_claim(struct pb_buf *b, size_t n)
{
	return pb_reserve(b, n) ? b->data + b->len : NULL;
}

/** pb_commit - the cursor @w of pb_claim()'s room is the buffer's new end */
static inline void pb_commit(struct pb_buf *b, const uint8_t *w)
{
	b->len = (size_t)(w - b->data);
}

/** pbw_varint_field - a varint field at @w; returns the cursor past it */
static inline uint8_t *pbw_varint_field(uint8_t *w, unsigned int field, uint64_t v)
{
	w += pb_varint(w, ((uint64_t)field << 3) | PB_WIRE_VARINT);
	return w + pb_varint(w, v);
}

/** pbw_fixed64_field - a fixed 64-bit field at @w */
static inline uint8_t *pbw_fixed64_field(uint8_t *w, unsigned int field, uint64_t v)
{
	uint64_t le = htole64(v);

	w += pb_varint(w, ((uint64_t)field << 3) | PB_WIRE_FIXED64);
	memcpy(w, &le, sizeof(le));
	return w + sizeof(le);
}

/** pbw_double_field - a double field at @w */
static inline uint8_t *pbw_double_field(uint8_t *w, unsigned int field, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	return pbw_fixed64_field(w, field, bits);
}

/** pbw_bytes_field - a length-delimited field of @n bytes at @w */
static inline uint8_t *pbw_bytes_field(uint8_t *w, unsigned int field, const void *p, size_t n)
{
	w += pb_varint(w, ((uint64_t)field << 3) | PB_WIRE_LEN);
	w += pb_varint(w, n);
	memcpy(w, p, n);
	return w + n;
}

/**
 * pbw_text_field - a string field of @n bytes that a reader takes as UTF-8 (proto3's string
 * type): bytes that are not UTF-8 (a comm or ring name of the file's) each maximal subpart as
 * U+FFFD, as JSON has them. Room for 3 * @n bytes and a field's header must be there.
 */
static inline uint8_t *pbw_text_field(uint8_t *w, unsigned int field, const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	uint8_t *len_at;
	size_t i = 0, out = 0;

	for (; i < n && s[i] < 0x80; i++)
		;
	if (i == n)
		return pbw_bytes_field(w, field, p, n);
	/* slow path: the length is known once the bytes are */
	w += pb_varint(w, ((uint64_t)field << 3) | PB_WIRE_LEN);
	len_at = w;
	w += 5;		/* a varint of up to 2^35, padded: readers take a padded varint */
	for (i = 0; i < n; ) {
		int k = utf8_seq_len(s + i, n - i);

		if (k > 0) {
			memcpy(w + out, s + i, (size_t)k);
			out += (size_t)k;
			i += (size_t)k;
		} else {
			memcpy(w + out, "\xef\xbf\xbd", 3);
			out += 3;
			i += utf8_bad_len(s + i, n - i);
		}
	}
	for (i = 0; i < 5; i++)
		len_at[i] = (uint8_t)((out >> (7 * i)) & 0x7f) | (i < 4 ? 0x80 : 0);
	return w + out;
}

/** pbw_begin - opens a nested message at @w; *@at is what pbw_end() needs */
static inline uint8_t *pbw_begin(uint8_t *w, unsigned int field, uint8_t **at)
{
	w += pb_varint(w, ((uint64_t)field << 3) | PB_WIRE_LEN);
	*at = w + PB_LEN_BYTES;
	return *at;
}

/** pbw_end - closes the message pbw_begin() opened at @at, the cursor at @w */
static inline void pbw_end(const uint8_t *w, uint8_t *at)
{
	uint32_t n = (uint32_t)(w - at);
	/* four groups of seven bits, the first three marked "more follows" */
	uint32_t len = htole32((n & 0x7f) | (n & 0x3f80) << 1 | (n & 0x1fc000) << 2 |
			       (n & 0xfe00000) << 3 | 0x808080);

	memcpy(at - PB_LEN_BYTES, &len, sizeof(len));
}

/* A field into the buffer: room for its largest encoding, then the cursor writer. */
#define PB_FIELD_MAX	20

/** pb_varint_field - a varint field */
static inline void pb_varint_field(struct pb_buf *b, unsigned int field, uint64_t v)
{
	if (pb_reserve(b, PB_FIELD_MAX))
		pb_commit(b, pbw_varint_field(b->data + b->len, field, v));
}

/** pb_int_field - int32/int64 fields: negative values as ten-byte two's complement varints */
static inline void pb_int_field(struct pb_buf *b, unsigned int field, int64_t v)
{
	pb_varint_field(b, field, (uint64_t)v);
}

/** pb_double_field - a double field */
static inline void pb_double_field(struct pb_buf *b, unsigned int field, double v)
{
	if (pb_reserve(b, PB_FIELD_MAX))
		pb_commit(b, pbw_double_field(b->data + b->len, field, v));
}

/** pb_bytes_field - a length-delimited field of @n bytes */
static inline void pb_bytes_field(struct pb_buf *b, unsigned int field, const void *p, size_t n)
{
	if (pb_reserve(b, PB_FIELD_MAX + n))
		pb_commit(b, pbw_bytes_field(b->data + b->len, field, p, n));
}

/** pb_string_field - a string field of @s without its NUL, as UTF-8 (pbw_text_field()) */
static inline void pb_string_field(struct pb_buf *b, unsigned int field, const char *s)
{
	size_t n = strlen(s);

	if (pb_reserve(b, PB_FIELD_MAX + 3 * n))
		pb_commit(b, pbw_text_field(b->data + b->len, field, s, n));
}

/** pb_begin - opens a nested message; returns what pb_end() needs. */
static inline size_t pb_begin(struct pb_buf *b, unsigned int field)
{
	uint8_t *at;

	if (!pb_reserve(b, PB_FIELD_MAX))
		return 0;
	pb_commit(b, pbw_begin(b->data + b->len, field, &at));
	return (size_t)(at - b->data);
}

/** pb_end - closes the message pb_begin() opened at @at: its length is written in front */
static inline void pb_end(struct pb_buf *b, size_t at)
{
	size_t n = b->len - at;
	uint8_t *l;

	if (b->failed)
		return;
	if (n > PB_MESSAGE_MAX) {
		b->failed = true;
		return;
	}
	l = b->data + at;
	pbw_end(l + n, l);
}

/** pb_reset - empties the buffer, keeping its memory */
void pb_reset(struct pb_buf *b);
/** pb_free - the buffer's memory */
void pb_free(struct pb_buf *b);

#endif
