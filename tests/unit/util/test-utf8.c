// SPDX-License-Identifier: GPL-2.0
/*
 * Bytes from a file that are not UTF-8: json_str() and Perfetto's strings
 * replace each maximal ill-formed part with one U+FFFD (as Python's
 * errors="replace" and browsers do), and keep what is UTF-8 as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/output/protobuf.h"
#include "../../../lib/util/json-str.h"
#include "../../../lib/util/utf8.h"
#include "../unit.h"

static void test_sequences(void)
{
	CU_ASSERT_EQUAL(utf8_seq_len((const unsigned char *)"a", 1), 1);
	CU_ASSERT_EQUAL(utf8_seq_len((const unsigned char *)"\xc3\xa9", 2), 2);
	CU_ASSERT_EQUAL(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80", 4), 4);
	CU_ASSERT_EQUAL(utf8_seq_len((const unsigned char *)"\xc3", 1), -1);	/* more to come */
	CU_ASSERT_EQUAL(utf8_seq_len((const unsigned char *)"\xc0\xaf", 2), 0);	/* overlong */
	CU_ASSERT_EQUAL(utf8_seq_len((const unsigned char *)"\xed\xa0\x80", 3), 0);	/* surrogate */
	CU_ASSERT_EQUAL(utf8_seq_len((const unsigned char *)"\xf4\x90\x80\x80", 4), 0);	/* > U+10FFFF */
	CU_ASSERT_EQUAL(utf8_seq_len((const unsigned char *)"\x9b", 1), 0);
	CU_ASSERT_EQUAL(utf8_bad_len((const unsigned char *)"\xe2\x82x", 3), 2);
	CU_ASSERT_EQUAL(utf8_bad_len((const unsigned char *)"\xed\xa0\x80", 3), 1);
	CU_ASSERT_EQUAL(utf8_bad_len((const unsigned char *)"\xff", 1), 1);
}

static void json_of(const char *s, char *out, size_t len)
{
	FILE *f = fmemopen(out, len, "w");

	json_str(f, s);
	fclose(f);
}

static void test_json(void)
{
	char out[128];

	json_of("ok \xc3\xa9", out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "\"ok \xc3\xa9\"");
	json_of("gfx\xff\x9b" "2J\xe2\x82", out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "\"gfx\\ufffd\\ufffd2J\\ufffd\"");
	json_of("a\xc2\x9b" "b\x1b", out, sizeof(out));
	CU_ASSERT_STRING_EQUAL(out, "\"a\\u009bb\\u001b\"");
}

static void test_protobuf_text(void)
{
	uint8_t buf[64];
	const char *s = "sdma\xed\xa0\x80";
	uint8_t *end = pbw_text_field(buf, 1, s, strlen(s));
	const char want[] = "sdma\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd";
	uint64_t n = 0;
	int i;

	CU_ASSERT_EQUAL(buf[0], (1 << 3) | 2);
	for (i = 0; i < 5; i++)
		n |= (uint64_t)(buf[1 + i] & 0x7f) << (7 * i);
	CU_ASSERT_EQUAL(n, strlen(want));
	CU_ASSERT_EQUAL(end - buf, 6 + (long)strlen(want));
	CU_ASSERT_EQUAL(memcmp(buf + 6, want, strlen(want)), 0);
	/* ASCII as it was */
	end = pbw_text_field(buf, 1, "gfx", 3);
	CU_ASSERT_EQUAL(end - buf, 5);
	CU_ASSERT_EQUAL(memcmp(buf + 2, "gfx", 3), 0);
}

void suite_utf8(void)
{
	CU_pSuite s = CU_add_suite("utf8", NULL, NULL);

	CU_add_test(s, "well-formed and ill-formed sequences", test_sequences);
	CU_add_test(s, "JSON strings valid UTF-8", test_json);
	CU_add_test(s, "Perfetto's strings valid UTF-8", test_protobuf_text);
}
