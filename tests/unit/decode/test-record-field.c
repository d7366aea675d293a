// SPDX-License-Identifier: GPL-2.0
/*
 * Fields whose format (from the file) puts them outside the record: a
 * negative offset, one past the end, one where offset + size overflows an
 * int. Read through record-field.h they are absent, never read out of
 * bounds (the ASan build of these tests would say so).
 */
#include <event-parse.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/decode/gpu-event.h"
#include "../../../lib/decode/record-field.h"
#include "../../../lib/analysis/workload-tree-private.h"
#include "../unit.h"

#define COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static struct tep_handle *tep_with(const char *sys, const char *fmt)
{
	struct tep_handle *tep = tep_alloc();

	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	CU_ASSERT_EQUAL(tep_parse_event(tep, fmt, strlen(fmt), sys), 0);
	return tep;
}

/*
 * A __data_loc string of every length up to 40, its NUL anywhere or
 * nowhere, the record ending inside it, the output shorter than it: what
 * record_field_str() writes is what a byte at a time up to the first NUL,
 * the length or the record's end, and the output's room gives.
 */
static void test_strings_of_every_length(void)
{
	struct tep_format_field f = { .offset = 8, .size = 4, .flags = TEP_FIELD_IS_DYNAMIC };
	int len, nul, end, room, bad = 0, i;

	for (len = 0; len <= 40; len++)
		for (nul = 0; nul <= len + 1; nul++)
			for (end = 12; end <= 12 + len + 2; end += (end < 12 + len - 2 ? 3 : 1))
				for (room = 1; room <= 48; room += 7) {
					unsigned char data[64];
					struct tep_record r = { .data = data, .size = end };
					uint32_t loc = 12 | (uint32_t)len << 16;
					char out[48], want[48];
					int n = len, k;

					/* past the string: bytes that must not show */
					memset(data, 'Z', sizeof(data));
					memcpy(data + 8, &loc, 4);
					for (i = 0; i < len; i++)
						data[12 + i] = i == nul ? 0 : (unsigned char)('a' + i % 26);
					memset(out, 'X', sizeof(out));
					record_field_str(&f, &r, out, (size_t)room);
					if (n > end - 12)
						n = end - 12;
					if (n > room - 1)
						n = room - 1;
					for (k = 0; k < n && data[12 + k]; k++)
						want[k] = (char)data[12 + k];
					want[k] = '\0';
					bad += strcmp(out, want) != 0;
				}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_fits(void)
{
	unsigned char data[32] = { 0 };
	struct tep_record r = { .data = data, .size = 32 };
	struct tep_format_field f = { .offset = 24, .size = 8 };
	unsigned long long v;
	int len;

	CU_ASSERT_TRUE(record_field_fits(&f, &r));
	f.offset = 25;
	CU_ASSERT_FALSE(record_field_fits(&f, &r));
	f.offset = -8;
	CU_ASSERT_FALSE(record_field_fits(&f, &r));
	CU_ASSERT_FALSE(record_field_num(&f, &r, &v));
	CU_ASSERT_PTR_NULL(record_field_tail(&f, &r, &len));
	f.offset = 0x7ffffff8;	/* + 16 overflows an int */
	f.size = 16;
	CU_ASSERT_FALSE(record_field_fits(&f, &r));
	f.offset = 8;
	f.size = -4;
	CU_ASSERT_FALSE(record_field_fits(&f, &r));
	CU_ASSERT_FALSE(record_field_fits(NULL, &r));
	f.offset = 32;
	CU_ASSERT_PTR_NULL(record_field_tail(&f, &r, &len));
	f.offset = 30;
	CU_ASSERT_PTR_NOT_NULL(record_field_tail(&f, &r, &len));
	CU_ASSERT_EQUAL(len, 2);
}

/*
 * The one reader: inside the record a number is read (0 too), outside it is a miss that
 * reads 0 and says false; a field of no number's size inside is no miss
 */
static void test_read_miss_or_value(void)
{
	unsigned char data[16] = { 0 };
	struct tep_record r = { .data = data, .size = 12 };
	struct tep_format_field f = { .offset = 8, .size = 4 };
	unsigned long long n;
	uint64_t v = 99;

	CU_ASSERT_TRUE(record_field_read(&f, &r, &v));		/* a real 0 */
	CU_ASSERT_EQUAL(v, 0);
	data[8] = 7;
	data[11] = 1;
	CU_ASSERT_TRUE(record_field_read(&f, &r, &v));
	CU_ASSERT_EQUAL(v, 0x01000007);
	f.size = 8;						/* 4 bytes past the end */
	v = 99;
	CU_ASSERT_FALSE(record_field_read(&f, &r, &v));
	CU_ASSERT_EQUAL(v, 0);
	CU_ASSERT_FALSE(record_field_num(&f, &r, &n));
	f.offset = 12;
	f.size = 1;						/* starts at the end */
	CU_ASSERT_FALSE(record_field_read(&f, &r, &v));
	CU_ASSERT_FALSE(record_field_read(NULL, &r, &v));
	f.offset = 8;
	f.size = 3;						/* no number's size */
	CU_ASSERT_TRUE(record_field_read(&f, &r, &v));
	CU_ASSERT_EQUAL(v, 0);
	CU_ASSERT_FALSE(record_field_num(&f, &r, &n));
	f.size = 2;
	CU_ASSERT_TRUE(record_field_num(&f, &r, &n));
	CU_ASSERT_EQUAL(n, 7);
}

/* A string the record does not hold is a miss; a kernel pointer to one is not */
static void test_string_miss(void)
{
	unsigned char data[32] = { 0 };
	struct tep_record r = { .data = data, .size = 16 };
	struct tep_format_field f = { .offset = 8, .size = 4, .flags = TEP_FIELD_IS_DYNAMIC };
	uint32_t loc;
	char out[16];

	loc = 12 | 4u << 16;					/* "abc\0" at 12: inside */
	memcpy(data + 8, &loc, 4);
	memcpy(data + 12, "abc", 4);
	CU_ASSERT_TRUE(record_field_str(&f, &r, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "abc");
	loc = 20 | 4u << 16;					/* past the end */
	memcpy(data + 8, &loc, 4);
	CU_ASSERT_FALSE(record_field_str(&f, &r, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "");
	loc = 14 | 4u << 16;					/* ends past it: cut */
	memcpy(data + 8, &loc, 4);
	CU_ASSERT_FALSE(record_field_str(&f, &r, out, sizeof(out)));
	f.offset = 14;						/* the location itself */
	CU_ASSERT_FALSE(record_field_str(&f, &r, out, sizeof(out)));
	f.offset = 8;
	loc = 12 | 4u << 16;
	memcpy(data + 8, &loc, 4);
	f.size = 3;						/* a location no number is */
	CU_ASSERT_FALSE(record_field_str(&f, &r, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "");
	f.size = 2;						/* a u16: offset 12, no length */
	CU_ASSERT_TRUE(record_field_str(&f, &r, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "");
	f.size = 8;			/* a u64: "abc" read into the length, which runs past the end */
	CU_ASSERT_FALSE(record_field_str(&f, &r, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "abc");
	f.flags = TEP_FIELD_IS_POINTER | TEP_FIELD_IS_STRING;	/* const char *: never in it */
	CU_ASSERT_TRUE(record_field_str(&f, &r, out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "");
}

#define I915_OUT(completed_at) \
	"name: i915_request_out\nID: 11\n" COMMON \
	"\tfield:u32 dev;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:u64 ctx;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:u16 class;\toffset:24;\tsize:2;\tsigned:0;\n" \
	"\tfield:u16 instance;\toffset:26;\tsize:2;\tsigned:0;\n" \
	"\tfield:u32 seqno;\toffset:28;\tsize:4;\tsigned:0;\n" \
	"\tfield:u32 completed;\toffset:" completed_at ";\tsize:4;\tsigned:0;\n\n" \
	"print fmt: \"completed?=%u\", REC->completed\n"

/*
 * i915_request_out whose completed? lies past the record: no completed (-1), not 0 (a
 * preemption), and the event says which field it misses, by both decoders alike; the
 * same format with the field inside reads a real 0
 */
static void test_i915_out_completed_missing(void)
{
	struct tep_handle *tep = tep_with("i915", I915_OUT("36"));
	struct tep_event *e = tep_find_event_by_name(tep, "i915", "i915_request_out");
	struct gpu_decoder *dec = gpu_decoder_new(tep);
	unsigned char rec[40] = { 11, 0 };
	struct tep_record r = { .ts = 1, .data = rec, .size = 36 };
	struct gpu_event a, b;
	char names[64], line[256];
	uint32_t seqno = 5;

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dec);
	memcpy(rec + 28, &seqno, 4);
	CU_ASSERT_EQUAL(gpu_event_decode_one(e, &r, &a), GEV_I915_REQUEST);
	CU_ASSERT_EQUAL(gpu_decoder_decode(dec, &r, &b), GEV_I915_REQUEST);
	CU_ASSERT_EQUAL(a.missing, 1ULL << GF_COMPLETED);
	CU_ASSERT_EQUAL(b.missing, 1ULL << GF_COMPLETED);
	CU_ASSERT_EQUAL(a.completed, -1);
	CU_ASSERT_EQUAL(b.completed, -1);
	CU_ASSERT_EQUAL(b.seqno, 5);
	CU_ASSERT_TRUE(b.has_fence);		/* ctx and seqno are in the record */
	gpu_decoder_field_names(dec, 11, b.missing, names, sizeof(names));
	CU_ASSERT_STRING_EQUAL(names, "completed");
	/* the printed line claims neither completion nor preemption, and names the miss */
	gpu_event_format(&b, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "request 0:5 out on rcs0 [outside the record: completed]");
	/* the record long enough: a real 0, a preemption */
	r.size = 40;
	CU_ASSERT_EQUAL(gpu_decoder_decode(dec, &r, &b), GEV_I915_REQUEST);
	CU_ASSERT_EQUAL(b.missing, 0);
	CU_ASSERT_EQUAL(b.completed, 0);
	/* the record shorter still: ctx, seqno, engine and completed, no fence key */
	r.size = 20;
	CU_ASSERT_EQUAL(gpu_decoder_decode(dec, &r, &b), GEV_I915_REQUEST);
	CU_ASSERT_FALSE(b.has_fence);
	CU_ASSERT_EQUAL(b.missing, (1ULL << GF_CTX) | (1ULL << GF_SEQNO) | (1ULL << GF_COMPLETED) |
				   (1ULL << GF_ENGINE_CLASS) | (1ULL << GF_ENGINE_INSTANCE));
	gpu_decoder_field_names(dec, 11, b.missing, names, sizeof(names));
	CU_ASSERT_STRING_EQUAL(names, "ctx,seqno,class,instance,completed");
	gpu_decoder_field_names(dec, 11, b.missing, names, 8);	/* cut, terminated */
	CU_ASSERT_STRING_EQUAL(names, "ctx,seq");
	gpu_decoder_field_names(dec, 12, b.missing, names, sizeof(names));	/* not ours */
	CU_ASSERT_STRING_EQUAL(names, "");
	gpu_decoder_free(dec);
	tep_free(tep);
}

/* drm_sched_job with its id, fence and name where no record has them */
static void test_crafted_scheduler_event(void)
{
	static const char *const fmts[] = {
		"name: drm_sched_job\nID: 7\n" COMMON
		"\tfield:u64 id;\toffset:-64;\tsize:8;\tsigned:0;\n"
		"\tfield:struct dma_fence * fence;\toffset:2147483640;\tsize:16;\tsigned:0;\n"
		"\tfield:__data_loc char[] name;\toffset:-4;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"id=%llu\", REC->id\n",
		"name: drm_sched_job\nID: 7\n" COMMON
		"\tfield:u64 id;\toffset:4096;\tsize:8;\tsigned:0;\n"
		"\tfield:struct dma_fence * fence;\toffset:8;\tsize:2147483647;\tsigned:0;\n"
		"\tfield:__data_loc char[] name;\toffset:2147483646;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"id=%llu\", REC->id\n",
	};
	size_t i;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		struct tep_handle *tep = tep_with("gpu_scheduler", fmts[i]);
		struct tep_event *e = tep_find_event_by_name(tep, "gpu_scheduler", "drm_sched_job");
		unsigned char *rec = calloc(1, 24);
		struct tep_record r = { .ts = 1, .data = rec, .size = 24 };
		struct gpu_event ev;

		CU_ASSERT_PTR_NOT_NULL_FATAL(e);
		rec[0] = 7;
		CU_ASSERT_EQUAL(gpu_event_decode_one(e, &r, &ev), GEV_QUEUE);
		CU_ASSERT_EQUAL(ev.id, 0);
		CU_ASSERT_EQUAL(ev.fence_ptr, 0);
		CU_ASSERT_STRING_EQUAL(ev.ring, "");
		/*
		 * each one a miss, not a value: no key of a job (libtraceevent keeps no
		 * field of the first format, whose offsets are negative: none is missed)
		 */
		CU_ASSERT_EQUAL(ev.missing, i ? (1ULL << GF_ID) | (1ULL << GF_FENCE_PTR) |
						(1ULL << GF_RING) : 0);
		CU_ASSERT_FALSE(ev.has_id);
		free(rec);
		tep_free(tep);
	}
}

/* the pid tree's fork and print fields, crafted the same way */
static void test_crafted_workload_events(void)
{
	struct tep_handle *tep = tep_with("sched",
		"name: sched_process_fork\nID: 9\n" COMMON
		"\tfield:pid_t parent_pid;\toffset:-32;\tsize:4;\tsigned:1;\n"
		"\tfield:pid_t child_pid;\toffset:2147483647;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"%d\", REC->parent_pid\n");
	const char *print = "name: print\nID: 5\n" COMMON
		"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:char buf[];\toffset:-16;\tsize:0;\tsigned:0;\n\n"
		"print fmt: \"%s\", REC->buf\n";
	unsigned char *rec = calloc(1, 16);
	struct tep_record r = { .ts = 1, .data = rec, .size = 16 };
	struct workload_tree_state w;

	CU_ASSERT_EQUAL(tep_parse_event(tep, print, strlen(print), "ftrace"), 0);
	workload_tree_init(&w, tep);
	workload_tree_add_marker(&w.model, "gpu-trace workload pids=1 comm=x");
	rec[0] = 9;
	workload_tree_add(&w, &r, 9);
	rec[0] = 5;
	workload_tree_add(&w, &r, 5);
	CU_ASSERT_FALSE(workload_tree_has(&w.model, 0));
	workload_tree_free(&w.model);
	free(rec);
	tep_free(tep);
}

void suite_record_field(void)
{
	CU_pSuite s = CU_add_suite("record-field", NULL, NULL);

	CU_add_test(s, "inside, outside, overflowing", test_fits);
	CU_add_test(s, "a read outside is a miss, a 0 inside a value", test_read_miss_or_value);
	CU_add_test(s, "a string outside is a miss, a kernel pointer not", test_string_miss);
	CU_add_test(s, "i915 out's completed? outside: neither completed nor preempted",
		    test_i915_out_completed_missing);
	CU_add_test(s, "strings of every length, cut where the record or the room ends",
		    test_strings_of_every_length);
	CU_add_test(s, "a scheduler event's fields outside its record", test_crafted_scheduler_event);
	CU_add_test(s, "the pid tree's fork and print fields outside", test_crafted_workload_events);
}
