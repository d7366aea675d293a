/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_FORMAT_H
#define GT_DAT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What the trace-cmd .dat format defines (trace-cmd.dat(5)), shared by the
 * writer (dat-writer.c) and the reader of our metadata (dat-meta.c).
 */

/* trace-cmd option ids we write or read */
enum dat_option {
	DAT_OPT_DONE = 0,
	DAT_OPT_DATE = 1,
	DAT_OPT_CPUSTAT = 2,
	DAT_OPT_BUFFER = 3,
	DAT_OPT_TRACECLOCK = 4,
	DAT_OPT_UNAME = 5,
	DAT_OPT_CPUCOUNT = 8,
	DAT_OPT_OFFSET = 7,
	DAT_OPT_VERSION = 9,
	DAT_OPT_PROCMAPS = 10,
	DAT_OPT_TIME_SHIFT = 12,
	DAT_OPT_GUEST = 13,
	DAT_OPT_TSC2NSEC = 14,
	DAT_OPT_STRINGS = 15,		/* v7: the section names */
	/* v7: offsets of the metadata sections */
	DAT_OPT_HEADER_INFO = 16,
	DAT_OPT_CMDLINES = 21,
	/*
	 * Read, no longer written: gpu-trace 0.1 stored the granted per-CPU
	 * buffer size here (u64 KB); KernelShark, gpuvis and trace-cmd dump
	 * called it unknown. It now rides in each CPU's stats text.
	 */
	DAT_OPT_GT_BUFFER_KB = 0x4754,
};

/**
 * dat_option_fits - does an option's size fit what its id means upstream? Other writers used
 * ids for other things (a trace-cmd fork wrote id 8, the 4-byte CPU count, as 1 KB of text);
 * such an option must be skipped, not read as offsets. Text options (uname, version, clock,
 * date, a buffer's name, v7's strings) must end in a NUL inside the option: libtracecmd
 * strdup()s them. Time shift, guest and process-map options must not count more entries than
 * they hold: libtracecmd allocates by the count first. Other ids whose size is free always
 * fit.
 */
bool dat_option_fits(uint16_t id, const char *data, uint32_t size);
/** dat_option_name - "CPU count" for 8; NULL for an id gpu-trace does not read */
const char *dat_option_name(uint16_t id);
/** dat_option_expected - what its meaning needs: "4 bytes"; "" where any size fits */
const char *dat_option_expected(uint16_t id);

/*
 * What a masked copy of a file (dat-masked.h) puts in place of an option's
 * id: no reader knows it, so every reader skips the option by its size.
 */
#define DAT_OPT_MASKED 0x4758

/**
 * dat_page_fits - a ring-buffer page's header (u64 timestamp, then a commit of long_size
 * bytes: the data's length, with flag bits above bit 27) claims no more data than the page
 * holds (with a stored lost-events count after it), and its events step forward through it as
 * kbuffer will walk them, each data event inside the commit. kbuffer trusts all of that: a
 * page that fails this must never reach it (it would read past the page, or circle).
 */
bool dat_page_fits(const unsigned char *page, size_t page_size, int long_size);
/** dat_page_header_fits - only the header's part of that, where less than a page was read. */
bool dat_page_header_fits(const unsigned char *header, size_t page_size, int long_size);

/*
 * The most a compressed chunk may hold uncompressed, in pages. trace-cmd
 * compresses 10 pages a chunk; a file whose chunk claims more is damaged or
 * hostile (a few KB of zeros can claim gigabytes) and is refused before
 * anything is allocated for it.
 */
#define DAT_MAX_CHUNK_PAGES	64

/**
 * dat_memory_budget - what a file of @file_size bytes may make a reader hold decompressed at
 * once: 64 MB and 16 times the file. trace-cmd's zstd shrinks real trace data 4 to 8 times; a
 * few KB of zeros claim gigabytes. Checked before anything is decompressed or handed to
 * libtracecmd, whose open keeps every CPU's first chunk.
 */
uint64_t dat_memory_budget(uint64_t file_size);

/*
 * The most CPUs a file may claim for gpu-trace to read it: every per-CPU
 * table here (the file's layout, coverage, the readers' page runs) has this
 * many rows, and each CPU's pages must be checked before libtracecmd reads
 * them; libtracecmd sizes its own tables by what the file says.
 */
#define DAT_MAX_CPUS	1024

/** dat_clock_name - the clock name between brackets in a trace_clock file ("[mono]"), or NULL. */
char *dat_clock_name(const char *trace_clock);

#endif
