/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RB_PAGES_H
#define GT_RB_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Writes records into ring-buffer pages laid out as the kernel's (a 16-byte
 * header: timestamp, commit; 4-byte event headers with 27-bit time deltas,
 * TIME_EXTEND past them; a lost-events count after the data), so that
 * records we make (the HIP runtime's log lines, test fixtures) are read by
 * trace-cmd, KernelShark and our own reader like the kernel's.
 */
struct rb_pages {
	int fd;				/* pages go here, whole */
	size_t page_size;
	unsigned char *page;
	size_t used;			/* data bytes after the header */
	uint64_t last_ts;
	bool page_open;
	unsigned long pending_missed;	/* flag the next page */
	unsigned long page_missed;	/* flag of the open page */
	unsigned long lost_total;
	uint64_t events;
};

/** rb_pages_max_payload - the largest payload one page holds. */
size_t rb_pages_max_payload(const struct rb_pages *w);
/** rb_pages_init - 0, or -errno (ENOMEM) */
int rb_pages_init(struct rb_pages *w, int fd, size_t page_size);
/**
 * rb_pages_add - appends one record (its payload: the event's fields); -EINVAL when ts goes
 * back, -E2BIG past rb_pages_max_payload(), -errno of a write.
 */
int rb_pages_add(struct rb_pages *w, uint64_t ts, const void *payload, size_t len);
/** rb_pages_lost - the open page ends: the next one says `missed` events were lost before it. */
int rb_pages_lost(struct rb_pages *w, unsigned long missed);
/** rb_pages_finish - writes the open page (and one to carry a loss at the very end). */
int rb_pages_finish(struct rb_pages *w);
/** rb_pages_free - the pages written so far */
void rb_pages_free(struct rb_pages *w);
/**
 * rb_pages_close - the pages finished (unless @failed, the errno of an earlier add) and
 * freed: the file's size, or -errno
 */
long long rb_pages_close(struct rb_pages *w, int failed);

#endif
