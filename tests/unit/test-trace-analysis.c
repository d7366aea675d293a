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

static struct tep_handle *tep_with(const char *kernel, const char *sys, const char *name)
{
	char path[256], *fmt;
	struct tep_handle *tep;

	snprintf(path, sizeof(path), "formats/%s/%s/%s/format", kernel, sys, name);
	fmt = fixture_read(path);
	if (!fmt)
		return NULL;
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	if (tep_parse_event(tep, fmt, strlen(fmt), sys)) {
		tep_free(tep);
		tep = NULL;
	}
	free(fmt);
	return tep;
}

static void test_short_records_go_no_further(void)
{
	struct tep_handle *tep = tep_with("linux-6.12", "gpu_scheduler", "drm_sched_job");
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
