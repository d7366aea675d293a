/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_SNAPSHOTS_PRIVATE_H
#define GT_KFD_SNAPSHOTS_PRIVATE_H

/*
 * The KFD snapshot join's state: the snapshots (kfd-snapshots.h, what the outputs
 * read) and where the line parser stands. Included by kfd-snapshots.c and by tests/
 * alone (tests/check-layers.sh): the unit test and the text fuzzer feed it lines
 * without a whole analysis.
 */

#include <stdbool.h>
#include <stdint.h>

#include "analysis/kfd-snapshots.h"

struct kfd_snapshots_state {
	struct kfd_snapshots model;
	/* the process, MQD, GPU and HQD the lines being read belong to */
	int cur_pid;
	struct kfd_mqd *cur_mqd;
	struct kfd_hqd *cur_hqd;
	uint32_t cur_gpu;		/* hqds' "Node N, gpu_id X" */
};

/**
 * kfd_snapshots_line - one print line into the snapshots
 * @k:    the state; all zero before the first line
 * @ts:   the line's record time
 * @text: the line, NUL-terminated
 *
 * Return: true when the text was a snapshot line (consumed), even one not understood
 */
bool kfd_snapshots_line(struct kfd_snapshots_state *k, uint64_t ts, const char *text);
/**
 * kfd_snapshots_finish - decodes every MQD and finds its hardware queue; once, at the end
 * @k: the state
 */
void kfd_snapshots_finish(struct kfd_snapshots_state *k);
/**
 * kfd_snapshots_free - everything the snapshots hold; @k is all zero after
 * @k: the state
 */
void kfd_snapshots_free(struct kfd_snapshots_state *k);

#endif
