// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../../lib/tracefs/saved-files.h"
#include "../unit.h"

static void expect_norm(const char *name, const char *content, const char *want)
{
	char *got = saved_value_normalize(name, content);

	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

static void test_normalize(void)
{
	expect_norm("trace_clock", "local global [mono] mono_raw\n", "mono");
	expect_norm("buffer_size_kb", "7 (expanded: 1408)\n", "1408");
	expect_norm("buffer_size_kb", "16387\n", "16387");
	expect_norm("current_tracer", "nop\n", "nop");
	expect_norm("set_ftrace_filter", "#### all functions enabled ####\n", "");
	expect_norm("set_ftrace_pid", "no pid\n", "");
	expect_norm("events/sched/sched_switch/filter", "none\n", "0");
	expect_norm("events/sched/sched_switch/enable", "0\n", "0");
	/* list files keep one entry per line: each is written back on its own */
	expect_norm("set_event_pid", "12\n34\n", "12\n34\n");
}

static void create_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* A scratch directory stands in for tracefs: the same read/write paths. */
static void test_remember_restore_journal(void)
{
	char dir[] = "/tmp/gt-unit-saved-XXXXXX";
	char path[256], journal[300];
	struct saved_files sf = { 0 }, loaded;
	struct gt_error err = { 0 };
	char *v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	create_file(dir, "trace_clock", "[local] mono\n");
	create_file(dir, "tracing_on", "1\n");
	snprintf(journal, sizeof(journal), "%s/j.restore", dir);
	sf.journal = strdup(journal);

	CU_ASSERT_EQUAL(saved_files_remember(&sf, dir, "trace_clock", &err), 0);
	CU_ASSERT_EQUAL(saved_files_remember(&sf, dir, "tracing_on", &err), 0);
	/* remembering twice keeps the first (original) value */
	CU_ASSERT_EQUAL(trace_file_write(dir, "tracing_on", "0", &err), 0);
	CU_ASSERT_EQUAL(saved_files_remember(&sf, dir, "tracing_on", &err), 0);
	CU_ASSERT_EQUAL(sf.nr, 2);
	CU_ASSERT_EQUAL(access(journal, R_OK), 0);

	/* a killed run leaves the journal: reset loads it */
	CU_ASSERT_EQUAL(saved_files_journal_load(&loaded, journal, &err), 0);
	CU_ASSERT_EQUAL_FATAL(loaded.nr, 2);
	CU_ASSERT_STRING_EQUAL(loaded.files[0].value, "local");
	CU_ASSERT_STRING_EQUAL(loaded.files[1].value, "1");
	CU_ASSERT_EQUAL(saved_files_restore(&loaded, dir, &err), 0);
	v = trace_file_read(dir, "tracing_on");
	CU_ASSERT_STRING_EQUAL(v, "1");
	free(v);
	v = trace_file_read(dir, "trace_clock");
	CU_ASSERT_STRING_EQUAL(v, "local");
	free(v);
	/* a complete restore removes the journal */
	CU_ASSERT_NOT_EQUAL(access(journal, F_OK), 0);
	saved_files_free(&loaded);
	saved_files_free(&sf);

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(path), 0);
}

/*
 * A top-level buffer never used since boot reads "7 (expanded: 1408)"; a run
 * that did not resize it must not write 1408 (that expands it for good).
 */
static void test_unexpanded_buffer_left_alone(void)
{
	char dir[] = "/tmp/gt-unit-saved-XXXXXX";
	struct saved_files sf = { 0 };
	struct gt_error err = { 0 };
	char cmd[256], *v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	create_file(dir, "buffer_size_kb", "7 (expanded: 1408)\n");
	CU_ASSERT_EQUAL(saved_files_remember(&sf, dir, "buffer_size_kb", &err), 0);
	CU_ASSERT_STRING_EQUAL(sf.files[0].value, "1408");
	CU_ASSERT_EQUAL(saved_files_restore(&sf, dir, &err), 0);
	v = trace_file_read(dir, "buffer_size_kb");
	CU_ASSERT_STRING_EQUAL(v, "7 (expanded: 1408)\n");
	free(v);
	/* once resized (the run set its size), the expanded size goes back */
	create_file(dir, "buffer_size_kb", "4096\n");
	CU_ASSERT_EQUAL(saved_files_restore(&sf, dir, &err), 0);
	v = trace_file_read(dir, "buffer_size_kb");
	CU_ASSERT_STRING_EQUAL(v, "1408");
	free(v);
	saved_files_free(&sf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

void suite_saved_files(void)
{
	CU_pSuite s = CU_add_suite("saved-files", NULL, NULL);

	CU_add_test(s, "file contents become restorable values", test_normalize);
	CU_add_test(s, "remember, journal, restore", test_remember_restore_journal);
	CU_add_test(s, "an unexpanded ring buffer is not expanded by a restore",
		    test_unexpanded_buffer_left_alone);
}
