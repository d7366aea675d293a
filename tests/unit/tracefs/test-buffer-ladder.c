// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "../../../lib/tracefs/buffer-ladder.h"
#include "../unit.h"

/* A kernel stand-in: grants sizes up to `limit_kb`, rounds like the kernel. */
struct fake_kernel {
	unsigned long size_kb;
	unsigned long limit_kb;
	int other_errno;
	int calls;
};

static int fake_set(void *ctx, unsigned long kb, struct gt_error *err)
{
	struct fake_kernel *k = ctx;

	k->calls++;
	if (k->other_errno == EACCES) {
		/* as the session's op reports it: what failed, why */
		gt_error_set(err, EACCES, "cannot open /t/buffer_size_kb: Permission denied");
		return -EACCES;
	}
	if (k->other_errno)
		return -k->other_errno;
	if (kb > k->limit_kb)
		return -ENOMEM;
	k->size_kb = kb + 3;	/* page rounding, as 2048 -> 2051 */
	return 0;
}

static long fake_get(void *ctx)
{
	return (long)((struct fake_kernel *)ctx)->size_kb;
}

static int run(struct fake_kernel *k, unsigned long explicit_kb, unsigned long cap,
	       struct buffer_result *res)
{
	struct buffer_ops ops = { fake_set, fake_get, k };
	struct gt_error err = { 0 };

	return buffer_ladder_apply(&ops, explicit_kb, cap, res, &err);
}

static void test_climbs_to_top(void)
{
	struct fake_kernel k = { 1410, 1UL << 30, 0, 0 };
	struct buffer_result res;

	CU_ASSERT_EQUAL(run(&k, 0, 1UL << 30, &res), 0);
	CU_ASSERT_EQUAL(res.granted_kb, 16387);
	CU_ASSERT_EQUAL(res.nr_attempts, 4);
	CU_ASSERT_EQUAL(res.attempts[3].result, BUFFER_GRANTED);
	CU_ASSERT_FALSE(res.kept_previous);
}

static void test_stops_at_first_enomem(void)
{
	struct fake_kernel k = { 1410, 10000, 0, 0 };
	struct buffer_result res;

	CU_ASSERT_EQUAL(run(&k, 0, 1UL << 30, &res), 0);
	CU_ASSERT_EQUAL(res.granted_kb, 8195);
	CU_ASSERT_EQUAL(res.nr_attempts, 3);
	CU_ASSERT_EQUAL(res.attempts[2].kb, 12288);
	CU_ASSERT_EQUAL(res.attempts[2].result, BUFFER_REFUSED);
	/* nothing above the first refusal is asked for */
	CU_ASSERT_EQUAL(k.calls, 3);
}

static void test_first_rung_refused_keeps_size(void)
{
	struct fake_kernel k = { 1410, 100, 0, 0 };
	struct buffer_result res;

	CU_ASSERT_EQUAL(run(&k, 0, 1UL << 30, &res), 0);
	CU_ASSERT_EQUAL(res.granted_kb, 1410);
	CU_ASSERT_TRUE(res.kept_previous);
	CU_ASSERT_EQUAL(k.calls, 1);
}

static void test_safe_share_caps_the_ladder(void)
{
	struct fake_kernel k = { 1410, 1UL << 30, 0, 0 };
	struct buffer_result res;

	CU_ASSERT_EQUAL(run(&k, 0, 10000, &res), 0);
	CU_ASSERT_EQUAL(res.granted_kb, 8195);
	CU_ASSERT_EQUAL(res.nr_attempts, 3);
	CU_ASSERT_EQUAL(res.attempts[2].result, BUFFER_SKIPPED);
	CU_ASSERT_EQUAL(k.calls, 2);
	/* 1/8 of 16 GB over 4 CPUs */
	CU_ASSERT_EQUAL(buffer_safe_cap_kb(16UL << 20, 4), 524288);
	CU_ASSERT_EQUAL(buffer_safe_cap_kb(8000, 0), 1000);
}

static void test_explicit_refused_walks_down(void)
{
	struct fake_kernel k = { 1410, 13000, 0, 0 };
	struct buffer_result res;

	/* halves above the top rung first (50000, 25000), then the rungs */
	CU_ASSERT_EQUAL(run(&k, 100000, 1UL << 30, &res), 0);
	CU_ASSERT_EQUAL(res.granted_kb, 12291);
	CU_ASSERT_EQUAL(res.nr_attempts, 5);
	CU_ASSERT_EQUAL(res.attempts[0].kb, 100000);
	CU_ASSERT_EQUAL(res.attempts[0].result, BUFFER_REFUSED);
	CU_ASSERT_EQUAL(res.attempts[1].kb, 50000);
	CU_ASSERT_EQUAL(res.attempts[2].kb, 25000);
	CU_ASSERT_EQUAL(res.attempts[3].kb, 16384);
	CU_ASSERT_EQUAL(res.attempts[3].result, BUFFER_REFUSED);
	CU_ASSERT_EQUAL(res.attempts[4].kb, 12288);
	CU_ASSERT_EQUAL(res.attempts[4].result, BUFFER_GRANTED);
}

