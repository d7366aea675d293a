// SPDX-License-Identifier: GPL-2.0
/*
 * dat_meta_read() on files fuzz-report kept: what libtracecmd 3.1.6 would
 * read for ever, or allocate by a count the file claims, is refused or
 * skipped before libtracecmd opens it.
 */
#include <stdlib.h>
#include <string.h>

#include "../../lib/dat/dat-format.h"
#include "../../lib/dat/dat-meta.h"
#include "unit.h"

#define CRASHERS "tests/fuzz/crashers/"

/* A section size of 2^63 or more: libtracecmd's walk over the sections steps back for ever. */
static void test_section_size_that_steps_back(void)
{
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct gt_error err = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(dat_meta_read(CRASHERS "timeout-v7-section-size-steps-back.dat", m, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "a section claims a size that steps back"));
	free(m);
}

/* A time shift option claiming 540 million CPUs is skipped, never handed on. */
static void test_time_shift_bomb_skipped(void)
{
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct gt_error err = { 0 };
	bool skipped = false;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	dat_meta_read(CRASHERS "oom-time-shift-claims-540m-cpus-v7.dat", m, &err);
	for (i = 0; i < m->nr_skipped; i++)
		skipped |= m->skipped[i].id == DAT_OPT_TIME_SHIFT;
	CU_ASSERT_TRUE(skipped);
	free(m);
}

void suite_dat_meta(void)
{
	CU_pSuite s = CU_add_suite("dat-meta: what libtracecmd must never see", NULL, NULL);

	CU_add_test(s, "a section size that steps back is refused", test_section_size_that_steps_back);
	CU_add_test(s, "a time shift bomb is skipped", test_time_shift_bomb_skipped);
}
