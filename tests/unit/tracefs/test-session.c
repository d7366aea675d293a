// SPDX-License-Identifier: GPL-2.0
/*
 * GPU_TRACE_RUN_DIR holds root's restore journals and run locks. A path whose
 * missing parts start under a sticky directory passes the check when it is
 * chosen; another user may make one of those parts before root does. Root
 * must then refuse it, not build its journal directory inside the user's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../lib/tracefs/run-dir.h"
#include "../../../lib/tracefs/session.h"
#include "../unit.h"

#define NOBODY 65534

static char base[64];

static void path_in(char *out, size_t len, const char *rest)
{
	snprintf(out, len, "%s/%s", base, rest);
}

static void test_parent_made_by_another_user_is_refused(void)
{
	char parent[128], run[128], elsewhere[128];
	struct gt_error err = { 0 };
	struct stat st;

	strcpy(base, "/tmp/gt-unit-rundir.XXXXXX");
	CU_ASSERT_FATAL(mkdtemp(base) != NULL);
	CU_ASSERT_FATAL(chmod(base, 01777) == 0);	/* as /tmp is */
	path_in(parent, sizeof(parent), "later");
	path_in(run, sizeof(run), "later/run");
	path_in(elsewhere, sizeof(elsewhere), "elsewhere");
	setenv("GPU_TRACE_RUN_DIR", run, 1);
	/* chosen while "later" does not exist yet: nothing to refuse */
	CU_ASSERT_STRING_EQUAL(run_dir_path(), run);

	/* another user makes it first */
	CU_ASSERT_FATAL(mkdir(parent, 0755) == 0);
	CU_ASSERT_FATAL(chown(parent, NOBODY, NOBODY) == 0);
	CU_ASSERT_EQUAL(run_dir_make(&err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "is not a directory only root can change"));
	CU_ASSERT(lstat(run, &st) == -1 && errno == ENOENT);

	/* or leaves a symlink to a directory of theirs there */
	CU_ASSERT_FATAL(rmdir(parent) == 0);
	CU_ASSERT_FATAL(mkdir(elsewhere, 0755) == 0);
	CU_ASSERT_FATAL(symlink(elsewhere, parent) == 0);
	err.msg[0] = '\0';
	CU_ASSERT_EQUAL(run_dir_make(&err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "is not a directory only root can change"));
	path_in(run, sizeof(run), "elsewhere/run");
	CU_ASSERT(lstat(run, &st) == -1 && errno == ENOENT);

	/* the control: root's own parent is taken, the journal directory private */
	CU_ASSERT_FATAL(unlink(parent) == 0);
	CU_ASSERT_FATAL(mkdir(parent, 0755) == 0);
	CU_ASSERT_EQUAL(run_dir_make(&err), 0);
	path_in(run, sizeof(run), "later/run");
	CU_ASSERT(lstat(run, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700);

}

/* also after a failed assertion: nothing left in /tmp */
static int remove_base(void)
{
	static const char *const parts[] = {
		"later/run", "later", "elsewhere/run", "elsewhere",
	};
	char path[128];
	size_t i;

	if (!base[0])
		return 0;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		path_in(path, sizeof(path), parts[i]);
		if (rmdir(path) && errno == ENOTDIR)
			unlink(path);
	}
	rmdir(base);
	unsetenv("GPU_TRACE_RUN_DIR");
	return 0;
}

void suite_trace_session(void)
{
	CU_pSuite s;

	/* the attack needs another user's directory: only root can make one */
	if (geteuid() != 0) {
		printf("SKIP session: needs root to make a directory another user owns\n");
		return;
	}
	s = CU_add_suite("session", NULL, remove_base);
	CU_add_test(s, "parent made by another user is refused",
		    test_parent_made_by_another_user_is_refused);
}
