// SPDX-License-Identifier: GPL-2.0
/*
 * The Thrift compact encoder byte for byte as the protocol's specification
 * has it (short and long field headers, zigzag varints, bools in the
 * header, lists short and long, nested structs), and the Parquet writer's
 * frame: "PAR1" at both ends with the footer's length before the last,
 * bounded row groups, what is not UTF-8 as U+FFFD, a column set twice in a
 * row refused; a LIST column's repetition and definition levels; a string
 * chunk's dictionary and its ids byte for byte, in
 * runs and bit-packed, and the chunks it leaves PLAIN. The files themselves are read by DuckDB and hyparquet in
 * tests/integration/test-parquet.sh.
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/output/parquet-dict.h"
#include "../../../lib/output/parquet-writer.h"
#include "../../../lib/output/thrift-compact.h"
#include "../unit.h"

static void test_thrift_known_encodings(void)
{
	static const uint8_t want[] = {
		0x15, 0x02,			/* 1: i32 1 */
		0x16, 0x01,			/* 2: i64 -1 */
		0x11,				/* 3: true (the value is the type) */
		0x12,				/* 4: false */
		0x18, 0x02, 'a', 'b',		/* 5: "ab" */
		0xf5, 0x06,			/* 20: i32 3, 15 past 5 */
		0x05, 0x50, 0x00,		/* 40: i32 0, 20 past: the long header */
		0x05, 0x04, 0x0a,		/* 2: i32 5, back: the long header */
		0x09, 0x52, 0x25, 0x02, 0x04,	/* 41: list of 2 i32, 1 and 2 */
		0x1c, 0x15, 0x0e, 0x00,		/* 42: struct { 1: i32 7 } */
		0x19, 0xf8, 0x0f,		/* 43: list of 15 binaries: the long list header */
	};
	struct tc_buf b = { 0 };
	int i;

	tc_begin(&b);
	tc_i32(&b, 1, 1);
	tc_i64(&b, 2, -1);
	tc_bool(&b, 3, true);
	tc_bool(&b, 4, false);
	tc_string(&b, 5, "ab");
	tc_i32(&b, 20, 3);
	tc_i32(&b, 40, 0);
	tc_i32(&b, 2, 5);
	tc_list_begin(&b, 41, TC_I32, 2);
	tc_list_i32(&b, 1);
	tc_list_i32(&b, 2);
	tc_struct_begin(&b, 42);
	tc_i32(&b, 1, 7);
	tc_struct_end(&b);
	tc_list_begin(&b, 43, TC_BINARY, 15);
	CU_ASSERT_FALSE(b.out.failed);
	CU_ASSERT_EQUAL_FATAL(b.out.len, sizeof(want));
	CU_ASSERT(!memcmp(b.out.data, want, sizeof(want)));
	for (i = 0; i < 15; i++)
		tc_list_binary(&b, "", 0);
	tc_end(&b);
	CU_ASSERT_EQUAL(b.depth, 0);
	CU_ASSERT_EQUAL(b.out.data[b.out.len - 1], 0x00);
	tc_free(&b);
}

static void test_thrift_refuses_what_nests_too_deep(void)
{
	struct tc_buf b = { 0 };
	int i;

	tc_i32(&b, 1, 1);		/* a field outside any struct */
	CU_ASSERT(b.out.failed);
	tc_free(&b);
	tc_begin(&b);
	for (i = 0; i < TC_MAX_DEPTH; i++)
		tc_struct_begin(&b, 1);
	CU_ASSERT(b.out.failed);
	tc_free(&b);
	tc_end(&b);			/* a close without an open */
	CU_ASSERT(b.out.failed);
	tc_free(&b);
}

static const struct pq_column cols[] = {
	{ "n", PQ_INT64 }, { "name", PQ_STRING }, { "at", PQ_TIMESTAMP }, { "ok", PQ_BOOL },
	{ "pct", PQ_DOUBLE },
};

