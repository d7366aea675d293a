// SPDX-License-Identifier: GPL-2.0
/*
 * The protobuf writers: known encodings of each wire type, the four-byte
 * padded lengths of nested messages at each of their seven-bit group
 * boundaries (read back as a decoder would), the cursor writers byte for
 * byte the same as the buffer's, and a message past 256 MB refused.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/output/protobuf.h"
#include "../unit.h"

static int same_bytes(const struct pb_buf *b, const uint8_t *want, size_t n)
{
	return !b->failed && b->len == n && !memcmp(b->data, want, n);
}

static void test_protobuf_known_encodings(void)
{
	static const uint8_t varint[] = { 0x08, 0x96, 0x01 };
	static const uint8_t fixed[] = { 0x39, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
	static const uint8_t str[] = { 0x12, 0x03, 'g', 'p', 'u' };
	static const uint8_t neg[] = { 0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				       0x01 };
	static const uint8_t nested[] = { 0x0a, 0x83, 0x80, 0x80, 0x00, 0x08, 0x96, 0x01 };
	/* 1.5: 0x3ff8000000000000, little end first */
	static const uint8_t dbl[] = { 0x29, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f };
	struct pb_buf b = { 0 };
	size_t at;

	pb_varint_field(&b, 1, 150);
	CU_ASSERT(same_bytes(&b, varint, sizeof(varint)));
	pb_reset(&b);
	/* fixed64 only through the cursor, as the TrackEvent writer uses it */
	pb_commit(&b, pbw_fixed64_field(pb_claim(&b, PB_FIELD_MAX), 7, 0x0102030405060708ULL));
	CU_ASSERT(same_bytes(&b, fixed, sizeof(fixed)));
	pb_reset(&b);
	pb_double_field(&b, 5, 1.5);
	CU_ASSERT(same_bytes(&b, dbl, sizeof(dbl)));
	pb_reset(&b);
	pb_string_field(&b, 2, "gpu");
	CU_ASSERT(same_bytes(&b, str, sizeof(str)));
	pb_reset(&b);
	pb_int_field(&b, 2, -1);
	CU_ASSERT(same_bytes(&b, neg, sizeof(neg)));
	pb_reset(&b);
	at = pb_begin(&b, 1);
	pb_varint_field(&b, 1, 150);
	pb_end(&b, at);
	CU_ASSERT(same_bytes(&b, nested, sizeof(nested)));
	pb_free(&b);
}

/* The padded length in front of @at, decoded as any protobuf reader would. */
static uint64_t padded_length(const uint8_t *at)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < PB_LEN_BYTES; i++)
		n |= (uint64_t)(at[i - PB_LEN_BYTES] & 0x7f) << (7 * i);
	return n;
}

static void test_protobuf_nested_lengths(void)
{
	static const size_t sizes[] = { 0, 1, 127, 128, 16383, 16384, 2097151, 2097152,
					3000001 };
	struct pb_buf b = { 0 };
	size_t i, at;
	uint8_t *w;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		pb_reset(&b);
		at = pb_begin(&b, 5);
		/* exactly sizes[i] bytes of content */
		w = pb_claim(&b, sizes[i]);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		memset(w, 0, sizes[i]);
		pb_commit(&b, w + sizes[i]);
		pb_end(&b, at);
		CU_ASSERT_FALSE(b.failed);
		CU_ASSERT_EQUAL(padded_length(b.data + at), sizes[i]);
		/* continuation bits on the first three bytes only */
		CU_ASSERT_EQUAL(b.data[at - 4] & 0x80, 0x80);
		CU_ASSERT_EQUAL(b.data[at - 2] & 0x80, 0x80);
		CU_ASSERT_EQUAL(b.data[at - 1] & 0x80, 0);
	}
	pb_free(&b);
}

static void test_protobuf_cursor_as_buffer(void)
{
	struct pb_buf a = { 0 }, c = { 0 };
	unsigned int seed = 3;
	int round, bad = 0;

	for (round = 0; round < 2000; round++) {
		uint64_t v = (uint64_t)rand_r(&seed) << (rand_r(&seed) % 40);
		unsigned int field = 1 + (unsigned int)rand_r(&seed) % 60;
		const char *s = round % 7 ? "queued" : "";
		uint8_t *w, *inner;
		size_t at;

		at = pb_begin(&a, field);
		pb_varint_field(&a, field + 1, v);
		pb_double_field(&a, field + 3, (double)v / 7);
		pb_string_field(&a, field + 4, s);
		pb_end(&a, at);

		w = pb_claim(&c, 256);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		w = pbw_begin(w, field, &inner);
		w = pbw_varint_field(w, field + 1, v);
		w = pbw_double_field(w, field + 3, (double)v / 7);
		w = pbw_bytes_field(w, field + 4, s, strlen(s));
		pbw_end(w, inner);
		pb_commit(&c, w);
		bad += a.len != c.len || memcmp(a.data, c.data, a.len);
	}
	CU_ASSERT_EQUAL(bad, 0);
	pb_free(&a);
	pb_free(&c);
}

static void test_protobuf_refuses_a_message_past_256_mb(void)
{
	uint8_t data[16] = { 0 };
	/* pb_end only reads len: a buffer that claims to hold 256 MB and more */
	struct pb_buf b = { .data = data, .len = PB_MESSAGE_MAX + 8, .cap = sizeof(data) };

	pb_end(&b, 4);
	CU_ASSERT_TRUE(b.failed);
	b = (struct pb_buf){ .data = data, .len = PB_MESSAGE_MAX + 4, .cap = sizeof(data) };
	pb_end(&b, 4);
	CU_ASSERT_FALSE(b.failed);
	CU_ASSERT_EQUAL(padded_length(data + 4), PB_MESSAGE_MAX);
}

void suite_protobuf(void)
{
	CU_pSuite s = CU_add_suite("protobuf", NULL, NULL);

	CU_add_test(s, "each wire type as protobuf encodes it", test_protobuf_known_encodings);
	CU_add_test(s, "nested lengths at every seven-bit boundary", test_protobuf_nested_lengths);
	CU_add_test(s, "the cursor writes what the buffer writes", test_protobuf_cursor_as_buffer);
	CU_add_test(s, "a message past 256 MB fails the buffer",
		    test_protobuf_refuses_a_message_past_256_mb);
}
