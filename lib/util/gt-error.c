// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>

#include "util/gt-error.h"

int gt_error_set(struct gt_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->errnum = errnum;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}
