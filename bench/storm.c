// SPDX-License-Identifier: GPL-2.0
/*
 * Event storm: N getppid() syscalls as fast as one CPU can make them, so the
 * syscalls events fire at the kernel's maximum rate. Prints the seconds taken
 * (CLOCK_MONOTONIC) so tracers can be compared by the workload's slowdown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.6f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
