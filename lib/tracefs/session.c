// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tracefs/run-dir.h"
#include "tracefs/run-lock.h"
#include "tracefs/session.h"

#define TRACEFS_DEFAULT "/sys/kernel/tracing"

/*
 * tracefs_tracing_dir_is_mounted() of libtracefs 1.6.4 reports a debugfs
 * path as mounted when nothing is, so /proc/mounts is read here instead;
 * /sys/kernel/tracing wins when tracefs is mounted more than once.
 */
bool session_mounted_tracefs(char *path, size_t len)
{
	char line[4096], dev[256], dir[2048], type[64];
	FILE *f = fopen("/proc/mounts", "re");
	bool found = false;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %2047s %63s", dev, dir, type) != 3 ||
		    strcmp(type, "tracefs"))
			continue;
		if (!found || !strcmp(dir, TRACEFS_DEFAULT))
			snprintf(path, len, "%s", dir);
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

int session_find_tracing_dir(const char **dir, bool *mounted_now,
			     struct gt_error *err)
{
	static char path[2048];

	if (mounted_now)
		*mounted_now = false;
	if (!session_mounted_tracefs(path, sizeof(path))) {
		if (mount("nodev", TRACEFS_DEFAULT, "tracefs", 0, NULL))
			return gt_error_set(err, errno,
					    "tracefs is not mounted and mounting it on %s failed: %s; run as root, or: mount -t tracefs nodev %s",
					    TRACEFS_DEFAULT, strerror(errno), TRACEFS_DEFAULT);
		snprintf(path, sizeof(path), "%s", TRACEFS_DEFAULT);
		if (mounted_now)
			*mounted_now = true;
	}
	/* libtracefs must use the same mount as our own file accesses */
	tracefs_set_tracing_dir(path);
	*dir = path;
	if (access(path, W_OK))
		return gt_error_set(err, errno,
				    "cannot write to tracefs at %s: %s; run as root (sudo gpu-trace ...)",
				    path, strerror(errno));
	return 0;
}

int session_create_instance(struct trace_session *s, const char *tracing_dir,
			    const char *name, struct gt_error *err)
{
	memset(s, 0, sizeof(*s));
	s->top_lock = -1;
	s->tracing_dir = tracing_dir;
	snprintf(s->name, sizeof(s->name), "%s", name);
	/* what we create must be known ours, alive, to every other run's cleanup */
	if (run_lock_live(err))
		return -1;
	if (tracefs_instance_exists(name))
		return gt_error_set(err, EEXIST,
				    "tracefs instance %s already exists (a gpu-trace run with a reused pid?); remove it with: gpu-trace reset",
				    name);
	s->inst = tracefs_instance_create(name);
	if (!s->inst)
		return gt_error_set(err, errno,
				    "cannot create tracefs instance %s: %s; check that %s/instances is writable",
				    name, strerror(errno), tracing_dir);
	if (!tracefs_instance_is_new(s->inst)) {
		/* someone raced us to the name: it is theirs, never remove it */
		tracefs_instance_free(s->inst);
		s->inst = NULL;
		return gt_error_set(err, EEXIST,
				    "tracefs instance %s appeared while creating it; retry",
				    name);
	}
	snprintf(s->dir, sizeof(s->dir), "%s/instances/%s", tracing_dir, name);
	return 0;
}

int session_move_to_top_level(struct trace_session *s, struct gt_error *err)
{
	char journal[600];
	int holder;

	if (s->top_level)
		return 0;
	/* two runs there would each journal the other's settings as the originals */
	s->top_lock = run_lock_take("top-level", &holder, err);
	if (s->top_lock < 0) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return gt_error_set(err, err->errnum,
				    "%s: it records in the top-level buffer, which one run at a time may change; wait for it to end, or record in an instance (no --top-level, or a kernel that allows function_graph in instances)",
				    why);
	}
	if (s->inst) {
		tracefs_instance_destroy(s->inst);
		tracefs_instance_free(s->inst);
		s->inst = NULL;
	}
	s->top_level = true;
	snprintf(s->dir, sizeof(s->dir), "%s", s->tracing_dir);
	if (run_dir_make(err))
		return -1;
	snprintf(journal, sizeof(journal), "%s/%s.restore", run_dir_path(), s->name);
	s->saved.journal = strdup(journal);
	return 0;
}

int session_remember(struct trace_session *s, const char *file,
		     struct gt_error *err)
{
	if (!s->top_level)
		return 0;
	return saved_files_remember(&s->saved, s->tracing_dir, file, err);
}

int session_write(struct trace_session *s, const char *file, const char *value,
		  struct gt_error *err)
{
	if (session_remember(s, file, err))
		return -1;
	return trace_file_write(s->dir, file, value, err);
}

char *session_read(struct trace_session *s, const char *file)
{
	return trace_file_read(s->dir, file);
}

bool session_has_file(struct trace_session *s, const char *file)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", s->dir, file);
	return access(path, F_OK) == 0;
}

