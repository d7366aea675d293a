/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_TRACE_FILE_H
#define GT_TRACE_FILE_H

#include <stdbool.h>

#include "util/gt-error.h"

/** trace_file_is_list - set_event, set_ftrace_filter, set_event_pid...: one entry per write(). */
bool trace_file_is_list(const char *name);

/** trace_file_write - write (O_TRUNC) a whole tracefs file, one line at a time for list files. */
int trace_file_write(const char *tracing_dir, const char *name,
		       const char *value, struct gt_error *err);
/** trace_file_read - the whole file, NUL-terminated, or NULL (errno set). */
char *trace_file_read(const char *tracing_dir, const char *name);
/** trace_file_append - the same without truncating: a pid list grows (set_event_pid). */
int trace_file_append(const char *tracing_dir, const char *name,
			const char *value, struct gt_error *err);

#endif
