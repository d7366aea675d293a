// SPDX-License-Identifier: GPL-2.0
/* record --hip-log: the HIP runtime's log with the recording (lib/capture/hip-capture.c). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file-io.h"
#include "capture/capture-source.h"
#include "capture/hip-capture.h"
#include "capture/record-engine.h"
#include "capture/print-record.h"

struct hip_source {
	struct hip_capture hip;
	int fd;				/* its pages, -1: none */
	off_t size;
	bool watch_failed;		/* said once */
};

static void hip_init(void *st)
{
	struct hip_source *h = st;

	h->fd = -1;
}

/* the runtime's log routed into our capture before the workload starts */
static int hip_prepare(struct record_run *run, void *st, struct gt_error *err)
{
	struct hip_source *h = st;
	uid_t uid = run->creds.drop ? run->creds.uid : geteuid();
	gid_t gid = run->creds.drop ? run->creds.gid : getegid();

	if (!run->opts.command || run->opts.hip_log < 0)
		return 0;
	if (run->has_cgroup)
		return hip_capture_prepare_container(&h->hip, run->opts.hip_log, err);
	return hip_capture_prepare(&h->hip, run->opts.hip_log, uid, gid, err);
}

/*
 * Each new log file's writer looked at while it runs: the time namespace it
 * stamps its lines in (its own, where the workload made one) is only known
 * from /proc while it lives. A writer gone within one turn (100 ms) keeps
 * record's.
 */
static long hip_poll(struct record_run *run, void *st)
{
	struct hip_source *h = st;

	/* once reaped, the command's pid may be another process's */
	if (run->workload.pid <= 0 || run->workload_exited || h->watch_failed)
		return 0;
	if (hip_capture_watch(&h->hip, run->workload.pid)) {
		record_say(run, "hip log: out of memory looking at the log's writers: their lines keep record's clock");
		h->watch_failed = true;
	}
	return 0;
}

static void hip_poll_start(struct record_run *run, void *st)
{
	hip_poll(run, st);
}

/* the command still running (-d, Ctrl-C): its writers' last look */
static void hip_stopped(struct record_run *run, void *st)
{
	hip_poll(run, st);
}

static pid_t host_pid(pid_t nspid, void *ctx)
{
	return cgroup_scope_host_pid(ctx, nspid);
}

/* The cgroup's processes still alive: their /proc/PID/root is the container's. */
static int live_roots(const struct record_run *run, pid_t **roots)
{
	int i, n = 0;

	*roots = calloc((size_t)run->cgroup.nr_seen + 1, sizeof(**roots));
	for (i = 0; *roots && i < run->cgroup.nr_seen; i++)
		if (!kill(run->cgroup.seen[i].pid, 0) || errno == EPERM)
			(*roots)[n++] = run->cgroup.seen[i].pid;
	return n;
}

/* After the workload: its log into pages for the .dat's hip-log buffer. */
static void hip_collect(struct record_run *run, void *st)
{
	struct hip_source *h = st;
	struct hip_capture *c = &h->hip;
	struct print_record_format fmt = record_print_format(run);
	struct gt_error err = { 0 };
	pid_t *roots = NULL;
	int nr_roots = 0, ret;

	if (!c->dir[0] && !c->container)
		return;
	h->fd = temp_file_in(run->out.dir);
	if (h->fd < 0) {
		record_warn(run, "--hip-log: no temporary file in %s: %s; the runtime's log stays in %s",
			  run->out.dir, strerror(errno), c->container ? c->file : c->dir);
		c->dir[0] = '\0';	/* kept for the user */
		return;
	}
	if (c->container) {
		pid_t *tids = NULL;
		int nr = 0;

		/*
		 * one last look at the cgroup: a process that joined since the last poll
		 * (up to 100 ms before the end: a server the workload started last) is a
		 * root too, whose /tmp (FUSE or not) must be judged
		 */
		if (run->has_cgroup)
			cgroup_scope_poll(&run->cgroup, &tids, &nr);
		free(tids);
		nr_roots = live_roots(run, &roots);
	}
	ret = hip_capture_collect(c, &fmt, roots, nr_roots, c->container ? host_pid : NULL,
				  &run->cgroup, h->fd, run->recorder.page_size, &err);
	free(roots);
	if (ret) {
		record_warn(run, "%s; the runtime's log stays in %s", err.msg,
			  c->container ? c->file : c->dir);
		close(h->fd);
		h->fd = -1;
		c->dir[0] = '\0';
		return;
	}
	h->size = lseek(h->fd, 0, SEEK_END);
	hip_capture_remove(c);
}

