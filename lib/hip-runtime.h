/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_HIP_RUNTIME_H
#define GT_HIP_RUNTIME_H

#include <stdint.h>

#include "hip-log.h"

/*
 * What the HIP runtime's log (record --hip-log, lines stored as print
 * records) says each process did: its HSA queues, its kernel dispatches by
 * kernel name, its commands. A "ShaderName" line names the dispatch that
 * follows it in the same process, as the runtime logs them.
 */
struct hip_queue {
	uint64_t swq, hwq;		/* hwq: the ring base KFD's create_queue gets */
	int size, priority, cooperative;
	uint64_t ts;
};

struct hip_kernel {
	char name[128];			/* the shader's, or "kernel_obj 0x..." */
	uint64_t dispatches;
	uint64_t first_ts, last_ts;
};

struct hip_proc {
	int pid;
	uint64_t lines, by_kind[HIP_NR_KINDS];
	uint64_t first_ts, last_ts;
	struct hip_queue *queues;
	int nr_queues;
	struct hip_kernel *kernels;
	int nr_kernels;
	char next_name[128];		/* a ShaderName waiting for its dispatch */
	uint64_t commands_complete;
	int64_t gpu_us, wall_us;	/* sums over completed commands */
	uint64_t copy_bytes;
};

struct hip_runtime {
	struct hip_proc *procs;
	int nr_procs;
	uint64_t lines;			/* HIP log lines seen */
	int failed;			/* out of memory: counts stop growing */
};

/*
 * One print record's text at ts (ns) from pid: a HIP log line is counted,
 * and returns 1 with *line filled; 0 for any other text.
 */
int hip_runtime_add(struct hip_runtime *h, int pid, uint64_t ts, const char *text,
		    struct hip_line *line);
void hip_runtime_free(struct hip_runtime *h);

#endif
