/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_I915_REQUESTS_H
#define GT_I915_REQUESTS_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/gpu-event.h"

/*
 * Intel's i915 requests as jobs. i915 has no DRM scheduler: its own request
 * events (i915_request_* since 4.16, i915_gem_request_* before) carry the
 * request's fence context:seqno, which names it at every stage:
 *   queue/add (execbuf) -> [submit/guc_submit, execute] -> in (on an engine
 *   port) -> out (completed?=1; 0: preempted, it comes back in) -> retire.
 * Its run is when it was handed to the backend (submit, else its first in);
 * with ins and outs its hardware start is its first in and its engine time
 * the sum of its stints. in/out/submit/execute exist only where the kernel
 * was built with CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS (Debian's is not), and
 * GuC submission (DG2, MTL and later) sends no in/out: without outs a request
 * is done at its fence's dma_fence_signaled where the file has it, else at
 * retire (the driver's bookkeeping, later than the hardware).
 * Each stage is handed to the job join (timeline.h) as the scheduler's kinds,
 * on a ring named by its engine (rcs0, bcs0, vcs1, ...).
 */

#define I915_MAX_ENGINES	32	/* past them, "(more engines)" */

/* What one engine's requests did. */
struct i915_engine {
	char name[GEV_STR_LEN];		/* rcs0, vcs1, ...; "class 7:0" when unnamed */
	uint64_t requests;		/* queued or added */
	uint64_t ran;			/* went in to the engine (in/out), or submitted */
	uint64_t completed;		/* out with completed?=1, signalled or retired */
	uint64_t preempted;		/* out with completed?=0: taken off unfinished */
	uint64_t waits, wait_ns;	/* CPU waits on its requests (wait_begin -> end) */
	uint64_t max_wait_ns;
};

/*
 * What the join found, for the outputs: its decode state (the stages' fields,
 * the requests in flight) is i915-requests.c's alone.
 */
struct i915_requests {
	bool low_level;			/* in or out records seen: the engine's own times */
	uint64_t records;		/* i915 request records read */
	struct i915_engine engines[I915_MAX_ENGINES + 1];
	int nr_engines;
};

struct analysis;
/**
 * i915_requests_of - what the i915 request join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its engines and counts, owned by @a (valid until analysis_close()), to read
 * only; NULL before analysis_init()
 */
const struct i915_requests *i915_requests_of(const struct analysis *a);

#endif
