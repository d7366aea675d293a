// SPDX-License-Identifier: GPL-2.0
/*
 * report -o writes through a stream that starts the write-back as it goes:
 * what comes out must be exactly what was written, from where the file was,
 * on a pipe as on a file, and a write that fails must say so.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../lib/util/writeback-stream.h"
#include "../unit.h"

/* byte i of what the tests write */
static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 131 + (i >> 12));
}

static void test_file(void)
{
	char path[] = "/tmp/gt-unit-writeback-XXXXXX";
	size_t total = 0, i, n, sizes[] = { 1, 70000, 300, 9u << 20, 5, 4u << 20, 12345 };
	unsigned char *buf = malloc(9u << 20), *back;
	int fd = mkstemp(path), k;
	struct stat st;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	unlink(path);
	/* what was there before the stream: kept, the stream goes on from there */
	CU_ASSERT_EQUAL(write(fd, "head", 4), 4);
	f = writeback_stream(dup(fd));
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	/* large and small writes across several write-back stretches */
	for (k = 0; k < (int)(sizeof(sizes) / sizeof(sizes[0])); k++) {
		for (i = 0; i < sizes[k]; i++)
			buf[i] = pattern(total + i);
		CU_ASSERT_EQUAL(fwrite(buf, 1, sizes[k], f), sizes[k]);
		total += sizes[k];
	}
	CU_ASSERT_EQUAL(fclose(f), 0);
	CU_ASSERT_EQUAL_FATAL(fstat(fd, &st), 0);
	CU_ASSERT_EQUAL((size_t)st.st_size, 4 + total);
	back = malloc(total + 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(back);
	CU_ASSERT_EQUAL((size_t)pread(fd, back, total + 4, 0), total + 4);
	CU_ASSERT_EQUAL(memcmp(back, "head", 4), 0);
	for (i = 0, n = 0; i < total; i++)
		n += back[4 + i] != pattern(i);
	CU_ASSERT_EQUAL(n, 0);
	free(back);
	free(buf);
	close(fd);
}

/* a pipe cannot be written back: the stream is a plain one there */
static void test_pipe(void)
{
	char got[64] = "";
	int p[2];
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
	f = writeback_stream(p[1]);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "ring %s: %d jobs\n", "gfx_0.0.0", 42);
	CU_ASSERT_EQUAL(fclose(f), 0);
	CU_ASSERT_EQUAL(read(p[0], got, sizeof(got) - 1), (ssize_t)strlen("ring gfx_0.0.0: 42 jobs\n"));
	CU_ASSERT_STRING_EQUAL(got, "ring gfx_0.0.0: 42 jobs\n");
	close(p[0]);
}

/* a full disk: the stream's error, with its errno, not a short file taken for whole */
static void test_full(void)
{
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	char block[4096] = { 0 };
	FILE *f;

	if (fd < 0) {
		printf("(writeback-stream: no /dev/full, the failing write is not tried)\n");
		return;
	}
	f = writeback_stream(fd);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(block, 1, sizeof(block), f);
	errno = 0;
	CU_ASSERT_NOT_EQUAL(fflush(f), 0);
	CU_ASSERT_EQUAL(errno, ENOSPC);
	CU_ASSERT_TRUE(ferror(f));
	fclose(f);
}

void suite_writeback_stream(void)
{
	CU_pSuite s = CU_add_suite("writeback stream", NULL, NULL);

	CU_add_test(s, "a file: every byte, after what was there", test_file);
	CU_add_test(s, "a pipe: a plain stream", test_pipe);
	CU_add_test(s, "a full disk: the write fails with ENOSPC", test_full);
}
