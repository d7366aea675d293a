// SPDX-License-Identifier: GPL-2.0
/*
 * dat_page_fits(): the one check every page passes before kbuffer reads it;
 * dat_option_fits(): every option before libtracecmd reads it.
 * kbuffer steps from event to event by lengths the page itself gives, added
 * as an int: a page that steps back makes kbuffer_next_event() circle (a
 * hang fuzz-report found), one whose event runs past the commit is read
 * past the data.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../../lib/dat/dat-format.h"
#include "../unit.h"

static void put_raw(struct raw_page *p, uint32_t header, uint32_t word)
{
	uint64_t commit;

	memcpy(p->data + 16 + p->used, &header, 4);
	memcpy(p->data + 16 + p->used + 4, &word, 4);
	p->used += 8;
	commit = p->used;
	memcpy(p->data + 8, &commit, 8);
}

static void page_with_events(struct raw_page *p)
{
	static const char payload[20] = "gpu job";

	raw_page_init(p, 1000);
	CU_ASSERT_EQUAL_FATAL(raw_page_add(p, 5, payload, sizeof(payload)), 0);
	CU_ASSERT_EQUAL_FATAL(raw_page_add(p, 7, payload, 8), 0);
}

static void test_real_pages_fit(void)
{
	struct raw_page p;

	page_with_events(&p);
	CU_ASSERT_TRUE(dat_page_fits(p.data, sizeof(p.data), 8));
	/* a time extend, a type_len 0 event with its own length, padding to the end */
	put_raw(&p, 30 | (3u << 5), 1);
	put_raw(&p, 0, 4);		/* no data past its length word */
	put_raw(&p, 29, (uint32_t)(sizeof(p.data) - 16 - p.used - 4 + 8));
	CU_ASSERT_TRUE(dat_page_fits(p.data, sizeof(p.data), 8));
	raw_page_set_missed(&p, 3);
	CU_ASSERT_TRUE(dat_page_fits(p.data, sizeof(p.data), 8));
	/* an empty page */
	raw_page_init(&p, 5);
	CU_ASSERT_TRUE(dat_page_fits(p.data, sizeof(p.data), 8));
}

static void test_padding_that_steps_back(void)
{
	struct raw_page p;

	page_with_events(&p);
	put_raw(&p, 29, (uint32_t)-8);	/* back to its own start */
	CU_ASSERT_FALSE(dat_page_fits(p.data, sizeof(p.data), 8));
	page_with_events(&p);
	put_raw(&p, 29, 0x80000000u);
	CU_ASSERT_FALSE(dat_page_fits(p.data, sizeof(p.data), 8));
}

static void test_event_past_the_commit(void)
{
	struct raw_page p;

	page_with_events(&p);
	put_raw(&p, 0, 4096);		/* a type_len 0 event longer than the page */
	CU_ASSERT_FALSE(dat_page_fits(p.data, sizeof(p.data), 8));
	page_with_events(&p);
	put_raw(&p, 0, 2);		/* a length word of 2: no data, fine */
	put_raw(&p, 28, 0);		/* 112 bytes claimed, 4 there */
	CU_ASSERT_FALSE(dat_page_fits(p.data, sizeof(p.data), 8));
	page_with_events(&p);
	put_raw(&p, 0, 0);		/* kbuffer would make it -4 bytes long */
	CU_ASSERT_FALSE(dat_page_fits(p.data, sizeof(p.data), 8));
}

static void test_commit_and_lost_count(void)
{
	struct raw_page p;
	uint64_t commit = sizeof(p.data) - 16 + 1;

	raw_page_init(&p, 1);
	memcpy(p.data + 8, &commit, 8);
	CU_ASSERT_FALSE(dat_page_fits(p.data, sizeof(p.data), 8));
	CU_ASSERT_FALSE(dat_page_header_fits(p.data, sizeof(p.data), 8));
	/* a full page has no room for a stored lost-events count after it */
	commit = (sizeof(p.data) - 16) | (1ull << 31) | (1ull << 30);
	memcpy(p.data + 8, &commit, 8);
	CU_ASSERT_FALSE(dat_page_header_fits(p.data, sizeof(p.data), 8));
}

