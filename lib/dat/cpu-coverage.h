/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CPU_COVERAGE_H
#define GT_CPU_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Which window of time each CPU's records cover. A file taken from ring
 * buffers in overwrite mode (trace-cmd start + extract, gpuvis's capture)
 * keeps each CPU's newest pages only: busy CPUs start late, and before the
 * latest start a job's events on those CPUs are gone, with nothing in the
 * data or the stats (overrun 0 in files seen) to say so. Likewise a CPU
 * whose buffer filled with no reader stops early.
 */
#define COVERAGE_MAX_CPUS 1024

struct cpu_window {
	int cpu;
	uint64_t first, last;	/* its first and last record */
	uint64_t bytes;		/* its data in the file; 0: not known */
};

struct cpu_coverage {
	int nr;
	struct cpu_window cpus[COVERAGE_MAX_CPUS];
	/*
	 * Judged: skewed when a CPU's records start later than the first CPU's
	 * by more than 10% of the file's span and 10 ms, and that CPU is busy
	 * (1/8 of the busiest one's data at least: an idle CPU's late first
	 * record says nothing) and, where the buffer size is known, its data
	 * fills it (it wrapped). A CPU that stops as early is judged only on
	 * that evidence, a full buffer (no reader: later events dropped). Then
	 * every CPU's records cover [from, to]; late_cpu starts last, end_cpu
	 * ends first (-1: that side is whole).
	 */
	bool skewed;
	uint64_t from, to;
	uint64_t start, end;	/* the first and the last record of any CPU */
	int late_cpu, end_cpu;
};

/** cpu_coverage_init - an empty coverage of every CPU */
void cpu_coverage_init(struct cpu_coverage *c);
/** cpu_coverage_add - a CPU with records; the bytes of its data, or 0 when not known. */
void cpu_coverage_add(struct cpu_coverage *c, int cpu, uint64_t first, uint64_t last,
		      uint64_t bytes);
/**
 * cpu_coverage_judge - each CPU's window judged against the others
 * @buffer_bytes: each CPU's ring buffer in bytes as recorded; 0 when not known
 */
void cpu_coverage_judge(struct cpu_coverage *c, uint64_t buffer_bytes);

#endif
