/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_HIP_RUNTIME_PRIVATE_H
#define GT_HIP_RUNTIME_PRIVATE_H

/*
 * The HIP runtime log join's state: what it found (hip-runtime.h, what the outputs read)
 * and how it reads the log. Included by hip-runtime.c and by tests/ alone
 * (tests/check-layers.sh): the unit tests and the text fuzzer feed it lines without a
 * whole analysis.
 */

#include <stdbool.h>
#include <stdint.h>

#include "analysis/hip-runtime.h"
#include "util/keymap.h"
#include "util/name-index.h"

/* A command in flight: enqueued, perhaps dispatched, not complete. */
struct hip_cmd {
	uint64_t cmd, enqueued;
	bool dispatched;
	uint64_t dispatch_ts, dispatch_id, hwq;
	int kernel;			/* index into kernels */
};

/* What a process's lines need while they come in, beside its row in the model */
struct hip_proc_live {
	struct keymap by_hwq;		/* hwq -> its latest queue's index + 1 */
	struct name_index by_name;	/* kernel name -> index */
	char next_name[128];		/* a ShaderName waiting for its dispatch */
	struct hip_cmd *cmds;
	int nr_cmds;
};

struct hip_runtime_state {
	struct hip_runtime model;
	struct keymap by_pid;		/* pid + 1 -> process index + 1 */
	struct hip_proc_live *live;	/* live[i] for model.procs[i] */
	int cap_live;
	struct hip_line line;		/* the record's line, for the hooks (hip_current) */
};

/**
 * hip_runtime_add - one print record's text into the join
 * @h:    the state; all zero before the first
 * @pid:  the record's process
 * @ts:   its time (ns)
 * @text: its text, NUL-terminated
 * @line: filled with the parsed line when it is one
 * @kfd:  the KFD operations so far (NULL: none), for the dispatches that end here
 *
 * Return: 1 when @text was a HIP log line (counted), 0 for any other text
 */
int hip_runtime_add(struct hip_runtime_state *h, int pid, uint64_t ts, const char *text,
		    struct hip_line *line, const struct kfd_queues *kfd);
/**
 * hip_runtime_free - everything the join holds; @h is all zero after
 * @h: the state
 */
void hip_runtime_free(struct hip_runtime_state *h);

#endif
