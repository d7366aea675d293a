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

void pb_varint_field(struct pb_buf *b, unsigned int field, uint64_t v);
/* int32/int64 fields: negative values as ten-byte two's complement varints */
void pb_int_field(struct pb_buf *b, unsigned int field, int64_t v);
void pb_fixed64_field(struct pb_buf *b, unsigned int field, uint64_t v);
void pb_double_field(struct pb_buf *b, unsigned int field, double v);
void pb_bytes_field(struct pb_buf *b, unsigned int field, const void *p, size_t n);
void pb_string_field(struct pb_buf *b, unsigned int field, const char *s);
/* Opens a nested message; returns what pb_end() needs. */
size_t pb_begin(struct pb_buf *b, unsigned int field);
void pb_end(struct pb_buf *b, size_t at);
void pb_reset(struct pb_buf *b);
void pb_free(struct pb_buf *b);

#endif
