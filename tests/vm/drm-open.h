/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab's DRM clients (drm-probe, mock-client, flip-client...) find their device by the
 * driver's name: DRM_IOCTL_VERSION, spelled out as include/uapi/drm/drm.h
 * has it (Debian ships drm/drm.h only with libdrm-dev).
 */
#ifndef GT_LAB_DRM_OPEN_H
#define GT_LAB_DRM_OPEN_H
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/types.h>

struct drm_version {
	int major, minor, patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};

#define DRM_BASE		'd'
#define DRM_COMMAND_BASE	0x40
#define DRM_VERSION		_IOWR(DRM_BASE, 0x00, struct drm_version)

/* dumb buffers and PRIME, as dmabuf-probe and flip-client share them (drm_mode.h, drm.h) */
struct mode_create_dumb {
	__u32 height, width, bpp, flags, handle, pitch;
	__u64 size;
};

struct prime_handle {
	__u32 handle, flags;
	__s32 fd;
};

#define MODE_CREATE_DUMB	_IOWR(DRM_BASE, 0xB2, struct mode_create_dumb)
#define PRIME_HANDLE_TO_FD	_IOWR(DRM_BASE, 0x2d, struct prime_handle)
#define PRIME_FD_TO_HANDLE	_IOWR(DRM_BASE, 0x2e, struct prime_handle)

/*
 * The first of /dev/dri/NODE<first..last> whose driver is @driver, open read-write
 * (its path in @path), or -1; @seen says what each other node turned out to be.
 */
static inline int drm_open_driver(const char *node, int first, int last, const char *driver,
				  char *path, size_t len, char *seen, size_t seen_len)
{
	size_t off = 0;
	int i, fd;

	seen[0] = '\0';
	for (i = first; i <= last; i++) {
		char name[32] = "";
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(path, len, "/dev/dri/%s%d", node, i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT && off < seen_len)
				off += (size_t)snprintf(seen + off, seen_len - off, " %s%d: %s;", node, i,
							strerror(errno));
			continue;
		}
		if (!ioctl(fd, DRM_VERSION, &v) && !strcmp(name, driver))
			return fd;
		if (off < seen_len)
			off += (size_t)snprintf(seen + off, seen_len - off, " %s%d: %s;", node, i,
						name[0] ? name : strerror(errno));
		close(fd);
	}
	return -1;
}

#endif
