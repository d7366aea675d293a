// SPDX-License-Identifier: GPL-2.0
/* Whole tracefs files, read and written as the kernel wants them. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file-io.h"
#include "tracefs/trace-file.h"

char *trace_file_read(const char *tracing_dir, const char *name)
{
	char path[4096];
	size_t cap = 4096, len = 0;
	char *buf;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tracing_dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap + 1);
	while (buf) {
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
		if (len == cap) {
			char *n = realloc(buf, cap * 2 + 1);

			if (!n) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = n;
			cap *= 2;
		}
	}
	close(fd);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* Files that hold a list take one entry per write(); the rest one value. */
bool trace_file_is_list(const char *name)
{
	static const char *const lists[] = {
		"set_event", "set_event_pid", "set_ftrace_filter",
		"set_ftrace_notrace", "set_graph_function", "set_graph_notrace",
		"set_ftrace_pid", NULL
	};
	int i;

	for (i = 0; lists[i]; i++)
		if (!strcmp(name, lists[i]))
			return 1;
	return 0;
}

static int path_write(const char *tracing_dir, const char *name, const char *value, int how,
		      struct gt_error *err)
{
	char path[4096];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", tracing_dir, name);
	fd = open(path, O_WRONLY | how | O_CLOEXEC);
	if (fd < 0)
		return gt_error_set(err, errno, "cannot open %s: %s; run as root on a kernel with tracefs",
				    path, strerror(errno));
	if (trace_file_is_list(name)) {
		const char *p = value;

		while (*p && !ret) {
			size_t n = strcspn(p, "\n");

			if (n)
				ret = write_all(fd, p, n) ? -errno : 0;
			p += n;
			if (*p == '\n')
				p++;
		}
	} else if (*value) {
		ret = write_all(fd, value, strlen(value)) ? -errno : 0;
	}
	close(fd);
	if (ret)
		return gt_error_set(err, -ret, "writing '%.60s' to %s failed: %s", value,
				    path, strerror(-ret));
	return 0;
}

int trace_file_write(const char *tracing_dir, const char *name,
		       const char *value, struct gt_error *err)
{
	return path_write(tracing_dir, name, value, O_TRUNC, err);
}

int trace_file_append(const char *tracing_dir, const char *name,
			const char *value, struct gt_error *err)
{
	return path_write(tracing_dir, name, value, O_APPEND, err);
}
