/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_SNAPSHOTS_H
#define GT_KFD_SNAPSHOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/kfd-mqd.h"
#include "decode/kfd-names.h"

/*
 * KFD's debugfs (kfd/mqds, kfd/hqds) as record stores it: each line a
 * print record "kfd-debugfs <seq> <file>: <line>" in the buffer
 * kfd-debugfs, a snapshot being every line of one <seq>. Parsed back into
 * each process's queues with their MQD decoded into named fields, and the
 * hardware queue (pipe, queue) whose registers hold the same ring.
 * MQDs: decode/kfd-mqd.h.
 */
#define KFD_HQD_MAX_REGS	256

struct kfd_hqd {
	uint32_t gpu_id;
	int inst, pipe, queue;
	bool cp;			/* a user CP queue (not HIQ, not SDMA) */
	uint32_t first_addr;
	uint32_t regs[KFD_HQD_MAX_REGS];
	int nr_regs;			/* contiguous from first_addr */
};

struct kfd_snapshot {
	int seq;
	uint64_t ts;
	char why[16];			/* start, periodic, end */
	char error[160];		/* what record could not read, "" */
	int nr_processes;		/* "Process" lines: /dev/kfd holders */
	int pids[64];
	struct kfd_mqd *mqds;
	int nr_mqds, cap_mqds;
	struct kfd_hqd *hqds;
	int nr_hqds, cap_hqds;
	struct {
		uint32_t gpu_id, gfx_target_version;
	} topology[16];
	int nr_topology;
};

struct kfd_snapshots {
	struct kfd_snapshot *snaps;
	int nr, cap;
	uint64_t lines;
	/* parser state */
	int cur_pid;
	struct kfd_mqd *cur_mqd;
	struct kfd_hqd *cur_hqd;
	uint32_t cur_gpu;		/* hqds' "Node N, gpu_id X" */
};

/** kfd_snapshots_line - true when the text was a snapshot line (consumed). */
bool kfd_snapshots_line(struct kfd_snapshots *k, uint64_t ts, const char *text);
/** kfd_snapshots_finish - decodes every MQD and finds its hardware queue; call once, at the end. */
void kfd_snapshots_finish(struct kfd_snapshots *k);
/** kfd_snapshots_free - everything the snapshot list holds */
void kfd_snapshots_free(struct kfd_snapshots *k);
/** kfd_snapshots_find_ring - the last snapshot's MQD of this ring, NULL if none shows it. */
const struct kfd_mqd *kfd_snapshots_find_ring(const struct kfd_snapshots *k, uint64_t ring);

struct analysis;
/**
 * kfd_snapshots_of - the KFD snapshot join's state in @a (analysis-joins.h): what it
 * found, for the outputs and the joins after it; NULL before analysis_init()
 */
struct kfd_snapshots *kfd_snapshots_of(const struct analysis *a);

#endif
