// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include "util/file-io.h"
#include "util/writeback-stream.h"

/* enough to keep the disk busy, small enough that the last stretch is quick to flush */
#define WRITEBACK_EVERY	(8 << 20)

struct writeback {
	int fd;
	off_t at, started;	/* written up to; write-back started up to */
	bool cannot;		/* a pipe, or a filesystem without sync_file_range */
};

static ssize_t wb_write(void *cookie, const char *buf, size_t n)
{
	struct writeback *wb = cookie;

	if (write_all(wb->fd, buf, n))
		return -1;
	wb->at += (off_t)n;
	if (!wb->cannot && wb->at - wb->started >= WRITEBACK_EVERY) {
		if (sync_file_range(wb->fd, wb->started, wb->at - wb->started, SYNC_FILE_RANGE_WRITE))
			wb->cannot = true;
		wb->started = wb->at;
	}
	return (ssize_t)n;
}

static int wb_close(void *cookie)
{
	struct writeback *wb = cookie;
	int ret = close(wb->fd);

	free(wb);
	return ret;
}

FILE *writeback_stream(int fd)
{
	struct writeback *wb = calloc(1, sizeof(*wb));
	FILE *f;

	if (!wb)
		return NULL;
	wb->fd = fd;
	wb->at = wb->started = lseek(fd, 0, SEEK_CUR);
	wb->cannot = wb->at < 0;
	f = fopencookie(wb, "w", (cookie_io_functions_t){ .write = wb_write, .close = wb_close });
	if (!f)
		free(wb);
	return f;
}
