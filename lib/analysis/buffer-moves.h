/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_BUFFER_MOVES_H
#define GT_BUFFER_MOVES_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/gpu-event.h"

/*
 * amdgpu's buffer moves (amdgpu_bo_move: size, from and to placement) and
 * creations, added up by direction. A move out of VRAM is an eviction; the
 * copy itself is a job on the buffer-functions ring (an SDMA ring, in the
 * kernel's name), so a job that waits while moves happen may wait for them.
 * The running byte count lets the job join say, per job, how much moved
 * while it waited (queue -> run), without keeping the moves.
 */

#define BO_PLACEMENTS	9	/* system, GTT, VRAM, GDS, GWS, OA, preemptible, doorbell, MMIO remap */

struct buffer_moves {
	uint64_t moves, bytes;			/* all, in file order: bytes is the running count */
	uint64_t count[BO_PLACEMENTS + 1][BO_PLACEMENTS + 1];	/* [from][to]; the last: others */
	uint64_t moved[BO_PLACEMENTS + 1][BO_PLACEMENTS + 1];	/* bytes */
	uint64_t evictions, evicted_bytes;	/* out of VRAM */
	uint64_t creates, created_bytes;
	uint64_t first_ts, last_ts;		/* of the moves */
};

/** buffer_moves_add - an amdgpu_bo_move or amdgpu_bo_create */
void buffer_moves_add(struct buffer_moves *m, const struct gpu_event *ev);

/** buffer_moves_placement - the row or column of @placement in count/moved (others last) */
unsigned int buffer_moves_placement(unsigned int placement);

#endif
