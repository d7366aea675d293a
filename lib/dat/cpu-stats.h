/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CPU_STATS_H
#define GT_CPU_STATS_H

/*
 * per_cpu/cpuN/stats as the kernel prints it: read live before the instance
 * goes away (cpu-stats-read.h), and as a .dat stores it (trace-cmd's CPUSTAT).
 */
struct cpu_stats {
	unsigned long long entries;		/* events in the buffer, not yet read */
	unsigned long long bytes;		/* their bytes */
	unsigned long long overrun;		/* overwritten by the writer */
	unsigned long long commit_overrun;	/* buffer far too small */
	unsigned long long dropped;		/* non-overwrite mode, buffer full */
	unsigned long long read;
	unsigned long long buffer_kb;		/* per_cpu/cpuN/buffer_size_kb, 0: unknown */
	char *text;				/* the file as read + "buffer_size_kb: N", for the .dat */
};

/** cpu_stats_parse - parses the stats text; unknown lines are ignored (kernels add some). */
void cpu_stats_parse(const char *text, struct cpu_stats *st);
/** cpu_stats_lost - events the kernel lost on this CPU: overrun, commit overrun, dropped */
unsigned long long cpu_stats_lost(const struct cpu_stats *st);
/** cpu_stats_free - one CPU's parsed statistics */
void cpu_stats_free(struct cpu_stats *st);

#endif
