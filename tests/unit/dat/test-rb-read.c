// SPDX-License-Identifier: GPL-2.0
/*
 * rb-read walks a page as libtraceevent's kbuffer does: thousands of random
 * pages that dat_page_fits() accepts (events of every length encoding, time
 * extends, absolute stamps, padding inside and at the end, losses stored and
 * not), each read by both, every record's time, place, sizes and losses
 * compared with what the installed kbuffer says.
 */
#include <kbuffer.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/dat/dat-format.h"
#include "../../../lib/dat/rb-read.h"
#include "../unit.h"

#define PAGE 4096

static uint32_t seed = 2026;

static uint32_t rnd(uint32_t n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* One random page; returns false when it came out too full to be valid (rare). */
static void make_page(unsigned char *page)
{
	uint64_t ts = ((uint64_t)rnd(1u << 30) << 20) | rnd(1u << 20), flags;
	size_t at = 0, area = PAGE - 16, room = area - 8;
	unsigned char *d = page + 16;

	memset(page, 0, PAGE);
	if (rnd(8) == 0)
		ts |= 0xf8ULL << 56;	/* a clock with its top bits set: stamps keep them */
	memcpy(page, &ts, 8);
	while (at + 64 < room && rnd(40)) {
		uint32_t delta = rnd(1u << 27), kind = rnd(10);

		if (kind == 0) {		/* time extend */
			put32(d + at, 30 | delta << 5);
			put32(d + at + 4, rnd(1u << 20));
			at += 8;
		} else if (kind == 1) {		/* absolute stamp */
			put32(d + at, 31 | delta << 5);
			put32(d + at + 4, rnd(1u << 31));
			at += 8;
		} else if (kind == 2) {		/* padding that skips a little, or only itself */
			uint32_t skip = 4 * rnd(5);

			put32(d + at, 29 | delta << 5);
			put32(d + at + 4, skip);
			at += 4 + skip;
		} else if (kind == 3) {		/* a long event: its length in the next word */
			uint32_t len = 4 + rnd(40);

			put32(d + at, 0 | delta << 5);
			put32(d + at + 4, len + 4);
			at += 8 + ((len + 3) & ~3u);
		} else {			/* 1..28 words */
			uint32_t words = 1 + rnd(8);

			put32(d + at, words | delta << 5);
			put32(d + at + 4, rnd(1u << 31));
			at += 4 + 4 * words;
		}
	}
	flags = at;
	if (rnd(3) == 0) {
		/* the rest of the page as padding, as the kernel ends a page */
		put32(d + at, 29);
		put32(d + at + 4, (uint32_t)(area - at - 4));
		flags = at + 8 <= area ? at + 8 : at;
	}
	switch (rnd(4)) {
	case 0:
		flags |= 1ULL << 31;
		break;
	case 1:
		flags |= 1ULL << 31 | 1ULL << 30;
		memcpy(d + (flags & ((1u << 27) - 1)), &(uint64_t){ 1 + rnd(100000) }, 8);
		break;
	}
	memcpy(page + 8, &flags, 8);
}

static void test_same_walk_as_kbuffer(void)
{
	struct kbuffer *kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	unsigned char *page = malloc(PAGE);
	unsigned long pages = 0, records = 0, stamps = 0;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(kb);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	for (i = 0; i < 5000; i++) {
		unsigned long long kts = 0;
		struct rb_cursor c;
		struct rb_entry e;
		void *kd;

		make_page(page);
		if (!dat_page_fits(page, PAGE, 8))
			continue;
		pages++;
		CU_ASSERT_EQUAL_FATAL(kbuffer_load_subbuffer(kb, page), 0);
		rb_cursor_load(&c, page, PAGE);
		for (kd = kbuffer_read_event(kb, &kts); kd; kd = kbuffer_next_event(kb, &kts)) {
			CU_ASSERT_TRUE_FATAL(rb_cursor_next(&c, &e));
			CU_ASSERT_PTR_EQUAL(e.data, kd);
			CU_ASSERT_EQUAL(e.ts, kts);
			CU_ASSERT_EQUAL(e.size, kbuffer_event_size(kb));
			CU_ASSERT_EQUAL(e.record_size, kbuffer_curr_size(kb));
			CU_ASSERT_EQUAL(e.missed, kbuffer_missed_events(kb));
			stamps += (kts >> 59) != 0;
			records++;
		}
		CU_ASSERT_FALSE(rb_cursor_next(&c, &e));
	}
	/* the pages exercised what they are for */
	CU_ASSERT(pages > 4000);
	CU_ASSERT(records > 50000);
	CU_ASSERT(stamps > 0);
	kbuffer_free(kb);
	free(page);
}

static void test_empty_and_lost_pages(void)
{
	unsigned char page[PAGE] = { 0 };
	struct rb_cursor c;
	struct rb_entry e;
	uint64_t flags = (1ULL << 31) | 8, ts = 77;

	/* a page with only a time extend, events lost before it unknown */
	memcpy(page, &ts, 8);
	memcpy(page + 8, &flags, 8);
	put32(page + 16, 30);
	put32(page + 20, 1);
	rb_cursor_load(&c, page, PAGE);
	CU_ASSERT_EQUAL(c.lost, -1);
	CU_ASSERT_FALSE(rb_cursor_next(&c, &e));
	/* no commit at all */
	memset(page, 0, sizeof(page));
	rb_cursor_load(&c, page, PAGE);
	CU_ASSERT_FALSE(rb_cursor_next(&c, &e));
}

void suite_rb_read(void)
{
	CU_pSuite s = CU_add_suite("rb-read", NULL, NULL);

	CU_add_test(s, "every page walked as kbuffer walks it", test_same_walk_as_kbuffer);
	CU_add_test(s, "empty pages and pages with only losses", test_empty_and_lost_pages);
}
