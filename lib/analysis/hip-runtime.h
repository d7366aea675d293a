/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_HIP_RUNTIME_H
#define GT_HIP_RUNTIME_H

#include <stdint.h>

#include "decode/hip-log.h"
#include "util/keymap.h"
#include "util/name-index.h"
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

/* A command in flight: enqueued, perhaps dispatched, not complete. */
struct hip_cmd {
	uint64_t cmd, enqueued;
	bool dispatched;
	uint64_t dispatch_ts, dispatch_id, hwq;
	int kernel;			/* index into kernels */
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
	struct keymap by_hwq;		/* hwq -> its latest queue's index + 1 */
	struct hip_kernel *kernels;
	int nr_kernels, cap_kernels;
	struct name_index by_name;	/* kernel name -> index */
	uint64_t more_queues;		/* creates past HIP_MAX_QUEUES */
	uint64_t more_kernels;		/* dispatches of names past HIP_MAX_KERNELS */
	char next_name[128];		/* a ShaderName waiting for its dispatch */
	struct hip_cmd *cmds;
	int nr_cmds;
	uint64_t dropped_cmds;
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

struct hip_runtime {
	struct hip_proc *procs;
	int nr_procs, cap_procs;
	struct keymap by_pid;		/* pid + 1 -> process index + 1 */
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
 * hip_runtime_add - one print record's text at ts (ns) from pid: a HIP log line is counted,
 * and returns 1 with *line filled; 0 for any other text. kfd: the KFD operations so far (NULL:
 * none), for the dispatches that end here.
 */
int hip_runtime_add(struct hip_runtime *h, int pid, uint64_t ts, const char *text,
		    struct hip_line *line, const struct kfd_queues *kfd);
/**
 * hip_runtime_add_file - a log captured apart (report --hip-log FILE): pid from its _<pid>
 * name or its lines (a line without one: its thread's on the lines that name both, else
 * the log's only pid); 0, or -errno.
 */
int hip_runtime_add_file(struct hip_runtime *h, const char *path, const struct kfd_queues *kfd);
/** hip_runtime_free - everything the HIP join holds */
void hip_runtime_free(struct hip_runtime *h);
/**
 * hip_queue_kfd_create - the KFD queue create the runtime's queue-th queue came from: the
 * process's creates in order, the n-th for the n-th queue, if it began before the runtime
 * logged the queue; NULL when there is none.
 */
const struct kfd_op *hip_queue_kfd_create(const struct hip_proc *p, int queue,
					  const struct kfd_queues *k);

struct analysis;
/**
 * hip_runtime_of - the HIP runtime log join's state in @a (analysis-joins.h): what it
 * found, for the outputs and the joins after it; NULL before analysis_init()
 */
struct hip_runtime *hip_runtime_of(const struct analysis *a);

#endif
