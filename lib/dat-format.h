/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_FORMAT_H
#define GT_DAT_FORMAT_H

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
	DAT_OPT_TIME_SHIFT = 12,
	DAT_OPT_TSC2NSEC = 14,
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

/* The clock name between brackets in a trace_clock file ("[mono]"), or NULL. */
char *dat_clock_name(const char *trace_clock);

#endif
