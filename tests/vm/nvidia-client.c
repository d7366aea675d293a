// SPDX-License-Identifier: GPL-2.0
/*
 * nvidia-client: a user of the lab's stand-in for nvidia.ko (gt_nvidia,
 * /dev/gt_nvidia), issuing ioctls with NVIDIA's numbering and parameter
 * layouts (open-gpu-kernel-modules: nv-ioctl-numbers.h, nv_escape.h,
 * nvos.h NVOS54_PARAMETERS): RM controls (one through NV_ESC_IOCTL_XFER_CMD,
 * as the driver's user space does for parameters larger than the ioctl
 * number holds, one answered with an error status), allocs, a free, a card
 * info and an mmap. Prints one line per call, the ground truth a recording
 * is checked against:
 *   call ESCAPE CMD STATUS SLEPT_US START_NS END_NS
 * (ESCAPE as issued, 0xd3 for a transfer; CMD and STATUS the RM control's,
 * through a transfer too, 0 for other escapes; in hex), then
 * "mmap -1 ERRNO" (the stand-in maps nothing).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "mock-sched/gt_nvidia_abi.h"

/* an empty argument of the size the real escape's structure has */
struct blob {
	unsigned char b[56];
};

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int call(int fd, unsigned long nr, void *arg, size_t size, uint32_t cmd,
		uint32_t status, uint32_t sleep_us)
{
	unsigned long req = _IOC(_IOC_READ | _IOC_WRITE, NV_IOCTL_MAGIC, nr, size);
	uint64_t t0 = now(), t1;
	int ret = ioctl(fd, req, arg);

	t1 = now();
	if (ret) {
		fprintf(stderr, "nvidia-client: escape 0x%lx: %s\n", nr, strerror(errno));
		return 1;
	}
	printf("call 0x%lx 0x%x 0x%x %u %llu %llu\n", nr, cmd, status, sleep_us,
	       (unsigned long long)t0, (unsigned long long)t1);
	return 0;
}

static int control(int fd, uint32_t cmd, uint32_t status, uint32_t sleep_us, int xfer)
{
	struct nvos54 p = { .hClient = status, .hObject = 0xcaf00001, .cmd = cmd,
			    .flags = sleep_us };
	struct nv_ioctl_xfer x = { .cmd = NV_ESC_RM_CONTROL, .size = sizeof(p),
				   .ptr = (uintptr_t)&p };
	int ret;

	if (xfer)
		ret = call(fd, NV_ESC_IOCTL_XFER_CMD, &x, sizeof(x), cmd, status, sleep_us);
	else
		ret = call(fd, NV_ESC_RM_CONTROL, &p, sizeof(p), cmd, status, sleep_us);
	if (!ret && p.status != status) {
		fprintf(stderr, "nvidia-client: control 0x%x answered 0x%x, not 0x%x\n", cmd,
			p.status, status);
		return 1;
	}
	return ret;
}

int main(void)
{
	struct blob b = { { 0 } };
	int fd = open("/dev/gt_nvidia", O_RDWR), bad = 0, i;
	void *map;

	if (fd < 0) {
		perror("nvidia-client: /dev/gt_nvidia");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	bad |= call(fd, NV_ESC_CARD_INFO, &b, sizeof(b), 0, 0, 0);
	for (i = 0; i < 3; i++)
		bad |= call(fd, NV_ESC_RM_ALLOC, &b, sizeof(b), 0, 0, 200);
	/* NV2080_CTRL_CMD_GPU_GET_INFO_V2 and NV0080_CTRL_CMD_GPU_GET_CLASSLIST, slow and fast */
	for (i = 0; i < 4; i++)
		bad |= control(fd, 0x20800102, 0, 2000, 0);
	for (i = 0; i < 6; i++)
		bad |= control(fd, 0x00800201, 0, 50, 0);
	/* NV_ERR_INVALID_ARGUMENT (0x1f) as the call's answer: the ioctl itself succeeds */
	bad |= control(fd, 0x20801801, 0x1f, 100, 0);
	bad |= control(fd, 0x00800201, 0, 300, 1);
	bad |= call(fd, NV_ESC_RM_FREE, &b, sizeof(b), 0, 0, 100);
	map = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("mmap %d %d\n", map == MAP_FAILED ? -1 : 0, map == MAP_FAILED ? errno : 0);
	close(fd);
	return bad;
}
