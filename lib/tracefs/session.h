/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_SESSION_H
#define GT_SESSION_H

#include <stdbool.h>
#include <sys/types.h>
#include <tracefs.h>

#include "tracefs/buffer-ladder.h"
#include "util/gt-error.h"
#include "tracefs/saved-files.h"

/*
 * The one place that owns the buffer we record into: a fresh instance, or
 * the top-level buffer when the kernel allows a tracer only there. Every
 * change to the top level goes through session_write() so teardown can put
 * it back.
 */
struct trace_session {
	const char *tracing_dir;
	struct tracefs_instance *inst;	/* NULL: top-level buffer */
	bool top_level;
	char name[64];
	char dir[4096];			/* the buffer's directory */
	struct saved_files saved;
	int top_lock;			/* the "top-level" run lock while top_level, else -1 */
};

#define GT_INSTANCE_PREFIX	"gpu-trace-"
/**
 * session_mounted_tracefs - where tracefs is mounted (/sys/kernel/tracing preferred), false if
 * nowhere.
 */
bool session_mounted_tracefs(char *path, size_t len);
/**
 * session_find_tracing_dir - tracefs's path; mounts it on /sys/kernel/tracing when it is not
 * mounted (@mounted_now)
 */
int session_find_tracing_dir(const char **dir, bool *mounted_now,
			     struct gt_error *err);
/** session_create_instance - a tracefs instance @name made for the session */
int session_create_instance(struct trace_session *s, const char *tracing_dir,
			    const char *name, struct gt_error *err);
/**
 * session_move_to_top_level - switch from the instance to the top level (the instance is
 * removed).
 */
int session_move_to_top_level(struct trace_session *s, struct gt_error *err);

/**
 * session_remember - in the top-level buffer, a file's value kept before it is changed;
 * nothing in an instance
 */
int session_remember(struct trace_session *s, const char *file,
		     struct gt_error *err);
/** session_write - a file of the session's buffer written, remembered first at the top level */
int session_write(struct trace_session *s, const char *file, const char *value,
		  struct gt_error *err);
/** session_read - a file of the session's buffer, read whole; NULL on error */
char *session_read(struct trace_session *s, const char *file);
/** session_has_file - whether the session's buffer has this file (the kernel's features differ) */
bool session_has_file(struct trace_session *s, const char *file);

/**
 * session_set_buffer_kb - per-CPU buffer size in KB: set (remembered for the top level), read
 * back.
 */
int session_set_buffer_kb(struct trace_session *s, unsigned long kb, struct gt_error *err);
/** session_get_buffer_kb - the per-CPU buffer size in KB as the kernel reports it, or -errno */
long session_get_buffer_kb(struct trace_session *s);
/** session_buffer_ops - the ladder's operations on this session's buffer. */
struct buffer_ops session_buffer_ops(struct trace_session *s);
/**
 * session_set_clock - a clock the kernel offers (trace_clock lists it), else an error naming
 * it.
 */
int session_set_clock(struct trace_session *s, const char *clock, struct gt_error *err);
/** session_set_tracing - tracing_on of the session's buffer */
int session_set_tracing(struct trace_session *s, bool on, struct gt_error *err);

/**
 * session_follow_pids - scope this buffer to pids: its events (set_event_pid) and/or its
 * function tracer (set_ftrace_pid); with follow, children are added as they fork.
 */
int session_follow_pids(struct trace_session *s, const pid_t *pids, int nr,
			bool events, bool functions, bool follow,
			struct gt_error *err);
/* A trace_marker line in this buffer (never pid-filtered by the kernel). */
/** session_add_pids - more pids for a running session's filters (a cgroup's newcomers). */
int session_add_pids(struct trace_session *s, const pid_t *pids, int nr, bool events,
		     bool functions, struct gt_error *err);
/** session_mark - a line written to the session's trace_marker */
int session_mark(struct trace_session *s, const char *text, struct gt_error *err);

/** session_teardown - stop tracing, undo everything, remove the instance. Safe to call twice. */
int session_teardown(struct trace_session *s, struct gt_error *err);

#endif
