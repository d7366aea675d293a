/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PROTOBUF_H
#define GT_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/** pb_varint_field - a varint field */
void pb_varint_field(struct pb_buf *b, unsigned int field, uint64_t v);
/** pb_int_field - int32/int64 fields: negative values as ten-byte two's complement varints */
void pb_int_field(struct pb_buf *b, unsigned int field, int64_t v);
/** pb_fixed64_field - a fixed 64-bit field */
void pb_fixed64_field(struct pb_buf *b, unsigned int field, uint64_t v);
/** pb_double_field - a double field */
void pb_double_field(struct pb_buf *b, unsigned int field, double v);
/** pb_bytes_field - a length-delimited field of @n bytes */
void pb_bytes_field(struct pb_buf *b, unsigned int field, const void *p, size_t n);
/** pb_string_field - a length-delimited field of @s without its NUL */
void pb_string_field(struct pb_buf *b, unsigned int field, const char *s);
/** pb_begin - opens a nested message; returns what pb_end() needs. */
size_t pb_begin(struct pb_buf *b, unsigned int field);
/** pb_end - closes the message pb_begin() opened at @at: its length is written in front */
void pb_end(struct pb_buf *b, size_t at);
/** pb_reset - empties the buffer, keeping its memory */
void pb_reset(struct pb_buf *b);
/** pb_free - the buffer's memory */
void pb_free(struct pb_buf *b);

#endif
