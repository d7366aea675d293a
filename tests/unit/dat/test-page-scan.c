// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/dat/page-scan.h"
#include "../../../lib/util/file-io.h"
#include "../unit.h"

/* A minimal event: common header only (type, flags, preempt, pid). */
static void add_event(struct raw_page *p, int pid)
{
	unsigned char ev[8] = { 0x34, 0x12, 0, 0 };

	memcpy(ev + 4, &pid, 4);
	CU_ASSERT_EQUAL(raw_page_add(p, 100, ev, sizeof(ev)), 0);
}

static int pages_to_fd(struct raw_page *pages, int n)
{
	int fd = temp_file_in("/tmp"), i;

	for (i = 0; i < n; i++)
		CU_ASSERT_EQUAL(write(fd, pages[i].data, sizeof(pages[i].data)),
				(ssize_t)sizeof(pages[i].data));
	return fd;
}

static void test_counts_events_pids_and_losses(void)
{
	struct raw_page pages[2];
	struct page_scan ps = { 0 };
	int fd;

	raw_page_init(&pages[0], 1000);
	add_event(&pages[0], 42);
	add_event(&pages[0], 42);
	add_event(&pages[0], 7);
	raw_page_init(&pages[1], 5000);
	add_event(&pages[1], 42);
	add_event(&pages[1], 100);
	raw_page_set_missed(&pages[1], 895);
	fd = pages_to_fd(pages, 2);

	CU_ASSERT_EQUAL(page_scan_fd(fd, 4096, 8, 4, &ps), 0);
	CU_ASSERT_EQUAL(ps.pages, 2);
	CU_ASSERT_EQUAL(ps.events, 5);
	CU_ASSERT_EQUAL(ps.missed, 895);
	CU_ASSERT_FALSE(ps.missed_unknown);
	CU_ASSERT_EQUAL_FATAL(ps.nr_pids, 3);
	CU_ASSERT_EQUAL(ps.pids[0], 7);
	CU_ASSERT_EQUAL(ps.pids[1], 42);
	CU_ASSERT_EQUAL(ps.pids[2], 100);

	/* scanning accumulates: a second CPU adds to the totals */
	CU_ASSERT_EQUAL(page_scan_fd(fd, 4096, 8, 4, &ps), 0);
	CU_ASSERT_EQUAL(ps.events, 10);
	CU_ASSERT_EQUAL(ps.nr_pids, 3);
	page_scan_free(&ps);
	close(fd);
}

static void test_empty_and_partial(void)
{
	struct page_scan ps = { 0 };
	int fd = temp_file_in("/tmp");

	CU_ASSERT_EQUAL(page_scan_fd(fd, 4096, 8, 4, &ps), 0);
	CU_ASSERT_EQUAL(ps.events, 0);
	/* a torn last page is not counted as data */
	CU_ASSERT_EQUAL(write(fd, "abc", 3), 3);
	CU_ASSERT_EQUAL(page_scan_fd(fd, 4096, 8, 4, &ps), 0);
	CU_ASSERT_EQUAL(ps.pages, 0);
	close(fd);
}

static void test_header_parsers(void)
{
	char *hp = fixture_read("formats/linux-6.12/header_page");
	char *fmt = fixture_read("formats/linux-6.12/dma_fence/dma_fence_signaled/format");

	CU_ASSERT_PTR_NOT_NULL_FATAL(hp);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fmt);
	CU_ASSERT_EQUAL(page_scan_long_size(hp), 8);
	CU_ASSERT_EQUAL(page_scan_long_size(
		"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"), 4);
	CU_ASSERT_EQUAL(page_scan_pid_offset(fmt), 4);
	CU_ASSERT_EQUAL(page_scan_pid_offset("no fields here"), -1);
	free(hp);
	free(fmt);
}

void suite_page_scan(void)
{
	CU_pSuite s = CU_add_suite("page-scan", NULL, NULL);

	CU_add_test(s, "events, pids and in-band losses", test_counts_events_pids_and_losses);
	CU_add_test(s, "empty and torn files", test_empty_and_partial);
	CU_add_test(s, "header_page and format parsing", test_header_parsers);
}
