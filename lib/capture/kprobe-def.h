/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KPROBE_DEF_H
#define GT_KPROBE_DEF_H

#include <stdbool.h>
#include <tracefs.h>

#include "util/gt-error.h"

/*
 * One kprobe or kretprobe of a private group (gpu_trace_<pid>, gpu_trace_nv_<pid>): what the
 * KFD and NVIDIA probe sets are made of.
 */
struct kprobe_def {
	const char *event;
	const char *func;
	bool ret;			/* a return probe */
	const char *fetch;
	/*
	 * a return probe's fetches of the entry's arguments: only kernels with commit
	 * 25f00e40ce79 ("tracing/probes: Support $argN in return probe", 2024; 6.10+) take
	 * them, so the probe is defined without them where the kernel refuses
	 */
	const char *fetch_at_return;
};

/** kprobe_def_alloc - @d in @group, with its return-time fetches or without; NULL: no memory */
struct tracefs_dynevent *kprobe_def_alloc(const char *group, const struct kprobe_def *d,
					  bool with_return_args);
/**
 * kprobe_def_create - @d defined in @group, with its return-time fetches where the kernel
 * takes them (*with_return_args says which); NULL and @err (the kernel's own words from
 * error_log) where the kernel refuses it
 */
struct tracefs_dynevent *kprobe_def_create(const char *group, const struct kprobe_def *d,
					   bool *with_return_args, struct gt_error *err);
/**
 * kprobe_defs_remove - destroy and free @nr probes of @group, the last defined first; the first
 * failure in @err, the rest still tried
 */
int kprobe_defs_remove(struct tracefs_dynevent **evs, int nr, const char *group,
		       struct gt_error *err);

/** kprobes_unavailable - why no kprobe can be defined here (no kprobe_events, not writable), or NULL */
const char *kprobes_unavailable(const char *tracing_dir);

#endif
