/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PERFETTO_GPU_COUNTERS_H
#define GT_PERFETTO_GPU_COUNTERS_H

#include <stdint.h>

#include "output/perfetto-export.h"

/* The busy share's window: 1 ms, the period GPU counter producers commonly sample at. */
#define PF_BUSY_WINDOW_NS	1000000ULL

/**
 * perfetto_gpu_in_flight - ring @ring's jobs in flight (queued, not done) changed at @ts from
 * @before: a sample of its "in flight" GPU counter
 */
void perfetto_gpu_in_flight(struct perfetto_export *p, int ring, uint64_t ts, int64_t before);

/**
 * perfetto_gpu_busy - ring @ring ran a job on the hardware from @start to @end (jobs come in
 * the ring's order): counted into its "busy" GPU counter, the share of each window it ran.
 * @stint: a stint its driver measured on the engine (a preempted job's), which overlaps no
 * other job: counted back to the window being summed, not only past the last job counted
 */
void perfetto_gpu_busy(struct perfetto_export *p, int ring, uint64_t start, uint64_t end,
		       bool stint);

/**
 * perfetto_gpu_counters_end - the source ends at @ts: each ring's last in-flight value and
 * last busy window written
 */
void perfetto_gpu_counters_end(struct perfetto_export *p, uint64_t ts);

#endif
