// SPDX-License-Identifier: GPL-2.0
/*
 * dmabuf-probe: a buffer shared through dma-buf between two processes and two
 * drivers, as a decoder hands a frame to a display. It creates a dumb buffer
 * on vgem, exports it (PRIME: dma_buf_export, dma_buf_fd), maps the dma-buf
 * (dma_buf_mmap_internal), and a child imports that fd on the virtio-gpu
 * device (dma_buf_get, and an attach where the driver takes foreign buffers).
 * It prints the buffer's inode (the events' ino), size and both pids, which
 * the host checks gpu-trace's report against. The uapi structs are spelled out
 * as include/uapi/drm/drm.h and drm_mode.h have them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <linux/types.h>

#include "drm-open.h"

/* the child: import the inherited dma-buf on virtio-gpu, as another process would */
static int import(int buf)
{
	struct prime_handle p = { .fd = buf };
	char path[64], seen[512];
	int fd = drm_open_driver("card", 0, 7, "virtio_gpu", path, sizeof(path), seen, sizeof(seen));

	if (fd < 0) {
		printf("dmabuf-probe: child %d: no virtio_gpu device:%s\n", getpid(), seen);
		return 2;
	}
	if (ioctl(fd, PRIME_FD_TO_HANDLE, &p))
		printf("dmabuf-probe: child %d imported on virtio_gpu: %s\n", getpid(), strerror(errno));
	else
		printf("dmabuf-probe: child %d imported on virtio_gpu: handle %u\n", getpid(), p.handle);
	fflush(stdout);
	close(fd);
	return 0;
}

int main(void)
{
	struct mode_create_dumb d = { .height = 256, .width = 256, .bpp = 32 };
	struct prime_handle p = { .flags = O_CLOEXEC | O_RDWR };
	char path[64], seen[512];
	struct stat st;
	int fd, status;
	void *map;
	pid_t child;

	fd = drm_open_driver("card", 0, 7, "vgem", path, sizeof(path), seen, sizeof(seen));
	if (fd < 0) {
		printf("dmabuf-probe: no vgem device in /dev/dri:%s\n", seen);
		return 2;
	}
	if (ioctl(fd, MODE_CREATE_DUMB, &d)) {
		printf("dmabuf-probe: vgem dumb buffer: %s\n", strerror(errno));
		return 1;
	}
	p.handle = d.handle;
	if (ioctl(fd, PRIME_HANDLE_TO_FD, &p) || fstat(p.fd, &st)) {
		printf("dmabuf-probe: export: %s\n", strerror(errno));
		return 1;
	}
	map = mmap(NULL, d.size, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd, 0);
	printf("dmabuf-probe: exported ino=%llu size=%llu pid=%d mmap=%s\n",
	       (unsigned long long)st.st_ino, (unsigned long long)d.size, getpid(),
	       map == MAP_FAILED ? strerror(errno) : "ok");
	if (map != MAP_FAILED)
		munmap(map, d.size);
	fflush(stdout);
	/* fork keeps the fd: O_CLOEXEC only closes it on exec */
	child = fork();
	if (child == 0)
		_exit(import(p.fd));
	if (child < 0 || waitpid(child, &status, 0) != child) {
		printf("dmabuf-probe: fork: %s\n", strerror(errno));
		return 1;
	}
	printf("dmabuf-probe: child=%d exit %d\n", child, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	close(p.fd);
	close(fd);
	return 0;
}
