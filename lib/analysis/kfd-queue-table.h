/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_QUEUE_TABLE_H
#define GT_KFD_QUEUE_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/kfd-names.h"

/*
 * KFD queues from record --kfd-args's probe events (lib/capture/kfd-probes.c):
 * each create with the values the runtime passed and the kernel's answer,
 * its id, doorbell, updates, destroy, and the evictions and restores of its
 * process while it lived. A failed create stays a failed create: it never
 * becomes a live queue, and a later destroy cannot match it.
 */
enum kfd_probe_kind {
	KP_CREATE, KP_CREATE_RET, KP_DESTROY, KP_DESTROY_RET, KP_UPDATE, KP_UPDATE_RET,
	KP_EVICT, KP_EVICT_RET, KP_RESTORE, KP_RESTORE_RET, KP_CONSOLE, KP_NR
};

enum kfd_id_from { KFD_FROM_NONE, KFD_FROM_RETPROBE, KFD_FROM_PR_DEBUG };

struct kfd_queue {
	int pid;
	uint64_t process;		/* the kernel's struct kfd_process */
	uint32_t gpu_id, type, percentage, priority, ring_size, ctx_save_size;
	uint64_t ring, wptr, rptr, eop, eop_size, ctx_save;
	bool has_id;
	uint32_t queue_id;
	enum kfd_id_from id_from;
	bool has_doorbell;
	uint64_t doorbell_offset;
	bool has_result;		/* the create returned inside the file */
	int result;			/* 0 or -errno */
	char reason[128];		/* the kernel's last pr_debug line of a failed create */
	uint64_t created, create_ns;
	bool destroyed;
	uint64_t destroyed_at;
	unsigned int updates;
	unsigned int evictions, restores;
	uint64_t evicted_ns;		/* queued work could not run */
	uint64_t evict_call_ns, restore_call_ns;
};

/* An eviction of one process's queues, until their restore. */
struct kfd_evict {
	uint64_t process;
	int pid;			/* the process's, 0 if no ioctl of it was seen */
	int tid;			/* who evicted (a worker, usually) */
	bool has_trigger;
	uint32_t trigger;
	uint64_t start;			/* 0: evicted before the recording */
	bool has_evict_ret, restored;
	int evict_ret, restore_ret;
	uint64_t evict_ns, restore_start, restore_ns;
	int nr_queues;			/* live queues of the process at the eviction */
};

/* An update or destroy ioctl, whatever it answered. */
struct kfd_call {
	enum kfd_probe_kind kind;	/* KP_UPDATE or KP_DESTROY */
	int pid;
	uint64_t ts, ns;
	uint64_t process;
	uint32_t queue_id;
	bool has_ret;
	int ret;
	bool matched;			/* a queue created in the file has that id */
};

/*
 * What the join found, for the outputs: its decode state (the probes' formats, the calls
 * entered and not yet returned) is kfd-queue-table-private.h's.
 */
struct kfd_queue_table {
	struct kfd_queue *queues;
	int nr_queues, cap_queues;
	struct kfd_evict *evicts;
	int nr_evicts, cap_evicts;
	struct kfd_call *calls;
	int nr_calls, cap_calls;
	uint64_t records;		/* probe records seen */
	unsigned int unknown_destroys;	/* of an id no create in the file gave */
	unsigned int failed_destroys;
	bool probes;			/* the file has the probe formats */
};

/**
 * kfd_queue_table_find_ring - the queue a process created on a ring
 * @t:    kfd_queue_table_of()'s
 * @pid:  the process
 * @ring: the ring's base address (the HIP runtime's HWq=)
 * @by:   created no later than this
 *
 * Return: the latest such queue whose create succeeded, owned by @t; NULL if the probes
 * saw none
 */
const struct kfd_queue *kfd_queue_table_find_ring(const struct kfd_queue_table *t, int pid,
						  uint64_t ring, uint64_t by);

/**
 * kfd_id_from_name - where a queue's id came from ("return probe", "pr_debug", "none"), as the
 * report says it
 */
const char *kfd_id_from_name(enum kfd_id_from f);

struct analysis;
/**
 * kfd_queue_table_of - what the KFD probe event join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its queues, evictions and calls, owned by @a (valid until analysis_close()), to
 * read only; NULL before analysis_init()
 */
const struct kfd_queue_table *kfd_queue_table_of(const struct analysis *a);

#endif
