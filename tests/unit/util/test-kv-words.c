// SPDX-License-Identifier: GPL-2.0
/* KEY=value words of gpu-trace's markers (kv-words.h): whole keys only, cut, "-" as absent. */
#include "../unit.h"
#include "util/kv-words.h"

static void test_words(void)
{
	const char *line = "gpu-trace trigger: cause=slow-job ring=gfx_0.0.0 xring=no ns=90000000 pid=- bad=12x";
	char out[8];
	uint64_t v;

	CU_ASSERT_TRUE(kv_word(line, "cause", out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "slow-jo");	/* cut to the buffer */
	CU_ASSERT_TRUE(kv_word(line, "ring", out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "gfx_0.0");
	CU_ASSERT_TRUE(kv_word(line, "pid", out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_FALSE(kv_word(line, "ing", out, sizeof(out)));
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_TRUE(kv_u64(line, "ns", &v));
	CU_ASSERT_EQUAL(v, 90000000);
	CU_ASSERT_FALSE(kv_u64(line, "pid", &v));
	CU_ASSERT_FALSE(kv_u64(line, "bad", &v));
	CU_ASSERT_FALSE(kv_u64(line, "none", &v));
}

void suite_kv_words(void)
{
	CU_pSuite s = CU_add_suite("kv words", NULL, NULL);

	CU_add_test(s, "KEY=value words", test_words);
}
