// SPDX-License-Identifier: GPL-2.0
/*
 * record --preset nvidia: nvidia.ko's functions as kprobes (lib/capture/nvidia-probes.c),
 * recorded system-wide in the GPU buffer: interrupts and their bottom halves run in whatever
 * task is current, never only in the workload's.
 */
#include <errno.h>
#include <unistd.h>

#include "capture/capture-source.h"
#include "capture/nvidia-probes.h"
#include "capture/record-engine.h"

static int nvidia_probes(struct record_run *run, void *st, struct gt_error *err)
{
	struct nv_probes *nv = st;
	const char *why;
	struct gt_error perr = { 0 };

	if (!run->opts.nvidia_probes)
		return 0;
	why = nv_probes_unavailable(run->tracing_dir);
	if (!why && (nv_probes_create(nv, (int)getpid(), &perr) ||
		     nv_probes_enable(nv, run->session.inst, &perr))) {
		nv_probes_remove(nv, NULL);
		nv->group[0] = '\0';
		why = perr.msg;
	}
	if (why) {
		if (run->opts.strict)
			return gt_error_set(err, ENOTSUP, "--preset nvidia: no NVIDIA probes: %s; drop --strict to record without them",
					    why);
		record_say(run, "nvidia probes: not used: %s; only nvidia:nvidia_dev_xid (Xids) where the driver has it",
			why);
		return 0;
	}
	record_say(run, "nvidia probes: %d in group %s on %s%s (removed after); RM control commands %s, statuses %s",
		nv->nr_events, nv->group, nv->module[0] ? nv->module : "the kernel",
		nv->module[0] ? ".ko" : "",
		nv->user_fetch ? "read from the caller's parameters" :
				 "not read (this kernel has no user-memory fetches)",
		nv->statuses ? "read at return" :
			       "not read (return probes read entry arguments from 6.10 on)");
	if (nv->missing[0])
		record_say(run, "nvidia probes: not set: %s", nv->missing);
	return 0;
}

/* the probes' formats read for the file, before teardown removes them */
static void nvidia_stopped(struct record_run *run, void *st)
{
	const struct nv_probes *nv = st;

	if (nv->group[0])
		record_keep_formats(run, nv->group);
}

/* after the instance: an enabled probe cannot be removed */
static int nvidia_teardown(struct record_run *run, void *st, struct gt_error *err)
{
	struct nv_probes *nv = st;

	(void)run;
	return nv->group[0] ? nv_probes_remove(nv, err) : 0;
}

const struct capture_source capture_nvidia = {
	.name = "NVIDIA probes",
	.state_size = sizeof(struct nv_probes),
	.probes = nvidia_probes,
	.stopped = nvidia_stopped,
	.teardown = nvidia_teardown,
};
