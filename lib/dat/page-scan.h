/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PAGE_SCAN_H
#define GT_PAGE_SCAN_H

#include <stdbool.h>

/*
 * Walks raw ring-buffer pages (as spliced from trace_pipe_raw) the way a .dat
 * reader will, so the counts we print are the counts in the file.
 */
struct page_scan {
	unsigned long long events;
	unsigned long long missed;	/* in-band "events dropped" counts */
	unsigned long long pages;
	bool missed_unknown;		/* a page flagged loss without a count */
	int *pids;			/* distinct common_pid values seen */
	int nr_pids;
	int pid_cap;
};

/** page_scan_fd - long_size: the kernel's (size of header_page's commit field). */
int page_scan_fd(int fd, int page_size, int long_size, int pid_offset,
		 struct page_scan *ps);
/** page_scan_free - the pids the scan collected */
void page_scan_free(struct page_scan *ps);

/** page_scan_long_size - from header_page: "field: local_t commit; offset:8; size:8; ..." */
int page_scan_long_size(const char *header_page);
/** page_scan_pid_offset - from any event format: the offset of common_pid, or -1. */
int page_scan_pid_offset(const char *format);

#endif