/*
 * A huge -b the kernel refuses ends near the largest it grants, not at 16 MB
 * (issue 22), and never above the safe share it was not asked for.
 */
static void test_explicit_refused_halves_to_the_largest_granted(void)
{
	struct fake_kernel k = { 1410, 70000, 0, 0 };
	struct buffer_result res;

	CU_ASSERT_EQUAL(run(&k, 1000000, 1UL << 30, &res), 0);
	CU_ASSERT_EQUAL(res.granted_kb, 62503);	/* 500000, 250000, 125000 refused */
	CU_ASSERT_EQUAL(res.nr_attempts, 5);
	/* the safe share caps the halves: 100000 once, then 62500 */
	k = (struct fake_kernel){ 1410, 70000, 0, 0 };
	CU_ASSERT_EQUAL(run(&k, 1000000, 100000, &res), 0);
	CU_ASSERT_EQUAL(res.granted_kb, 62503);
	CU_ASSERT_EQUAL(res.nr_attempts, 3);
	CU_ASSERT_EQUAL(res.attempts[1].kb, 100000);
	CU_ASSERT_EQUAL(res.attempts[1].result, BUFFER_REFUSED);
	k = (struct fake_kernel){ 1410, 1UL << 30, 0, 0 };
	CU_ASSERT_EQUAL(run(&k, 1UL << 30, 400000, &res), 0);
	CU_ASSERT_EQUAL(res.granted_kb, (1UL << 30) + 3);	/* asked and granted: no cap */
}

static void test_explicit_granted_and_all_refused(void)
{
	struct fake_kernel k = { 1410, 1UL << 30, 0, 0 };
	struct buffer_result res;

	CU_ASSERT_EQUAL(run(&k, 6000, 1UL << 30, &res), 0);
	CU_ASSERT_EQUAL(res.granted_kb, 6003);
	CU_ASSERT_EQUAL(res.nr_attempts, 1);

	k = (struct fake_kernel){ 1410, 1000, 0, 0 };
	CU_ASSERT_EQUAL(run(&k, 6000, 1UL << 30, &res), 0);
	/* only rungs below the request are tried: 4096 */
	CU_ASSERT_EQUAL(res.nr_attempts, 2);
	CU_ASSERT_TRUE(res.kept_previous);
	CU_ASSERT_EQUAL(res.granted_kb, 1410);
}

static void test_other_errors_fail(void)
{
	struct fake_kernel k = { 1410, 1UL << 30, EACCES, 0 };
	struct buffer_ops ops = { fake_set, fake_get, &k };
	struct gt_error err = { 0 };
	struct buffer_result res;

	CU_ASSERT_EQUAL(buffer_ladder_apply(&ops, 0, 1UL << 30, &res, &err), -1);
	CU_ASSERT_EQUAL(err.errnum, EACCES);
	/* the operation's own first message, not a second one over it */
	CU_ASSERT_STRING_EQUAL(err.msg, "cannot open /t/buffer_size_kb: Permission denied");
	/* an operation that says nothing gets the ladder's words */
	k.other_errno = EIO;
	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL(buffer_ladder_apply(&ops, 0, 1UL << 30, &res, &err), -1);
	CU_ASSERT_EQUAL(err.errnum, EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "4096 KB"));
}

static void test_describe(void)
{
	struct fake_kernel k = { 1410, 10000, 0, 0 };
	struct buffer_result res;
	char line[512];

	run(&k, 0, 1UL << 30, &res);
	k.size_kb = 8192;
	res.granted_kb = 8192;
	buffer_result_describe(&res, 2, line, sizeof(line));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "buffer: 8192 KB per CPU x 2 CPUs = 16 MB"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "12288 KB refused (ENOMEM)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "4096 KB ok"));
}

void suite_buffer_ladder(void)
{
	CU_pSuite s = CU_add_suite("buffer-ladder", NULL, NULL);

	CU_add_test(s, "climbs 4/8/12/16 MB when granted", test_climbs_to_top);
	CU_add_test(s, "stops at the first ENOMEM", test_stops_at_first_enomem);
	CU_add_test(s, "keeps the size when 4 MB is refused", test_first_rung_refused_keeps_size);
	CU_add_test(s, "never above the safe share", test_safe_share_caps_the_ladder);
	CU_add_test(s, "refused -b walks down the ladder", test_explicit_refused_walks_down);
	CU_add_test(s, "refused -b halves to the largest granted", test_explicit_refused_halves_to_the_largest_granted);
	CU_add_test(s, "-b granted / nothing granted", test_explicit_granted_and_all_refused);
	CU_add_test(s, "errors other than ENOMEM fail", test_other_errors_fail);
	CU_add_test(s, "describes the result in one line", test_describe);
}
