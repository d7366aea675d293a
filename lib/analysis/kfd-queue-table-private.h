/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_QUEUE_TABLE_PRIVATE_H
#define GT_KFD_QUEUE_TABLE_PRIVATE_H

/*
 * The KFD probe event join's state: the table (kfd-queue-table.h, what the outputs read)
 * and how it decodes. Included by kfd-queue-table.c and by tests/ alone
 * (tests/check-layers.sh): the formats fuzzer feeds it records without a whole analysis.
 */

#include <stdbool.h>
#include <stdint.h>
#include <event-parse.h>

#include "analysis/kfd-queue-table.h"

/* A probed call entered and not yet returned, on thread @tid */
struct kfd_pending {
	int tid;
	enum kfd_probe_kind kind;
	int index;			/* queue or eviction */
	uint64_t ts;
	uint64_t process;
	uint32_t queue_id;
	bool has_update;
	uint64_t ring;
	uint32_t ring_size, percentage, priority;
};

#define KFD_TABLE_MAX_FORMATS	24
#define KFD_TABLE_MAX_PENDING	64

struct kfd_queue_table_state {
	struct kfd_queue_table model;
	struct {
		int id;
		enum kfd_probe_kind kind;
		struct tep_event *event;
	} formats[KFD_TABLE_MAX_FORMATS];
	int nr_formats;
	struct kfd_pending pending[KFD_TABLE_MAX_PENDING];
	int nr_pending;
};

/**
 * kfd_queue_table_init - an empty table; finds the probe formats
 * @t:   the state
 * @tep: the file's formats
 */
void kfd_queue_table_init(struct kfd_queue_table_state *t, struct tep_handle *tep);
/**
 * kfd_queue_table_record - one record into the table
 * @t:    the state
 * @tep:  the file's formats
 * @rec:  the record
 * @type: its event id
 *
 * Return: true when the record was one of the probes' (or a console line they use)
 */
bool kfd_queue_table_record(struct kfd_queue_table_state *t, struct tep_handle *tep,
			    struct tep_record *rec, int type);
/**
 * kfd_queue_table_free - everything the table holds; @t is all zero after
 * @t: the state
 */
void kfd_queue_table_free(struct kfd_queue_table_state *t);

#endif
