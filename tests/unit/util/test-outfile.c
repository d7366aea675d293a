// SPDX-License-Identifier: GPL-2.0
/*
 * outfile_create_at (outfile.h): a file made in a directory held open, never by its path again;
 * what is not a file (a FIFO, /dev/null) never replaced
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit.h"
#include "util/outfile.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* what the directory dfd holds, dot files too, sorted, as "a b c " */
static void list(int dfd, char *out, size_t len)
{
	DIR *d = fdopendir(dup(dfd));
	struct dirent *e;
	char *names[16];
	size_t n = 0, at = 0;

	out[0] = '\0';
	if (!d)
		return;
	rewinddir(d);
	while ((e = readdir(d)) && n < 16)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		at += (size_t)snprintf(out + at, at < len ? len - at : 0, "%s ", names[i]);
		free(names[i]);
	}
}

static void test_create_at(void)
{
	char dir[] = "/tmp/gt-unit-outfile.XXXXXX", moved[64], what[256];
	struct gt_error err = { 0 };
	struct outfile o;
	int dfd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CU_ASSERT_FATAL(dfd >= 0);
	/* the path renamed away: the file still lands in the directory opened */
	snprintf(moved, sizeof(moved), "%s.moved", dir);
	CU_ASSERT_EQUAL_FATAL(rename(dir, moved), 0);

	CU_ASSERT_EQUAL(outfile_create_at(&o, dfd, "DIR", "a/b.dat", false, &err), -1);
	CU_ASSERT_EQUAL(outfile_create_at(&o, dfd, "DIR", "x.dat", false, &err), 0);
	CU_ASSERT_EQUAL(write(o.fd, "x", 1), 1);
	CU_ASSERT_EQUAL(outfile_commit(&o, false, &err), 0);
	CU_ASSERT_STRING_EQUAL(o.path, "DIR/x.dat");
	outfile_discard(&o);

	/* the name taken: refused at create, and a file that took it meanwhile is kept */
	CU_ASSERT_EQUAL(outfile_create_at(&o, dfd, "DIR", "x.dat", false, &err), -1);
	CU_ASSERT_EQUAL(outfile_create_at(&o, dfd, "DIR", "y.dat", false, &err), 0);
	close(openat(dfd, "y.dat", O_WRONLY | O_CREAT | O_EXCL, 0600));
	CU_ASSERT_EQUAL(outfile_commit(&o, false, &err), 0);
	CU_ASSERT_STRING_EQUAL(o.taken, "DIR/y.dat");
	CU_ASSERT_STRING_EQUAL(o.path, "DIR/y-1.dat");
	outfile_discard(&o);

	/* a discarded one leaves nothing */
	CU_ASSERT_EQUAL(outfile_create_at(&o, dfd, "DIR", "z.dat", false, &err), 0);
	outfile_discard(&o);
	list(dfd, what, sizeof(what));
	CU_ASSERT_STRING_EQUAL(what, "x.dat y-1.dat y.dat ");

	unlinkat(dfd, "x.dat", 0);
	unlinkat(dfd, "y.dat", 0);
	unlinkat(dfd, "y-1.dat", 0);
	close(dfd);
	CU_ASSERT_EQUAL(rmdir(moved), 0);
}

/*
 * A FIFO (or /dev/null) named by -o is never replaced, --force or not: at
 * create, by path or in a directory, and at commit when one took the name
 * meanwhile (what was written then takes a free name, as without --force).
 * Files of those names are still replaced with --force.
 */
static void test_not_a_file_left_alone(void)
{
	char dir[] = "/tmp/gt-unit-outfile.XXXXXX", path[64], what[256];
	struct gt_error err = { 0 };
	struct stat st;
	struct outfile o;
	int dfd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CU_ASSERT_FATAL(dfd >= 0);
	CU_ASSERT_EQUAL_FATAL(mkfifoat(dfd, "fifo", 0600), 0);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CU_ASSERT_EQUAL(outfile_create(&o, path, true, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "is a FIFO, not a file"));
	CU_ASSERT_EQUAL(outfile_create(&o, "/dev/null", true, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/dev/null is a character device"));
	CU_ASSERT_EQUAL(outfile_create_at(&o, dfd, "DIR", "fifo", true, &err), -1);
	CU_ASSERT_EQUAL(outfile_create(&o, dir, true, NULL, &err), -1);	/* names no file */
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "is a directory; name a file in it"));

	/* a FIFO that takes the name after create: kept, and what was written takes a free name */
	CU_ASSERT_EQUAL(outfile_create_at(&o, dfd, "DIR", "late", true, &err), 0);
	CU_ASSERT_EQUAL(write(o.fd, "x", 1), 1);
	CU_ASSERT_EQUAL_FATAL(mkfifoat(dfd, "late", 0600), 0);
	CU_ASSERT_EQUAL(outfile_commit(&o, true, &err), 0);
	CU_ASSERT_STRING_EQUAL(o.taken, "DIR/late");
	CU_ASSERT_STRING_EQUAL(o.path, "DIR/late-1");
	outfile_discard(&o);
	CU_ASSERT_EQUAL(fstatat(dfd, "late", &st, 0), 0);
	CU_ASSERT(S_ISFIFO(st.st_mode));
	CU_ASSERT_EQUAL(fstatat(dfd, "late-1", &st, 0), 0);
	CU_ASSERT_EQUAL(st.st_size, 1);

	/* a file is replaced with --force */
	close(openat(dfd, "file", O_WRONLY | O_CREAT | O_EXCL, 0600));
	CU_ASSERT_EQUAL(outfile_create_at(&o, dfd, "DIR", "file", true, &err), 0);
	CU_ASSERT_EQUAL(write(o.fd, "x", 1), 1);
	CU_ASSERT_EQUAL(outfile_commit(&o, true, &err), 0);
	outfile_discard(&o);
	CU_ASSERT_EQUAL(fstatat(dfd, "file", &st, 0), 0);
	CU_ASSERT_EQUAL(st.st_size, 1);
	list(dfd, what, sizeof(what));
	CU_ASSERT_STRING_EQUAL(what, "fifo file late late-1 ");

	unlinkat(dfd, "fifo", 0);
	unlinkat(dfd, "file", 0);
	unlinkat(dfd, "late", 0);
	unlinkat(dfd, "late-1", 0);
	close(dfd);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
}

void suite_outfile(void)
{
	CU_pSuite s = CU_add_suite("outfile", NULL, NULL);

	CU_add_test(s, "a file made in a directory held open", test_create_at);
	CU_add_test(s, "a FIFO or device named is never replaced", test_not_a_file_left_alone);
}
