// SPDX-License-Identifier: GPL-2.0
/*
 * drm-probe [COUNT [wait]]: create and free COUNT 2D resources on the virtio-gpu DRM
 * device (the /dev/dri/card* whose driver calls itself virtio_gpu); with "wait",
 * wait on each (VIRTGPU_WAIT: the fence of its creation, through the buffer's
 * reservation) before freeing it.  Each creation is a host command with a fence, so the lab
 * records virtio_gpu command/response and dma_fence events from a real
 * driver.  The uapi structs are spelled out here because Debian ships
 * drm/virtgpu_drm.h only with libdrm-dev, under a path kfd_ioctl.h's
 * neighbours do not use; they match include/uapi/drm/virtgpu_drm.h and drm.h.
 */
#include <stdlib.h>
#include <linux/types.h>

#include "drm-open.h"

struct virtgpu_resource_create {
	__u32 target, format, bind, width, height, depth, array_size, last_level;
	__u32 nr_samples, flags, bo_handle, res_handle, size, stride;
};

struct gem_close {
	__u32 handle, pad;
};

struct virtgpu_wait {
	__u32 handle, flags;
};

#define VIRTGPU_RESOURCE_CREATE	_IOWR(DRM_BASE, DRM_COMMAND_BASE + 0x04, struct virtgpu_resource_create)
#define GEM_CLOSE		_IOW(DRM_BASE, 0x09, struct gem_close)
#define VIRTGPU_WAIT		_IOW(DRM_BASE, DRM_COMMAND_BASE + 0x08, struct virtgpu_wait)

#define PIPE_TEXTURE_2D		2
#define FORMAT_B8G8R8A8_UNORM	1
#define BIND_RENDER_TARGET	(1 << 1)

int main(int argc, char **argv)
{
	int fd, i, n = argc > 1 ? atoi(argv[1]) : 8, made = 0, waited = 0;
	int wait = argc > 2 && !strcmp(argv[2], "wait");
	char path[64], seen[512];

	fd = drm_open_driver("card", 0, 7, "virtio_gpu", path, sizeof(path), seen, sizeof(seen));
	if (fd < 0) {
		printf("drm-probe: no virtio_gpu device in /dev/dri:%s\n", seen);
		return 2;
	}
	for (i = 0; i < n; i++) {
		struct virtgpu_resource_create rc = {
			.target = PIPE_TEXTURE_2D, .format = FORMAT_B8G8R8A8_UNORM,
			.bind = BIND_RENDER_TARGET, .width = 64, .height = 64, .depth = 1,
			.array_size = 1, .size = 64 * 64 * 4, .stride = 64 * 4,
		};
		struct gem_close gc = { 0 };

		if (ioctl(fd, VIRTGPU_RESOURCE_CREATE, &rc)) {
			printf("drm-probe: %s: RESOURCE_CREATE: %s\n", path, strerror(errno));
			break;
		}
		made++;
		if (wait) {
			struct virtgpu_wait w = { .handle = rc.bo_handle };

			if (ioctl(fd, VIRTGPU_WAIT, &w))
				printf("drm-probe: %s: WAIT: %s\n", path, strerror(errno));
			else
				waited++;
		}
		gc.handle = rc.bo_handle;
		ioctl(fd, GEM_CLOSE, &gc);
	}
	printf("drm-probe: pid=%d %s: %d of %d resources created and freed, %d waited on\n",
	       (int)getpid(), path, made, n, waited);
	close(fd);
	return made == n ? 0 : 1;
}
