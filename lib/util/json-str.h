/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_JSON_STR_H
#define GT_JSON_STR_H

#include <stdio.h>

/**
 * json_str - a JSON string: quotes, backslashes and control characters (C0, DEL, C1) escaped;
 * a byte that is not part of well-formed UTF-8 written as U+FFFD, so the output is always valid
 * UTF-8. NULL is "".
 */
void json_str(FILE *f, const char *s);

#endif
