// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the output stage: `gpu-trace report` and `compare`
 * themselves (cmd/, linked whole but for main) on a file, with every format
 * and section, --events, filters, --hip-log and several inputs.
 *
 * Input: one byte picks the command line, a little-endian u32 the length of
 * part A, then A and B. A is a .dat; B is a HIP log for --hip-log, or a
 * second .dat for compare and for two files in one trace. --format parquet
 * writes into a directory of the process's own ("D"), emptied after each
 * input.
 *
 * What goes to a terminal (text, CSV, --events, compare) and JSON must hold no
 * control character but newline and tab (no C0, DEL or UTF-8 C1), and be
 * well-formed UTF-8, whatever the file's strings hold: a byte that breaks
 * that aborts, so libFuzzer keeps the input. So does a child (the open's
 * probe) that peaks past FUZZ_CHILD_CAP_MB.
 */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../cmd/cmd.h"
#include "../../lib/util/utf8.h"
#include "memory-cap.h"

enum { ANY, PLAIN };	/* which bytes the output may hold */

static const struct command {
	int checked;
	const char *argv[12];	/* "A" and "B" stand for the parts' paths */
} commands[] = {
	{ PLAIN, { "report", "A" } },
	{ PLAIN, { "report", "--jobs", "A" } },
	{ PLAIN, { "report", "--events", "A" } },
	{ PLAIN, { "report", "--rings", "--queues", "A" } },
	{ PLAIN, { "report", "--format", "json", "A" } },
	{ PLAIN, { "report", "--format", "json", "--jobs", "--queues", "A" } },
	{ PLAIN, { "report", "--format", "csv", "A" } },
	{ PLAIN, { "report", "--format", "csv", "--jobs", "A" } },
	{ ANY, { "report", "--format", "perfetto", "A" } },
	{ ANY, { "report", "--format", "html", "A" } },
	{ PLAIN, { "report", "--hip-log", "B", "A" } },
	{ PLAIN, { "report", "--format", "json", "--hip-log", "B", "A" } },
	{ PLAIN, { "compare", "A", "B" } },
	{ PLAIN, { "compare", "--format", "json", "A", "B" } },
	{ ANY, { "report", "--format", "perfetto", "A", "--ts-offset", "1ms", "B" } },
	{ ANY, { "report", "--format", "html", "A", "B" } },
	{ PLAIN, { "report", "--workload-only", "--min-latency", "1", "--jobs", "A" } },
	{ PLAIN, { "report", "--from", "+0.000001", "--to", "+1", "--events", "A" } },
	{ PLAIN, { "report", "--top", "3", "--ring", "gfx_0.0.0", "--pid", "1", "A" } },
	{ PLAIN, { "report", "--events", "--comm", "x", "--ring", "sdma0", "A" } },
	/* new lines at the end: a kept input's first byte keeps its command */
	{ ANY, { "report", "--format", "parquet", "--force", "-o", "D", "A" } },
	{ ANY, { "report", "--format", "parquet", "-o", "D", "--pid", "1", "A", "B" } },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static int memfd_with(const char *name, const uint8_t *data, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd >= 0 && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void check_plain(int fd)
{
	off_t size = lseek(fd, 0, SEEK_END);
	const unsigned char *p;
	off_t i;

	if (size <= 0)
		return;
	p = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return;
	for (i = 0; i < size; i++) {
		int len = utf8_seq_len(p + i, (size_t)(size - i));

		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t') || p[i] == 0x7f ||
		    (p[i] == 0xc2 && i + 1 < size && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f)) {
			fprintf(stderr, "fuzz-output: control byte 0x%02x at %lld of the output\n",
				p[i], (long long)i);
			abort();
		}
		/* and nothing but well-formed UTF-8: a lone 0x9b is CSI to some terminals */
		if (len <= 0) {
			fprintf(stderr, "fuzz-output: byte 0x%02x at %lld is no UTF-8\n", p[i],
				(long long)i);
			abort();
		}
		i += len - 1;
	}
	munmap((void *)p, (size_t)size);
}

/* --format parquet's -o: a directory of this process's, emptied after each input */
static char out_dir[] = "/tmp/gt-fuzz-parquet.XXXXXX";

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	return ftw->level ? remove(path) : 0;	/* the directory itself stays */
}

static void empty_out_dir(void)
{
	nftw(out_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_out_dir(void)
{
	empty_out_dir();
	rmdir(out_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the fixtures' plugins are never loaded from the environment here */
	unsetenv("TRACEEVENT_PLUGIN_DIR");
	if (!mkdtemp(out_dir)) {
		perror("fuzz-output: mkdtemp");
		abort();
	}
	atexit(remove_out_dir);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct command *c;
	char path_a[32], path_b[32], *argv[12];
	int fd_a, fd_b, out, err = -1, saved = -1, saved_err = -1, argc;
	uint32_t len;

	if (size < 5)
		return 0;
	c = &commands[data[0] % NR_COMMANDS];
	memcpy(&len, data + 1, sizeof(len));
	data += 5;
	size -= 5;
	if (len > size)
		len = (uint32_t)size;
	fd_a = memfd_with("a.dat", data, len);
	fd_b = memfd_with("b", data + len, size - len);
	out = memfd_create("out", MFD_CLOEXEC);
	err = memfd_create("err", MFD_CLOEXEC);
	if (fd_a < 0 || fd_b < 0 || out < 0 || err < 0)
		goto out;
	snprintf(path_a, sizeof(path_a), "/proc/self/fd/%d", fd_a);
	snprintf(path_b, sizeof(path_b), "/proc/self/fd/%d", fd_b);
	for (argc = 0; c->argv[argc]; argc++)
		argv[argc] = !strcmp(c->argv[argc], "A") ? path_a :
			     !strcmp(c->argv[argc], "B") ? path_b :
			     !strcmp(c->argv[argc], "D") ? out_dir : (char *)c->argv[argc];
	argv[argc] = NULL;

	fflush(stdout);
	fflush(stderr);
	saved = dup(STDOUT_FILENO);
	saved_err = dup(STDERR_FILENO);
	if (saved < 0 || saved_err < 0 || dup2(out, STDOUT_FILENO) < 0 ||
	    dup2(err, STDERR_FILENO) < 0)
		goto out;
	if (!strcmp(argv[0], "compare"))
		cmd_compare(argc, argv);
	else
		cmd_report(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	if (c->checked == PLAIN)
		check_plain(out);
	/* the messages reach a terminal in every format */
	check_plain(err);
out:
	if (fd_a >= 0)
		close(fd_a);
	if (fd_b >= 0)
		close(fd_b);
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	if (saved >= 0)
		close(saved);
	if (saved_err >= 0)
		close(saved_err);
	empty_out_dir();
	fuzz_children_within_cap();
	return 0;
}
