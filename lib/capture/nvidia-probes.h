/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_NVIDIA_PROBES_H
#define GT_NVIDIA_PROBES_H

#include <stdbool.h>
#include <tracefs.h>

#include "decode/nvidia-names.h"
#include "util/gt-error.h"

/*
 * record --preset nvidia: kprobes on nvidia.ko's own functions (kernel-open/nvidia/nv.c,
 * nv-mmap.c of open-gpu-kernel-modules; the closed driver exports the same names) and on
 * nvidia-uvm's fault service, in a group gpu_trace_nv_<pid> removed at teardown or by
 * `gpu-trace reset`. The ioctl probe reads the escape from the ioctl number and, from the
 * user's parameter block, an RM control's command; its return probe reads the control's
 * status where the kernel lets return probes read entry arguments (6.10+). Only the
 * ioctl probe is needed; a function this build lacks or the kernel will not probe is
 * named in @missing and left out.
 */
struct nv_probes {
	char group[48];
	struct tracefs_dynevent **events;	/* in the order created */
	int nr_events;
	int nr_defined;			/* what nr_events was before removal */
	bool statuses;			/* RM control statuses read at return */
	bool user_fetch;		/* the control command read from user memory */
	char module[64];		/* the module that defines nvidia_unlocked_ioctl */
	char missing[1024];		/* "nvidia_isr_msix (not in this build), ..." */
};

/* A function the probes go on, and whether this kernel has it (gpu-trace list). */
struct nv_function {
	const char *func;
	const char *found_as;		/* its name before 570 where that is the one here, or NULL */
	bool uvm;			/* nvidia-uvm's */
	bool present;			/* among the kernel's symbols */
	char module[64];		/* the module that defines it; "" built in */
};

#define NV_PROBE_FUNCTIONS	10

/** nv_probes_functions - the functions the probes go on, at most @max; how many */
int nv_probes_functions(struct nv_function *out, int max);
/** nv_driver_loaded - nvidia.ko (or a stand-in) defines nvidia_unlocked_ioctl here */
bool nv_driver_loaded(void);
/**
 * nv_probes_unavailable - why NVIDIA probes cannot be used here, or NULL: no kprobe_events,
 * no nvidia.ko (no nvidia_unlocked_ioctl among the kernel's symbols).
 */
const char *nv_probes_unavailable(const char *tracing_dir);
/**
 * nv_probes_create - every probe this driver and kernel take, in group
 * gpu_trace_nv_<pid>; -1 (and none left) when the ioctl probe itself cannot be defined
 */
int nv_probes_create(struct nv_probes *p, int pid, struct gt_error *err);
/** nv_probes_enable - switch on the probes in @inst */
int nv_probes_enable(struct nv_probes *p, struct tracefs_instance *inst, struct gt_error *err);
/** nv_probes_remove - remove the probes; safe to call twice */
int nv_probes_remove(struct nv_probes *p, struct gt_error *err);

#endif
