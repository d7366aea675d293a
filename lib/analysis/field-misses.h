/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FIELD_MISSES_H
#define GT_FIELD_MISSES_H

#include <stddef.h>
#include <stdint.h>

struct analysis;

/*
 * GPU events whose format names a field that their record does not hold
 * (gpu_event.missing: a damaged or crafted file). No join uses such an event:
 * a missing completed? is no preemption, a missing fence no job. They are
 * counted per event, in a table of fixed size: a file of a thousand such
 * events costs no more than one of a few, past the first FIELD_MISSES_MAX
 * events they are counted together.
 */
#define FIELD_MISSES_MAX 8

struct field_misses {
	uint64_t records;		/* every event not used for a field outside it */
	int nr;
	struct field_miss {
		int type;		/* the event's id in the file */
		uint64_t fields;	/* 1 << GF_*: what its records missed, all together */
		uint64_t records;
	} events[FIELD_MISSES_MAX];
	uint64_t other;			/* records of events past the table's */
};

/** field_misses_add - one record of event @type that misses @fields (1 << GF_*) */
void field_misses_add(struct field_misses *m, int type, uint64_t fields);

/**
 * field_miss_names - entry @e of a pass's table by name: the event as "system:name" in
 * @event and the format's names of its fields, comma-separated, in @fields (each cut to
 * its size less one)
 */
void field_miss_names(const struct analysis *a, const struct field_miss *e, char *event,
		      size_t event_len, char *fields, size_t fields_len);

#endif
