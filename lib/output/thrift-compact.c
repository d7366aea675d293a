// SPDX-License-Identifier: GPL-2.0
/*
 * Thrift's compact protocol, the writing half Parquet needs
 * (thrift/doc/specs/thrift-compact-protocol.md): a field header is one byte
 * (id delta << 4 | type) when the id is 1 to 15 past the previous field's,
 * else the type and the id as a zigzag varint; integers are zigzag varints
 * (ULEB128, as protobuf's), binaries a varint length and the bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "output/protobuf.h"
#include "output/thrift-compact.h"

void tc_free(struct tc_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static bool reserve(struct tc_buf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->failed)
		return false;
	if (b->len + n <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n && cap < ((size_t)1 << 40))
		cap *= 2;
	p = cap >= b->len + n ? realloc(b->data, cap) : NULL;
	if (!p) {
		b->failed = true;
		return false;
	}
	b->data = p;
	b->cap = cap;
	return true;
}

void tc_bytes(struct tc_buf *b, const void *p, size_t n)
{
	if (!n || !reserve(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
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

	if (b->failed)
		return;
	if (b->depth < 1) {		/* a field outside any struct: a writer's bug */
		b->failed = true;
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
		b->failed = true;
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
		b->failed = true;
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
