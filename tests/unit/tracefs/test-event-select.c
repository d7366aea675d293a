// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "../../../lib/tracefs/event-select.h"
#include "../unit.h"

static void expect_spec(const char *arg, const char *sys, const char *ev)
{
	struct event_spec sp;
	struct gt_error err = { 0 };

	CU_ASSERT_EQUAL_FATAL(event_spec_parse(arg, false, &sp, &err), 0);
	CU_ASSERT_STRING_EQUAL(sp.system, sys);
	CU_ASSERT_STRING_EQUAL(sp.event, ev);
	CU_ASSERT_PTR_NULL(sp.filter);
	free(sp.system);
	free(sp.event);
}

static void test_parse_forms(void)
{
	expect_spec("sched", "sched", "*");
	expect_spec("sched:sched_switch", "sched", "sched_switch");
	expect_spec("sched/sched_switch", "sched", "sched_switch");
	expect_spec("gpu_scheduler:drm_sched_job*", "gpu_scheduler", "drm_sched_job*");
	expect_spec("amdgpu:amdgpu_[!d]*", "amdgpu", "amdgpu_[!d]*");
}

static void test_parse_rejects(void)
{
	static const char *const bad[] = { "", ":x", "sched:", "a:b:c", "/x", NULL };
	struct gt_error err = { 0 };
	struct event_spec sp;
	int i;

	for (i = 0; bad[i]; i++) {
		err.msg[0] = '\0';
		CU_ASSERT_EQUAL(event_spec_parse(bad[i], false, &sp, &err), -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "expected SYSTEM"));
	}
}

static void test_filter_follows_its_event(void)
{
	struct event_selection sel = { 0 };
	struct gt_error err = { 0 };

	CU_ASSERT_EQUAL(event_selection_set_filter(&sel, "pid == 1", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "right after the -e"));

	CU_ASSERT_EQUAL(event_selection_add(&sel, "sched:sched_switch", false, &err), 0);
	CU_ASSERT_EQUAL(event_selection_add(&sel, "sched:sched_wakeup", false, &err), 0);
	CU_ASSERT_EQUAL(event_selection_set_filter(&sel, "pid == 1", &err), 0);
	CU_ASSERT_PTR_NULL(sel.specs[0].filter);
	CU_ASSERT_STRING_EQUAL(sel.specs[1].filter, "pid == 1");

	/* a preset's events are not the user's to filter */
	CU_ASSERT_EQUAL(event_selection_add(&sel, "dma_fence", true, &err), 0);
	CU_ASSERT_EQUAL(event_selection_set_filter(&sel, "x == 1", &err), -1);
	event_selection_free(&sel);
}

void suite_event_select(void)
{
	CU_pSuite s = CU_add_suite("event-select", NULL, NULL);

	CU_add_test(s, "SYS, SYS:EV, SYS/EV, globs", test_parse_forms);
	CU_add_test(s, "malformed specs are refused", test_parse_rejects);
	CU_add_test(s, "-f applies to the -e before it", test_filter_follows_its_event);
}
