// SPDX-License-Identifier: GPL-2.0
/*
 * kfd-probe: the KFD ioctls a ROCm runtime makes first, against a kernel with
 * amdgpu loaded but no GPU: GET_VERSION answers, CREATE_QUEUE is refused for
 * want of a gpu_id.  Recorded with function_graph, the kernel's path through
 * kfd_ioctl -> kfd_ioctl_create_queue is what the lab's queue view must show.
 * Prints one line per step; exits 0 when the ioctls were made, whatever they
 * answered, 2 when /dev/kfd could not be opened.  `kfd-probe --open` only
 * opens /dev/kfd (the lab loads its GPU-node shim when that fails);
 * `kfd-probe --hold MS` keeps /dev/kfd open MS milliseconds after its
 * ioctls, long enough for record's periodic KFD debugfs snapshots to list it.
 *
 * Each queue ioctl prints the values it passed and the kernel's answer
 * ("kfd-probe: ioctl create gpu_id=0x1234 ... -> EINVAL"): the lab checks
 * that report's queue view (record --kfd-args) shows exactly those.
 *
 * Under record --hip-log it also writes, as the HIP runtime would
 * (AMD_LOG_LEVEL_FILE + "_<pid>", CLOCK_MONOTONIC microseconds), a line
 * before it opens /dev/kfd and one after each ioctl: the lab checks that
 * each lands beside the kernel's records of the same step.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/kfd_ioctl.h>

static FILE *hip_log;

/* One line in the runtime's format: ":%d:%-25s:%-4d: %010llu us: %s %s" */
static void hip(const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	if (!hip_log)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(hip_log, ":3:%-25s:%-4d: %010llu us: [pid:%d tid: 0x%05x] ", "rocdevice.cpp", 1,
		(unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000,
		(int)getpid(), 0x1abcd);
	va_start(ap, fmt);
	vfprintf(hip_log, fmt, ap);
	va_end(ap);
	fputc('\n', hip_log);
	fflush(hip_log);
}

static const char *answer(int ret)
{
	return ret ? strerrorname_np(errno) : "0";
}

/* A second create, an update and a destroy: each the kernel refuses here. */
static void more_queue_ioctls(int fd)
{
	struct kfd_ioctl_create_queue_args sdma;
	struct kfd_ioctl_update_queue_args update;
	struct kfd_ioctl_destroy_queue_args destroy;
	int ret;

	memset(&sdma, 0, sizeof(sdma));
	sdma.gpu_id = 0x5678;
	sdma.queue_type = KFD_IOC_QUEUE_TYPE_SDMA;
	sdma.queue_percentage = 50;
	sdma.queue_priority = 3;
	sdma.ring_size = 8192;
	sdma.ring_base_address = 0x7f0000300000ULL;
	ret = ioctl(fd, AMDKFD_IOC_CREATE_QUEUE, &sdma);
	printf("kfd-probe: ioctl create gpu_id=0x%x type=%u priority=%u percentage=%u ring=0x%llx ring_size=%u -> %s\n",
	       sdma.gpu_id, sdma.queue_type, sdma.queue_priority, sdma.queue_percentage,
	       (unsigned long long)sdma.ring_base_address, sdma.ring_size, answer(ret));

	memset(&update, 0, sizeof(update));
	update.queue_id = 5;
	update.ring_base_address = 0x7f0000400000ULL;
	update.ring_size = 16384;
	update.queue_percentage = 100;
	update.queue_priority = 9;
	ret = ioctl(fd, AMDKFD_IOC_UPDATE_QUEUE, &update);
	printf("kfd-probe: ioctl update queue_id=%u -> %s\n", update.queue_id, answer(ret));

	memset(&destroy, 0, sizeof(destroy));
	destroy.queue_id = 5;
	ret = ioctl(fd, AMDKFD_IOC_DESTROY_QUEUE, &destroy);
	printf("kfd-probe: ioctl destroy queue_id=%u -> %s\n", destroy.queue_id, answer(ret));
}

int main(int argc, char **argv)
{
	struct kfd_ioctl_get_version_args version;
	struct kfd_ioctl_create_queue_args queue;
	const char *log = getenv("AMD_LOG_LEVEL_FILE");
	char path[512];
	int fd, ret;

	if (log) {
		snprintf(path, sizeof(path), "%s_%d", log, (int)getpid());
		hip_log = fopen(path, "a");
	}
	if (argc > 1 && !strcmp(argv[1], "--open")) {
		fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
		if (fd < 0)
			printf("kfd-probe: open /dev/kfd: %s\n", strerror(errno));
		return fd < 0 ? 2 : 0;
	}
	hip("Initializing HSA stack.");
	fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("kfd-probe: open /dev/kfd: %s\n", strerror(errno));
		return 2;
	}
	memset(&version, 0, sizeof(version));
	ret = ioctl(fd, AMDKFD_IOC_GET_VERSION, &version);
	hip("KFD version %s", ret ? strerror(errno) : "answered");
	if (ret)
		printf("kfd-probe: GET_VERSION: %s\n", strerror(errno));
	else
		printf("kfd-probe: GET_VERSION: %u.%u\n", version.major_version,
		       version.minor_version);

	memset(&queue, 0, sizeof(queue));
	queue.gpu_id = 0x1234;		/* no such GPU: the kernel must say so */
	queue.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
	queue.queue_percentage = 100;
	queue.queue_priority = 7;
	queue.ring_size = 4096;
	queue.ring_base_address = 0x7f0000100000ULL;
	queue.write_pointer_address = 0x7f0000110000ULL;
	queue.read_pointer_address = 0x7f0000110080ULL;
	ret = ioctl(fd, AMDKFD_IOC_CREATE_QUEUE, &queue);
	printf("kfd-probe: ioctl create gpu_id=0x%x type=%u priority=%u percentage=%u ring=0x%llx ring_size=%u -> %s\n",
	       queue.gpu_id, queue.queue_type, queue.queue_priority, queue.queue_percentage,
	       (unsigned long long)queue.ring_base_address, queue.ring_size, answer(ret));
	/* the runtime's own line on success; what a failure leaves otherwise */
	if (ret)
		hip("hsa_queue_create failed: %s", strerror(errno));
	else
		hip("Created SWq=0x7f0000200000 to map on HWq=0x%llx with size %u with priority %u, cooperative: 0",
		    (unsigned long long)queue.ring_base_address, queue.ring_size, queue.queue_priority);
	if (ret)
		printf("kfd-probe: CREATE_QUEUE: %s\n", strerror(errno));
	else
		printf("kfd-probe: CREATE_QUEUE: queue %u\n", queue.queue_id);
	more_queue_ioctls(fd);
	if (argc > 2 && !strcmp(argv[1], "--hold"))
		usleep((useconds_t)atoi(argv[2]) * 1000);
	close(fd);
	return 0;
}
