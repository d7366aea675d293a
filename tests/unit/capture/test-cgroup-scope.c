// SPDX-License-Identifier: GPL-2.0
/*
 * record --cgroup/--container polls cgroup.procs: the workload decides how
 * many processes it holds. Each poll hands out only the new ones, and
 * finding a pid among those seen stays a lookup, not a walk (a workload of
 * 80,000 processes would have cost 3 billion comparisons a poll).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../../lib/capture/cgroup-scope.h"
#include "../unit.h"

/* pids from 4,000,000 up: above any pid_max, so nothing in /proc answers */
static int fake_cgroup(char *dir, int n)
{
	char path[128];
	FILE *f;
	int i;

	strcpy(dir, "/tmp/gt-unit-cgroup.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	for (i = 0; i < n; i++)
		fprintf(f, "%d\n", 4000000 + i);
	return fclose(f);
}

static void remove_cgroup(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	unlink(path);
	rmdir(dir);
}

static double poll_seconds(int n, int *added)
{
	struct gt_error err = { 0 };
	struct cgroup_scope c;
	struct timespec a, b;
	pid_t *tids = NULL;
	char dir[64];
	int nr = 0;

	*added = -1;
	if (fake_cgroup(dir, n) || cgroup_scope_open(&c, dir, &err))
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &a);
	*added = cgroup_scope_poll(&c, &tids, &nr);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CU_ASSERT_EQUAL(cgroup_scope_poll(&c, &tids, &nr), 0);	/* nothing new */
	CU_ASSERT_EQUAL(nr, n);
	CU_ASSERT_EQUAL(cgroup_scope_host_pid(&c, 4000000 + n / 2), 4000000 + n / 2);
	CU_ASSERT_EQUAL(cgroup_scope_host_pid(&c, 17), 0);
	cgroup_scope_free(&c);
	free(tids);
	remove_cgroup(dir);
	return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
}

/*
 * Time is noise: 4x the processes must cost well under 16x (quadratic); linear is 4x.
 * Each size's fastest of three, taken in turns, so a busy moment of the machine (a
 * parallel build, another suite) does not land on one size only.
 */
static void test_poll_is_linear(void)
{
	int n = 20000, added1, added4, i;
	double t1 = 1e9, t4 = 1e9, t;

	for (i = 0; i < 3; i++) {
		t = poll_seconds(n, &added1);
		if (t < t1)
			t1 = t;
		CU_ASSERT_EQUAL(added1, n);
		t = poll_seconds(4 * n, &added4);
		if (t < t4)
			t4 = t;
		CU_ASSERT_EQUAL(added4, 4 * n);
	}
	if (t1 < 0.02)
		t1 = 0.02;	/* below that the ratio is noise */
	CU_ASSERT(t4 < 8 * t1);
	if (t4 >= 8 * t1)
		fprintf(stderr, "cgroup poll: %d processes %.3f s, %d: %.3f s\n", n, t1, 4 * n, t4);
}

void suite_cgroup_scope(void)
{
	CU_pSuite s = CU_add_suite("cgroup-scope: a workload of many processes", NULL, NULL);

	CU_add_test(s, "polling cgroup.procs stays linear", test_poll_is_linear);
}