static void test_parquet_frame_and_groups(void)
{
	struct pq_writer w;
	char *data = NULL;
	size_t size = 0;
	uint32_t footer;
	FILE *f = open_memstream(&data, &size);
	int i;

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, cols, 5), 0);
	w.group_rows = 2;
	for (i = 0; i < 5; i++) {
		pq_i64(&w, 0, i);
		pq_str(&w, 1, i == 3 ? NULL : "gfx");
		if (i != 4)
			pq_i64(&w, 2, 1000 * i);	/* 4: left out, null */
		pq_bool(&w, 3, i & 1);
		pq_f64(&w, 4, i / 2.0);
		CU_ASSERT_EQUAL(pq_row_end(&w), 0);
	}
	/* two full groups written as they filled, the fifth row waits for the close */
	CU_ASSERT_EQUAL(w.nr_groups, 2);
	CU_ASSERT_EQUAL(w.rows, 1);
	CU_ASSERT_EQUAL(w.meta[2].stats.nulls, 0);		/* group 0's "at" */
	CU_ASSERT_EQUAL(w.meta[5 + 1].stats.nulls, 1);		/* group 1's "name": row 3 null */
	CU_ASSERT_EQUAL(w.meta[5 + 0].stats.imin, 2);		/* group 1's "n" from 2 to 3 */
	CU_ASSERT_EQUAL(w.meta[5 + 0].stats.imax, 3);
	CU_ASSERT_EQUAL(pq_close(&w, NULL, 0), 0);
	fclose(f);
	CU_ASSERT_FATAL(size > 12);
	CU_ASSERT(!memcmp(data, "PAR1", 4));
	CU_ASSERT(!memcmp(data + size - 4, "PAR1", 4));
	memcpy(&footer, data + size - 8, 4);
	footer = le32toh(footer);
	CU_ASSERT(footer > 0 && footer < size - 12);
	free(data);
}

static void test_parquet_strings_and_misuse(void)
{
	static const uint8_t want[] = { 5, 0, 0, 0, 'a', 0xef, 0xbf, 0xbd, 'b' };
	struct pq_writer w;
	char *data = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&data, &size);

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, cols, 5), 0);
	/* a lone 0xff is no UTF-8: U+FFFD, as the JSON output has it */
	pq_str(&w, 1, "a\xff" "b");
	CU_ASSERT_EQUAL(w.cur[1].values.len, sizeof(want));
	CU_ASSERT(!memcmp(w.cur[1].values.data, want, sizeof(want)));
	CU_ASSERT_EQUAL(pq_row_end(&w), 0);
	pq_i64(&w, 0, 1);
	pq_i64(&w, 0, 2);		/* the same column twice in one row */
	CU_ASSERT_EQUAL(pq_row_end(&w), -EINVAL);
	CU_ASSERT_EQUAL(pq_close(&w, NULL, 0), -EINVAL);
	pq_free(&w);			/* safe after the close */
	fclose(f);
	free(data);
}

/*
 * a LIST column's levels: null (0), empty (1), two elements (2, then 2 repeated),
 * one (2); its chunk's null count the levels under 2: the null and the empty list
 */
