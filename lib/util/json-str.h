/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_JSON_STR_H
#define GT_JSON_STR_H

#include <stdio.h>

/** json_str - a JSON string: quotes, backslashes and control characters escaped. */
void json_str(FILE *f, const char *s);

#endif
