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

/*
 * What the join found, for the outputs: where its line parser stands is
 * kfd-snapshots-private.h's.
 */
struct kfd_snapshots {
	struct kfd_snapshot *snaps;
	int nr, cap;
	uint64_t lines;
};

/**
 * kfd_snapshots_find_ring - the MQD of a ring
 * @k:    kfd_snapshots_of()'s
 * @ring: the ring's base address, as KFD's queue events carry it
 *
 * Return: the last snapshot's decoded MQD of this ring, owned by @k; NULL if none shows it
 */
const struct kfd_mqd *kfd_snapshots_find_ring(const struct kfd_snapshots *k, uint64_t ring);

struct analysis;
/**
 * kfd_snapshots_of - what the KFD snapshot join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its snapshots, owned by @a (valid until analysis_close()), to read only; NULL
 * before analysis_init()
 */
const struct kfd_snapshots *kfd_snapshots_of(const struct analysis *a);

#endif
