/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CPU_COVERAGE_H
#define GT_CPU_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Which window of time each CPU's records cover. A file taken from ring
 * buffers in overwrite mode (trace-cmd start + extract, gpuvis's capture)
 * keeps each CPU's newest pages only: busy CPUs start late, and before the
 * latest start a job's events on those CPUs are gone. Only a full buffer
 * wraps: a CPU that starts late because it was idle holds little data and
 * overran nothing. Likewise a CPU whose buffer filled with no reader stops
 * early.
 */
#define COVERAGE_MAX_CPUS 1024

struct cpu_window {
	int cpu;
	uint64_t first, last;	/* its first and last record */
	uint64_t bytes;		/* its data in the file; 0: not known */
	long long overrun;	/* events its writer overwrote, as the file's stats say; -1: none */
};

/* What says a late CPU's older data was overwritten */
enum cpu_overwrite_evidence {
	OVERWRITE_NONE,		/* nothing: not judged overwritten */
	OVERWRITE_OVERRUN,	/* the file's stats count overwritten events */
	OVERWRITE_FULL,		/* its data fills its buffer, whose size the file records */
	OVERWRITE_LARGEST,	/* its data is as large as the largest CPUs' (sizes not recorded) */
};

struct cpu_coverage {
	int nr;
	struct cpu_window cpus[COVERAGE_MAX_CPUS];
	/*
	 * Judged: skewed when a CPU's records start later than the first CPU's
	 * by more than 10% of the file's span and 10 ms and the evidence says
	 * its older data was overwritten (late_evidence): an overrun count in
	 * the file's stats; else its data fills its buffer (90% of the size
	 * recorded, else of the largest CPU's data when that is 64 KiB or more
	 * and another CPU holds as much: wrapped buffers, all of one size, hold
	 * alike). A late CPU with less was idle: its late first record says
	 * nothing. A CPU
	 * that stops as early is judged only on a full buffer of known size
	 * (no reader: later events dropped). Then every CPU's records cover
	 * [from, to]; late_cpu starts last, end_cpu ends first (-1: that side
	 * is whole).
	 */
	bool skewed;
	enum cpu_overwrite_evidence late_evidence;
	uint64_t evidence_bytes;	/* OVERWRITE_FULL, _LARGEST: the buffer's size or the largest data */
	uint64_t from, to;
	uint64_t start, end;	/* the first and the last record of any CPU */
	int late_cpu, end_cpu;
};

/** cpu_coverage_init - an empty coverage of every CPU */
void cpu_coverage_init(struct cpu_coverage *c);
/**
 * cpu_coverage_add - a CPU with records; the bytes of its data (0: not known) and the events
 * its writer overwrote as the file's stats say (-1: the file has no stats for it)
 */
void cpu_coverage_add(struct cpu_coverage *c, int cpu, uint64_t first, uint64_t last,
		      uint64_t bytes, long long overrun);
/**
 * cpu_coverage_judge - each CPU's window judged against the others
 * @buffer_bytes: each CPU's ring buffer in bytes as recorded; 0 when not known
 */
void cpu_coverage_judge(struct cpu_coverage *c, uint64_t buffer_bytes);

#endif
