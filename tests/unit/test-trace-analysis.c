// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_record(), the one door every record of a file comes through:
 * a record shorter than the common fields is damage; libtraceevent would
 * read its type and pid past it (a SEGV fuzz-output found), so it is
 * counted and goes no further.
 */
#include <event-parse.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/trace-analysis.h"
#include "unit.h"

static void test_short_records_go_no_further(void)
{
	struct tep_handle *tep = tep_with_format("linux-6.12", "gpu_scheduler", "drm_sched_job");
	struct tep_event *e;
	unsigned char data[256] = { 0 };
	struct tep_record rec = { .data = data, .ts = 1000 };
	struct gt_error err = { 0 };
	struct analysis a;
	uint16_t id;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	e = tep_find_event_by_name(tep, "gpu_scheduler", "drm_sched_job");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	id = (uint16_t)e->id;
	memcpy(data, &id, 2);
	CU_ASSERT_EQUAL_FATAL(analysis_init(&a, tep, NULL, &err), 0);
	CU_ASSERT_EQUAL(a.common_end, 8);	/* common_pid ends there */
	rec.size = 4;				/* type and flags, no pid */
	analysis_record(&a, &rec);
	CU_ASSERT_EQUAL(a.short_records, 1);
	CU_ASSERT_EQUAL(a.records, 0);
	CU_ASSERT_EQUAL(a.gpu_events, 0);
	rec.size = (int)sizeof(data);
	analysis_record(&a, &rec);
	CU_ASSERT_EQUAL(a.records, 1);
	CU_ASSERT_EQUAL(a.gpu_events, 1);
	analysis_finish(&a);
	analysis_close(&a);
	tep_free(tep);
}

void suite_trace_analysis(void)
{
	CU_pSuite s = CU_add_suite("trace-analysis: the records' door", NULL, NULL);

	CU_add_test(s, "records shorter than the common fields go no further", test_short_records_go_no_further);
}
