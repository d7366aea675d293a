/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_META_H
#define GT_DAT_META_H

#include <stdbool.h>
#include <stdint.h>

#include "dat/cpu-stats.h"
#include "dat/dat-format.h"
#include "util/gt-error.h"

/*
 * What a .dat says about its recording, which libtracecmd's public API does
 * not expose: kernel, clock, CPU stats, our granted buffer size. Reading it
 * also validates the file, so a foreign or truncated file is named as such
 * before any record is decoded.
 */
#define DAT_META_MAX_CPUS DAT_MAX_CPUS
#define DAT_META_MAX_BUFFERS 16

/* v7: where a buffer's per-CPU data is (its BUFFER option) */
struct dat_buffer_data {
	char name[64];			/* "" for the top buffer */
	uint32_t page_size;
	int nr_cpus;
	struct { uint32_t cpu; uint64_t offset, size; } cpus[DAT_META_MAX_CPUS];
};

struct dat_meta {
	int version;			/* 6 or 7 */
	char compression[32];		/* v7: "none", "zstd", ... */
	char uname[256];
	char clock[32];
	/*
	 * v6 with an empty TRACECLOCK option (trace-cmd 2.x): the clock's text
	 * follows the CPU table instead, where libtracecmd reads it too
	 */
	bool clock_after_cpus;
	char writer[64];		/* VERSION option */
	int nr_cpus;
	bool has_buffer_kb;
	uint64_t buffer_kb;
	int nr_cpustats;
	struct cpu_stats cpustats[DAT_META_MAX_CPUS];	/* top buffer's; text not kept */
	int cpustat_cpu[DAT_META_MAX_CPUS];		/* each one's "CPU: N" */
	bool in_instance;		/* parsing: past a BUFFER option */
	bool in_absent_instance;	/* parsing: past one whose pages are not in the file */
	uint64_t instance_lost;		/* lost in buffer instances (workload) */
	char instance_name[64];		/* the first instance's name, "" unknown */
	bool instances_apart;		/* stats of instances of other names too */
	uint64_t file_size;
	int long_size;			/* the file header's */
	uint32_t page_size;
	bool ts_adjusted;		/* DATE, OFFSET, TIME_SHIFT or TSC2NSEC: readers shift times */
	uint64_t sections[8];		/* v7: offsets the options point at */
	uint64_t strings_size;		/* v7: the section names' text, read so far */
	int nr_sections;
	int nr_buffers;			/* v7 */
	struct dat_buffer_data buffers[DAT_META_MAX_BUFFERS];
	/* BUFFER options not read (too many CPUs or buffers, damaged): their pages go unchecked */
	int unread_buffers;
	/* options whose size or text does not fit their id (dat_option_fits): not read */
#define DAT_META_MAX_SKIPPED 8
	int nr_skipped;
	struct dat_skipped_option {
		uint16_t id;
		uint32_t size;
		uint64_t at;		/* the file offset of its id; UINT64_MAX: in a compressed section */
	} skipped[DAT_META_MAX_SKIPPED];
	uint64_t v6_instances[DAT_META_MAX_BUFFERS];	/* v6: each instance's flyrecord */
	char v6_instance_names[DAT_META_MAX_BUFFERS][64];	/* ... and its name */
	int nr_v6_instances;
	/* v6: instances at offset 0, whose pages the file does not hold (trace-cmd split's), at most DAT_META_MAX_BUFFERS */
	int v6_instances_absent;
	uint64_t v6_cpu_offset[DAT_META_MAX_CPUS];	/* v6: where each CPU's data is */
	uint64_t v6_cpu_bytes[DAT_META_MAX_CPUS];
	/* compressed v7: what the chunks' headers claim decompressed */
	uint64_t plain_first;		/* every CPU's first chunk: what libtracecmd's open keeps */
	uint64_t plain_total;		/* every chunk: what libtracecmd keeps iterating */
};

/**
 * dat_meta_inflates_too_much - 1 and @err set when reading the file through libtracecmd (which
 * keeps every zstd chunk it decompresses) would hold more than dat_memory_budget() allows
 */
int dat_meta_inflates_too_much(const struct dat_meta *m, const char *path, struct gt_error *err);

/**
 * dat_meta_cpu_bytes - the bytes of the top buffer's data of one CPU in the file (v7: as
 * stored); 0 if unknown.
 */
uint64_t dat_meta_cpu_bytes(const struct dat_meta *m, int cpu);

/**
 * dat_meta_instance_name - the name of buffer instance @k (1 the first read, in the file's
 * order; 0 the top buffer: ""): the buffer dat_stream_last_buffer() gives a record
 */
const char *dat_meta_instance_name(const struct dat_meta *m, int k);
/** dat_meta_instances_read - the buffer instances whose pages the file holds and the stream reads */
int dat_meta_instances_read(const struct dat_meta *m);
/**
 * dat_meta_instances_named - the buffer instances the file names, its pages held or not: what
 * trace-cmd report counts (tracecmd_buffer_instances()) to put a buffer column before each line
 */
int dat_meta_instances_named(const struct dat_meta *m);

/**
 * dat_meta_read - the header, options and sections of a .dat, each checked against the file's
 * size before anything trusts it
 */
int dat_meta_read(const char *path, struct dat_meta *m, struct gt_error *err);
/**
 * dat_meta_check_pages - every page of every CPU checked (zstd v7: every chunk decompressed),
 * for a file libtracecmd iterates itself: dat_meta_read() checks only each CPU's first page
 * (what libtracecmd's open loads), and our stream reader checks each page as it goes. m is
 * what dat_meta_read_fd() read of fd.
 */
int dat_meta_check_pages(int fd, const char *path, const struct dat_meta *m, struct gt_error *err);
/** dat_meta_read_fd - the same from an open file (read with pread); name is for the messages. */
int dat_meta_read_fd(int fd, const char *name, struct dat_meta *m, struct gt_error *err);

#endif
