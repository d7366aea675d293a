// SPDX-License-Identifier: GPL-2.0
/* report --events' lines: text_buf's numbers and padding as printf() writes them. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../../../lib/util/text-buf.h"
#include "../unit.h"

static void same(struct text_buf *t, const char *want)
{
	CU_ASSERT_EQUAL(t->len, strlen(want));
	CU_ASSERT(t->len == strlen(want) && !memcmp(t->buf, want, t->len));
	if (t->len != strlen(want) || memcmp(t->buf, want, t->len))
		fprintf(stderr, "\n  '%.*s' != '%s'\n", (int)t->len, t->buf, want);
	t->len = 0;
}

static void test_numbers(void)
{
	static const long long values[] = { 0, 1, -1, 7, 42, -42, 999, 1000, 65535, -99999, 123456,
					    INT_MAX, INT_MIN, LLONG_MAX, LLONG_MIN };
	static const int widths[] = { 0, 1, 3, 5, 8, 21 };
	struct text_buf t = { 0 };
	char want[64];
	size_t i, w;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
			text_buf_num(&t, values[i], widths[w], false, false);
			snprintf(want, sizeof(want), "%*lld", widths[w], values[i]);
			same(&t, want);
			text_buf_num(&t, values[i], widths[w], true, false);
			snprintf(want, sizeof(want), "%-*lld", widths[w], values[i]);
			same(&t, want);
			text_buf_num(&t, values[i], widths[w], false, true);
			snprintf(want, sizeof(want), "%0*lld", widths[w], values[i]);
			same(&t, want);
		}
		text_buf_unum(&t, (unsigned long long)values[i]);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)values[i]);
		same(&t, want);
	}
	text_buf_free(&t);
}

static void test_padding(void)
{
	struct text_buf t = { 0 };
	char want[128];

	text_buf_pad(&t, "<...>", 5, 16, false);
	snprintf(want, sizeof(want), "%16s", "<...>");
	same(&t, want);
	text_buf_pad(&t, "amdgpu_cs_ioctl:", 16, 21, true);
	snprintf(want, sizeof(want), "%-21s", "amdgpu_cs_ioctl:");
	same(&t, want);
	/* longer than the field: as it is */
	text_buf_pad(&t, "a-comm-longer-than-sixteen", 26, 16, false);
	same(&t, "a-comm-longer-than-sixteen");
	text_buf_free(&t);
}

/* the buffer grows past its first 64 KiB and keeps every byte */
static void test_growth(void)
{
	struct text_buf t = { 0 };
	size_t i;
	bool ok = true;

	for (i = 0; i < 300000; i++)
		text_buf_putc(&t, (char)('a' + i % 26));
	CU_ASSERT_EQUAL(t.len, 300000);
	CU_ASSERT(!t.failed);
	for (i = 0; i < t.len; i++)
		ok &= t.buf[i] == (char)('a' + i % 26);
	CU_ASSERT(ok);
	text_buf_free(&t);
	CU_ASSERT_PTR_NULL(t.buf);
}

void suite_text_buf(void)
{
	CU_pSuite s = CU_add_suite("text-buf", NULL, NULL);

	CU_add_test(s, "numbers as printf writes them", test_numbers);
	CU_add_test(s, "padding as %*s and %-*s", test_padding);
	CU_add_test(s, "growth keeps the text", test_growth);
}
