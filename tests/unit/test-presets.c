// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "../../lib/tracefs/event-select.h"
#include "../../lib/tracefs/presets.h"
#include "unit.h"

static void test_every_preset_parses(void)
{
	struct gt_error err = { 0 };
	int i, j, n = 0;

	for (i = 0; presets[i].name; i++, n++) {
		CU_ASSERT_PTR_EQUAL(preset_find(presets[i].name), &presets[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(preset_names(), presets[i].name));
		for (j = 0; presets[i].events[j]; j++) {
			struct event_spec sp;

			CU_ASSERT_EQUAL(event_spec_parse(presets[i].events[j], true, &sp, &err), 0);
			free(sp.system);
			free(sp.event);
		}
	}
	CU_ASSERT_EQUAL(n, 6);
	CU_ASSERT_PTR_NULL(preset_find("nvidia"));
}

static void test_amd_has_graph_under_amdgpu(void)
{
	const struct preset *p = preset_find("amd");

	CU_ASSERT_STRING_EQUAL(p->tracer, "function_graph");
	CU_ASSERT_STRING_EQUAL(p->function_filter, ":mod:amdgpu");
	CU_ASSERT_TRUE(p->kfd_probes);
	/* the default records every GPU system, not KFD's probes */
	CU_ASSERT_PTR_NOT_NULL_FATAL(preset_find(DEFAULT_PRESET));
	CU_ASSERT_FALSE(preset_find(DEFAULT_PRESET)->kfd_probes);
}

void suite_presets(void)
{
	CU_pSuite s = CU_add_suite("presets", NULL, NULL);

	CU_add_test(s, "every preset event parses", test_every_preset_parses);
	CU_add_test(s, "amd: function_graph under :mod:amdgpu", test_amd_has_graph_under_amdgpu);
}
