/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_BUFFER_LADDER_H
#define GT_BUFFER_LADDER_H

#include <stdbool.h>
#include <stddef.h>

#include "util/gt-error.h"

/* Per-CPU sizes (KB) the default ladder climbs: 4, 8, 12, 16 MB. */
#define BUFFER_LADDER_NR_RUNGS	4
extern const unsigned long buffer_ladder_rungs_kb[BUFFER_LADDER_NR_RUNGS];

/*
 * The ladder never asks for more than 1/BUFFER_SAFE_SHARE_DIV of MemAvailable
 * in total over all CPUs: ring-buffer pages are unswappable kernel memory and
 * the workload under test needs the rest.
 */
#define BUFFER_SAFE_SHARE_DIV	8

enum buffer_attempt_result {
	BUFFER_GRANTED,
	BUFFER_REFUSED,		/* kernel said ENOMEM */
	BUFFER_SKIPPED,		/* above the safe share of MemAvailable */
};

struct buffer_attempt {
	unsigned long kb;
	enum buffer_attempt_result result;
};

struct buffer_ops {
	/*
	 * 0, or -errno with err saying what failed; -ENOMEM means "refused,
	 * try smaller" (err then unused).
	 */
	int (*set_kb)(void *ctx, unsigned long kb, struct gt_error *err);
	/* Per-CPU size in KB as the kernel reports it, or -errno. */
	long (*get_kb)(void *ctx);
	void *ctx;
};

struct buffer_result {
	unsigned long granted_kb;	/* read back after the ladder */
	unsigned long explicit_kb;	/* -b value, 0 for the ladder */
	unsigned long cap_kb;		/* per-CPU safe share */
	int share;			/* buffers splitting the safe share (0: 1) */
	bool kept_previous;		/* nothing was granted */
	int nr_attempts;
	struct buffer_attempt attempts[BUFFER_LADDER_NR_RUNGS + 48];	/* + halvings */
};

/** buffer_mem_available_kb - memAvailable from /proc/meminfo in KB, 0 if unknown. */
unsigned long buffer_mem_available_kb(void);
/**
 * buffer_safe_cap_kb - the per-CPU size (KB) the ladder may use: 1/BUFFER_SAFE_SHARE_DIV of
 * @mem_available_kb over @nr_cpus
 */
unsigned long buffer_safe_cap_kb(unsigned long mem_available_kb, int nr_cpus);

/**
 * buffer_ladder_apply - @explicit_kb (halving down when refused) or the ladder's rungs up to
 * @cap_kb, each tried through @ops; what happened in @res
 */
int buffer_ladder_apply(const struct buffer_ops *ops, unsigned long explicit_kb,
			unsigned long cap_kb, struct buffer_result *res,
			struct gt_error *err);

/** buffer_result_describe - "buffer: 8192 KB per CPU x 2 CPUs = 16 MB (...)" without a newline. */
void buffer_result_describe(const struct buffer_result *res, int nr_cpus,
			    char *buf, size_t len);

#endif