/* libtracecmd strdup()s text options: one not ending inside is skipped */
static void test_text_options_end_inside(void)
{
	static const char version[] = "gpu-trace 0.1.0";
	char buffer[16] = { 0 };

	CU_ASSERT_TRUE(dat_option_fits(DAT_OPT_VERSION, version, sizeof(version)));
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_VERSION, version, sizeof(version) - 1));
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_UNAME, "Linux", 5));
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_TRACECLOCK, "[mono]", 6));
	memcpy(buffer + 8, "gpu", 4);
	CU_ASSERT_TRUE(dat_option_fits(DAT_OPT_BUFFER, buffer, 12));
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_BUFFER, buffer, 11));
	CU_ASSERT_TRUE(dat_option_fits(DAT_OPT_STRINGS, "options\0flyrecord", 18));
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_STRINGS, "options\0flyrecord", 17));
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_STRINGS, "", 0));
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_UNAME, "", 0));
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_CPUCOUNT, buffer, 5));
	CU_ASSERT_TRUE(dat_option_fits(DAT_OPT_CPUCOUNT, buffer, 4));
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

/*
 * Counts libtracecmd allocates by before it reads what they count: a time
 * shift claiming 540 million CPUs had it calloc 8.6 GB (fuzz-report found it,
 * tests/fuzz/crashers/oom-time-shift-claims-540m-cpus-v7.dat).
 */
static void test_counts_fit_their_option(void)
{
	unsigned char ts[16 + 2 * (4 + 24)] = { 0 };
	char guest[] = "vm\0trace-id\0\0\0\0cpus____pairs___";
	char maps[64];

	put32(ts + 12, 2);		/* two CPUs, one sample each */
	put32(ts + 16, 1);
	put32(ts + 16 + 28, 1);
	CU_ASSERT_TRUE(dat_option_fits(DAT_OPT_TIME_SHIFT, (char *)ts, sizeof(ts)));
	put32(ts + 12, 540701541);
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_TIME_SHIFT, (char *)ts, sizeof(ts)));
	put32(ts + 12, 2);
	put32(ts + 16 + 28, 2);		/* a second sample it does not hold */
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_TIME_SHIFT, (char *)ts, sizeof(ts)));
	CU_ASSERT_TRUE(dat_option_fits(DAT_OPT_TIME_SHIFT, (char *)ts, 12));	/* skipped anyway */

	/* "vm", u64 id, u32 count, then 8 bytes per vCPU: 16 bytes hold two */
	put32((unsigned char *)guest + 3 + 8, 2);
	CU_ASSERT_TRUE(dat_option_fits(DAT_OPT_GUEST, guest, 3 + 12 + 16));
	put32((unsigned char *)guest + 3 + 8, 3);
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_GUEST, guest, 3 + 12 + 16));
	put32((unsigned char *)guest + 3 + 8, 0x40000000);
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_GUEST, guest, 3 + 12 + 16));

	snprintf(maps, sizeof(maps), "1a 2 app\n400000 401000 /app\n7f00 7f10 /lib\n");
	CU_ASSERT_TRUE(dat_option_fits(DAT_OPT_PROCMAPS, maps, (uint32_t)strlen(maps) + 1));
	snprintf(maps, sizeof(maps), "1a 7fffffff app\n400000 401000 /app\n");
	CU_ASSERT_FALSE(dat_option_fits(DAT_OPT_PROCMAPS, maps, (uint32_t)strlen(maps) + 1));
}

void suite_dat_format(void)
{
	CU_pSuite s = CU_add_suite("dat-format: pages and options libtracecmd may read", NULL, NULL);

	CU_add_test(s, "pages as the kernel writes them pass", test_real_pages_fit);
	CU_add_test(s, "padding that steps back is refused", test_padding_that_steps_back);
	CU_add_test(s, "an event past the commit is refused", test_event_past_the_commit);
	CU_add_test(s, "commit and a stored lost count inside the page", test_commit_and_lost_count);
	CU_add_test(s, "text options end inside the option", test_text_options_end_inside);
	CU_add_test(s, "counts fit their option", test_counts_fit_their_option);
}
