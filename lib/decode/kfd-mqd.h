/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_MQD_H
#define GT_KFD_MQD_H

#include <stdbool.h>
#include <stdint.h>

/*
 * KFD's debugfs (kfd/mqds, kfd/hqds) as record stores it: each line a
 * print record "kfd-debugfs <seq> <file>: <line>" in the buffer
 * kfd-debugfs, a snapshot being every line of one <seq>. Parsed back into
 * each process's queues with their MQD decoded into named fields, and the
 * hardware queue (pipe, queue) whose registers hold the same ring.
 *
 * Layouts from Linux 7.3's drivers/gpu/drm/amd/include/v{9,10,11,12}_structs.h
 * (Debian linux-source-7.3 7.3.4; 6.1.192's v9_mqd is the same): the compute
 * MQD (v9_mqd, v10/v11/v12_compute_mqd, 512 dwords) keeps the CP_HQD
 * registers at the same dword offsets in all four generations, from
 * cp_mqd_base_addr_lo at 128; the SDMA MQDs differ per generation (doorbell
 * at 18/22 in v9 and v10, 17/19 in v11, 15/17 in v12; v10's is 130 dwords).
 * An HQD dump (kgd hqd_dump) lists the CP registers from CP_MQD_BASE_ADDR
 * on, in the MQD's order, so its n-th register is MQD dword 128 + n.
 */
#define KFD_DEBUGFS_PREFIX	"kfd-debugfs "
#define KFD_MQD_MAX_WORDS	640
#define KFD_HQD_MAX_REGS	256

struct kfd_mqd {
	int pid;			/* the "Process" line's (the thread group's) */
	uint32_t gpu_id;
	bool sdma;
	int generation;			/* 9..12, 0: unknown (no topology line) */
	uint32_t words[KFD_MQD_MAX_WORDS];
	int nr_words;
	/* decoded */
	bool decoded;
	uint64_t ring;			/* queue base */
	uint64_t ring_size;		/* bytes */
	uint32_t doorbell_offset;	/* dword index in the doorbell BAR */
	bool doorbell_enabled;
	bool active;
	uint32_t vmid, pipe_priority, queue_priority, quantum;
	uint64_t mqd_addr, eop, ctx_save, rptr_report, wptr_poll, wptr;
	uint32_t rptr, ctx_save_size;
	int sdma_engine, sdma_queue;	/* -1: not an SDMA MQD */
	/* from the snapshot's hqds: the hardware slot holding this ring */
	bool on_hqd;
	int inst, pipe, queue;
};

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

/* true when the text was a snapshot line (consumed). */
bool kfd_snapshots_line(struct kfd_snapshots *k, uint64_t ts, const char *text);
/* Decodes every MQD and finds its hardware queue; call once, at the end. */
void kfd_snapshots_finish(struct kfd_snapshots *k);
void kfd_snapshots_free(struct kfd_snapshots *k);

/* 9, 10, 11, 12 from a topology gfx_target_version (90010, 110000, ...); 0 */
int kfd_mqd_generation(uint32_t gfx_target_version);
/* Decodes m->words (by m->sdma and m->generation) into the named fields. */
bool kfd_mqd_decode(struct kfd_mqd *m);
/* The last snapshot's MQD of this ring, NULL if none shows it. */
const struct kfd_mqd *kfd_snapshots_find_ring(const struct kfd_snapshots *k, uint64_t ring);

#endif
