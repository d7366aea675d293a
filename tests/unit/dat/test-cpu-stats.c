// SPDX-License-Identifier: GPL-2.0
#include "../../../lib/dat/cpu-stats.h"
#include "../unit.h"

static void test_parse(void)
{
	/* as a 6.18 kernel prints per_cpu/cpu1/stats */
	static const char text[] =
		"entries: 3\noverrun: 120235\ncommit overrun: 2\nbytes: 4080\n"
		"oldest event ts:   622.852093\nnow ts:   623.854755\n"
		"dropped events: 7\nread events: 12493\n";
	struct cpu_stats st = { 0 };

	cpu_stats_parse(text, &st);
	CU_ASSERT_EQUAL(st.entries, 3);
	CU_ASSERT_EQUAL(st.bytes, 4080);
	CU_ASSERT_EQUAL(st.overrun, 120235);
	CU_ASSERT_EQUAL(st.commit_overrun, 2);
	CU_ASSERT_EQUAL(st.dropped, 7);
	CU_ASSERT_EQUAL(st.read, 12493);
	CU_ASSERT_EQUAL(cpu_stats_lost(&st), 120235 + 2 + 7);
}

static void test_missing_lines_are_zero(void)
{
	struct cpu_stats st = { 0 };

	cpu_stats_parse("entries: 1\nsomething new: 5\n", &st);
	CU_ASSERT_EQUAL(st.entries, 1);
	CU_ASSERT_EQUAL(cpu_stats_lost(&st), 0);
}

void suite_cpu_stats(void)
{
	CU_pSuite s = CU_add_suite("cpu-stats", NULL, NULL);

	CU_add_test(s, "parses every counter", test_parse);
	CU_add_test(s, "unknown and absent lines", test_missing_lines_are_zero);
}
