/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_WRITER_H
#define GT_DAT_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "dat/dat-format.h"
#include "util/gt-error.h"

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
/* buffer instances a file may carry beside the top buffer (dat_write_v6 refuses more) */
#define DAT_MAX_INSTANCES 8

struct dat_buffer {
	const char *name;
	char *const *cpu_stats;		/* per CPU, as for the top buffer */
	const int *cpu_fds;
	const off_t *cpu_sizes;
};

/* An option as another writer wrote it (tests make other tools' files). */
struct dat_raw_option {
	uint16_t id;
	uint32_t size;
	const void *data;
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
	/* as trace-cmd 2.x: the TRACECLOCK option empty, the clock after the CPU table alone */
	bool clock_option_empty;
	const char *uname;
	const char *version;
	char *const *cpu_stats;		/* per_cpu/cpuN/stats text, per CPU */
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
	/* written after VERSION; one with the CPUCOUNT id replaces ours */
	const struct dat_raw_option *raw_options;
	int nr_raw_options;
	/* written after the top buffer's CPU stats (where trace-cmd split puts BUFFER options) */
	const struct dat_raw_option *late_options;
	int nr_late_options;
};

/** dat_write_v6 - writes a trace-cmd v6 file to out_fd (positioned at 0). */
int dat_write_v6(int out_fd, const struct dat_input *in, struct gt_error *err);

/** dat_event_system_load - reads every events/<name>/<event>/format of the running kernel. */
int dat_event_system_load(struct dat_event_system *sys, const char *name);
/** dat_event_system_free - the formats dat_event_system_load() read */
void dat_event_system_free(struct dat_event_system *sys);

#endif
