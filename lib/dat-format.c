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

bool dat_option_size_fits(uint16_t id, uint32_t size)
{
	switch (id) {
	case DAT_OPT_CPUCOUNT:
		return size == 4;
	case DAT_OPT_TSC2NSEC:
		return size == 16;	/* u32 multiplier, u32 shift, u64 offset */
	case DAT_OPT_GT_BUFFER_KB:
		return size == 8;
	case DAT_OPT_HEADER_INFO ... DAT_OPT_CMDLINES:
		return size == 8;	/* a section's offset */
	case DAT_OPT_BUFFER:
		return size >= 9;	/* an offset, then a name */
	default:
		return true;
	}
}

const char *dat_option_name(uint16_t id)
{
	switch (id) {
	case DAT_OPT_DATE: return "date";
	case DAT_OPT_CPUSTAT: return "CPU stats";
	case DAT_OPT_BUFFER: return "buffer";
	case DAT_OPT_TRACECLOCK: return "trace clock";
	case DAT_OPT_UNAME: return "uname";
	case DAT_OPT_OFFSET: return "time offset";
	case DAT_OPT_CPUCOUNT: return "CPU count";
	case DAT_OPT_VERSION: return "version";
	case DAT_OPT_TIME_SHIFT: return "time shift";
	case DAT_OPT_TSC2NSEC: return "TSC to ns";
	case DAT_OPT_HEADER_INFO ... DAT_OPT_CMDLINES: return "section offset";
	case DAT_OPT_GT_BUFFER_KB: return "gpu-trace buffer size";
	default: return NULL;
	}
}

const char *dat_option_expected(uint16_t id)
{
	switch (id) {
	case DAT_OPT_CPUCOUNT: return "4 bytes";
	case DAT_OPT_TSC2NSEC: return "16 bytes";
	case DAT_OPT_GT_BUFFER_KB:
	case DAT_OPT_HEADER_INFO ... DAT_OPT_CMDLINES: return "8 bytes";
	case DAT_OPT_BUFFER: return "9 bytes or more";
	default: return "";
	}
}

bool dat_page_fits(const unsigned char *page, size_t page_size, int long_size)
{
	uint64_t commit = 0;

	if ((long_size != 8 && long_size != 4) || page_size <= 8u + (size_t)long_size)
		return false;
	memcpy(&commit, page + 8, (size_t)long_size);
	return (commit & ((1u << 27) - 1)) <= page_size - 8 - (size_t)long_size;
}
