// SPDX-License-Identifier: GPL-2.0
/*
 * Event storm: N system calls as fast as one CPU can make them, so the
 * syscalls events fire at the kernel's maximum rate. Prints the seconds taken
 * (CLOCK_MONOTONIC) so tracers can be compared by the workload's slowdown.
 *   storm [N] [getppid|ioctl|gpu-ioctl] [PER_SECOND]
 * getppid (the default); ioctl: TCGETS on /dev/null, an ioctl record's filter
 * refuses (the cost of checking it); gpu-ioctl: a GPU-typed number (AMDGPU_CS's)
 * on /dev/null, which the filter keeps (the cost of recording each).
 * PER_SECOND paces them (a hundredth of it every 10 ms): a steady rate, as a
 * GPU's event stream is, for what a reader costs at that rate.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i;
	long rate = argc > 3 ? atol(argv[3]) : 0, step = rate >= 100 ? rate / 100 : 0;
	const char *what = argc > 2 ? argv[2] : "getppid";
	unsigned long cmd = !strcmp(what, "gpu-ioctl") ? 0xc0186444UL : 0x5401UL;
	char arg[64] = { 0 };
	struct timespec a, b;
	int fd = -1;

	if (strcmp(what, "getppid")) {
		fd = open("/dev/null", O_RDONLY);
		if (fd < 0 || (strcmp(what, "ioctl") && strcmp(what, "gpu-ioctl"))) {
			fprintf(stderr, "usage: storm [N] [getppid|ioctl|gpu-ioctl]\n");
			return 2;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		/* paced: each hundredth of a second's calls at its own tick */
		if (step && i % step == 0) {
			struct timespec t = a;
			long long ns = (long long)(i / step) * 10000000LL;

			t.tv_sec += ns / 1000000000LL;
			t.tv_nsec += ns % 1000000000LL;
			if (t.tv_nsec >= 1000000000L) {
				t.tv_sec++;
				t.tv_nsec -= 1000000000L;
			}
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
		}
		if (fd < 0)
			syscall(SYS_getppid);
		else
			ioctl(fd, cmd, arg);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.6f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
