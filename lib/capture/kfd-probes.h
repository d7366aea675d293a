/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_PROBES_H
#define GT_KFD_PROBES_H

#include <stdbool.h>
#include <tracefs.h>

#include "util/gt-error.h"
#include "decode/kfd-names.h"

/*
 * Mainline amdkfd has no tracepoints. Its queue ioctls get their values in
 * the uapi argument structs (include/uapi/linux/kfd_ioctl.h, a stable
 * layout), so kprobes with fixed offsets from the third argument read them
 * on every kernel. The events live in a group of their own,
 * gpu_trace_<pid>, removed at teardown, or by `gpu-trace reset` after a
 * SIGKILL.
 *
 * The kernel fills queue_id and doorbell_offset before the ioctl returns;
 * a return probe reads them through its entry's $arg3 on kernels with commit
 * 25f00e40ce79 ("tracing/probes: Support $argN in return probe", 2024; 6.12 and 7.3 have
 * it, 6.1 not: record tries, and falls back when the kernel refuses). Older
 * kernels (6.1) get the queue id from kfd_ioctl_create_queue's own
 * pr_debug lines, switched on through dynamic debug and captured by the
 * printk:console event; the switch is journaled and put back.
 */
enum kfd_id_source {
	KFD_ID_NONE,		/* queue ids are not captured */
	KFD_ID_RETPROBE,	/* the return probe reads them */
	KFD_ID_PR_DEBUG,	/* kfd_ioctl_create_queue's pr_debug lines */
};

struct kfd_probes {
	char group[48];
	struct tracefs_dynevent **events;	/* in the order created */
	int nr_events;
	enum kfd_id_source id_source;
	char dyndbg_journal[512];	/* what reset writes back; "" when none */
	char *dyndbg_restore;		/* the control lines that put it back */
	int dyndbg_lock;		/* the "dyndbg" run lock while switched on; <= 0 none */
	int dyndbg_holder;		/* the run that held it when we could not: its pid */
};

/**
 * kfd_probes_unavailable - why probes cannot be used here, or NULL: no kprobe_events, no
 * amdgpu.
 */
const char *kfd_probes_unavailable(const char *tracing_dir);

/**
 * kfd_probes_id_source_here - where a record here would take queue ids from: defines one
 * return probe in gpu_trace_<pid> and removes it at once (gpu-trace check).
 */
enum kfd_id_source kfd_probes_id_source_here(void);

/** kfd_probes_create - define every probe in group gpu_trace_<pid>; on error none is left. */
int kfd_probes_create(struct kfd_probes *p, int pid, struct gt_error *err);
/** kfd_probes_enable - switch on the probes in inst. */
int kfd_probes_enable(struct kfd_probes *p, struct tracefs_instance *inst,
		      struct gt_error *err);
/**
 * kfd_probes_pr_debug_on - without ids from the return probe: kfd_ioctl_create_queue's
 * pr_debug lines switched on (journaled); true when the caller should now enable
 * printk:console in its buffer.
 */
bool kfd_probes_pr_debug_on(struct kfd_probes *p);
/** kfd_probes_remove - remove the probes and put dynamic debug back; safe to call twice. */
int kfd_probes_remove(struct kfd_probes *p, struct gt_error *err);
/** kfd_id_source_name - "the return probe", "pr_debug lines (dynamic debug)", "nothing" */
const char *kfd_id_source_name(enum kfd_id_source s);

/**
 * kfd_dyndbg_restore_journal - write a dead run's dynamic-debug journal back to the control
 * file.
 */
int kfd_dyndbg_restore_journal(const char *path, struct gt_error *err);

#endif
