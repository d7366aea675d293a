// SPDX-License-Identifier: GPL-2.0
/*
 * read_all_at(): the bytes asked for at an offset, or -1 with errno EIO
 * when the file ends first (the readers' "shorter than it says").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/util/file-io.h"
#include "../unit.h"

static void test_read_all_at(void)
{
	char path[] = "/tmp/gt-unit-file-io-XXXXXX", buf[16];
	int fd = mkstemp(path);

	CU_ASSERT_TRUE_FATAL(fd >= 0);
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(write(fd, "0123456789", 10), 10);
	CU_ASSERT_EQUAL(read_all_at(fd, buf, 4, 3), 0);
	CU_ASSERT_EQUAL(memcmp(buf, "3456", 4), 0);
	CU_ASSERT_EQUAL(read_all_at(fd, buf, 0, 10), 0);
	/* the whole file, then one byte more than it holds */
	CU_ASSERT_EQUAL(read_all_at(fd, buf, 10, 0), 0);
	errno = 0;
	CU_ASSERT_EQUAL(read_all_at(fd, buf, 5, 6), -1);
	CU_ASSERT_EQUAL(errno, EIO);
	close(fd);
	/* a closed descriptor: the system's error */
	CU_ASSERT_EQUAL(read_all_at(fd, buf, 1, 0), -1);
	CU_ASSERT_EQUAL(errno, EBADF);
}

void suite_file_io(void)
{
	CU_pSuite s = CU_add_suite("file io", NULL, NULL);

	CU_add_test(s, "read_all_at: what was asked, or EIO at the end", test_read_all_at);
}
