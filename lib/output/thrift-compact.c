// SPDX-License-Identifier: GPL-2.0
/*
 * Thrift's compact protocol, the writing half Parquet needs
 * (thrift/doc/specs/thrift-compact-protocol.md): a field header is one byte
 * (id delta << 4 | type) when the id is 1 to 15 past the previous field's,
 * else the type and the id as a zigzag varint; integers are zigzag varints
 * (ULEB128, as protobuf's), binaries a varint length and the bytes.
 */
#include <string.h>

#include "output/protobuf.h"
#include "output/thrift-compact.h"

void tc_free(struct tc_buf *b)
{
	pb_free(&b->out);
	memset(b, 0, sizeof(*b));
}

void tc_bytes(struct tc_buf *b, const void *p, size_t n)
{
	pb_append(&b->out, p, n);
}

static void byte(struct tc_buf *b, uint8_t v)
{
	tc_bytes(b, &v, 1);
}

static void varint(struct tc_buf *b, uint64_t v)
{
	uint8_t out[10];

	tc_bytes(b, out, pb_varint(out, v));
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static void field(struct tc_buf *b, int16_t id, enum tc_type type)
{
	int16_t *last;

	if (b->out.failed)
		return;
	if (b->depth < 1) {		/* a field outside any struct: a writer's bug */
		b->out.failed = true;
		return;
	}
	last = &b->last_id[b->depth - 1];
	if (id > *last && id - *last <= 15) {
		byte(b, (uint8_t)((id - *last) << 4 | type));
	} else {
		byte(b, (uint8_t)type);
		varint(b, zigzag(id));
	}
	*last = id;
}

static void push(struct tc_buf *b)
{
	if (b->depth == TC_MAX_DEPTH) {
		b->out.failed = true;
		return;
	}
	b->last_id[b->depth++] = 0;
}

void tc_begin(struct tc_buf *b)
{
	push(b);
}

void tc_end(struct tc_buf *b)
{
	tc_struct_end(b);
}

void tc_struct_begin(struct tc_buf *b, int16_t id)
{
	field(b, id, TC_STRUCT);
	push(b);
}

void tc_list_struct_begin(struct tc_buf *b)
{
	push(b);
}

void tc_struct_end(struct tc_buf *b)
{
	if (b->depth < 1) {
		b->out.failed = true;
		return;
	}
	byte(b, 0);
	b->depth--;
}

void tc_empty(struct tc_buf *b, int16_t id)
{
	tc_struct_begin(b, id);
	tc_struct_end(b);
}

void tc_i32(struct tc_buf *b, int16_t id, int32_t v)
{
	field(b, id, TC_I32);
	varint(b, zigzag(v));
}

void tc_i64(struct tc_buf *b, int16_t id, int64_t v)
{
	field(b, id, TC_I64);
	varint(b, zigzag(v));
}

void tc_byte(struct tc_buf *b, int16_t id, int8_t v)
{
	field(b, id, TC_BYTE);
	byte(b, (uint8_t)v);
}

void tc_bool(struct tc_buf *b, int16_t id, bool v)
{
	field(b, id, v ? TC_BOOL_TRUE : TC_BOOL_FALSE);
}

void tc_binary(struct tc_buf *b, int16_t id, const void *p, size_t n)
{
	field(b, id, TC_BINARY);
	tc_list_binary(b, p, n);
}

void tc_string(struct tc_buf *b, int16_t id, const char *s)
{
	tc_binary(b, id, s, strlen(s));
}

void tc_list_begin(struct tc_buf *b, int16_t id, enum tc_type elem, uint32_t n)
{
	field(b, id, TC_LIST);
	if (n < 15) {
		byte(b, (uint8_t)(n << 4 | elem));
	} else {
		byte(b, (uint8_t)(0xf0 | elem));
		varint(b, n);
	}
}

void tc_list_i32(struct tc_buf *b, int32_t v)
{
	varint(b, zigzag(v));
}

void tc_list_binary(struct tc_buf *b, const void *p, size_t n)
{
	varint(b, n);
	tc_bytes(b, p, n);
}
