// SPDX-License-Identifier: GPL-2.0
/*
 * What print_guard_check() lets libtraceevent print, and what it prints
 * field by field instead: formats and records a crafted file can hold (a
 * field past the record, a __data_loc past it, a __print_hex() length, a
 * __print_array() count or an index read from the record, a divisor of
 * zero), each printed through libtraceevent afterwards where the guard let
 * it, so the ASan build of these tests sees every read it makes.
 */
#include <event-parse.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <trace-seq.h>

#include "../../../lib/decode/print-guard.h"
#include "../unit.h"

#define COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* u32 len at 8, u32 idx at 12, a __data_loc at 16, char arr[8] at 20 */
#define FIELDS \
	"\tfield:unsigned int len;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:unsigned int idx;\toffset:12;\tsize:4;\tsigned:0;\n" \
	"\tfield:__data_loc char[] name;\toffset:16;\tsize:4;\tsigned:0;\n" \
	"\tfield:unsigned char arr[8];\toffset:20;\tsize:8;\tsigned:0;\n\n"

static struct tep_handle *tep_with(const char *print_fmt)
{
	struct tep_handle *tep = tep_alloc();
	char fmt[2048];

	snprintf(fmt, sizeof(fmt), "name: ev\nID: 7\n" COMMON FIELDS "print fmt: %s\n", print_fmt);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	CU_ASSERT_EQUAL(tep_parse_event(tep, fmt, strlen(fmt), "test"), 0);
	return tep;
}

/* a 40-byte record: len, idx, name "abc" at 28 (4 bytes with its NUL) */
static void record(unsigned char *d, uint32_t len, uint32_t idx, uint32_t loc)
{
	uint16_t type = 7;

	memset(d, 0, 40);
	memcpy(d, &type, 2);
	memcpy(d + 8, &len, 4);
	memcpy(d + 12, &idx, 4);
	memcpy(d + 16, &loc, 4);
	memcpy(d + 20, "ARRAYXYZ", 8);
	memcpy(d + 28, "abc", 4);
}

#define LOC(off, len) ((uint32_t)(off) | (uint32_t)(len) << 16)

struct verdict {
	bool printable, damaged;
	char why[128];
};

/* the guard's verdict on one record of size @size, printed as libtraceevent or field by field */
static struct verdict judge(const char *print_fmt, uint32_t len, uint32_t idx, uint32_t loc,
			    int size, char *out, size_t out_len)
{
	struct tep_handle *tep = tep_with(print_fmt);
	struct print_guard *g = print_guard_new();
	unsigned char *data = calloc(1, 64);
	struct tep_record rec = { .data = data, .size = size };
	struct tep_event *ev = tep_find_event(tep, 7);
	struct tep_record *safe;
	struct verdict v = { 0 };
	struct trace_seq s;

	record(data, len, idx, loc);
	trace_seq_init(&s);
	safe = print_guard_check(g, ev, &rec, v.why, sizeof(v.why), &v.damaged);
	v.printable = safe != NULL;
	if (safe)
		tep_print_event(tep, &s, safe, "%s", TEP_PRINT_INFO);
	else
		print_guard_fields(&s, ev, &rec);
	trace_seq_terminate(&s);
	if (out)
		snprintf(out, out_len, "%s", s.buffer);
	trace_seq_destroy(&s);
	print_guard_free(g);
	free(data);
	tep_free(tep);
	return v;
}

static void test_whole_records_print(void)
{
	char out[256];
	struct verdict v = judge("\"len=%u name=%s arr=%s\", REC->len, __get_str(name), __print_hex(REC->arr, 4)",
				 3, 0, LOC(28, 4), 40, out, sizeof(out));

	CU_ASSERT_TRUE(v.printable);
	CU_ASSERT_FALSE(v.damaged);
	CU_ASSERT_STRING_EQUAL(out, "len=3 name=abc arr=41 52 52 41");
}

static void test_fields_past_the_record(void)
{
	char out[256];
	struct verdict v = judge("\"%s\", REC->arr", 0, 0, LOC(28, 4), 24, out, sizeof(out));

	CU_ASSERT_FALSE(v.printable);
	CU_ASSERT_TRUE(v.damaged);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.why, "field arr past the record's end"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "len=0 idx=0 name= arr=<past the record's end>"));
}