/* what the capture found (processes, containers, FUSE roots) */
static void hip_say(const struct record_run *run, const void *st)
{
	const struct hip_source *h = st;
	const struct hip_capture *c = &h->hip;

	if (run->opts.hip_log < 0 || h->fd < 0)
		return;
	if (c->fuse_roots)
		record_say(run, "hip log: %llu container processes see / or /tmp on FUSE, whose server may never answer: their /tmp not read",
			(unsigned long long)c->fuse_roots);
	if (!c->processes && c->container) {
		record_say(run, "hip log: no %s_<pid> in the container's /tmp: pass the variables on with docker exec -e AMD_LOG_LEVEL -e AMD_LOG_LEVEL_FILE -e AMD_LOG_MASK",
			c->file);
		return;
	}
	if (!c->processes) {
		record_say(run, "hip log: the workload wrote none (level %d): is it a HIP program, and did it keep AMD_LOG_LEVEL_FILE?",
			c->level);
		return;
	}
	record_say(run, "hip log: %llu line%s of %d process%s (level %d) in the file's " HIP_LOG_BUFFER " buffer",
		(unsigned long long)c->lines, c->lines == 1 ? "" : "s", c->processes, c->processes == 1 ? "" : "es", c->level);
	if (c->malformed || c->truncated || c->skipped_files)
		record_say(run, "hip log: %llu lines before any timestamped line left out, %llu cut to a page, %llu files not the workload's own skipped",
			(unsigned long long)c->malformed, (unsigned long long)c->truncated,
			(unsigned long long)c->skipped_files);
	if (c->capped)
		record_say(run, "hip log: %llu lines past the first %llu lines or %u MB of text left out (a log that large is kept in memory until the end)",
			(unsigned long long)c->capped, (unsigned long long)c->max_lines,
			(unsigned int)(c->max_text >> 20));
	if (c->read_capped)
		record_say(run, "hip log: the workload's files were read no further than their first %llu MB",
			(unsigned long long)(c->max_read >> 20));
	if (c->writers_assumed)
		record_say(run, "hip log: %llu processes' time namespace not seen (gone within 100 ms, in a pid namespace of their own, or not forked from the command): their lines are placed on the clock of the one the command made for its children",
			(unsigned long long)c->writers_assumed);
	if (c->writers_moved && c->writers_unseen)
		record_say(run, "hip log: %llu of the workload's processes stamped their lines in a time namespace of their own; %llu others' not seen (gone within 100 ms, in a pid namespace of their own, or not forked from the command): their lines are placed on record's clock",
			(unsigned long long)c->writers_moved, (unsigned long long)c->writers_unseen);
	if (c->writers_renumbered)
		record_say(run, "hip log: %llu processes wrote in a pid namespace of their own: their lines carry their pid here, not the one in the file's name",
			(unsigned long long)c->writers_renumbered);
	if (c->untranslated)
		record_say(run, "hip log: %llu files of container pids never seen in the cgroup (exited before a poll): their lines have pid 0",
			(unsigned long long)c->untranslated);
}

static bool hip_pages(const struct record_run *run, const void *st, struct capture_pages *p)
{
	const struct hip_source *h = st;

	(void)run;
	*p = (struct capture_pages){ HIP_LOG_BUFFER, h->fd, h->size };
	return h->fd >= 0;
}

static void hip_free(struct record_run *run, void *st)
{
	struct hip_source *h = st;

	(void)run;
	hip_capture_remove(&h->hip);
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
}

const struct capture_source capture_hip_log = {
	.name = "the HIP runtime's log",
	.state_size = sizeof(struct hip_source),
	.init = hip_init,
	.prepare = hip_prepare,
	.started = hip_poll_start,
	.poll = hip_poll,
	.stopped = hip_stopped,
	.collect = hip_collect,
	.pages = hip_pages,
	.say = hip_say,
	.free = hip_free,
};
