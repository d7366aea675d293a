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

/* an absolute stamp holds 59 bits: the top 5 come from the time before it */
#define RB_TS_MSB (0xf8ULL << 56)

enum { RB_PADDING = 29, RB_TIME_EXTEND = 30, RB_TIME_STAMP = 31 };

/** rb_get32 - a little-endian u32 of the page, wherever it lies */
static inline uint32_t rb_get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/**
 * rb_cursor_next - the page's next data record; false at its end. Inline: called
 * out of line, the entry it wrote field by field went back through memory, and
 * the caller's wide load of its two ints waited for both stores to retire (a
 * failed store forward: half of the stream's time per record in a profile).
 */
static inline bool rb_cursor_next(struct rb_cursor *c, struct rb_entry *e)
{
	while (c->next < c->size && c->next + 8 <= c->area) {
		uint64_t at = c->next, payload = at + 4, len;
		uint32_t head = rb_get32(c->data + at), type = head & 31, delta = head >> 5;
		uint32_t word = rb_get32(c->data + at + 4);

		switch (type) {
		case RB_PADDING:
			c->ts += delta;
			/*
			 * kbuffer adds the length as an int (a length of 0 steps past
			 * the header only); dat_page_fits() refused a step back
			 */
			if ((int32_t)word < 0)
				return false;
			c->next = payload + word;
			continue;
		case RB_TIME_EXTEND:
			c->ts += ((uint64_t)word << 27) + delta;
			c->next = at + 8;
			continue;
		case RB_TIME_STAMP:
			c->ts = (((uint64_t)word << 27) + delta) | (c->ts & RB_TS_MSB);
			c->next = at + 8;
			continue;
		case 0:
			/* as kbuffer: the length word counts itself, rounded up to words */
			if ((int32_t)word <= 0)
				return false;
			len = (uint64_t)(((int64_t)word - 4 + 3) & ~(int64_t)3);
			payload += 4;
			break;
		default:
			len = 4ULL * type;
			break;
		}
		if (payload + len > c->area)
			return false;
		c->ts += delta;
		c->next = payload + len;
		e->data = c->data + payload;
		e->size = (int)len;
		e->record_size = (int)(payload + len - at);
		e->ts = c->ts;
		e->missed = at ? 0 : c->lost;
		return true;
	}
	return false;
}
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
