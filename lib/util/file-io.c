// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/file-io.h"

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int read_all_at(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;

	while (len) {
		ssize_t r = pread(fd, p, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (!r)
				errno = EIO;
			return -1;
		}
		p += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int temp_file_in(const char *dir)
{
	char path[4200];
	int fd;

	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	/* filesystems without O_TMPFILE: mkstemp uses O_EXCL, then unlink */
	snprintf(path, sizeof(path), "%s/.gpu-trace-cpu.XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

int open_in_dir_no_mounts(int dfd, const char *name, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_NOFOLLOW),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dfd, name, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS)
		return openat(dfd, name, flags | O_NOFOLLOW);
	return (int)fd;
}
