// SPDX-License-Identifier: GPL-2.0
/*
 * record --preset nvidia: nvidia.ko's functions as kprobes (lib/capture/nvidia-probes.c),
 * recorded system-wide in the GPU buffer: interrupts and their bottom halves run in whatever
 * task is current, never only in the workload's.
 */
#include <errno.h>
#include <unistd.h>

#include "capture/record-engine.h"

int record_nvidia_setup(struct record_run *run, struct gt_error *err)
{
	const char *why = nv_probes_unavailable(run->tracing_dir);
	struct gt_error perr = { 0 };

	if (!why && (nv_probes_create(&run->nv, (int)getpid(), &perr) ||
		     nv_probes_enable(&run->nv, run->session.inst, &perr))) {
		nv_probes_remove(&run->nv, NULL);
		run->nv.group[0] = '\0';
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
		run->nv.nr_events, run->nv.group, run->nv.module[0] ? run->nv.module : "the kernel",
		run->nv.module[0] ? ".ko" : "",
		run->nv.user_fetch ? "read from the caller's parameters" :
				     "not read (this kernel has no user-memory fetches)",
		run->nv.statuses ? "read at return" :
				   "not read (return probes read entry arguments from 6.10 on)");
	if (run->nv.missing[0])
		record_say(run, "nvidia probes: not set: %s", run->nv.missing);
	return 0;
}

void record_nvidia_finish(struct record_run *run)
{
	if (run->nv.group[0] && run->nr_probe_formats < RECORD_PROBE_FORMATS &&
	    !dat_event_system_load(&run->probe_formats[run->nr_probe_formats], run->nv.group))
		run->nr_probe_formats++;
}
