/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The job join's own lookups, for timeline.c and timeline-stats.c alone: the
 * jobs in flight by each key a driver names them by, the fences' recent
 * signal times, and the rings, processes and clients by key. The outputs
 * read struct timeline (timeline.h), never these.
 */
#ifndef GT_TIMELINE_PRIVATE_H
#define GT_TIMELINE_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/fence-signals.h"
#include "decode/gpu-event.h"
#include "util/keymap.h"

struct timeline_index {
	struct keymap ring_by_name;	/* name hash -> index + 1 of the first so named */
	struct keymap ring_by_dev;	/* (device, name) hash -> index + 1 */
	/* the last (name, device) looked up: a job's events ask for it two or three times */
	struct {
		char name[GEV_STR_LEN], dev[GEV_STR_LEN];
		int ring;		/* index + 1; 0: none yet */
	} ring_seen;
	/*
	 * The ring of the event being added, once asked: a queue event asks for it
	 * up to five times (its keys, a new job, the event's own ring). Valid only
	 * inside timeline.c's add_event(): a later event may reuse the address.
	 */
	struct {
		const struct gpu_event *ev;	/* NULL: not asked yet */
		int ring;
	} event_ring;
	struct keymap proc_index, client_index;	/* key -> index + 1 */
	struct keymap client_hw_index;	/* client id -> index + 1 */
	struct keymap by_id, by_ptr, by_fence, by_virtio;
	/* thread (pid + 1) -> the id key of its last submit that waits for its queue */
	struct keymap submit_waits;
	/*
	 * Up to 5.1x (5.10): the address of a ring's name (the scheduler's events) -> the ring's
	 * index + 1: a ring of that address's own until amdgpu's events name it
	 */
	struct keymap ring_by_ptr;
	unsigned int stand_ins;		/* rings named "(unnamed N)" so far */
	/* the scheduler's last runs, each waiting for amdgpu's run of its job (run_waits()) */
	struct run_wait {
		uint64_t ring_ptr;	/* a ring known by its address alone: to learn; else 0 */
		uint64_t fence_ptr, id, ts;	/* fence_ptr 0: a free slot */
		int pid;
	} run_waits[16];
	unsigned int run_wait_next;
	/*
	 * Jobs handed out, kept for the next ones (a job a few events long is
	 * allocated and freed 100,000s of times a file); at most JOB_SPARES
	 */
	struct job_spare *spares;
	size_t nr_spares;
	uint64_t jobs_made;		/* the next job's serial */
	struct fence_signals signals;	/* fence -> signal ts, bounded */
};

#endif
