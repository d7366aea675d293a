// SPDX-License-Identifier: GPL-2.0
/* A time namespace's CLOCK_MONOTONIC offset, taken back to the kernel's clock (time-ns.h). */
#include <time.h>
#include <unistd.h>

#include "../unit.h"
#include "util/time-ns.h"

static void test_parse(void)
{
	int64_t ns;

	CU_ASSERT_EQUAL(time_ns_parse_monotonic("monotonic           0         0\nboottime            0         0\n", &ns), 0);
	CU_ASSERT_EQUAL(ns, 0);
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("monotonic        -100         0\nboottime            0         0\n", &ns), 0);
	CU_ASSERT_EQUAL(ns, -100000000000LL);
	/* boottime first, and a fraction */
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("boottime 5 0\nmonotonic 3600 250000000\n", &ns), 0);
	CU_ASSERT_EQUAL(ns, 3600250000000LL);
	/* 5.6 printed the clock's id: CLOCK_MONOTONIC is 1, CLOCK_BOOTTIME 7 */
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("1 -2 5\n7 9 0\n", &ns), 0);
	CU_ASSERT_EQUAL(ns, -1999999995LL);
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("7 9 0\n", &ns), -1);
	CU_ASSERT_EQUAL(ns, 0);
	/* nothing well-formed, nanoseconds out of range, past what the kernel's clocks reach */
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("", &ns), -1);
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("monotonic x 0\n", &ns), -1);
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("monotonic 1 1000000000\n", &ns), -1);
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("monotonic 1 -1\n", &ns), -1);
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("monotonic 9223372036 0\n", &ns), -1);
	CU_ASSERT_EQUAL(time_ns_parse_monotonic("monotonic -9223372036 0\n", &ns), -1);
	CU_ASSERT_EQUAL(ns, 0);
}

/* outside a time namespace (the suite's own), the kernel's clock is ours */
static void test_own(void)
{
	int64_t off = time_ns_monotonic_offset();
	struct timespec ts;
	uint64_t before, now, after;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	before = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	now = time_ns_kernel_mono(off);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	after = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	CU_ASSERT(before - (uint64_t)off <= now && now <= after - (uint64_t)off);
	/* by pid as by self: the HIP log's writers are read by theirs */
	CU_ASSERT_EQUAL(time_ns_monotonic_offset_of(getpid()), off);
	/* known where this process is in the namespace; unknown for one that is gone */
	if (!access("/proc/self/ns/time", F_OK)) {
		int64_t ns = 1;

		CU_ASSERT_EQUAL(time_ns_monotonic_offset_known(getpid(), &ns), 0);
		CU_ASSERT_EQUAL(ns, off);
	}
	{
		int64_t ns = 1;

		CU_ASSERT_EQUAL(time_ns_monotonic_offset_known(0x3ffffff0, &ns), -1);
		CU_ASSERT_EQUAL(ns, 0);
	}
}

void suite_time_ns(void)
{
	CU_pSuite s = CU_add_suite("time namespaces", NULL, NULL);

	CU_add_test(s, "a monotonic offset from timens_offsets' text", test_parse);
	CU_add_test(s, "the kernel's CLOCK_MONOTONIC from this process's", test_own);
}
