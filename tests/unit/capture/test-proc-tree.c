// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../../lib/capture/proc-tree.h"
#include "../unit.h"

/* A child that forks a grandchild; both wait until @gate closes. */
static pid_t fork_two(int gate[2], pid_t *grandchild)
{
	int got[2];
	pid_t child;

	if (pipe(gate) || pipe(got))
		return -1;
	child = fork();
	if (!child) {
		pid_t g = fork();
		char b;

		close(gate[1]);
		if (g)
			(void)!write(got[1], &g, sizeof(g));
		(void)!read(gate[0], &b, 1);
		if (g > 0)
			waitpid(g, NULL, 0);
		_exit(0);
	}
	close(gate[0]);
	close(got[1]);
	if (child < 0 || read(got[0], grandchild, sizeof(*grandchild)) != sizeof(*grandchild))
		*grandchild = -1;
	close(got[0]);
	return child;
}

/*
 * This process, its child and the child's child, breadth first, each once
 * (a root given twice too); fewer where the walk's bounds say so.
 */
static void test_walk_and_its_bounds(void)
{
	int gate[2], tree[8], roots[2], nr, proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	pid_t child, grandchild;

	CU_ASSERT_FATAL(proc >= 0);
	child = fork_two(gate, &grandchild);
	CU_ASSERT_FATAL(child > 0 && grandchild > 0);
	roots[0] = roots[1] = (int)getpid();
	nr = proc_tree_walk(proc, roots, 2, tree, 8, 4096);
	CU_ASSERT_EQUAL(nr, 3);
	CU_ASSERT_EQUAL(tree[0], getpid());
	CU_ASSERT(proc_tree_listed(tree, nr, child));
	CU_ASSERT_EQUAL(tree[nr - 1], grandchild);
	/* at most max processes */
	CU_ASSERT_EQUAL(proc_tree_walk(proc, roots, 1, tree, 2, 4096), 2);
	/* no thread read: the roots alone */
	CU_ASSERT_EQUAL(proc_tree_walk(proc, roots, 1, tree, 8, 0), 1);
	/* a root that is no process: nothing under it */
	roots[1] = 0x3fffffff;
	CU_ASSERT_EQUAL(proc_tree_walk(proc, roots + 1, 1, tree, 8, 4096), 1);
	close(gate[1]);
	waitpid(child, NULL, 0);
	close(proc);
}

void suite_proc_tree(void)
{
	CU_pSuite s = CU_add_suite("proc-tree", NULL, NULL);

	CU_add_test(s, "a process tree from /proc, bounded", test_walk_and_its_bounds);
}
