/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CPU_STATS_READ_H
#define GT_CPU_STATS_READ_H

#include "dat/cpu-stats.h"

/**
 * cpu_stats_read - per_cpu/cpuN/stats of a live buffer (buffer_dir: an instance's or the
 * tracing dir), with its buffer_size_kb added to the text: 0 or -errno.
 */
int cpu_stats_read(const char *buffer_dir, int cpu, struct cpu_stats *st);

#endif
