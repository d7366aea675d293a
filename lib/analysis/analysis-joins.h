/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_ANALYSIS_JOINS_H
#define GT_ANALYSIS_JOINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <trace-cmd.h>

#include "decode/gpu-event.h"

struct analysis;

/**
 * struct join_record - one record as the joins see it
 * @rec:   the record
 * @ts, @cpu, @missed: the record's time, CPU and missed_events
 * @kind:  what the decoders made of it (GEV_NONE: no GPU or function event)
 * @ev:    the decoded event, when @kind is not GEV_NONE
 * @taken: a join before this one took it as its own; the print-line join
 *         reads only what no other took
 * @too_short: shorter than the common fields (damaged): counted, not read
 * @type:  its event id, read once for every join
 * @pid:   its common_pid
 * @print: an ftrace print record's text (NUL-terminated inside the record),
 *         else NULL: record's snapshots, --hip-log's lines, trace_marker
 *
 * Decoded once by the pipeline, then offered to every join in table order.
 */
struct join_record {
	/*
	 * The first cache line: what every record's take reads (with the event's kind and
	 * misses, which begin the next). Its time, CPU and lost events are the record's,
	 * copied where the record is decoded: on the reading thread, the joining one then
	 * reads the record's own lines only for the fields of events it reads field by
	 * field.
	 */
	_Alignas(64) struct tep_record *rec;
	int buffer;			/* 0 the top buffer, k the k-th instance (dat_meta_instance_name) */
	enum gpu_event_kind kind;
	bool taken;
	bool too_short;
	int type, pid;
	int cpu;
	unsigned long long ts;
	long long missed;		/* rec->missed_events */
	const char *print;
	struct gpu_event ev;
};

/** analysis_hooks_records - an on_record hook reads every record (its tep_record) */
bool analysis_hooks_records(const struct analysis *a);

/**
 * analysis_decode - what a record is, read from it alone (the decoders' tables are only
 * read): the half of analysis_record() that may run on a reading thread ahead of the joins
 */
void analysis_decode(const struct analysis *a, struct join_record *r);
/**
 * analysis_take - a decoded record through the counters, every join and the hook, in time
 * order; < 0 when the hook asked to stop
 */
int analysis_take(struct analysis *a, struct join_record *r);

/**
 * enum analysis_join_id - the joins, in the order each record meets them: a
 * join's state is a->states[its id], which only the join's own file and the
 * accessor its header declares (timeline_of(), kfd_queues_of(), ...) read
 */
enum analysis_join_id {
	JOIN_WORKLOAD,		/* the workload's pid tree: the jobs ask it whose a job is */
	JOIN_JOBS,		/* GPU jobs (timeline.c) */
	JOIN_I915,		/* after the jobs: hands them i915's requests */
	JOIN_XE,		/* after the jobs: xe's queues per GT and engine */
	JOIN_HANGS,		/* after the jobs: a timeout finds what was in flight */
	JOIN_KFD_FUNCTIONS,
	JOIN_KFD_PROBES,
	JOIN_NVIDIA,
	JOIN_USER_QUEUES,
	JOIN_VBLANKS,		/* display timing */
	JOIN_CPU_SIDE,		/* the workload's GPU ioctls, its scheduling and interrupts */
	JOIN_HOST,		/* record's host, GPU and clock markers */
	JOIN_FLIGHT,		/* a flight recorder dump's trigger markers */
	/* last, the print lines no other join took */
	JOIN_KFD_SNAPSHOTS,
	JOIN_DRM_CLIENTS,
	JOIN_HIP,		/* every print line the two before did not take */
	JOIN_NR
};

/**
 * struct analysis_join - one join of the pipeline, a row of analysis_joins[]
 * @name:   what it joins, for messages and tests
 * @state_size: what the session allocates (zeroed) for its state before any
 *          join's init, and frees after its @free
 * @init:   over the file's formats (a->tep); 0, or -1 when out of memory
 * @record: every record, in time order
 * @finish: once, after the last record (unfinished work handed out)
 * @free:   what init and record made (not the state itself); also after a
 *          failed init
 * @gpu_data: what it contributes to the report's verdict: whether it met
 *          anything of a GPU's (NULL: never), so report can tell a file with
 *          GPU data from one without (analysis_has_gpu_data)
 * @kinds:  after init, which records it reads, as JOIN_KIND() bits of their
 *          decoded kinds (GEV_NONE: not GPU events); NULL: every record. It is
 *          handed only those, and every record that follows lost events; a
 *          superset is fine (it still tests each record), a missing kind loses
 *          its records
 *
 * Each is defined in its own file, beside the code that keeps its state; a
 * new join is that file, an id above and one row in analysis-joins.c.
 */
struct analysis_join {
	const char *name;
	size_t state_size;
	int (*init)(void *state, struct analysis *a);
	void (*record)(void *state, struct analysis *a, struct join_record *r);
	void (*finish)(void *state, struct analysis *a);
	void (*free)(void *state);
	bool (*gpu_data)(const void *state, const struct analysis *a);
	uint64_t (*kinds)(const void *state, const struct analysis *a);
};

#define JOIN_KIND(k)	(1ULL << (k))
_Static_assert(GEV_NR_KINDS <= 64, "a join's kinds are one 64-bit mask");

/* every join, indexed by enum analysis_join_id */
extern const struct analysis_join *const analysis_joins[JOIN_NR];

extern const struct analysis_join workload_tree_join, timeline_join, i915_requests_join,
	xe_engines_join,
	gpu_hangs_join, kfd_queues_join, kfd_queue_table_join, nvidia_calls_join,
	user_queues_join, vblanks_join, cpu_side_join, host_clock_join, flight_marks_join, kfd_snapshots_join, drm_clients_join, hip_runtime_join;

#endif
