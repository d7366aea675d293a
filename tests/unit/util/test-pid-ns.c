// SPDX-License-Identifier: GPL-2.0
/* Names that carry their PID namespace (pid-ns.h), and the probe groups that do (probe-group.h). */
#include "../unit.h"
#include "decode/probe-group.h"
#include "util/pid-ns.h"

static void test_tails(void)
{
	CU_ASSERT_EQUAL(pid_ns_of_tail("", '.'), 0);
	CU_ASSERT_EQUAL(pid_ns_of_tail(".workload", '.'), 0);
	CU_ASSERT_EQUAL(pid_ns_of_tail(".ns4026532001", '.'), 4026532001ULL);
	CU_ASSERT_EQUAL(pid_ns_of_tail(".ns4026532001.workload", '.'), 4026532001ULL);
	CU_ASSERT_EQUAL(pid_ns_of_tail(".ns", '.'), 0);
	CU_ASSERT_EQUAL(pid_ns_of_tail(".nsx1", '.'), 0);
	CU_ASSERT_EQUAL(pid_ns_of_tail("_ns77", '_'), 77);
	CU_ASSERT_EQUAL(pid_ns_of_tail("_ns77x", '_'), 0);
	CU_ASSERT_EQUAL(pid_ns_of_tail("_ns77", '.'), 0);
}

static void test_groups(void)
{
	CU_ASSERT_EQUAL(probe_group_pid("gpu_trace_42", "gpu_trace_"), 42);
	CU_ASSERT_EQUAL(probe_group_ns("gpu_trace_42"), 0);
	CU_ASSERT_EQUAL(probe_group_pid("gpu_trace_42_ns4026532001", "gpu_trace_"), 42);
	CU_ASSERT_EQUAL(probe_group_ns("gpu_trace_42_ns4026532001"), 4026532001ULL);
	CU_ASSERT_EQUAL(probe_group_pid("gpu_trace_nv_7_ns9", "gpu_trace_nv_"), 7);
	CU_ASSERT_EQUAL(probe_group_ns("gpu_trace_nv_7_ns9"), 9);
	/* not ours: another tail, no pid */
	CU_ASSERT_EQUAL(probe_group_pid("gpu_trace_42_x", "gpu_trace_"), 0);
	CU_ASSERT_EQUAL(probe_group_pid("gpu_trace_nv_7", "gpu_trace_"), 0);
	CU_ASSERT_EQUAL(probe_group_pid("gpu_trace__ns9", "gpu_trace_"), 0);
}

/* this process runs in some namespace: the tags agree with the id */
static void test_own(void)
{
	if (pid_ns_id()) {
		CU_ASSERT_EQUAL(pid_ns_of_tail(pid_ns_instance_tag(), '.'), pid_ns_id());
		CU_ASSERT_EQUAL(pid_ns_of_tail(pid_ns_group_tag(), '_'), pid_ns_id());
	} else {
		CU_ASSERT_STRING_EQUAL(pid_ns_instance_tag(), "");
		CU_ASSERT_STRING_EQUAL(pid_ns_group_tag(), "");
	}
}

void suite_pid_ns(void)
{
	CU_pSuite s = CU_add_suite("pid namespaces in names", NULL, NULL);

	CU_add_test(s, "a name's tail after its pid", test_tails);
	CU_add_test(s, "probe groups with and without a namespace", test_groups);
	CU_add_test(s, "this process's tags", test_own);
}
