/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_VM_ACTIVITY_H
#define GT_VM_ACTIVITY_H

#include <stdint.h>

#include "decode/gpu-event.h"

/*
 * amdgpu's GPU virtual memory at work: page-table updates (amdgpu_vm_update_ptes,
 * per process: the address range written), buffers mapped and unmapped
 * (amdgpu_vm_bo_map/_unmap), and per ring the VMIDs its jobs took
 * (amdgpu_vm_grab_id; one that needs a flush costs a TLB flush) and the
 * flushes it ran (amdgpu_vm_flush). A command submission waits for its VM's
 * page-table updates, so the running count of updated bytes lets the job join
 * say how much was updated while a job waited (queue -> run), as for buffer
 * moves. The events name no device: several GPUs' add up together.
 */

#define VM_RINGS	64	/* rings named; the rest are counted in other_* */
#define VM_PIDS		64	/* processes named; the rest in other_* */
#define VM_PAGE		4096ULL	/* a GPU page (AMDGPU_GPU_PAGE_SIZE) */

struct vm_ring_use {
	char ring[GEV_STR_LEN];
	uint64_t grabs, grabs_flushing, flushes;
};

struct vm_pid_use {
	int pid;
	uint64_t updates, bytes;
};

struct vm_activity {
	uint64_t updates, updated_bytes;	/* running counts, in file order */
	uint64_t maps, mapped_bytes, unmaps, unmapped_bytes;
	uint64_t grabs, grabs_flushing, flushes;
	uint64_t first_ts, last_ts;		/* of any of these events */
	struct vm_ring_use rings[VM_RINGS];
	int nr_rings;
	uint64_t other_ring_grabs, other_ring_flushes;	/* past VM_RINGS rings */
	struct vm_pid_use pids[VM_PIDS];
	int nr_pids;
	uint64_t other_pid_updates, other_pid_bytes;	/* past VM_PIDS processes */
};

/** vm_activity_add - one amdgpu_vm_* event (others are ignored) */
void vm_activity_add(struct vm_activity *v, const struct gpu_event *ev);

/** vm_activity_events - how many VM events were added */
uint64_t vm_activity_events(const struct vm_activity *v);

#endif
