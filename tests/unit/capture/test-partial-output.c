// SPDX-License-Identifier: GPL-2.0
/*
 * A killed record's unfinished output is removed by the next clean-up only
 * if it is still the very file the run made (device and inode), never
 * through a link, and with the rights of the user it was made for.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../lib/capture/partial-output.h"
#include "../unit.h"

static char dir[64];

/* A journal in dir naming `path`, as of `of` (its dev and ino), for uid:gid. */
static void journal(const char *jpath, const char *path, const struct stat *of, unsigned int uid,
		    unsigned int gid)
{
	FILE *f = fopen(jpath, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "%u %u\n%llu %llu\n%s\n", uid, gid, (unsigned long long)of->st_dev,
		(unsigned long long)of->st_ino, path);
	fclose(f);
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	CU_ASSERT_TRUE_FATAL(fd >= 0);
	close(fd);
}

static void test_only_the_very_file(void)
{
	char j[128], out[128], other[128], removed[4096];
	struct gt_error err = { 0 };
	struct stat st, st2;

	snprintf(dir, sizeof(dir), "/tmp/gt-unit-partial-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(j, sizeof(j), "%s/gpu-trace-1.partial", dir);
	snprintf(out, sizeof(out), "%s/.t.dat.partial-abcdef", dir);
	snprintf(other, sizeof(other), "%s/keep", dir);

	/* the file the run made: removed, and the journal with it */
	touch(out);
	CU_ASSERT_EQUAL_FATAL(stat(out, &st), 0);
	journal(j, out, &st, getuid(), getgid());
	CU_ASSERT_EQUAL(partial_output_clean(j, removed, sizeof(removed), &err), 0);
	CU_ASSERT_STRING_EQUAL(removed, out);
	CU_ASSERT_NOT_EQUAL(access(out, F_OK), 0);
	CU_ASSERT_NOT_EQUAL(access(j, F_OK), 0);

	/* another file under that name since (a new inode): kept */
	touch(other);
	touch(out);
	CU_ASSERT_EQUAL_FATAL(stat(other, &st2), 0);
	journal(j, out, &st2, getuid(), getgid());
	CU_ASSERT_EQUAL(partial_output_clean(j, removed, sizeof(removed), &err), 0);
	CU_ASSERT_STRING_EQUAL(removed, "");
	CU_ASSERT_EQUAL(access(out, F_OK), 0);
	CU_ASSERT_NOT_EQUAL(access(j, F_OK), 0);

	/* a link planted under the name, to the very file: the link is not followed */
	unlink(out);
	CU_ASSERT_EQUAL_FATAL(symlink(other, out), 0);
	journal(j, out, &st2, getuid(), getgid());
	CU_ASSERT_EQUAL(partial_output_clean(j, removed, sizeof(removed), &err), 0);
	CU_ASSERT_STRING_EQUAL(removed, "");
	CU_ASSERT_EQUAL(access(other, F_OK), 0);
	unlink(out);

	/* not a temp output's name, or not a journal at all: nothing removed */
	journal(j, other, &st2, getuid(), getgid());
	CU_ASSERT_EQUAL(partial_output_clean(j, removed, sizeof(removed), &err), 0);
	CU_ASSERT_EQUAL(access(other, F_OK), 0);
	CU_ASSERT_NOT_EQUAL(access(j, F_OK), 0);
	touch(j);
	CU_ASSERT_EQUAL(partial_output_clean(j, removed, sizeof(removed), &err), 0);
	CU_ASSERT_NOT_EQUAL(access(j, F_OK), 0);

	/* with the user's rights: nobody cannot remove root's file from root's directory */
	if (!geteuid()) {
		touch(out);
		CU_ASSERT_EQUAL_FATAL(stat(out, &st), 0);
		CU_ASSERT_EQUAL(chmod(dir, 0755), 0);
		journal(j, out, &st, 65534, 65534);
		CU_ASSERT_EQUAL(partial_output_clean(j, removed, sizeof(removed), &err), -1);
		CU_ASSERT_EQUAL(access(out, F_OK), 0);
		CU_ASSERT_EQUAL(geteuid(), 0);	/* root's rights back */
		unlink(j);
		unlink(out);
	} else {
		printf("(partial-output: the user's-rights case needs root)\n");
	}
	unlink(other);
	rmdir(dir);
}

void suite_partial_output(void)
{
	CU_pSuite s = CU_add_suite("partial output", NULL, NULL);

	CU_add_test(s, "a killed run's output: only the very file, with the user's rights", test_only_the_very_file);
}
