/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_LIVE_PAGES_H
#define GT_LIVE_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tracefs_instance;
struct tep_record;

/*
 * An instance's ring buffers read page by page from each CPU's
 * trace_pipe_raw without blocking, each page walked in place (rb-read.h)
 * and the records of what was read handed out in time order across CPUs:
 * what report does with a file's pages, here with the kernel's. Per
 * record it costs a few loads, where libtracefs' iterator looks up the
 * event and calls through kbuffer for every word.
 */
struct live_pages;

/* One record; non-zero stops the read. */
typedef int (*live_pages_fn)(struct tep_record *rec, void *ctx);

/**
 * live_pages_open - every CPU's trace_pipe_raw of @inst, or NULL (errno set) where this
 * reader cannot read them: a kernel whose page header is not 64-bit, a CPU that will not open
 * @inst:      the instance
 * @long_size: the page header's commit size (tep_get_header_page_size())
 */
struct live_pages *live_pages_open(struct tracefs_instance *inst, int long_size);
/* how far past a drain's @until a record is held for a later drain: 10 s */
#define LIVE_PAGES_HOLD_MAX_NS 10000000000ull

/**
 * live_pages_drain - what the kernel holds now, in time order across CPUs, through @fn until
 * it returns non-zero
 * @lp:    the opened pages
 * @until: the last timestamp handed out; a later record stays held for a later drain
 *         (UINT64_MAX: everything), unless stamped over LIVE_PAGES_HOLD_MAX_NS past it (a
 *         clock other than @until's: held, it would hold its CPU's records that long)
 * @fn:    called for each record
 * @ctx:   passed to @fn
 */
void live_pages_drain(struct live_pages *lp, uint64_t until, live_pages_fn fn, void *ctx);
/* One page as read from @cpu (page_size bytes, its unused tail zeroed), before its records. */
typedef void (*live_page_fn)(int cpu, const unsigned char *page, void *ctx);
/**
 * live_pages_on_page - every page read from now on goes to @fn first (the flight recorder
 * keeps them); NULL stops it
 */
void live_pages_on_page(struct live_pages *lp, live_page_fn fn, void *ctx);
/** live_pages_page_size - the size of the pages handed to live_pages_on_page()'s @fn */
size_t live_pages_page_size(const struct live_pages *lp);
/** live_pages_nr_cpus - how many CPUs it reads */
int live_pages_nr_cpus(const struct live_pages *lp);
/** live_pages_close - the readers closed; NULL is fine */
void live_pages_close(struct live_pages *lp);

#endif
