// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers root runs (docker, podman) come from root's PATH: a PATH that sudo
 * -E carried over, whose first directory holds a "docker" of the caller's,
 * is not searched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../lib/util/root-path.h"
#include "../unit.h"

static void test_root_ignores_the_callers_path(void)
{
	char dir[] = "/tmp/gt-unit-path-XXXXXX", prog[4096], found[4096], *old;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(prog, sizeof(prog), "%s/sh", dir);
	f = fopen(prog, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	chmod(prog, 0755);
	old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", dir, 1);
	CU_ASSERT_EQUAL(root_path_find("sh", found, sizeof(found)), 0);
	if (geteuid() == 0) {
		CU_ASSERT_STRING_NOT_EQUAL(found, prog);
	} else {
		CU_ASSERT_STRING_EQUAL(found, prog);
	}
	/* a name with a slash is the caller's own choice of file; no name, nothing */
	CU_ASSERT_EQUAL(root_path_find("./x", found, sizeof(found)), 0);
	CU_ASSERT_STRING_EQUAL(found, "./x");
	CU_ASSERT_EQUAL(root_path_find("gt-no-such-program", found, sizeof(found)), -1);
	CU_ASSERT_EQUAL(root_path_find("", found, sizeof(found)), -1);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	unlink(prog);
	rmdir(dir);
}

void suite_root_path(void)
{
	CU_pSuite s = CU_add_suite("root path", NULL, NULL);

	CU_add_test(s, "root ignores the caller's PATH", test_root_ignores_the_callers_path);
}