static void test_parquet_list_levels(void)
{
	static const struct pq_column lcols[] = { { "id", PQ_INT64 }, { "deps", PQ_STRING_LIST } };
	static const uint8_t defs[] = { 0, 1, 2, 2, 2 }, reps[] = { 0, 0, 0, 1, 0 };
	static const uint8_t values[] = { 3, 0, 0, 0, '1', ':', '1', 3, 0, 0, 0, '1', ':', '2',
					  3, 0, 0, 0, '2', ':', '1' };
	struct pq_writer w;
	char *data = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&data, &size);

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, lcols, 2), 0);
	w.group_rows = 4;
	pq_i64(&w, 0, 1);			/* deps not set: null */
	CU_ASSERT_EQUAL(pq_row_end(&w), 0);
	pq_list_begin(&w, 1);			/* [] */
	CU_ASSERT_EQUAL(pq_row_end(&w), 0);
	pq_list_begin(&w, 1);
	pq_list_str(&w, 1, "1:1");
	pq_list_str(&w, 1, "1:2");
	CU_ASSERT_EQUAL(pq_row_end(&w), 0);
	pq_list_begin(&w, 1);
	pq_list_str(&w, 1, "2:1");
	CU_ASSERT(w.cur[1].defs.len == sizeof(defs) && !memcmp(w.cur[1].defs.data, defs, sizeof(defs)));
	CU_ASSERT(w.cur[1].reps.len == sizeof(reps) && !memcmp(w.cur[1].reps.data, reps, sizeof(reps)));
	CU_ASSERT(w.cur[1].values.len == sizeof(values) &&
		  !memcmp(w.cur[1].values.data, values, sizeof(values)));
	CU_ASSERT_EQUAL(pq_row_end(&w), 0);	/* the group written */
	CU_ASSERT_EQUAL_FATAL(w.nr_groups, 1);
	CU_ASSERT_EQUAL(w.meta[1].values, 5);	/* levels, not rows */
	CU_ASSERT_EQUAL(w.meta[1].stats.nulls, 2);
	CU_ASSERT_EQUAL(w.meta[0].stats.nulls, 3);
	/* an element with no list begun this row, and a list on a flat column: refused */
	pq_list_str(&w, 1, "1:3");
	CU_ASSERT_EQUAL(pq_row_end(&w), -EINVAL);
	CU_ASSERT_EQUAL(pq_close(&w, NULL, 0), -EINVAL);
	fclose(f);
	free(data);
	f = open_memstream(&data, &size);
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, lcols, 2), 0);
	pq_list_begin(&w, 0);
	CU_ASSERT_EQUAL(pq_row_end(&w), -EINVAL);
	pq_free(&w);
	/* a LIST column given a plain string: refused */
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, lcols, 2), 0);
	pq_str(&w, 1, "1:1");
	CU_ASSERT_EQUAL(pq_row_end(&w), -EINVAL);
	pq_free(&w);
	fclose(f);
	free(data);
}

/* @n INT64s as PLAIN has them: 8 bytes each, little-endian */
static bool plain_i64s(const struct pb_buf *b, const int64_t *v, int n)
{
	uint64_t le;
	int i;

	if (b->len != 8 * (size_t)n)
		return false;
	for (i = 0; i < n; i++) {
		memcpy(&le, b->data + 8 * i, 8);
		if ((int64_t)le64toh(le) != v[i])
			return false;
	}
	return true;
}

/*
 * a LIST of STRUCT<a, b>: each field a leaf with the same levels, as
 * LogicalTypes.md's 3-level layout gives them (an optional group, a repeated
 * "list", a required "element" of required fields: definition 0 a null list,
 * 1 an empty one, 2 an element; repetition 0 a row's first, 1 the next of the
 * same row): a null list, an empty one, one element, three; its values per
 * field; the chunk's null count (levels under 2) and min/max; misuse refused
 */
