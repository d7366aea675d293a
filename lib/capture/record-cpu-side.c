// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's CPU side, in its pid-filtered buffer beside its pid tree:
 * its GPU ioctls (sys_enter_ioctl with an in-kernel filter on the ioctl's
 * type, so that a workload's thousands of other ioctls cost nothing, and
 * sys_exit_ioctl, which carries no type: report pairs it with its enter),
 * its scheduling and the interrupts taken while one of its threads ran
 * (set_event_pid keeps an interrupt's record when the task it interrupted
 * is the workload's: that is the time the interrupt took from it).
 * report's cpu-side join splits each ioctl's time with them.
 */
#include <string.h>

#include "capture/record-engine.h"
#include "decode/gpu-ioctl.h"

static const char *const cpu_event_specs[] = {
	"syscalls:sys_exit_ioctl",
	"sched:sched_switch", "sched:sched_wakeup", "sched:sched_migrate_task",
	"irq:irq_handler_entry", "irq:irq_handler_exit",
	"irq:softirq_entry", "irq:softirq_exit",
};

static int enable_ioctls(struct record_run *run, bool filtered, struct gt_error *err)
{
	/* as a user's -e, so that it takes a filter; a kernel without it is noted, not an error */
	if (event_selection_add(&run->cpu_ioctls, "syscalls:sys_enter_ioctl", false, err) ||
	    (filtered && event_selection_set_filter(&run->cpu_ioctls, GPU_IOCTL_FILTER, err)))
		return -1;
	return event_selection_apply(&run->cpu_ioctls, &run->scoped, NULL, true, err);
}

int record_enable_cpu_side(struct record_run *run, struct gt_error *err)
{
	struct gt_error why = { 0 };
	size_t i;

	if (!record_scoped_user_events(run) || run->opts.no_cpu_side || run->scoped.top_level)
		return 0;
	if (enable_ioctls(run, true, &why)) {
		/* a kernel whose filters lack '&' or '!': every ioctl, sorted by report */
		event_selection_free(&run->cpu_ioctls);
		memset(&run->cpu_ioctls, 0, sizeof(run->cpu_ioctls));
		if (enable_ioctls(run, false, err))
			return -1;
		record_say(run, "cpu side: the kernel refused the ioctl type filter (%s): every ioctl of the workload is recorded, report keeps the GPU ones",
			   why.msg);
	}
	for (i = 0; i < sizeof(cpu_event_specs) / sizeof(cpu_event_specs[0]); i++)
		if (event_selection_add(&run->cpu_events, cpu_event_specs[i], true, err))
			return -1;
	if (event_selection_apply(&run->cpu_events, &run->scoped, NULL, true, err))
		return -1;
	record_say(run, "cpu side: the workload's GPU ioctls (DRM, KFD, NVIDIA), its scheduling and the interrupts it took (--no-cpu-side: not)");
	if (run->cpu_ioctls.missing || run->cpu_events.missing)
		record_say(run, "cpu side: not on this kernel: %s%s%s",
			   run->cpu_ioctls.missing ? run->cpu_ioctls.missing : "",
			   run->cpu_ioctls.missing && run->cpu_events.missing ? ", " : "",
			   run->cpu_events.missing ? run->cpu_events.missing : "");
	return 0;
}
