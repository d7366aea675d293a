/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_HIST_TEXT_H
#define GT_HIST_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What the kernel's hist triggers print (a "hist" file under an event),
 * read back: one line a bucket,
 *
 *   { ring: gt_ring0      , wait_us: ~ 2^10 } hitcount:          4
 *   { ctx:          9, exec_us: ~ 2^7  } hitcount:          7
 *   { name: gt_ring1 } hitcount:         63
 *
 * then "Totals:" with Hits, Entries and Dropped. Only what the in-kernel
 * join of gpu-trace top keys its histograms by is read.
 */

#define HIST_NAME_LEN	64
#define HIST_LOG2_MAX	64		/* buckets 2^0 .. 2^63 */

/* One line: up to two keys, each a string, a number or a log2 bucket. */
struct hist_key {
	char field[32];
	char str[HIST_NAME_LEN];	/* a string key, padding cut */
	uint64_t num;			/* a number, or the bucket's power of two */
	bool log2;			/* "~ 2^N": num is N */
	bool is_str;
};

struct hist_line {
	struct hist_key key[2];
	int nr_keys;
	uint64_t hitcount;
};

/**
 * hist_line_parse - one bucket line of a hist file; false for any other line (a comment,
 * a blank, the totals) or one that does not read as a bucket
 */
bool hist_line_parse(const char *line, size_t len, struct hist_line *out);

/* The totals a hist file ends with. */
struct hist_totals {
	uint64_t hits, entries, dropped;
};

/** hist_totals_parse - the Totals of @text (the first histogram's); false without them */
bool hist_totals_parse(const char *text, struct hist_totals *t);

/**
 * hist_each_line - @fn on every bucket line of @text (@len bytes, NUL not needed); stops at
 * the first non-zero return and returns it
 */
int hist_each_line(const char *text, size_t len,
		   int (*fn)(const struct hist_line *l, void *ctx), void *ctx);

/**
 * hist_log2_quantile - the @q quantile (0 < q <= 1) of @n log2 buckets, as the upper bound of
 * the bucket it falls in: the kernel counts a value v in bucket N = log2 of v rounded up to a
 * power of two, so bucket N holds values above 2^(N-1) up to 2^N, and 2^N is returned. 0
 * without any count.
 */
uint64_t hist_log2_quantile(const uint64_t *count, int n, double q);

#endif