static void test_parquet_struct_list_levels(void)
{
	static const struct pq_column scols[] = {
		{ "id", PQ_INT64 }, { "st.a", PQ_STRUCT_LIST_I64 }, { "st.b", PQ_STRUCT_LIST_I64 },
		{ "other.a", PQ_STRUCT_LIST_I64 },
	};
	static const uint8_t defs[] = { 0, 1, 2, 2, 2, 2 }, reps[] = { 0, 0, 0, 0, 1, 1 };
	static const int64_t a[] = { 10, 30, 50, 70 }, b[] = { 20, 40, 60, 80 };
	static const struct pq_column bad[] = { { "nodot", PQ_STRUCT_LIST_I64 } };
	int64_t v[2];
	struct pq_writer w;
	char *data = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&data, &size);
	int i, k;

	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, scols, 4), 0);
	w.group_rows = 4;
	pq_i64(&w, 0, 1);			/* st not set: a null list */
	CU_ASSERT_EQUAL(pq_row_end(&w), 0);
	pq_list_begin(&w, 1);			/* [] */
	CU_ASSERT_EQUAL(pq_row_end(&w), 0);
	pq_list_begin(&w, 1);			/* [{10, 20}] */
	v[0] = 10;
	v[1] = 20;
	pq_list_i64s(&w, 1, v, 2);
	CU_ASSERT_EQUAL(pq_row_end(&w), 0);
	pq_list_begin(&w, 1);			/* [{30, 40}, {50, 60}, {70, 80}] */
	for (i = 0; i < 3; i++) {
		v[0] = 30 + 20 * i;
		v[1] = 40 + 20 * i;
		pq_list_i64s(&w, 1, v, 2);
	}
	for (k = 1; k <= 2; k++) {
		CU_ASSERT(w.cur[k].defs.len == sizeof(defs) &&
			  !memcmp(w.cur[k].defs.data, defs, sizeof(defs)));
		CU_ASSERT(w.cur[k].reps.len == sizeof(reps) &&
			  !memcmp(w.cur[k].reps.data, reps, sizeof(reps)));
	}
	CU_ASSERT(plain_i64s(&w.cur[1].values, a, 4));
	CU_ASSERT(plain_i64s(&w.cur[2].values, b, 4));
	/* the next list of structs is its own: its fields' levels are a null list's */
	CU_ASSERT_EQUAL(w.cur[3].defs.len, 3);
	CU_ASSERT_EQUAL(pq_row_end(&w), 0);	/* the group written */
	CU_ASSERT_EQUAL_FATAL(w.nr_groups, 1);
	for (k = 1; k <= 2; k++) {
		CU_ASSERT_EQUAL(w.meta[k].values, 6);	/* levels, not rows */
		CU_ASSERT_EQUAL(w.meta[k].stats.nulls, 2);	/* the null and the empty list */
	}
	CU_ASSERT(w.meta[1].stats.imin == 10 && w.meta[1].stats.imax == 70);
	CU_ASSERT(w.meta[2].stats.imin == 20 && w.meta[2].stats.imax == 80);
	CU_ASSERT_EQUAL(w.meta[3].stats.nulls, 4);
	CU_ASSERT_EQUAL(pq_close(&w, NULL, 0), 0);
	fclose(f);
	CU_ASSERT(size > 12 && !memcmp(data + size - 4, "PAR1", 4));
	free(data);

	/* an element before its list, a list begun at its second field, a field's count wrong */
	f = open_memstream(&data, &size);
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, scols, 4), 0);
	pq_list_i64s(&w, 1, v, 2);
	CU_ASSERT_EQUAL(pq_row_end(&w), -EINVAL);
	pq_free(&w);
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, scols, 4), 0);
	pq_list_begin(&w, 2);
	CU_ASSERT_EQUAL(pq_row_end(&w), -EINVAL);
	pq_free(&w);
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, scols, 4), 0);
	pq_list_begin(&w, 1);
	pq_list_i64s(&w, 1, v, 1);
	CU_ASSERT_EQUAL(pq_row_end(&w), -EINVAL);
	pq_free(&w);
	/* a field given a flat value: refused */
	CU_ASSERT_EQUAL_FATAL(pq_open(&w, f, scols, 4), 0);
	pq_i64(&w, 2, 5);
	CU_ASSERT_EQUAL(pq_row_end(&w), -EINVAL);
	pq_free(&w);
	/* a field's name not "LIST.FIELD" */
	CU_ASSERT_EQUAL(pq_open(&w, f, bad, 1), -EINVAL);
	fclose(f);
	free(data);
}

/* PLAIN byte arrays of @n strings */
static void plain_strings(struct pb_buf *b, const char *const *v, int n)
{
	int i;

	b->len = 0;
	for (i = 0; i < n; i++) {
		uint32_t le = htole32((uint32_t)strlen(v[i]));

		pb_append(b, &le, sizeof(le));
		pb_append(b, v[i], strlen(v[i]));
	}
}

