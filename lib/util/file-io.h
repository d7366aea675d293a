/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FILE_IO_H
#define GT_FILE_IO_H

#include <stddef.h>
#include <stdint.h>

/** write_all - all of it, across short writes and EINTR: 0, or -1 with errno. */
int write_all(int fd, const void *buf, size_t len);

/** read_all_at - @len bytes at @off, across short reads and EINTR: 0, or -1 (errno, or EIO at the end). */
int read_all_at(int fd, void *buf, size_t len, uint64_t off);

/** temp_file_in - creates an unlinked, private temp file in dir (never follows symlinks). */
int temp_file_in(const char *dir);

/**
 * open_in_dir_no_mounts - openat() of one name in dfd that neither follows a symlink nor
 * enters anything mounted on it (EXDEV): a FUSE server mounted there would answer the open
 * when it likes, or never. Kernels before 5.6 (no openat2) get openat() with O_NOFOLLOW.
 */
int open_in_dir_no_mounts(int dfd, const char *name, int flags);

#endif
