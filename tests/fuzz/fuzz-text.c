// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the text the workload (or whoever wrote a file)
 * controls, line by line:
 *   0: HIP runtime log lines through hip_runtime_add(), the join report
 *      makes of print records and --hip-log files (processes, kernel
 *      names, queues, commands: the lookups must stay linear, the caps hold)
 *   1: KFD debugfs snapshot lines (record --kfd-snapshot's print records)
 *      through kfd_snapshots_line() and the MQD decoding at the end
 *   2: a HIP log file as the runtime writes it, collected by record
 *      (hip_capture_collect: header parsing, continuations, cut lines, the
 *      text cap) into ring-buffer pages
 *   3: a cgroup's cgroup.procs as record --cgroup/--container polls it (a
 *      workload forking thousands: lookups must stay linear), twice, then
 *      the host pid of every line's number
 * Input: one byte picks the mode; the rest is text, split at newlines; in
 * modes 0 and 1 a line's first byte also picks its pid and time step.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../lib/capture/cgroup-scope.h"
#include "../../lib/capture/hip-capture.h"
#include "../../lib/analysis/hip-runtime-private.h"
#include "../../lib/analysis/kfd-snapshots-private.h"
#include "capture/print-record.h"

#define MAX_LINE 4096

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* Each line of text, NUL-terminated, to fn with the line's seed byte */
static void each_line(const uint8_t *data, size_t size,
		      void (*fn)(void *ctx, unsigned char seed, const char *line), void *ctx)
{
	char line[MAX_LINE];
	size_t at = 0;

	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
		size_t n = len < MAX_LINE - 1 ? len : MAX_LINE - 1;

		memcpy(line, data + at, n);
		line[n] = '\0';
		fn(ctx, n ? (unsigned char)line[0] : 0, line);
		at += len + 1;
	}
}

struct text_state {
	struct hip_runtime_state hip;
	struct kfd_snapshots_state snaps;
	uint64_t ts;
};

static void hip_line(void *ctx, unsigned char seed, const char *line)
{
	struct text_state *s = ctx;
	struct hip_line l;

	s->ts += seed;
	hip_runtime_add(&s->hip, 100 + (seed & 7), s->ts, line, &l, NULL);
}

static void snapshot_line(void *ctx, unsigned char seed, const char *line)
{
	struct text_state *s = ctx;

	s->ts += seed;
	kfd_snapshots_line(&s->snaps, s->ts, line);
}

/* Mode 2: the text as <capture dir>/hip.log_77, collected into a memfd */
static void capture(const uint8_t *data, size_t size)
{
	struct print_record_format fmt = { .event_id = 5, .long_size = 8 };
	struct gt_error err = { 0 };
	struct hip_capture c;
	char path[256];
	int fd, out;

	if (hip_capture_prepare(&c, 4, getuid(), getgid(), &err))
		return;
	c.max_text = 1 << 20;
	snprintf(path, sizeof(path), "%s_77", c.file);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (write(fd, data, size) == (ssize_t)size) {
			out = memfd_create("hip-pages", MFD_CLOEXEC);
			if (out >= 0) {
				hip_capture_collect(&c, &fmt, NULL, 0, NULL, NULL, out, 4096, &err);
				close(out);
			}
		}
		close(fd);
	}
	hip_capture_remove(&c);
}

/* Mode 3: the text as a cgroup directory's cgroup.procs */
static void cgroup_procs(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/fuzz-cgroup.XXXXXX", path[64], line[32];
	struct gt_error err = { 0 };
	struct cgroup_scope c;
	pid_t *tids = NULL;
	int fd, nr = 0, pass;
	size_t at = 0;

	if (!mkdtemp(dir))
		return;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 && write(fd, data, size) == (ssize_t)size &&
	    !cgroup_scope_open(&c, dir, &err)) {
		for (pass = 0; pass < 2; pass++)
			cgroup_scope_poll(&c, &tids, &nr);
		while (at < size) {
			size_t n = size - at < sizeof(line) - 1 ? size - at : sizeof(line) - 1;
			char *nl;

			memcpy(line, data + at, n);
			line[n] = '\0';
			nl = strchr(line, '\n');
			at += nl ? (size_t)(nl - line) + 1 : n;
			cgroup_scope_host_pid(&c, (pid_t)strtol(line, NULL, 10));
		}
		cgroup_scope_free(&c);
	}
	free(tids);
	if (fd >= 0)
		close(fd);
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct text_state s;

	if (!size)
		return 0;
	memset(&s, 0, sizeof(s));
	switch (data[0] % 4) {
	case 0:
		each_line(data + 1, size - 1, hip_line, &s);
		hip_runtime_free(&s.hip);
		break;
	case 1:
		each_line(data + 1, size - 1, snapshot_line, &s);
		kfd_snapshots_finish(&s.snaps);
		kfd_snapshots_free(&s.snaps);
		break;
	case 2:
		capture(data + 1, size - 1);
		break;
	default:
		cgroup_procs(data + 1, size - 1);
		break;
	}
	return 0;
}
