/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FILE_IO_H
#define GT_FILE_IO_H

#include <stddef.h>

/* All of it, across short writes and EINTR: 0, or -1 with errno. */
int write_all(int fd, const void *buf, size_t len);

/* Creates an unlinked, private temp file in dir (never follows symlinks). */
int temp_file_in(const char *dir);

#endif