int session_set_buffer_kb(struct trace_session *s, unsigned long kb, struct gt_error *err)
{
	if (session_remember(s, "buffer_size_kb", err))
		return -1;
	if (tracefs_instance_set_buffer_size(s->inst, kb, -1) < 0) {
		int e = errno ? errno : EIO;

		gt_error_set(err, e, "setting %s/buffer_size_kb to %lu KB failed: %s; check that tracefs is writable",
			     s->dir, kb, strerror(e));
		return -e;
	}
	return 0;
}

long session_get_buffer_kb(struct trace_session *s)
{
	ssize_t kb = tracefs_instance_get_buffer_size(s->inst, 0);

	return kb < 0 ? -(errno ? errno : EIO) : (long)kb;
}

static int ops_set_kb(void *ctx, unsigned long kb, struct gt_error *err)
{
	return session_set_buffer_kb(ctx, kb, err);
}

static long ops_get_kb(void *ctx)
{
	return session_get_buffer_kb(ctx);
}

struct buffer_ops session_buffer_ops(struct trace_session *s)
{
	return (struct buffer_ops){ ops_set_kb, ops_get_kb, s };
}

int session_set_clock(struct trace_session *s, const char *clock, struct gt_error *err)
{
	char *avail = session_read(s, "trace_clock");
	char *tok, *save = NULL, names[512] = "";
	size_t len = 0;
	bool found = false;

	for (tok = avail ? strtok_r(avail, " \n", &save) : NULL; tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		size_t n = strlen(tok);

		if (tok[0] == '[' && n > 2 && tok[n - 1] == ']') {
			tok[n - 1] = '\0';
			tok++;
		}
		if (!strcmp(tok, clock))
			found = true;
		if (len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						len ? " " : "", tok);
	}
	free(avail);
	/* the instance is gone once this is said: name the clocks, not its file */
	if (!found)
		return gt_error_set(err, EINVAL,
				    "clock '%s' is not offered by this kernel; its clocks are: %s (mono is the default)",
				    clock, names[0] ? names : "none readable");
	return session_write(s, "trace_clock", clock, err);
}

int session_set_tracing(struct trace_session *s, bool on, struct gt_error *err)
{
	return session_write(s, "tracing_on", on ? "1" : "0", err);
}

int session_follow_pids(struct trace_session *s, const pid_t *pids, int nr,
			bool events, bool functions, bool follow,
			struct gt_error *err)
{
	char list[8192] = "";
	size_t off = 0;
	int i;

	for (i = 0; i < nr && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%d\n", (int)pids[i]);
	if (off >= sizeof(list))
		return gt_error_set(err, E2BIG, "%d pids do not fit one pid filter; attach to fewer", nr);
	if (events && (session_write(s, "set_event_pid", list, err) ||
		       (follow && session_write(s, "options/event-fork", "1", err))))
		return -1;
	if (functions && (session_write(s, "set_ftrace_pid", list, err) ||
			  (follow && session_has_file(s, "options/function-fork") &&
			   session_write(s, "options/function-fork", "1", err))))
		return -1;
	return 0;
}

int session_add_pids(struct trace_session *s, const pid_t *pids, int nr, bool events,
		     bool functions, struct gt_error *err)
{
	char list[8192];
	int i = 0;

	/* in chunks: a list file takes one pid per write */
	while (i < nr) {
		size_t off = 0;

		for (; i < nr && off < sizeof(list) - 16; i++)
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%d\n", (int)pids[i]);
		if (events && trace_file_append(s->dir, "set_event_pid", list, err))
			return -1;
		if (functions && trace_file_append(s->dir, "set_ftrace_pid", list, err))
			return -1;
	}
	return 0;
}

int session_mark(struct trace_session *s, const char *text, struct gt_error *err)
{
	return trace_file_write(s->dir, "trace_marker", text, err);
}

/*
 * The kernel refuses to remove an instance one of whose files is open (EBUSY):
 * a reader closing its per-CPU pipe, a forked workload between its go and its
 * exec, which still holds our descriptors, another tool reading ours. Each lets
 * go within moments: tried again for up to 3 s before the instance is called left.
 */
static int destroy_when_free(struct tracefs_instance *inst)
{
	const struct timespec nap = { 0, 50 * 1000 * 1000 };
	int tries;

	for (tries = 0; tracefs_instance_destroy(inst); tries++) {
		if (errno != EBUSY || tries == 60)
			return -1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

int session_teardown(struct trace_session *s, struct gt_error *err)
{
	int ret = 0;

	if (s->top_level) {
		if (s->saved.nr)
			ret = saved_files_restore(&s->saved, s->tracing_dir, err);
		saved_files_free(&s->saved);
		s->top_level = false;
		close(s->top_lock);
		s->top_lock = -1;
		return ret;
	}
	if (!s->inst)
		return 0;
	tracefs_trace_off(s->inst);
	if (destroy_when_free(s->inst)) {
		ret = gt_error_set(err, errno,
				   "cannot remove tracefs instance %s: %s; remove it with: gpu-trace reset",
				   s->name, strerror(errno));
	}
	tracefs_instance_free(s->inst);
	s->inst = NULL;
	return ret;
}
