/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_MQD_H
#define GT_KFD_MQD_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A KFD queue's MQD (memory queue descriptor) as KFD's debugfs dumps it,
 * decoded into named fields.
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
#define KFD_MQD_MAX_WORDS	640

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

/** kfd_mqd_generation - 9, 10, 11, 12 from a topology gfx_target_version (90010, 110000, ...); 0 */
int kfd_mqd_generation(uint32_t gfx_target_version);
/** kfd_mqd_decode - decodes m->words (by m->sdma and m->generation) into the named fields. */
bool kfd_mqd_decode(struct kfd_mqd *m);
/**
 * kfd_hqd_ring_base - an HQD dump lists the CP registers from CP_MQD_BASE_ADDR on, in the
 * MQD's order: the ring base its CP_HQD_PQ_BASE holds, 0 when the dump stops short.
 */
uint64_t kfd_hqd_ring_base(const uint32_t *regs, int nr_regs);

#endif
