// SPDX-License-Identifier: GPL-2.0
/*
 * record --kfd-args / --kfd-snapshot: KFD's queue ioctls as probe events
 * (lib/capture/kfd-probes.c) and snapshots of its debugfs (lib/capture/kfd-debugfs.c).
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/file-io.h"
#include "capture/record-engine.h"

/* The function records stay either way: no kprobes is a note unless --strict. */
static int setup_probes(struct record_run *run, struct gt_error *err)
{
	const char *why = kfd_probes_unavailable(run->tracing_dir);
	struct gt_error perr = { 0 };

	if (!why && (kfd_probes_create(&run->kfd, (int)getpid(), &perr) ||
		     kfd_probes_enable(&run->kfd, run->session.inst, &perr))) {
		kfd_probes_remove(&run->kfd, NULL);
		run->kfd.group[0] = '\0';
		why = perr.msg;
	}
	/* through the session: a top-level buffer gets the file back afterwards */
	if (!why && kfd_probes_pr_debug_on(&run->kfd) &&
	    session_write(&run->session, "events/printk/console/enable", "1", &perr))
		run->kfd.id_source = KFD_ID_NONE;	/* dynamic debug goes back at removal */
	if (why) {
		if (run->opts.strict)
			return gt_error_set(err, ENOTSUP, "--kfd-args: no KFD probes: %s; drop --strict to record without them",
					    why);
		record_say(run, "kfd probes: not used: %s; KFD queues come from function records only, without their values",
			why);
		return 0;
	}
	if (run->kfd.id_source == KFD_ID_NONE && run->kfd.dyndbg_holder)
		record_say(run, "kfd probes: %d in group %s (removed after); queue ids and doorbells not captured: another gpu-trace (pid %d) has dynamic debug switched on, which one run at a time may change",
			run->kfd.nr_events, run->kfd.group, run->kfd.dyndbg_holder);
	else
		record_say(run, "kfd probes: %d in group %s (removed after); queue ids and doorbells from %s",
			run->kfd.nr_events, run->kfd.group, kfd_id_source_name(run->kfd.id_source));
	return 0;
}

/* Pages for the snapshots, taken from now on; none is a note. */
static void setup_snapshots(struct record_run *run)
{
	struct hip_print_format fmt = record_print_format(run);
	struct gt_error err = { 0 };
	int fd = temp_file_in(run->out.dir);

	/* the recorder, opened later, reads pages of this size */
	if (fd < 0 || kfd_debugfs_open(&run->kfd_dbg, &fmt, (int)getpid(), fd, (size_t)getpagesize(),
				       &err)) {
		record_say(run, "kfd snapshots: not taken: %s", fd < 0 ? strerror(errno) : err.msg);
		if (fd >= 0)
			close(fd);
		return;
	}
	run->kfd_dbg_fd = fd;
	record_say(run, "kfd snapshots: %s/{mqds,hqds,rls} at the start and the end%s%s", run->kfd_dbg.kfd_dir,
		run->opts.kfd_snapshot_ms ? " and periodically" : "",
		strcmp(run->opts.clock, "mono") ? "; stamped on CLOCK_MONOTONIC, not this file's clock" : "");
}

int record_kfd_setup(struct record_run *run, struct gt_error *err)
{
	run->kfd_dbg_fd = -1;
	run->kfd_dbg.fd = -1;
	if (run->opts.kfd_args && setup_probes(run, err))
		return -1;
	if (run->opts.kfd_args || run->opts.kfd_snapshot_ms)
		setup_snapshots(run);
	return 0;
}

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void record_kfd_snapshot(struct record_run *run, const char *why)
{
	if (run->kfd_dbg_fd < 0)
		return;
	kfd_debugfs_snapshot(&run->kfd_dbg, why);
	run->kfd_last_snapshot_ms = mono_ms();
}

void record_kfd_poll(struct record_run *run)
{
	if (run->kfd_dbg_fd >= 0 && run->opts.kfd_snapshot_ms &&
	    mono_ms() - run->kfd_last_snapshot_ms >= (double)run->opts.kfd_snapshot_ms)
		record_kfd_snapshot(run, "periodic");
}

/* Before teardown: the last snapshot, the pages, the probes' formats. */
void record_kfd_finish(struct record_run *run)
{
	struct gt_error err = { 0 };
	long long size;

	if (run->kfd_dbg_fd >= 0) {
		record_kfd_snapshot(run, "end");
		size = kfd_debugfs_close(&run->kfd_dbg, &err);
		if (size < 0) {
			record_warn(run, "%s; the file keeps no snapshots", err.msg);
			close(run->kfd_dbg_fd);
			run->kfd_dbg_fd = -1;
		} else {
			run->kfd_dbg_size = (off_t)size;
			record_say(run, "kfd snapshots: %d with %llu lines in the file's " KFD_DEBUGFS_BUFFER " buffer",
				run->kfd_dbg.seq, (unsigned long long)run->kfd_dbg.records);
		}
	}
	if (!run->kfd.group[0] || run->nr_probe_formats > RECORD_PROBE_FORMATS - 2)
		return;
	if (!dat_event_system_load(&run->probe_formats[run->nr_probe_formats], run->kfd.group))
		run->nr_probe_formats++;
	if (run->kfd.id_source == KFD_ID_PR_DEBUG &&
	    !dat_event_system_load(&run->probe_formats[run->nr_probe_formats], "printk"))
		run->nr_probe_formats++;
}

/* Any path out: what was mounted is unmounted, the pages' file closed. */
void record_kfd_free(struct record_run *run)
{
	if (run->kfd_dbg.fd >= 0)
		kfd_debugfs_close(&run->kfd_dbg, NULL);
	if (run->kfd_dbg_fd >= 0)
		close(run->kfd_dbg_fd);
}
