// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/kfd-mqd.h"

/* Compute MQD dword offsets: the same in v9_mqd and v10/v11/v12_compute_mqd. */
enum {
	CP_MQD_BASE_ADDR_LO = 128, CP_HQD_ACTIVE = 130, CP_HQD_VMID = 131,
	CP_HQD_PIPE_PRIORITY = 133, CP_HQD_QUEUE_PRIORITY = 134, CP_HQD_QUANTUM = 135,
	CP_HQD_PQ_BASE_LO = 136, CP_HQD_PQ_RPTR = 138, CP_HQD_PQ_RPTR_REPORT_ADDR_LO = 139,
	CP_HQD_PQ_WPTR_POLL_ADDR_LO = 141, CP_HQD_PQ_DOORBELL_CONTROL = 143,
	CP_HQD_PQ_CONTROL = 145, CP_HQD_EOP_BASE_ADDR_LO = 165,
	CP_HQD_CTX_SAVE_BASE_ADDR_LO = 171, CP_HQD_CTX_SAVE_SIZE = 177, CP_HQD_PQ_WPTR_LO = 182,
	COMPUTE_MQD_WORDS = 512,
};

/* CP_HQD_PQ_DOORBELL_CONTROL: DOORBELL_OFFSET bits 2..27, DOORBELL_EN bit 30 */
#define DOORBELL_OFFSET(v)	(((v) >> 2) & 0x3ffffff)
#define DOORBELL_EN		(1u << 30)
/* SDMA RLC DOORBELL: ENABLE bit 28; RB_CNTL: RB_SIZE bits 1..6 */
#define SDMA_DOORBELL_ENABLE	(1u << 28)

/* Per generation: struct v{9,10,11,12}_sdma_mqd */
static const struct sdma_layout {
	int generation, words, doorbell, doorbell_offset, engine_id, queue_id;
} sdma_layouts[] = {
	{ 9, 128, 18, 22, 126, 127 },
	{ 10, 130, 18, 22, 128, 129 },
	{ 11, 128, 17, 19, 126, 127 },
	{ 12, 128, 15, 17, 126, 127 },
};

int kfd_mqd_generation(uint32_t v)
{
	int major = (int)(v / 10000);

	return major >= 9 && major <= 12 ? major : 0;
}

static uint64_t pair(const uint32_t *w, int lo)
{
	return (uint64_t)w[lo] | (uint64_t)w[lo + 1] << 32;
}

static const struct sdma_layout *sdma_layout(const struct kfd_mqd *m)
{
	size_t i;

	for (i = 0; i < sizeof(sdma_layouts) / sizeof(sdma_layouts[0]); i++)
		if (m->generation ? sdma_layouts[i].generation == m->generation :
				    sdma_layouts[i].words == m->nr_words && m->nr_words == 130)
			return &sdma_layouts[i];
	return NULL;
}

static bool decode_sdma(struct kfd_mqd *m)
{
	const struct sdma_layout *l = sdma_layout(m);
	const uint32_t *w = m->words;

	if (!l || m->nr_words < l->words)
		return false;
	m->ring = pair(w, 1) << 8;
	m->ring_size = 4ULL << ((w[0] >> 1) & 0x3f);
	m->doorbell_offset = DOORBELL_OFFSET(w[l->doorbell_offset]);
	m->doorbell_enabled = w[l->doorbell] & SDMA_DOORBELL_ENABLE;
	m->sdma_engine = (int)w[l->engine_id];
	m->sdma_queue = (int)w[l->queue_id];
	return true;
}

static bool decode_compute(struct kfd_mqd *m)
{
	const uint32_t *w = m->words;

	if (m->nr_words < COMPUTE_MQD_WORDS)
		return false;
	m->mqd_addr = pair(w, CP_MQD_BASE_ADDR_LO);
	m->active = w[CP_HQD_ACTIVE] & 1;
	m->vmid = w[CP_HQD_VMID] & 0xf;
	m->pipe_priority = w[CP_HQD_PIPE_PRIORITY];
	m->queue_priority = w[CP_HQD_QUEUE_PRIORITY];
	m->quantum = w[CP_HQD_QUANTUM];
	m->ring = pair(w, CP_HQD_PQ_BASE_LO) << 8;
	m->ring_size = 4ULL << ((w[CP_HQD_PQ_CONTROL] & 0x3f) + 1);
	m->rptr = w[CP_HQD_PQ_RPTR];
	m->rptr_report = pair(w, CP_HQD_PQ_RPTR_REPORT_ADDR_LO);
	m->wptr_poll = pair(w, CP_HQD_PQ_WPTR_POLL_ADDR_LO);
	m->doorbell_offset = DOORBELL_OFFSET(w[CP_HQD_PQ_DOORBELL_CONTROL]);
	m->doorbell_enabled = w[CP_HQD_PQ_DOORBELL_CONTROL] & DOORBELL_EN;
	m->eop = pair(w, CP_HQD_EOP_BASE_ADDR_LO) << 8;
	m->ctx_save = pair(w, CP_HQD_CTX_SAVE_BASE_ADDR_LO);
	m->ctx_save_size = w[CP_HQD_CTX_SAVE_SIZE];
	m->wptr = pair(w, CP_HQD_PQ_WPTR_LO);
	return true;
}

bool kfd_mqd_decode(struct kfd_mqd *m)
{
	m->sdma_engine = m->sdma_queue = -1;
	m->decoded = m->sdma ? decode_sdma(m) : decode_compute(m);
	return m->decoded;
}

uint64_t kfd_hqd_ring_base(const uint32_t *regs, int nr_regs)
{
	const int lo = CP_HQD_PQ_BASE_LO - CP_MQD_BASE_ADDR_LO;

	if (nr_regs <= lo + 1)
		return 0;
	return ((uint64_t)regs[lo] | (uint64_t)regs[lo + 1] << 32) << 8;
}
