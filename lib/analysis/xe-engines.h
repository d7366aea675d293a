/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_XE_ENGINES_H
#define GT_XE_ENGINES_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/gpu-event.h"

/*
 * Intel xe's work per GT and engine class. xe submits through the GuC: every
 * exec queue is a DRM scheduler of its own, named by its engine class and its
 * GuC id ("rcs5": render, GuC id 5; ids are per GT and reused), so the job
 * timeline (timeline.h) has one ring per queue and knows neither the GT nor
 * the engine. xe's own events do:
 *   xe_exec_queue_create/destroy/reset (dev, class, logical_mask, gt_id, guc_id)
 *   xe_sched_job_run/set_error/ban/timedout (dev, guc_id, seqno; gt_id since 7.x)
 * The join keeps the live queues by (device, GT, GuC id), counts each engine's
 * queues and jobs, and at the end folds every queue's ring (its finished jobs
 * and busy time) into its engine. A queue created before the file is learnt
 * from its ring's name, on the GT its job events name (6.12's name none: GT
 * "-").
 */

#define XE_MAX_ENGINES	32	/* past them, "(more engines)" */

/* One device's GT and engine class. */
struct xe_engine {
	char dev[GEV_STR_LEN];		/* "0000:00:02.0" */
	int gt;				/* -1: not named by the events */
	char engine[16];		/* rcs, bcs, vcs, vecs, ccs, gsccs, "class N"; "?" */
	uint64_t queues;		/* distinct exec queues seen */
	uint64_t created, destroyed;	/* queues created and destroyed in the file */
	uint64_t resets;		/* xe_exec_queue_reset: the GuC reset the engine under it */
	uint64_t ran;			/* xe_sched_job_run: jobs handed to the GuC */
	uint64_t errors;		/* xe_sched_job_set_error */
	uint64_t bans;			/* xe_sched_job_ban */
	uint64_t timeouts;		/* xe_sched_job_timedout */
	/* its queues' rings in the job timeline, at the end (filtered as the rings are) */
	int rings;
	uint64_t jobs;			/* finished jobs */
	uint64_t busy_ns;		/* the rings' busy time, summed: queues may overlap */
};

/* What the join found, for the outputs; its decode state is xe-engines.c's alone. */
struct xe_engines {
	uint64_t records;		/* xe queue and job records read */
	struct xe_engine engines[XE_MAX_ENGINES + 1];
	int nr_engines;
};

struct analysis;
/**
 * xe_engines_of - what the xe engine join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its engines, owned by @a (valid until analysis_close()), to read only; NULL
 * before analysis_init()
 */
const struct xe_engines *xe_engines_of(const struct analysis *a);

/**
 * xe_engine_class_name - xe's engine class as its queues' names spell it ("rcs" for 0)
 * @klass: enum xe_engine_class's value
 *
 * Return: the prefix, or NULL for a class this build does not know
 */
const char *xe_engine_class_name(unsigned int klass);

#endif
