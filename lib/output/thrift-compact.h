/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_THRIFT_COMPACT_H
#define GT_THRIFT_COMPACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/protobuf.h"

/*
 * The part of Thrift's compact protocol that a Parquet footer and page
 * header need, write-only, into one growable buffer: structs whose fields
 * carry their id as a delta from the previous one, zigzag varints, binary
 * strings and lists, into protobuf.h's growable buffer. Parquet's own
 * structs nest at most five deep; past TC_MAX_DEPTH, or when allocation
 * fails, out.failed is set and later calls do nothing, so a writer checks
 * once at the end.
 */
#define TC_MAX_DEPTH	16

enum tc_type {
	TC_BOOL_TRUE = 1,	/* a bool field's value is its type */
	TC_BOOL_FALSE = 2,
	TC_BYTE = 3,
	TC_I16 = 4,
	TC_I32 = 5,
	TC_I64 = 6,
	TC_DOUBLE = 7,
	TC_BINARY = 8,
	TC_LIST = 9,
	TC_STRUCT = 12,
};

struct tc_buf {
	struct pb_buf out;		/* the bytes so far */
	int depth;
	int16_t last_id[TC_MAX_DEPTH];	/* per open struct, for the next field's delta */
};

/** tc_free - the buffer's memory; the buffer is empty and usable again */
void tc_free(struct tc_buf *b);
/** tc_bytes - @n raw bytes (the page data a header precedes, "PAR1") */
void tc_bytes(struct tc_buf *b, const void *p, size_t n);

/** tc_struct_begin - field @id of the open struct is a struct; its fields follow */
void tc_struct_begin(struct tc_buf *b, int16_t id);
/** tc_struct_end - the struct's stop byte */
void tc_struct_end(struct tc_buf *b);
/** tc_begin - the top-level struct (a FileMetaData, a PageHeader) opens */
void tc_begin(struct tc_buf *b);
/** tc_end - and closes */
void tc_end(struct tc_buf *b);

/** tc_i32 - field @id of the open struct, an i32 (a zigzag varint) */
void tc_i32(struct tc_buf *b, int16_t id, int32_t v);
/** tc_i64 - an i64 field */
void tc_i64(struct tc_buf *b, int16_t id, int64_t v);
/** tc_byte - an i8 field: the byte itself */
void tc_byte(struct tc_buf *b, int16_t id, int8_t v);
/** tc_bool - a bool field: its value is the field header's type */
void tc_bool(struct tc_buf *b, int16_t id, bool v);
/** tc_binary - a binary (or string) field: a varint length and the bytes */
void tc_binary(struct tc_buf *b, int16_t id, const void *p, size_t n);
/** tc_string - a NUL-terminated binary */
void tc_string(struct tc_buf *b, int16_t id, const char *s);
/** tc_empty - a struct field with no fields of its own (a union's arm such as STRING) */
void tc_empty(struct tc_buf *b, int16_t id);

/**
 * tc_list_begin - field @id is a list of @n elements of @elem: i32 elements follow as
 * tc_list_i32, binary ones as tc_list_binary, structs as tc_list_struct_begin/tc_struct_end
 */
void tc_list_begin(struct tc_buf *b, int16_t id, enum tc_type elem, uint32_t n);
/** tc_list_i32 - an i32 element of the list begun */
void tc_list_i32(struct tc_buf *b, int32_t v);
/** tc_list_binary - a binary element of the list begun (also a binary field's value) */
void tc_list_binary(struct tc_buf *b, const void *p, size_t n);
/** tc_list_struct_begin - a struct element of a list: its fields follow, then tc_struct_end */
void tc_list_struct_begin(struct tc_buf *b);

#endif
