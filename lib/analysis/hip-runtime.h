/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_HIP_RUNTIME_H
#define GT_HIP_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/hip-log.h"
#include "analysis/kfd-queues.h"

/*
 * What the HIP runtime's log (record --hip-log, lines stored as print
 * records) says each process did: its HSA queues, its kernel dispatches by
 * kernel name, its commands. A "ShaderName" line names the dispatch that
 * follows it in the same process, as the runtime logs them.
 *
 * The join with the kernel's view: a dispatch runs from its line to the
 * "complete" line of its command (the oldest KernelExecution command of the
 * process enqueued and not yet dispatched: the runtime enqueues, names,
 * dispatches, in that order); every KFD eviction or restore (function
 * records, any pid: a kworker or another process evicts, and the records do
 * not say whose queues) that overlaps that span is kept. HIP queues are
 * paired with the process's KFD queue creates by order (report).
 */
struct hip_queue {
	uint64_t swq, hwq;		/* hwq: the ring base KFD's create_queue gets */
	int size, priority, cooperative;
	uint64_t ts;
	uint64_t dispatches;		/* AQL dispatches logged on it */
};

/* A dispatch whose span overlapped a KFD eviction or restore. */
struct hip_overlap {
	uint64_t dispatch_id, hwq, from, to;
	int kernel;
	enum kfd_op_type op;
	int op_pid;
	uint64_t op_start, op_duration;
};

#define HIP_MAX_CMDS		1024	/* in flight per process; older ones dropped */
#define HIP_MAX_OVERLAPS	256	/* kept per process; more are counted */
/* a log says how many of each there are: bounded, the rest counted */
#define HIP_MAX_PROCS		4096
#define HIP_MAX_KERNELS		16384	/* names per process */
#define HIP_MAX_QUEUES		4096	/* per process */

struct hip_kernel {
	char name[128];			/* the shader's, or "kernel_obj 0x..." */
	uint64_t dispatches;
	uint64_t first_ts, last_ts;
	uint64_t spans, span_ns;		/* dispatches seen complete, their summed spans */
};

struct hip_proc {
	int pid;
	uint64_t lines, by_kind[HIP_NR_KINDS];
	uint64_t first_ts, last_ts;
	struct hip_queue *queues;
	int nr_queues, cap_queues;
	struct hip_kernel *kernels;
	int nr_kernels, cap_kernels;
	uint64_t more_queues;		/* creates past HIP_MAX_QUEUES */
	uint64_t more_kernels;		/* dispatches of names past HIP_MAX_KERNELS */
	uint64_t dropped_cmds;		/* commands in flight past HIP_MAX_CMDS */
	struct hip_overlap *overlaps;
	int nr_overlaps;
	uint64_t more_overlaps;
	uint64_t spans;			/* dispatches whose completion was seen */
	uint64_t commands_complete;
	int64_t gpu_us, wall_us;	/* sums over the completed commands that measured them */
	uint64_t gpu_measured, wall_measured;	/* how many did (see hip_proc_gpu_measured) */
	uint64_t gpu_nonzero;		/* of gpu_measured, the lines whose GPU was not 0 */
	uint64_t copy_bytes;
};

/**
 * hip_proc_gpu_measured - how many of a process's completed commands measured their GPU time:
 * a runtime build that does not measure prints 0 on every line, one that does prints 0 only
 * for a command under a microsecond; none when all of the process's lines say 0
 */
static inline uint64_t hip_proc_gpu_measured(const struct hip_proc *p)
{
	return p->gpu_nonzero ? p->gpu_measured : 0;
}

/*
 * What the join found, for the outputs: its decode state (the processes, queues and
 * kernels by key, the ShaderName waiting, the commands in flight) is hip-runtime-private.h's.
 */
struct hip_runtime {
	struct hip_proc *procs;
	int nr_procs, cap_procs;
	uint64_t more_procs_lines;	/* lines of processes past HIP_MAX_PROCS */
	uint64_t lines;			/* HIP log lines seen */
	/* the line just added, if a dispatch: its kernel's name (valid until the
	 * next line) and where it is kept (indices stay valid) */
	const char *last_kernel;
	int last_proc, last_kernel_index;
	int failed;			/* out of memory: counts stop growing */
	char capture_note[256];		/* record --hip-log's line: a cap on its reading was hit */
};

/**
 * hip_queue_kfd_create - the KFD queue create a runtime's queue came from
 * @p:     a process of hip_runtime_of()
 * @queue: the index of one of its queues
 * @k:     kfd_queues_of()'s
 *
 * The process's creates in order, the n-th for the n-th queue, if it began before the
 * runtime logged the queue.
 *
 * Return: the create, owned by @k; NULL when there is none
 */
const struct kfd_op *hip_queue_kfd_create(const struct hip_proc *p, int queue,
					  const struct kfd_queues *k);

struct analysis;
/**
 * hip_runtime_add_file - a HIP log captured apart (report --hip-log FILE) into @a's HIP join
 * @a:    the analysis, after its pass (the KFD operations are the ones its file showed)
 * @path: the log; a _<pid> name gives its lines' pid, else their own (a line without one:
 *        its thread's on the lines that name both, else the log's only pid)
 *
 * Return: 0, or -errno when the file cannot be read
 */
int hip_runtime_add_file(struct analysis *a, const char *path);
/**
 * hip_runtime_of - what the HIP runtime log join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its processes, queues, kernels and the latest line's kernel, owned by @a (valid
 * until analysis_close()), to read only; NULL before analysis_init()
 */
const struct hip_runtime *hip_runtime_of(const struct analysis *a);

#endif
