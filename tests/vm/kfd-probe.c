// SPDX-License-Identifier: GPL-2.0
/*
 * kfd-probe: the KFD ioctls a ROCm runtime makes first, against a kernel with
 * amdgpu loaded but no GPU: GET_VERSION answers, CREATE_QUEUE is refused for
 * want of a gpu_id.  Recorded with function_graph, the kernel's path through
 * kfd_ioctl -> kfd_ioctl_create_queue is what the lab's queue view must show.
 * Prints one line per step; exits 0 when the ioctls were made, whatever they
 * answered, 2 when /dev/kfd could not be opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/kfd_ioctl.h>

int main(void)
{
	struct kfd_ioctl_get_version_args version;
	struct kfd_ioctl_create_queue_args queue;
	int fd = open("/dev/kfd", O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		printf("kfd-probe: open /dev/kfd: %s\n", strerror(errno));
		return 2;
	}
	memset(&version, 0, sizeof(version));
	if (ioctl(fd, AMDKFD_IOC_GET_VERSION, &version))
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
	if (ioctl(fd, AMDKFD_IOC_CREATE_QUEUE, &queue))
		printf("kfd-probe: CREATE_QUEUE: %s\n", strerror(errno));
	else
		printf("kfd-probe: CREATE_QUEUE: queue %u\n", queue.queue_id);
	close(fd);
	return 0;
}
