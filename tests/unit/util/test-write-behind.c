// SPDX-License-Identifier: GPL-2.0
/*
 * The Perfetto trace goes to its stream on a thread of its own: what comes out
 * must be every byte handed over, in the order handed over, the producer must
 * get buffers back to fill, a failing write must be said, and a process bound
 * to one CPU writes itself.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/util/write-behind.h"
#include "../unit.h"

static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 167 + (i >> 10));
}

/* every byte in order, through many buffers of many sizes, some handed back and filled again */
static void test_order(void)
{
	static const size_t sizes[] = { 1, 262144, 300, 70000, 5, 1 << 20, 12345, 0, 262144 };
	char path[] = "/tmp/gt-unit-write-behind-XXXXXX";
	int fd = mkstemp(path), k, round;
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
	size_t total = 0, i, cap = 0, back_given = 0, n;
	uint8_t *buf = NULL;
	struct write_behind *wb;
	unsigned char *read_back;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	wb = write_behind_start(f);
	if (!wb) {
		printf("(write-behind: one usable CPU, the thread is not tried)\n");
		fclose(f);
		unlink(path);
		return;
	}
	for (round = 0; round < 4; round++) {
		for (k = 0; k < (int)(sizeof(sizes) / sizeof(sizes[0])); k++) {
			n = sizes[k];
			if (cap < n) {
				buf = realloc(buf, n);
				CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
				cap = n;
			}
			for (i = 0; i < n; i++)
				buf[i] = pattern(total + i);
			total += n;
			CU_ASSERT_EQUAL(write_behind_put(wb, &buf, n, &cap), 0);
			back_given += buf != NULL;
		}
	}
	CU_ASSERT_EQUAL(write_behind_finish(wb), 0);
	/* written buffers come back to be filled again (none allocated anew each time) */
	CU_ASSERT_TRUE(back_given > 0);
	free(buf);
	CU_ASSERT_EQUAL(fflush(f), 0);
	read_back = malloc(total + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(read_back);
	CU_ASSERT_EQUAL(pread(fileno(f), read_back, total + 1, 0), (ssize_t)total);
	for (i = 0; i < total && read_back[i] == pattern(i); i++)
		;
	CU_ASSERT_EQUAL(i, total);
	free(read_back);
	fclose(f);
	unlink(path);
}

/* a full disk: put or finish says ENOSPC; nothing leaks, nothing hangs */
static void test_full(void)
{
	FILE *f = fopen("/dev/full", "w");
	struct write_behind *wb;
	uint8_t *buf;
	size_t cap;
	int k, error = 0;

	if (!f) {
		printf("(write-behind: no /dev/full, the failing write is not tried)\n");
		return;
	}
	setvbuf(f, NULL, _IONBF, 0);	/* each fwrite reaches the device */
	wb = write_behind_start(f);
	if (!wb) {
		printf("(write-behind: one usable CPU, the thread is not tried)\n");
		fclose(f);
		return;
	}
	for (k = 0; k < 20 && !error; k++) {
		cap = 4096;
		buf = calloc(1, cap);
		CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
		error = write_behind_put(wb, &buf, cap, &cap);
		free(buf);	/* what came back, or the buffer not taken */
	}
	if (!error)
		error = write_behind_finish(wb);
	else
		CU_ASSERT_EQUAL(write_behind_finish(wb), ENOSPC);
	CU_ASSERT_EQUAL(error, ENOSPC);
	fclose(f);
}

/* bound to one CPU, no thread: the caller writes itself */
static void test_one_cpu(void)
{
	cpu_set_t was, one;

	if (sched_getaffinity(0, sizeof(was), &was)) {
		printf("(write-behind: affinity not readable)\n");
		return;
	}
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		printf("(write-behind: affinity not settable)\n");
		return;
	}
	CU_ASSERT_PTR_NULL(write_behind_start(stdout));
	CU_ASSERT_EQUAL(sched_setaffinity(0, sizeof(was), &was), 0);
	CU_ASSERT_EQUAL(write_behind_finish(NULL), 0);
}

void suite_write_behind(void)
{
	CU_pSuite s = CU_add_suite("write behind", NULL, NULL);

	CU_add_test(s, "every byte in the order handed over, buffers handed back", test_order);
	CU_add_test(s, "a full disk: ENOSPC from put or finish", test_full);
	CU_add_test(s, "one usable CPU: no thread", test_one_cpu);
}