static void test_data_loc_past_the_record(void)
{
	struct verdict v = judge("\"%s\", __get_str(name)", 0, 0, LOC(38, 200), 40, NULL, 0);

	CU_ASSERT_FALSE(v.printable);
	CU_ASSERT_TRUE(v.damaged);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.why, "field name's data past the record's end"));
	/* inside, but without its NUL: printed from the copy, whose zeros end it */
	v = judge("\"%s\", __get_str(name)", 0, 0, LOC(20, 8), 28, NULL, 0);
	CU_ASSERT_TRUE(v.printable);
}

static void test_lengths_read_from_the_record(void)
{
	struct verdict v;

	v = judge("\"%s\", __print_hex(REC->arr, REC->len)", 8, 0, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_TRUE(v.printable);
	v = judge("\"%s\", __print_hex(REC->arr, REC->len)", 21, 0, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
	CU_ASSERT_TRUE(v.damaged);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.why, "__print_hex() length"));
	/* 2^32 + 4 is 4 in libtraceevent's unsigned int: judged as it reads it */
	v = judge("\"%s\", __print_hex(REC->arr, REC->len * 2)", 0x80000002u, 0, LOC(28, 4), 40,
		  NULL, 0);
	CU_ASSERT_TRUE(v.printable);
	v = judge("\"%s\", __print_array(REC->arr, REC->len, 4)", 5, 0, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_TRUE(v.printable);
	v = judge("\"%s\", __print_array(REC->arr, REC->len, 4)", 6, 0, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.why, "__print_array() count"));
	v = judge("\"%s\", __print_hex(__get_dynamic_array(name), __get_dynamic_array_len(name))",
		  0, 0, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_TRUE(v.printable);
}

static void test_indices_read_from_the_record(void)
{
	struct verdict v;

	v = judge("\"%d\", REC->arr[REC->idx]", 0, 7, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_TRUE(v.printable);
	v = judge("\"%d\", REC->arr[REC->idx]", 0, 20, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
	CU_ASSERT_TRUE(v.damaged);
	/* an index that wraps libtraceevent's 32-bit offset back into the record */
	v = judge("\"%d\", REC->arr[REC->idx]", 0, 0xffffffecu, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
}

/* libtraceevent divides as it finds (SIGFPE): a divisor of zero is printed field by field */
static void test_division_by_zero(void)
{
	struct verdict v;

	v = judge("\"%u\", REC->len / REC->idx", 6, 3, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_TRUE(v.printable);
	v = judge("\"%u\", REC->len / REC->idx", 6, 0, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
	CU_ASSERT_FALSE(v.damaged);
	v = judge("\"%u\", REC->len % (u8)REC->idx", 6, 256, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
}

/* a '*' width or precision from the record: libtraceevent pads to it, 4 KB a time */
static void test_star_widths(void)
{
	struct verdict v;

	v = judge("\"%*u|\", REC->len, REC->idx", 12, 3, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_TRUE(v.printable);
	v = judge("\"%*u|\", REC->len, REC->idx", 1u << 22, 3, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
	CU_ASSERT_FALSE(v.damaged);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.why, "width or precision"));
	v = judge("\"%.*s %u\", REC->len, __get_str(name), REC->idx", 0x80000000u, 3, LOC(28, 4), 40,
		  NULL, 0);
	CU_ASSERT_FALSE(v.printable);
	/* %% and %pS take no '*' of their own: the star is the third argument */
	v = judge("\"%% %pS %*u\", REC->idx, REC->len, REC->idx", 1u << 22, 3, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
	/* the format's own: 100 MB of padding a record, whatever the record holds */
	v = judge("\"%100000000u|\", REC->idx", 12, 3, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
	CU_ASSERT_FALSE(v.damaged);
	CU_ASSERT_PTR_NOT_NULL(strstr(v.why, "width or precision"));
	v = judge("\"%.5000s|\", __get_str(name)", 12, 3, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_FALSE(v.printable);
	/* within bounds, and %% before digits is no width */
	v = judge("\"%%4097 %4096u|%-08.3u\", REC->idx, REC->len", 12, 3, LOC(28, 4), 40, NULL, 0);
	CU_ASSERT_TRUE(v.printable);
}

/* A __rel_loc among the common fields, read by __get_str(): its data checked as the others' */
static void test_common_rel_loc(void)
{
	const char *fmt = "name: ev\nID: 7\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:__rel_loc char[] common_x;\toffset:4;\tsize:4;\tsigned:0;\n\n"
		"\tfield:unsigned int len;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%s\", __get_rel_str(common_x)\n";
	struct tep_handle *tep = tep_alloc();
	struct print_guard *g = print_guard_new();
	unsigned char data[16] = { 7, 0 };
	struct tep_record rec = { .data = data, .size = 16 };
	uint32_t loc = 60000 | 4u << 16;	/* 60000 past the field's end */
	bool damaged = false;
	char why[128];

	tep_set_long_size(tep, 8);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, fmt, strlen(fmt), "test"), 0);
	memcpy(data + 4, &loc, 4);
	CU_ASSERT_PTR_NULL(print_guard_check(g, tep_find_event(tep, 7), &rec, why, sizeof(why),
					     &damaged));
	CU_ASSERT_TRUE(damaged);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "common_x"));
	print_guard_free(g);
	tep_free(tep);
}

/* A handler that reads past its fields (kvm's) is never handed a record. */
static int any_handler(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		       void *ctx)
{
	(void)s;
	(void)rec;
	(void)event;
	(void)ctx;
	return 0;
}

static void test_unbounded_handlers(void)
{
	const char *fmt = "name: kvm_emulate_insn\nID: 9\n" COMMON FIELDS "print fmt: \"%u\", REC->len\n";
	struct tep_handle *tep = tep_alloc();
	struct print_guard *g = print_guard_new();
	unsigned char data[40];
	struct tep_record rec = { .data = data, .size = 40 };
	bool damaged = true;
	char why[128];

	tep_set_long_size(tep, 8);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, fmt, strlen(fmt), "kvm"), 0);
	record(data, 1, 0, LOC(28, 4));
	CU_ASSERT_PTR_NOT_NULL(print_guard_check(g, tep_find_event(tep, 9), &rec, why, sizeof(why),
						 &damaged));
	/* what a guard judged of an event it keeps: plugins register before the pass */
	print_guard_free(g);
	g = print_guard_new();
	tep_register_event_handler(tep, 9, "kvm", "kvm_emulate_insn", any_handler, NULL);
	CU_ASSERT_PTR_NULL(print_guard_check(g, tep_find_event(tep, 9), &rec, why, sizeof(why),
					     &damaged));
	CU_ASSERT_FALSE(damaged);
	print_guard_free(g);
	tep_free(tep);
}

/* Formats whose fields lie outside any record of the file's pages (checked at open). */
static void test_formats_fit_the_pages(void)
{
	struct tep_handle *tep = tep_with("\"%u\", REC->len");
	const struct tep_format_field *bad = NULL;
	struct tep_event *ev = tep_find_event(tep, 7);

	CU_ASSERT_TRUE(print_guard_format_fits(ev, 4096, &bad));
	CU_ASSERT_FALSE(print_guard_format_fits(ev, 24, &bad));
	CU_ASSERT_STRING_EQUAL(bad->name, "arr");
	tep_free(tep);
}

void suite_print_guard(void)
{
	CU_pSuite s = CU_add_suite("print guard", NULL, NULL);

	CU_add_test(s, "whole records are printed by libtraceevent", test_whole_records_print);
	CU_add_test(s, "a field past the record: field by field", test_fields_past_the_record);
	CU_add_test(s, "a __data_loc past the record", test_data_loc_past_the_record);
	CU_add_test(s, "lengths and counts read from the record", test_lengths_read_from_the_record);
	CU_add_test(s, "indices read from the record", test_indices_read_from_the_record);
	CU_add_test(s, "a divisor of zero", test_division_by_zero);
	CU_add_test(s, "widths and precisions read from the record or past 4096", test_star_widths);
	CU_add_test(s, "a __rel_loc among the common fields", test_common_rel_loc);
	CU_add_test(s, "handlers that read past their fields", test_unbounded_handlers);
	CU_add_test(s, "formats checked against the page size", test_formats_fit_the_pages);
}
