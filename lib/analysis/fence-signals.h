/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FENCE_SIGNALS_H
#define GT_FENCE_SIGNALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/keymap.h"

/**
 * struct fence_signals - when recent fences signalled, for the jobs that waited on them:
 * a fence signalled among the last @kept signals (each signal counts, a fence signalled
 * again too), by the low 32 bits of context and seqno, as dma_fence events carry them.
 * Its time is the newest; it is forgotten when @kept signals came after it, or when an
 * older signal of it at the same time leaves the window (the rule of the table this
 * replaced, kept so that no report changes).
 *
 * Every job signals its fence two or three times and few files ask for one: a table kept
 * up to date at each signal missed the cache three times a signal (8% of report on a
 * 640k-job file) for nothing. So the signals go to a log, in order, and the table catches
 * up from it when asked, replaying what it would have done.
 */
struct fence_signals {
	size_t kept;
	struct keymap map;		/* fence -> ts + 1, as of signal @indexed */
	uint64_t *log;			/* (key, ts) of signal s at s % cap */
	size_t cap;			/* grows to 2 * kept, a power of two */
	uint64_t puts, indexed;		/* signals logged; those the map has taken */
};

/** fence_signals_init - an empty set that remembers @kept signals (> 0) */
void fence_signals_init(struct fence_signals *s, size_t kept);
/** fence_signals_put - a fence signalled at @ts (out of memory: not remembered) */
void fence_signals_put(struct fence_signals *s, uint64_t ctx, uint64_t seqno, uint64_t ts);
/** fence_signals_get - when the fence signalled last, while it is remembered */
bool fence_signals_get(struct fence_signals *s, uint64_t ctx, uint64_t seqno, uint64_t *ts);
/** fence_signals_free - its memory; init it again to reuse it */
void fence_signals_free(struct fence_signals *s);

#endif
