/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RB_READ_H
#define GT_RB_READ_H

#include <stdbool.h>
#include <event-parse.h>
#include <stdint.h>
#include <string.h>

/*
 * One ring-buffer page of a 64-bit little-endian kernel read in place, each
 * step exactly as libtraceevent's kbuffer takes it (time extends and
 * stamps, padding, the lost-events count on the page's first entry), at a
 * fraction of its cost: no calls through pointers, no byte-order checks per
 * word. Only for a page dat_page_fits() accepted: its entries are walked,
 * not checked again beyond staying inside the page.
 */
struct rb_cursor {
	const unsigned char *data;	/* after the 16-byte header */
	uint64_t size;			/* the commit: where the entries end */
	uint64_t area;			/* the data area's size */
	uint64_t next;			/* offset of the next entry */
	uint64_t ts;
	long long lost;			/* kbuffer_missed_events() of the first entry */
};

/* one data record of the page */
struct rb_entry {
	const void *data;
	int size;			/* the payload's, as kbuffer_event_size() */
	int record_size;		/* header and payload, as kbuffer_curr_size() */
	uint64_t ts;
	long long missed;		/* as kbuffer_missed_events(): only at offset 0 */
};

/** rb_page_ts - a page's timestamp (its header's first u64) */
static inline uint64_t rb_page_ts(const unsigned char *page)
{
	uint64_t ts;

	memcpy(&ts, page, sizeof(ts));
	return ts;
}

/** rb_page_holds_data - the page's commit (the data's length, below the flag bits) is not 0 */
static inline bool rb_page_holds_data(const unsigned char *page)
{
	uint64_t commit;

	memcpy(&commit, page + 8, sizeof(commit));
	return commit & ((1ULL << 27) - 1);
}

/** rb_cursor_load - a page of page_size bytes, its first entry next */
void rb_cursor_load(struct rb_cursor *c, const unsigned char *page, uint64_t page_size);
/** rb_cursor_next - the page's next data record; false at its end */
bool rb_cursor_next(struct rb_cursor *c, struct rb_entry *e);
/**
 * rb_entry_record - the record as libtraceevent's readers hand it out, of CPU @cpu; inline:
 * every record of a file comes through it
 */
static inline void rb_entry_record(const struct rb_entry *e, int cpu, struct tep_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->ts = e->ts;
	rec->cpu = cpu;
	rec->data = (void *)e->data;
	rec->size = e->size;
	rec->record_size = e->record_size;
	/* nonzero on a page's first record when the kernel lost events before it */
	rec->missed_events = e->missed;
}

#endif
