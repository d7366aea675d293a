/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_OWNER_SWITCH_H
#define GT_OWNER_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/gpu-event.h"

/*
 * amdgpu's enforce isolation (6.15+): a partition's gfx and compute rings
 * run one owner's work at a time. When the next job's owner (its DRM file's
 * VM) differs, the scheduler's worker notes the switch (amdgpu_isolation,
 * prev and next owner) while preparing that job, and the job waits for all
 * of the previous owner's work on the partition, on any of its rings, before
 * it runs; then the cleaner shader (amdgpu_cleaner_shader) clears the
 * shader state ahead of the job's own. Neither event names the job: it is
 * the next one the same worker reports, by its dependency wait (the
 * previous owner's fence) or by its run. Owners are kernel pointers; a
 * switch's job names its owner's process.
 */

#define OWNER_SWITCH_MAX	4096	/* switches kept for the report's list */
#define OWNER_SWITCH_WORKERS	16	/* workers with a switch not yet claimed */
#define OWNER_NONE		0ULL	/* kernel submissions */
#define OWNER_SHARED		(~0ULL)	/* jobs not under enforce isolation */

struct owner_switch {
	uint64_t ts;			/* amdgpu_isolation */
	uint64_t prev, next;		/* owners, as the kernel names them */
	int worker;			/* the scheduler worker's pid */
	/* the job it was made for; ring -1 until one claims it */
	int ring, pid;
	bool workload;
	bool has_fence;
	uint64_t ctx, seqno;
	bool has_id;
	uint64_t id;
	uint64_t fence_ptr;
	uint64_t t_run;			/* the job's run; 0: not in the file */
	/* the previous owner's fence the job waited for, and whose job that was */
	bool waited;
	uint64_t wait_ctx, wait_seqno;
	int wait_pid, wait_ring;	/* 0, -1: not a job in flight in the file */
	bool cleaner;			/* the cleaner shader ran before its job */
	uint64_t cleaner_ts, cleaner_seqno;
};

struct owner_switches_live;

/*
 * The switches, for the outputs: all zero is none. What owner-switch.c keeps while
 * it reads (the switches no job claimed yet, the owners' processes) is behind @live,
 * defined in owner-switch-private.h; ask owner_switches_owner_pid() for an owner's process.
 */
struct owner_switches {
	struct owner_switch *list;	/* in time order, at most OWNER_SWITCH_MAX */
	size_t nr, cap;
	uint64_t seen;			/* every amdgpu_isolation in the file */
	uint64_t dropped;		/* seen past the bound or out of memory */
	uint64_t cleaner_runs;
	uint64_t cleaner_alone;		/* cleaner shaders after no switch in the file */
	struct owner_switches_live *live;	/* NULL until the first switch or owner */
};

/** owner_switches_add - an amdgpu_isolation record: the switch, pending until a job claims it */
void owner_switches_add(struct owner_switches *s, const struct gpu_event *ev);

/**
 * owner_switches_claim - a job's dependency wait or run, reported by scheduler worker @worker:
 * true when that worker switched owners just before (the switch was for this job), with the
 * switch's time in *@ts and its index in *@idx (SIZE_MAX when past the bound); the switch
 * stops being pending.
 */
bool owner_switches_claim(struct owner_switches *s, int worker, uint64_t *ts, size_t *idx);

/** owner_switches_at - the kept switch at @idx, NULL for SIZE_MAX or past the list */
struct owner_switch *owner_switches_at(struct owner_switches *s, size_t idx);

/**
 * owner_switches_name_owner - @owner's jobs come from @pid (the first job claimed for it
 * names it; kernel and shared owners are never a process)
 */
void owner_switches_name_owner(struct owner_switches *s, uint64_t owner, int pid);

/** owner_switches_owner_pid - the process behind @owner, 0 when no job of the file names it */
int owner_switches_owner_pid(const struct owner_switches *s, uint64_t owner);

/**
 * owner_switches_cleaner - an amdgpu_cleaner_shader at @ts (ring fence @seqno) on a ring whose
 * last run job followed a switch (@after_switch; the kept one at @idx, SIZE_MAX: past the
 * bound) or none
 */
void owner_switches_cleaner(struct owner_switches *s, bool after_switch, size_t idx, uint64_t ts,
			    uint64_t seqno);

/** owner_switches_free - the list, the owner names and the pending switches; all zero after */
void owner_switches_free(struct owner_switches *s);

#endif
