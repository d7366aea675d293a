/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_WRITER_H
#define GT_DAT_WRITER_H

#include <stdbool.h>
#include <sys/types.h>

#include "gt-error.h"

/* trace-cmd option ids (trace-cmd.dat(5)) that we write */
enum dat_option {
	DAT_OPT_DONE = 0,
	DAT_OPT_CPUSTAT = 2,
	DAT_OPT_BUFFER = 3,
	DAT_OPT_TRACECLOCK = 4,
	DAT_OPT_UNAME = 5,
	DAT_OPT_VERSION = 9,
	DAT_OPT_CPUCOUNT = 8,
	/*
	 * Ours: the per-CPU buffer size granted, u64 KB. trace-cmd readers
	 * skip ids they do not know; 0x4754 ("GT") stays clear of theirs.
	 */
	DAT_OPT_GT_BUFFER_KB = 0x4754,
};

/* The format files of one event system, as the kernel prints them. */
struct dat_event_system {
	char *name;
	char **formats;
	int nr_formats;
};

/*
 * A second tracefs instance's data, stored as a trace-cmd buffer instance
 * (v6 BUFFER option): readers show its events beside the top buffer's.
 */
struct dat_buffer {
	const char *name;
	char *const *cpu_stats;		/* per CPU, as for the top buffer */
	const int *cpu_fds;
	const off_t *cpu_sizes;
};

struct dat_input {
	const char *header_page;
	const char *header_event;
	const struct dat_event_system *ftrace;	/* ftrace's own events */
	const struct dat_event_system *systems;	/* every system that can appear */
	int nr_systems;
	const char *kallsyms;		/* NULL: store none */
	const char *printk_formats;
	const char *cmdlines;
	const char *trace_clock;	/* the trace_clock file, "[mono]" marked */
	const char *uname;
	const char *version;
	char *const *cpu_stats;		/* per_cpu/cpuN/stats text, per CPU */
	unsigned long long buffer_kb;
	int nr_cpus;
	int page_size;
	const int *cpu_fds;		/* raw pages, page multiples */
	const off_t *cpu_sizes;
	const struct dat_buffer *instances;	/* same CPU count as the top */
	int nr_instances;
	/*
	 * Punch out each copied range of the CPU files, so the disk never holds
	 * the data twice (a nearly full disk still gets its trace written).
	 */
	bool consume_cpu_files;
};

/* Writes a trace-cmd v6 file to out_fd (positioned at 0). */
int dat_write_v6(int out_fd, const struct dat_input *in, struct gt_error *err);

/* Reads every events/<name>/<event>/format of the running kernel. */
int dat_event_system_load(struct dat_event_system *sys, const char *name);
void dat_event_system_free(struct dat_event_system *sys);

/* The clock name between brackets in a trace_clock file, or NULL. */
char *dat_clock_name(const char *trace_clock);

#endif
