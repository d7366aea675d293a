/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_QUEUES_H
#define GT_KFD_QUEUES_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/gpu-event.h"

/*
 * ROCm compute queues have no tracepoints in mainline amdkfd: their create,
 * update, destroy, evict and restore come from function(-graph) records of
 * the KFD call chain under :mod:amdgpu. function_graph gives durations, the
 * function tracer the order only. User-space doorbell writes never enter the
 * kernel, so no trace can show individual queue submissions.
 */
enum kfd_op_type { KFD_OP_CREATE, KFD_OP_UPDATE, KFD_OP_DESTROY, KFD_OP_EVICT,
		   KFD_OP_RESTORE, KFD_OP_NR };

#define KFD_MAX_STEPS 24

struct kfd_step {
	const char *func;		/* static name from our table */
	uint64_t start;
	uint64_t duration;
	bool has_duration;
};

struct kfd_op {
	enum kfd_op_type type;
	int pid;
	const char *root;
	uint64_t start;
	uint64_t duration;
	bool has_duration;		/* function_graph exit seen */
	int nr_steps;
	unsigned int more_steps;	/* beyond KFD_MAX_STEPS */
	struct kfd_step steps[KFD_MAX_STEPS];
};

/*
 * What the join found, for the outputs and the HIP join: which operations are still
 * open, at which call depth, is kfd-queues.c's alone.
 */
struct kfd_queues {
	struct kfd_op *ops;
	int nr_ops, cap_ops;
	uint64_t func_records;		/* function records seen at all */
	uint64_t kfd_records;		/* of KFD's functions: queue paths, kfd_*, pqm_* */
	bool graph;			/* durations available */
};

/** kfd_op_name - a KFD queue operation's name (create, update, destroy, evict, restore) */
const char *kfd_op_name(enum kfd_op_type t);
/** kfd_is_queue_function - is this a function of the KFD queue paths we follow? */
bool kfd_is_queue_function(const char *func);
/**
 * kfd_is_function - is it KFD's by name (kfd_open, pqm_init, ...)? Queue-path steps such as
 * init_mqd need kfd_is_queue_function.
 */
bool kfd_is_function(const char *func);

struct analysis;
/**
 * kfd_queues_of - what the KFD function join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its operations and counts, owned by @a (valid until analysis_close()), to read
 * only; NULL before analysis_init()
 */
const struct kfd_queues *kfd_queues_of(const struct analysis *a);

#endif
