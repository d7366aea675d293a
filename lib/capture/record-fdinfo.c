// SPDX-License-Identifier: GPL-2.0
/*
 * record's DRM fdinfo snapshots (lib/capture/drm-fdinfo.c): which process
 * holds which DRM client id, and the usage the driver counts for it, at the
 * start, every second (the workload's processes and the known holders; all
 * every tenth) and at the end, into the file's drm-fdinfo buffer.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/file-io.h"
#include "capture/record-engine.h"

#define FDINFO_EVERY_MS	1000.0
#define FDINFO_FULL_EVERY	10	/* every tenth periodic one looks at every process */

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void record_fdinfo_setup(struct record_run *run)
{
	struct hip_print_format fmt = record_print_format(run);
	struct gt_error err = { 0 };
	int fd = temp_file_in(run->out.dir);

	run->fdinfo.fd = -1;
	run->fdinfo_fd = -1;
	if (fd < 0 || drm_fdinfo_open(&run->fdinfo, &fmt, (int)getpid(), fd, (size_t)getpagesize(), &err)) {
		record_say(run, "drm fdinfo: not taken: %s", fd < 0 ? strerror(errno) : err.msg);
		if (fd >= 0)
			close(fd);
		return;
	}
	run->fdinfo_fd = fd;
}

void record_fdinfo_snapshot(struct record_run *run, const char *why)
{
	/* start, end, and every tenth second: another process's new client is named within 10 s */
	bool full = strcmp(why, "periodic") || run->fdinfo.seq % FDINFO_FULL_EVERY == 0;
	/* the workload's own within a second (-a has no scope: the command alone) */
	const pid_t *roots = run->nr_scope_pids ? run->scope_pids : &run->workload.pid;
	int nr = run->nr_scope_pids ? run->nr_scope_pids : run->workload.pid > 0;

	if (run->fdinfo_fd < 0)
		return;
	drm_fdinfo_snapshot(&run->fdinfo, why, full, roots, nr);
	run->fdinfo_last_ms = mono_ms();
}

void record_fdinfo_poll(struct record_run *run)
{
	if (run->fdinfo_fd >= 0 && mono_ms() - run->fdinfo_last_ms >= FDINFO_EVERY_MS)
		record_fdinfo_snapshot(run, "periodic");
}

void record_fdinfo_finish(struct record_run *run)
{
	struct gt_error err = { 0 };
	long long size;

	if (run->fdinfo_fd < 0)
		return;
	record_fdinfo_snapshot(run, "end");
	size = drm_fdinfo_close(&run->fdinfo, &err);
	if (size < 0) {
		record_warn(run, "%s; the file keeps no DRM fdinfo snapshots", err.msg);
		close(run->fdinfo_fd);
		run->fdinfo_fd = -1;
		return;
	}
	/* a machine without DRM files gets no buffer: files stay as they were */
	run->fdinfo_size = run->fdinfo.any ? (off_t)size : 0;
	if (run->fdinfo.files)
		record_say(run, "drm fdinfo: %d snapshots, %u DRM file%s open at the end (client ids named by process in the file's " DRM_FDINFO_BUFFER " buffer)",
			run->fdinfo.seq, run->fdinfo.files, run->fdinfo.files == 1 ? "" : "s");
	else if (run->fdinfo.any)
		record_say(run, "drm fdinfo: %d snapshots; no DRM file open at the end (earlier ones are in the file's " DRM_FDINFO_BUFFER " buffer)",
			run->fdinfo.seq);
	else if (!access("/dev/dri", F_OK))
		/* news only where there are DRM devices to have open */
		record_say(run, "drm fdinfo: no process had a DRM file (/dev/dri) open; client ids cannot be named by process");
}

void record_fdinfo_free(struct record_run *run)
{
	if (run->fdinfo.fd >= 0)
		drm_fdinfo_close(&run->fdinfo, NULL);
	if (run->fdinfo_fd >= 0)
		close(run->fdinfo_fd);
	run->fdinfo_fd = -1;
}
