/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_ERROR_H
#define GT_ERROR_H

/*
 * lib/ never prints: a failing call fills one of these with a single line
 * ("what failed: why; what to do") and returns -1. cmd/ decides how to show it.
 */
struct gt_error {
	int errnum;
	char msg[768];
};

/**
 * gt_error_set - @err filled with @errnum and the formatted message; returns -1 for 'return
 * gt_error_set(...)'
 */
int gt_error_set(struct gt_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
