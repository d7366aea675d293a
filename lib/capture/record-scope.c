// SPDX-License-Identifier: GPL-2.0
/*
 * What follows the workload and what does not. A GPU job runs in the
 * scheduler's kthread or workqueue and completes in interrupts, never in
 * its submitter's context, and other processes' jobs are why it waited: GPU
 * event systems go to the main instance, system-wide. The workload's own
 * data (its pid tree, the non-GPU events asked for) goes to the pid-scoped
 * instance, named in the file by a marker report reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/record-engine.h"

/* sched events that give the workload's pid tree as it grows */
static const char *const tree_event_specs[] = {
	"sched:sched_process_fork", "sched:sched_process_exec", "sched:sched_process_exit",
};

/* Non-GPU events follow the workload unless -a or --system-wide-events. */
bool record_scoped_user_events(const struct record_run *run)
{
	return run->has_scope && !run->opts.system_wide && !run->opts.system_wide_events;
}

int record_enable_tree_events(struct record_run *run, struct gt_error *err)
{
	size_t i;

	for (i = 0; i < sizeof(tree_event_specs) / sizeof(tree_event_specs[0]); i++)
		if (event_selection_add(&run->tree_events, tree_event_specs[i], true, err))
			return -1;
	return event_selection_apply(&run->tree_events, &run->scoped, NULL, true, err);
}

/* One line: what follows the workload and what is recorded system-wide. */
void record_say_scope(struct record_run *run)
{
	const struct event_selection *sel = &run->opts.events;
	bool functions = strcmp(run->tracer.used, "nop") != 0;
	char who[700];

	if (!run->has_scope)
		return;
	if (run->has_cgroup)
		snprintf(who, sizeof(who), "%d processes of cgroup %s%s, more as they join%s",
			 run->cgroup.nr_seen, run->cgroup.dir, run->opts.command ? " and the command" : "",
			 run->opts.no_follow ? "" : ", and their children");
	else if (run->opts.command)
		snprintf(who, sizeof(who), "pid %d%s", (int)run->workload.pid,
			 run->opts.no_follow ? "" : " and its children");
	else
		snprintf(who, sizeof(who), "%d thread%s of -P%s", run->nr_scope_pids,
			 run->nr_scope_pids == 1 ? "" : "s",
			 run->opts.no_follow ? "" : " and their children");
	if (run->opts.system_wide) {
		record_say(run, "scope: everything system-wide (-a); the workload's pid tree (%s) is recorded to mark its jobs",
			who);
		return;
	}
	if (!sel->wide_systems) {
		record_say(run, "scope: workload only (%s): %s%s%s; no GPU event system selected",
			who, sel->scoped_systems ? sel->scoped_systems : "its pid tree",
			functions ? ", the " : "", functions ? run->tracer.used : "");
		return;
	}
	record_say(run, "scope: system-wide: %s (GPU jobs run and complete outside the submitter); workload only (%s): %s%s%s",
		sel->wide_systems, who, sel->scoped_systems ? sel->scoped_systems : "its pid tree",
		functions ? ", the " : "", functions ? run->tracer.used : "");
}

/* The command, or every thread of the -P processes (submissions carry tids). */
static int collect_scope_pids(struct record_run *run, struct gt_error *err)
{
	int i;

	if (run->opts.command) {
		run->scope_pids = malloc(sizeof(*run->scope_pids));
		if (!run->scope_pids)
			return gt_error_set(err, ENOMEM, "out of memory");
		run->scope_pids[0] = run->workload.pid;
		run->nr_scope_pids = 1;
	}
	if (run->has_cgroup && cgroup_scope_poll(&run->cgroup, &run->scope_pids, &run->nr_scope_pids) < 0)
		return gt_error_set(err, ENOMEM, "out of memory listing the processes of %s", run->cgroup.dir);
	/* an empty set_ftrace_pid traces everyone, and no event gates a tracer */
	if (run->has_cgroup && !run->nr_scope_pids && strcmp(run->tracer.used, "nop"))
		return gt_error_set(err, EINVAL, "cgroup %s has no processes yet, and the %s tracer would trace every process until one joins; start the container first, or record without a tracer (-p nop)",
				    run->cgroup.dir, run->tracer.used);
	if (run->opts.command || run->has_cgroup)
		return 0;
	for (i = 0; i < run->opts.nr_pids; i++)
		if (workload_list_tasks(run->opts.pids[i], &run->scope_pids, &run->nr_scope_pids))
			return gt_error_set(err, errno, "out of memory listing the threads of %d",
					    (int)run->opts.pids[i]);
	return 0;
}

int record_follow_workload(struct record_run *run, struct gt_error *err)
{
	bool functions = strcmp(run->tracer.used, "nop") != 0 && !run->opts.system_wide;
	bool follow = !run->opts.no_follow;

	if (collect_scope_pids(run, err))
		return -1;
	if (functions && session_follow_pids(&run->session, run->scope_pids, run->nr_scope_pids,
					     false, true, follow, err))
		return -1;
	return session_follow_pids(&run->scoped, run->scope_pids, run->nr_scope_pids,
				   true, false, follow, err);
}

/*
 * Names the workload's pids in its buffer, where report finds them:
 * "gpu-trace workload: pids=1234,1240 comm=app", as many lines as needed.
 */
static int mark_pids(struct record_run *run, const pid_t *pids, int nr, struct gt_error *err)
{
	char line[900];
	int i = 0;

	while (i < nr) {
		size_t off = (size_t)snprintf(line, sizeof(line), "gpu-trace workload: pids=");
		int first = i;

		for (; i < nr && off < sizeof(line) - 64; i++)
			off += (size_t)snprintf(line + off, sizeof(line) - off, "%s%d",
						i == first ? "" : ",", (int)pids[i]);
		if (run->opts.command)
			snprintf(line + off, sizeof(line) - off, " comm=%s", run->workload.comm);
		if (session_mark(&run->scoped, line, err))
			return -1;
	}
	return 0;
}

int record_mark_workload(struct record_run *run, struct gt_error *err)
{
	return mark_pids(run, run->scope_pids, run->nr_scope_pids, err);
}

void record_scope_poll(struct record_run *run)
{
	bool functions = strcmp(run->tracer.used, "nop") != 0 && !run->opts.system_wide;
	struct gt_error err = { 0 };
	pid_t *tids = NULL;
	int nr = 0;

	if (!run->has_cgroup || cgroup_scope_poll(&run->cgroup, &tids, &nr) <= 0 || !nr)
		goto out;
	/* event-fork follows their children; these came from elsewhere */
	if (session_add_pids(&run->scoped, tids, nr, true, false, &err) ||
	    (functions && session_add_pids(&run->session, tids, nr, false, true, &err)) ||
	    (run->scoped_waiting && session_set_tracing(&run->scoped, true, &err)) ||
	    mark_pids(run, tids, nr, &err))
		record_warn(run, "%s; processes that join %s from now on may be missed", err.msg,
			  run->cgroup.dir);
	run->scoped_waiting = false;
out:
	free(tids);
}
