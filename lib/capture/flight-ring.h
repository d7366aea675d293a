/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FLIGHT_RING_H
#define GT_FLIGHT_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The flight recorder's memory: the last pages read from every CPU's
 * trace_pipe_raw, in one pool of a fixed size (all CPUs share it, so a busy
 * CPU's window is as long as an idle one's), the oldest page given up first.
 * The live reader consumes the kernel's buffers to watch for triggers (the
 * kernel has no raw read that leaves records in place), so the window lives
 * here, never on disk until a dump.
 *
 * Pages leave in the order they came; every page read after the newest one
 * given up is still here, so from the last timestamp of what was given up
 * (flight_ring_window_start) every CPU's records are whole.
 */
struct flight_page {
	int cpu;
	uint64_t first_ts, last_ts;	/* 0: no record in it */
	unsigned char *data;		/* page_size bytes */
};

struct flight_ring {
	size_t page_size;
	size_t cap;			/* pages the pool holds */
	size_t head, count;		/* oldest slot, slots in use */
	struct flight_page *pages;
	unsigned char *mem;
	uint64_t dropped_pages;		/* given up since the start */
	uint64_t window_start;		/* last record time of the newest page given up */
};

/**
 * flight_ring_init - a pool of @bytes (rounded down to pages, at least 2 per CPU)
 * @r:         zeroed
 * @page_size: the kernel's ring-buffer page size
 * @bytes:     memory for pages
 * @nr_cpus:   for the minimum
 *
 * Return: 0, or -1 with errno set (ENOMEM).
 */
int flight_ring_init(struct flight_ring *r, size_t page_size, size_t bytes, int nr_cpus);
/**
 * flight_ring_push - a copy of one page read from @cpu, the oldest given up when full
 * @first_ts, @last_ts: its first and last record's times (0 when it holds none)
 */
void flight_ring_push(struct flight_ring *r, int cpu, const unsigned char *page,
		      uint64_t first_ts, uint64_t last_ts);
/** flight_ring_at - the @i-th page from the oldest (i < r->count) */
const struct flight_page *flight_ring_at(const struct flight_ring *r, size_t i);
/** flight_ring_free - the pool's memory; safe on a zeroed ring */
void flight_ring_free(struct flight_ring *r);

#endif
