// SPDX-License-Identifier: GPL-2.0
/*
 * GPU events with a field outside their record (field-misses.h): counted per
 * event in a table that never grows past FIELD_MISSES_MAX, and handed to no
 * join. An i915 out whose completed? the record does not hold is no
 * preemption; the same out with a real 0 is one.
 */
#include <event-parse.h>
#include <stdint.h>
#include <string.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../unit.h"
#include "analysis/field-misses.h"
#include "analysis/i915-requests.h"

static void test_table_is_bounded(void)
{
	struct field_misses m = { 0 };
	int i;

	for (i = 0; i < 20; i++)
		field_misses_add(&m, 100 + i, 1ULL << GF_CTX);
	field_misses_add(&m, 100, 1ULL << GF_SEQNO);
	field_misses_add(&m, 119, 1ULL << GF_SEQNO);
	CU_ASSERT_EQUAL(m.records, 22);
	CU_ASSERT_EQUAL(m.nr, FIELD_MISSES_MAX);
	CU_ASSERT_EQUAL(m.other, 20 - FIELD_MISSES_MAX + 1);
	CU_ASSERT_EQUAL(m.events[0].type, 100);
	CU_ASSERT_EQUAL(m.events[0].records, 2);
	CU_ASSERT_EQUAL(m.events[0].fields, (1ULL << GF_CTX) | (1ULL << GF_SEQNO));
}

#define COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* i915-7.3's i915_request_out, its completed? moved to the end */
static const char i915_out[] = "name: i915_request_out\nID: 11\n" COMMON
	"\tfield:u32 dev;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 ctx;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:u16 class;\toffset:24;\tsize:2;\tsigned:0;\n"
	"\tfield:u16 instance;\toffset:26;\tsize:2;\tsigned:0;\n"
	"\tfield:u32 seqno;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 completed;\toffset:36;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"completed?=%u\", REC->completed\n";

static void test_i915_out_without_completed(void)
{
	struct tep_handle *tep = tep_alloc();
	unsigned char data[40] = { 11, 0 };
	struct tep_record rec = { .data = data, .ts = 1000, .size = 36 };
	const struct i915_requests *q;
	struct gt_error err = { 0 };
	char event[64], fields[64];
	struct analysis a;

	tep_set_long_size(tep, 8);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, i915_out, strlen(i915_out), "i915"), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_init(&a, tep, NULL, &err), 0);
	analysis_record(&a, &rec);
	analysis_record(&a, &rec);
	CU_ASSERT_EQUAL(analysis_totals(&a)->records, 2);
	CU_ASSERT_EQUAL(analysis_totals(&a)->gpu_events, 0);		/* no join took them */
	CU_ASSERT_EQUAL(analysis_totals(&a)->field_misses.records, 2);
	CU_ASSERT_EQUAL_FATAL(analysis_totals(&a)->field_misses.nr, 1);
	field_miss_names(&a, &analysis_totals(&a)->field_misses.events[0], event, sizeof(event), fields,
			 sizeof(fields));
	CU_ASSERT_STRING_EQUAL(event, "i915:i915_request_out");
	CU_ASSERT_STRING_EQUAL(fields, "completed");
	q = i915_requests_of(&a);
	CU_ASSERT_EQUAL(q->records, 0);
	CU_ASSERT_EQUAL(q->nr_engines, 0);		/* no preemption anywhere */
	/* the record that holds it: a real 0, a preemption */
	rec.size = 40;
	analysis_record(&a, &rec);
	CU_ASSERT_EQUAL(analysis_totals(&a)->field_misses.records, 2);
	CU_ASSERT_EQUAL(q->records, 1);
	CU_ASSERT_EQUAL_FATAL(q->nr_engines, 1);
	CU_ASSERT_EQUAL(q->engines[0].preempted, 1);
	analysis_finish(&a);
	analysis_close(&a);
	tep_free(tep);
}

void suite_field_misses(void)
{
	CU_pSuite s = CU_add_suite("field-misses", NULL, NULL);

	CU_add_test(s, "a fixed table, the rest counted together", test_table_is_bounded);
	CU_add_test(s, "an i915 out without its completed? is no preemption",
		    test_i915_out_without_completed);
}
