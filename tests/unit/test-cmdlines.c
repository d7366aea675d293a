// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/capture/cmdlines.h"
#include "unit.h"

static void test_known_replaces_and_proc_fills(void)
{
	struct pid_comm known[] = { { 4242, "sleep" } };
	char self[64], *out;
	int pids[] = { 1, 4242, (int)getpid(), 999999 };

	/* the cache names 4242 as it was before exec */
	out = cmdlines_merge("1 init\n4242 gpu-trace\n", pids, 4, known, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1 init\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "4242 sleep\n"));
	CU_ASSERT_PTR_NULL(strstr(out, "4242 gpu-trace"));
	/* a live pid the cache lacks is named from /proc */
	snprintf(self, sizeof(self), "%d unit-tests\n", (int)getpid());
	CU_ASSERT_PTR_NOT_NULL(strstr(out, self));
	/* a pid gone from /proc and unknown gets no invented name */
	CU_ASSERT_PTR_NULL(strstr(out, "999999"));
	free(out);
}

void suite_cmdlines(void)
{
	CU_pSuite s = CU_add_suite("cmdlines", NULL, NULL);

	CU_add_test(s, "known names win, /proc fills gaps", test_known_replaces_and_proc_fills);
}
