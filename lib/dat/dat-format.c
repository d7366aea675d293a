// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dat/dat-format.h"

uint64_t dat_memory_budget(uint64_t file_size)
{
	uint64_t budget = 64ULL << 20;

	return file_size > (UINT64_MAX - budget) / 16 ? UINT64_MAX : budget + 16 * file_size;
}

char *dat_clock_name(const char *trace_clock)
{
	const char *open = trace_clock ? strchr(trace_clock, '[') : NULL;
	const char *close = open ? strchr(open, ']') : NULL;

	return close ? strndup(open + 1, (size_t)(close - open - 1)) : NULL;
}

/* libtracecmd strdup()s these: the text must end inside the option */
static bool text_ends(const char *data, uint32_t size)
{
	return data && memchr(data, '\0', size);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Options whose counts libtracecmd 3.1.6 allocates before it reads what they
 * count: a count must not claim more entries than the option's bytes hold.
 * TIME_SHIFT: u64 trace id, u32 flags, u32 CPU count, then per CPU a u32
 * count and three u64 per sample (it callocs 16 bytes per CPU, 32 a sample).
 */
static bool time_shift_fits(const unsigned char *d, uint32_t size)
{
	uint32_t cpus, count, left, i;

	if (size < 16)
		return true;	/* libtracecmd skips it */
	cpus = get32(d + 12);
	d += 16;
	left = size - 16;
	if (cpus > left / 4)
		return false;
	for (i = 0; i < cpus; i++) {
		if (left < 4)
			return false;
		count = get32(d);
		d += 4;
		left -= 4;
		if (count > left / 24)
			return false;
		d += (size_t)count * 24;
		left -= count * 24;
	}
	return true;
}

/* GUEST: a name, u64 trace id, u32 vCPU count, then a u32 pair per vCPU */
static bool guest_fits(const char *d, uint32_t size)
{
	const char *end = memchr(d, '\0', size);
	uint32_t left;

	if (!end || (uint32_t)(end + 1 - d) + 12 > size)
		return true;	/* libtracecmd gives up before the count */
	left = size - (uint32_t)(end + 1 - d) - 12;
	return get32((const unsigned char *)end + 1 + 8) <= left / 8;
}

/* PROCMAPS: "PID COUNT NAME" in hex, then a line per mapping */
static bool procmaps_fits(const char *d, uint32_t size)
{
	const char *line = memchr(d, '\n', size);
	unsigned int pid, count, lines = 0;

	if (!line || !memchr(d, '\0', size) || sscanf(d, "%x %x", &pid, &count) != 2)
		return true;	/* libtracecmd does not load it */
	while ((line = memchr(line + 1, '\n', size - (uint32_t)(line + 1 - d))))
		lines++;
	return count <= lines;
}

bool dat_option_fits(uint16_t id, const char *data, uint32_t size)
{
	switch (id) {
	case DAT_OPT_DATE:
	case DAT_OPT_TRACECLOCK:
	case DAT_OPT_UNAME:
	case DAT_OPT_VERSION:
		return text_ends(data, size);
	case DAT_OPT_STRINGS:
		/* concatenated: each ends in a NUL, or a name runs into the next option */
		return size && data && !data[size - 1];
	case DAT_OPT_CPUCOUNT:
		return size == 4;
	case DAT_OPT_TSC2NSEC:
		return size == 16;	/* u32 multiplier, u32 shift, u64 offset */
	case DAT_OPT_GT_BUFFER_KB:
		return size == 8;
	case DAT_OPT_HEADER_INFO ... DAT_OPT_CMDLINES:
		return size == 8;	/* a section's offset */
	case DAT_OPT_BUFFER:
		/* an offset, then a name */
		return size >= 9 && data && text_ends(data + 8, size - 8);
	case DAT_OPT_TIME_SHIFT:
		return data && time_shift_fits((const unsigned char *)data, size);
	case DAT_OPT_GUEST:
		return !data || guest_fits(data, size);
	case DAT_OPT_PROCMAPS:
		return !data || procmaps_fits(data, size);
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
	case DAT_OPT_PROCMAPS: return "process maps";
	case DAT_OPT_TIME_SHIFT: return "time shift";
	case DAT_OPT_GUEST: return "guest";
	case DAT_OPT_TSC2NSEC: return "TSC to ns";
	case DAT_OPT_STRINGS: return "strings";
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
	case DAT_OPT_BUFFER: return "an offset and a name ending in a NUL";
	case DAT_OPT_DATE:
	case DAT_OPT_TRACECLOCK:
	case DAT_OPT_UNAME:
	case DAT_OPT_VERSION:
	case DAT_OPT_STRINGS: return "text ending in a NUL";
	case DAT_OPT_TIME_SHIFT:
	case DAT_OPT_GUEST:
	case DAT_OPT_PROCMAPS: return "no more entries than its bytes hold";
	default: return "";
	}
}

/*
 * Each event's step as kbuffer takes it (translate_data, update_pointers of
 * libtraceevent): type_len 29 is padding with a 32-bit length, 30 and 31 a
 * time extend or stamp, 0 a data event with its length in the next word,
 * 1..28 a data event of 4 * type_len bytes. kbuffer adds that length as an
 * int: a padding or length word of 0x80000000 and up steps back, and
 * kbuffer_next_event() then circles forever.
 */
static bool events_walk(const unsigned char *data, uint64_t commit, uint64_t area)
{
	uint64_t at = 0;

	while (at < commit) {
		uint32_t type_len;
		int64_t next;
		bool event;

		/* an event's first two words, wherever it starts, lie in the page */
		if (at + 8 > area)
			return false;
		type_len = get32(data + at) & 31;
		event = type_len < 29;
		if (type_len == 29)
			next = (int64_t)at + 4 + (int32_t)get32(data + at + 4);
		else if (type_len >= 30)
			next = (int64_t)at + 8;
		else if (type_len == 0 && (int32_t)get32(data + at + 4) <= 0)
			return false;	/* a record of negative size */
		else if (type_len == 0)
			next = (int64_t)at + 8 + (((int64_t)(int32_t)get32(data + at + 4) - 4 + 3) & ~(int64_t)3);
		else
			next = (int64_t)at + 4 + 4 * (int64_t)type_len;
		if (next <= (int64_t)at || (event && (uint64_t)next > commit))
			return false;
		at = (uint64_t)next;
	}
	return true;
}

static bool commit_fits(const unsigned char *page, size_t page_size, int long_size,
			uint64_t *commit)
{
	uint64_t flags = 0, room;

	if ((long_size != 8 && long_size != 4) || page_size <= 8u + (size_t)long_size)
		return false;
	memcpy(&flags, page + 8, (size_t)long_size);
	*commit = flags & ((1u << 27) - 1);
	room = page_size - 8 - (size_t)long_size;
	/* a stored count of lost events follows the data */
	if ((flags & (1ull << 30)) && (flags & (1ull << 31)))
		room = room >= (uint64_t)long_size ? room - (uint64_t)long_size : 0;
	return *commit <= room;
}

bool dat_page_header_fits(const unsigned char *header, size_t page_size, int long_size)
{
	uint64_t commit;

	return commit_fits(header, page_size, long_size, &commit);
}

bool dat_page_fits(const unsigned char *page, size_t page_size, int long_size)
{
	uint64_t commit;

	return commit_fits(page, page_size, long_size, &commit) &&
	       events_walk(page + 8 + long_size, commit, page_size - 8 - (uint64_t)long_size);
}
