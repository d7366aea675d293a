// SPDX-License-Identifier: GPL-2.0
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../../lib/capture/cmdlines.h"
#include "../unit.h"

static void test_known_replaces_and_proc_fills(void)
{
	struct pid_comm known[] = { { 4242, "sleep" } };
	char self[64], *out;
	int pids[] = { 1, 4242, (int)getpid(), 999999 };

	/* the cache names 4242 as it was before exec */
	out = cmdlines_merge("1 init\n4242 gpu-trace\n", pids, 4, known, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "1 init\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "4242 sleep\n"));
	CU_ASSERT_PTR_NULL(strstr(out, "4242 gpu-trace"));
	/* a live pid the cache lacks is named from /proc */
	snprintf(self, sizeof(self), "%d unit-tests\n", (int)getpid());
	CU_ASSERT_PTR_NOT_NULL(strstr(out, self));
	/* a pid gone from /proc and unknown gets no invented name */
	CU_ASSERT_PTR_NULL(strstr(out, "999999"));
	free(out);
}

/*
 * A comm may hold a newline (prctl(PR_SET_NAME, "x\n1 evil")): the kernel's
 * saved_cmdlines then holds a line "1 evil" that names pid 1. It is the end
 * of the comm before it where /proc says so, dropped where nothing can tell,
 * and every line we write names one pid.
 */
static void test_a_comm_that_names_another_pid(void)
{
	struct pid_comm known[] = { { 4242, "a\nb" } };
	char saved[256], want[64], own[16], *out;
	int ready[2], pids[1] = { 0 };
	pid_t child;

	/* alive: /proc/<pid>/comm shows the newline, the line is its comm's end */
	if (pipe(ready))
		CU_FAIL_FATAL("pipe");
	child = fork();
	CU_ASSERT_FATAL(child >= 0);
	if (!child) {
		prctl(PR_SET_NAME, "x\n1 evil", 0, 0, 0);
		if (write(ready[1], "", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	CU_ASSERT_EQUAL(read(ready[0], want, 1), 1);
	snprintf(saved, sizeof(saved), "%d x\n1 evil\n2 kthreadd\n", (int)child);
	out = cmdlines_merge(saved, pids, 0, known, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	snprintf(want, sizeof(want), "%d x?1 evil\n", (int)child);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	CU_ASSERT_PTR_NULL(strstr(out, "\n1 evil"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "2 kthreadd\n"));
	/* what we know, written with its newline as ? */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "4242 a?b\n"));
	free(out);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(ready[0]);
	close(ready[1]);

	/* gone: nothing tells, and pid 1's own comm is not "evil": dropped */
	snprintf(saved, sizeof(saved), "%d x\n1 evil\n", (int)child);
	out = cmdlines_merge(saved, pids, 0, NULL, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NULL(strstr(out, "1 evil"));
	free(out);

	/* gone, but the line's own pid is alive and named so: a line */
	prctl(PR_GET_NAME, own, 0, 0, 0);
	prctl(PR_SET_NAME, "ut", 0, 0, 0);
	snprintf(saved, sizeof(saved), "%d x\n%d ut\n", (int)child, (int)getpid());
	out = cmdlines_merge(saved, pids, 0, NULL, 0);
	prctl(PR_SET_NAME, own, 0, 0, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	snprintf(want, sizeof(want), "\n%d ut\n", (int)getpid());
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
	free(out);
}

void suite_cmdlines(void)
{
	CU_pSuite s = CU_add_suite("cmdlines", NULL, NULL);

	CU_add_test(s, "known names win, /proc fills gaps", test_known_replaces_and_proc_fills);
	CU_add_test(s, "a comm that names another pid", test_a_comm_that_names_another_pid);
}
