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
#include "capture/capture-source.h"
#include "capture/drm-fdinfo.h"
#include "capture/record-engine.h"
#include "capture/print-record.h"

#define FDINFO_EVERY_MS	1000.0
#define FDINFO_FULL_EVERY	10	/* every tenth periodic one looks at every process */

struct fdinfo_source {
	struct drm_fdinfo fdinfo;
	int fd;				/* the snapshots' pages, -1: none */
	off_t size;
	double last_ms;
};

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void fdinfo_init(void *st)
{
	struct fdinfo_source *f = st;

	f->fd = f->fdinfo.fd = -1;
}

/* pages for the snapshots; none is a note */
static int fdinfo_prepare(struct record_run *run, void *st, struct gt_error *err)
{
	struct fdinfo_source *f = st;
	struct print_record_format fmt = record_print_format(run);
	struct gt_error oerr = { 0 };
	int fd = temp_file_in(run->out.dir);

	(void)err;
	if (fd < 0 || drm_fdinfo_open(&f->fdinfo, &fmt, (int)getpid(), fd, (size_t)getpagesize(), &oerr)) {
		record_say(run, "drm fdinfo: not taken: %s", fd < 0 ? strerror(errno) : oerr.msg);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	f->fd = fd;
	return 0;
}

static void snapshot(struct record_run *run, struct fdinfo_source *f, const char *why)
{
	/* start, end, and every tenth second: another process's new client is named within 10 s */
	bool full = strcmp(why, "periodic") || f->fdinfo.seq % FDINFO_FULL_EVERY == 0;
	/* the workload's own within a second (-a has no scope: the command alone) */
	const pid_t *roots = run->nr_scope_pids ? run->scope_pids : &run->workload.pid;
	int nr = run->nr_scope_pids ? run->nr_scope_pids : run->workload.pid > 0;

	if (f->fd < 0)
		return;
	drm_fdinfo_snapshot(&f->fdinfo, why, full, roots, nr);
	f->last_ms = mono_ms();
}

static void fdinfo_started(struct record_run *run, void *st)
{
	snapshot(run, st, "start");
}

static long fdinfo_poll(struct record_run *run, void *st)
{
	struct fdinfo_source *f = st;

	if (f->fd >= 0 && mono_ms() - f->last_ms >= FDINFO_EVERY_MS)
		snapshot(run, f, "periodic");
	return 0;
}

/* the last snapshot taken and the pages closed, before the file is written */
static void fdinfo_stopped(struct record_run *run, void *st)
{
	struct fdinfo_source *f = st;
	struct gt_error err = { 0 };
	long long size;

	if (f->fd < 0)
		return;
	snapshot(run, f, "end");
	size = drm_fdinfo_close(&f->fdinfo, &err);
	if (size < 0) {
		record_warn(run, "%s; the file keeps no DRM fdinfo snapshots", err.msg);
		close(f->fd);
		f->fd = -1;
		return;
	}
	/* a machine without DRM files gets no buffer: files stay as they were */
	f->size = f->fdinfo.any ? (off_t)size : 0;
	if (f->fdinfo.files)
		record_say(run, "drm fdinfo: %d snapshots, %u DRM file%s open at the end (client ids named by process in the file's " DRM_FDINFO_BUFFER " buffer)",
			f->fdinfo.seq, f->fdinfo.files, f->fdinfo.files == 1 ? "" : "s");
	else if (f->fdinfo.any)
		record_say(run, "drm fdinfo: %d snapshots; no DRM file open at the end (earlier ones are in the file's " DRM_FDINFO_BUFFER " buffer)",
			f->fdinfo.seq);
	else if (!access("/dev/dri", F_OK))
		/* news only where there are DRM devices to have open */
		record_say(run, "drm fdinfo: no process had a DRM file (/dev/dri) open; client ids cannot be named by process");
}

static bool fdinfo_pages(const struct record_run *run, const void *st, struct capture_pages *p)
{
	const struct fdinfo_source *f = st;

	(void)run;
	*p = (struct capture_pages){ DRM_FDINFO_BUFFER, f->fd, f->size };
	return f->fd >= 0 && f->size;
}

static void fdinfo_free(struct record_run *run, void *st)
{
	struct fdinfo_source *f = st;

	(void)run;
	if (f->fdinfo.fd >= 0)
		drm_fdinfo_close(&f->fdinfo, NULL);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

const struct capture_source capture_drm_fdinfo = {
	.name = "DRM fdinfo snapshots",
	.state_size = sizeof(struct fdinfo_source),
	.init = fdinfo_init,
	.prepare = fdinfo_prepare,
	.started = fdinfo_started,
	.poll = fdinfo_poll,
	.stopped = fdinfo_stopped,
	.pages = fdinfo_pages,
	.free = fdinfo_free,
};
