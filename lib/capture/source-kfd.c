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
#include "capture/capture-source.h"
#include "capture/kfd-debugfs.h"
#include "capture/kfd-probes.h"
#include "capture/record-engine.h"
#include "capture/print-record.h"

struct kfd_source {
	struct kfd_probes probes;	/* --kfd-args; probes.group[0] when defined */
	struct kfd_debugfs dbg;		/* the debugfs snapshots */
	int dbg_fd;			/* their pages, -1: none */
	off_t dbg_size;
	double last_snapshot_ms;
};

static void kfd_init(void *st)
{
	struct kfd_source *k = st;

	k->dbg_fd = k->dbg.fd = -1;
}

/* The function records stay either way: no kprobes is a note unless --strict. */
static int setup_probes(struct record_run *run, struct kfd_source *k, struct gt_error *err)
{
	const char *why = kfd_probes_unavailable(run->tracing_dir);
	struct gt_error perr = { 0 };

	if (!why && (kfd_probes_create(&k->probes, (int)getpid(), &perr) ||
		     kfd_probes_enable(&k->probes, run->session.inst, &perr))) {
		kfd_probes_remove(&k->probes, NULL);
		k->probes.group[0] = '\0';
		why = perr.msg;
	}
	/* through the session: a top-level buffer gets the file back afterwards */
	if (!why && kfd_probes_pr_debug_on(&k->probes) &&
	    session_write(&run->session, "events/printk/console/enable", "1", &perr))
		k->probes.id_source = KFD_ID_NONE;	/* dynamic debug goes back at removal */
	if (why) {
		if (run->opts.strict)
			return gt_error_set(err, ENOTSUP, "--kfd-args: no KFD probes: %s; drop --strict to record without them",
					    why);
		record_say(run, "kfd probes: not used: %s; KFD queues come from function records only, without their values",
			why);
		return 0;
	}
	if (k->probes.id_source == KFD_ID_NONE && k->probes.dyndbg_holder)
		record_say(run, "kfd probes: %d in group %s (removed after); queue ids and doorbells not captured: another gpu-trace (pid %d) has dynamic debug switched on, which one run at a time may change",
			k->probes.nr_events, k->probes.group, k->probes.dyndbg_holder);
	else
		record_say(run, "kfd probes: %d in group %s (removed after); queue ids and doorbells from %s",
			k->probes.nr_events, k->probes.group, kfd_id_source_name(k->probes.id_source));
	return 0;
}

/* Pages for the snapshots, taken from now on; none is a note. */
static void setup_snapshots(struct record_run *run, struct kfd_source *k)
{
	struct print_record_format fmt = record_print_format(run);
	struct gt_error err = { 0 };
	int fd = temp_file_in(run->out.dir);

	/* the recorder, opened later, reads pages of this size */
	if (fd < 0 || kfd_debugfs_open(&k->dbg, &fmt, (int)getpid(), fd, (size_t)getpagesize(),
				       &err)) {
		record_say(run, "kfd snapshots: not taken: %s", fd < 0 ? strerror(errno) : err.msg);
		if (fd >= 0)
			close(fd);
		return;
	}
	k->dbg_fd = fd;
	record_say(run, "kfd snapshots: %s/{mqds,hqds,rls} at the start and the end%s%s", k->dbg.kfd_dir,
		run->opts.kfd_snapshot_ms ? " and periodically" : "",
		strcmp(run->opts.clock, "mono") ? "; stamped on CLOCK_MONOTONIC, not this file's clock" : "");
}

static int kfd_setup(struct record_run *run, void *st, struct gt_error *err)
{
	struct kfd_source *k = st;

	if (run->opts.kfd_args && setup_probes(run, k, err))
		return -1;
	if (run->opts.kfd_args || run->opts.kfd_snapshot_ms)
		setup_snapshots(run, k);
	return 0;
}

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void snapshot(struct kfd_source *k, const char *why)
{
	if (k->dbg_fd < 0)
		return;
	kfd_debugfs_snapshot(&k->dbg, why);
	k->last_snapshot_ms = mono_ms();
}

static void kfd_started(struct record_run *run, void *st)
{
	(void)run;
	snapshot(st, "start");
}

/* --kfd-snapshot MS: a snapshot when the interval has passed, and turns no longer than it */
static long kfd_poll(struct record_run *run, void *st)
{
	struct kfd_source *k = st;

	if (k->dbg_fd >= 0 && run->opts.kfd_snapshot_ms &&
	    mono_ms() - k->last_snapshot_ms >= (double)run->opts.kfd_snapshot_ms)
		snapshot(k, "periodic");
	return run->opts.kfd_snapshot_ms;
}

/* Before teardown: the last snapshot, the pages, the probes' formats. */
static void kfd_stopped(struct record_run *run, void *st)
{
	struct kfd_source *k = st;
	struct gt_error err = { 0 };
	long long size;

	if (k->dbg_fd >= 0) {
		snapshot(k, "end");
		size = kfd_debugfs_close(&k->dbg, &err);
		if (size < 0) {
			record_warn(run, "%s; the file keeps no snapshots", err.msg);
			close(k->dbg_fd);
			k->dbg_fd = -1;
		} else {
			k->dbg_size = (off_t)size;
			record_say(run, "kfd snapshots: %d with %llu lines in the file's " KFD_DEBUGFS_BUFFER " buffer",
				k->dbg.seq, (unsigned long long)k->dbg.records);
		}
	}
	if (!k->probes.group[0])
		return;
	record_keep_formats(run, k->probes.group);
	if (k->probes.id_source == KFD_ID_PR_DEBUG)
		record_keep_formats(run, "printk");
}

/* after the instance: an enabled probe cannot be removed */
static int kfd_teardown(struct record_run *run, void *st, struct gt_error *err)
{
	struct kfd_source *k = st;

	(void)run;
	return k->probes.group[0] ? kfd_probes_remove(&k->probes, err) : 0;
}

static bool kfd_pages(const struct record_run *run, const void *st, struct capture_pages *p)
{
	const struct kfd_source *k = st;

	(void)run;
	*p = (struct capture_pages){ KFD_DEBUGFS_BUFFER, k->dbg_fd, k->dbg_size };
	return k->dbg_fd >= 0 && k->dbg_size;
}

/* Any path out: what was mounted is unmounted, the pages' file closed. */
static void kfd_free(struct record_run *run, void *st)
{
	struct kfd_source *k = st;

	(void)run;
	if (k->dbg.fd >= 0)
		kfd_debugfs_close(&k->dbg, NULL);
	if (k->dbg_fd >= 0)
		close(k->dbg_fd);
	k->dbg_fd = -1;
}

const struct capture_source capture_kfd = {
	.name = "KFD probes and debugfs snapshots",
	.state_size = sizeof(struct kfd_source),
	.init = kfd_init,
	.probes = kfd_setup,
	.started = kfd_started,
	.poll = kfd_poll,
	.stopped = kfd_stopped,
	.teardown = kfd_teardown,
	.pages = kfd_pages,
	.free = kfd_free,
};
