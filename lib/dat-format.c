// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "dat-format.h"

char *dat_clock_name(const char *trace_clock)
{
	const char *open = trace_clock ? strchr(trace_clock, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;

	return close ? strndup(open + 1, (size_t)(close - open - 1)) : NULL;
}