static void test_parquet_dictionary(void)
{
	/* one name in long runs: RLE runs, ids 0 1 0 */
	static const char *const runs[] = { "gfx", "gfx", "gfx", "gfx", "gfx", "gfx", "gfx", "gfx",
					    "sdma", "sdma", "sdma", "sdma", "sdma", "sdma", "sdma", "sdma",
					    "gfx", "gfx", "gfx", "gfx", "gfx", "gfx", "gfx", "gfx" };
	static const uint8_t runs_dict[] = { 3, 0, 0, 0, 'g', 'f', 'x', 4, 0, 0, 0, 's', 'd', 'm', 'a' };
	static const uint8_t runs_ids[] = { 1, 16, 0, 16, 1, 16, 0 };
	/* three rings taking turns, ten values: bit width 2, two groups of 8 packed LSB first */
	static const char *const turns[] = { "a", "b", "c", "a", "b", "c", "a", "b", "c", "a" };
	static const uint8_t turns_ids[] = { 2, 0x05,	/* bit width 2; 2 groups, bit-packed */
		0x24, 0x49,	/* 0 1 2 0 | 1 2 0 1, the first value in the lowest bits */
		0x02, 0x00 };	/* 2 0, then padding */
	static const char *const distinct[] = { "1:1", "1:2", "1:3", "1:4", "1:5", "1:6" };
	struct pb_buf plain = { 0 }, dict = { 0 }, ids = { 0 };
	uint32_t entries;

	plain_strings(&plain, runs, 24);
	CU_ASSERT_EQUAL_FATAL(pq_dict_encode(&plain, &dict, &ids, &entries), 0);
	CU_ASSERT_EQUAL(entries, 2);
	CU_ASSERT(dict.len == sizeof(runs_dict) && !memcmp(dict.data, runs_dict, dict.len));
	CU_ASSERT(ids.len == sizeof(runs_ids) && !memcmp(ids.data, runs_ids, ids.len));

	plain_strings(&plain, turns, 10);
	CU_ASSERT_EQUAL_FATAL(pq_dict_encode(&plain, &dict, &ids, &entries), 0);
	CU_ASSERT_EQUAL(entries, 3);
	CU_ASSERT(ids.len == sizeof(turns_ids) && !memcmp(ids.data, turns_ids, ids.len));

	/* every value its own: no dictionary, the chunk stays PLAIN */
	plain_strings(&plain, distinct, 6);
	CU_ASSERT_EQUAL(pq_dict_encode(&plain, &dict, &ids, &entries), 1);
	CU_ASSERT(!dict.len && !ids.len && !entries);
	/* a length past the buffer: not PLAIN byte arrays */
	plain.len = 2;
	CU_ASSERT_EQUAL(pq_dict_encode(&plain, &dict, &ids, &entries), -EINVAL);
	pb_free(&plain);
	pb_free(&dict);
	pb_free(&ids);
}

void suite_parquet_writer(void)
{
	CU_pSuite s = CU_add_suite("parquet-writer", NULL, NULL);

	CU_add_test(s, "Thrift compact encodings byte for byte", test_thrift_known_encodings);
	CU_add_test(s, "Thrift: a field outside a struct, too deep, a close too many",
		    test_thrift_refuses_what_nests_too_deep);
	CU_add_test(s, "PAR1 at both ends, row groups bounded, statistics per group",
		    test_parquet_frame_and_groups);
	CU_add_test(s, "strings as UTF-8, a column set twice refused", test_parquet_strings_and_misuse);
	CU_add_test(s, "a LIST column's levels: null, empty, two elements; misuse refused",
		    test_parquet_list_levels);
	CU_add_test(s, "a LIST of STRUCT's levels: null, empty, one, three elements; misuse refused",
		    test_parquet_struct_list_levels);
	CU_add_test(s, "a string chunk's dictionary and ids, in runs and bit-packed; distinct ones PLAIN",
		    test_parquet_dictionary);
}
