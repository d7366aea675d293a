// SPDX-License-Identifier: GPL-2.0
/*
 * dat_meta_read() on files fuzz-report kept: what libtracecmd 3.1.6 would
 * read for ever, or allocate by a count the file claims, is refused or
 * skipped before libtracecmd opens it.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "../../fixture/fixture.h"
#include "../../fixture/scenarios.h"

#include "../../../lib/dat/dat-format.h"
#include "../../../lib/dat/dat-meta.h"
#include "../../../lib/dat/dat-stream.h"
#include "../unit.h"

#define CRASHERS "tests/fuzz/crashers/"

/* A section size of 2^63 or more: libtracecmd's walk over the sections steps back for ever. */
static void test_section_size_that_steps_back(void)
{
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct gt_error err = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(dat_meta_read(CRASHERS "timeout-v7-section-size-steps-back.dat", m, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "a section claims a size that steps back"));
	free(m);
}

/* A time shift option claiming 540 million CPUs is skipped, never handed on. */
static void test_time_shift_bomb_skipped(void)
{
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct gt_error err = { 0 };
	bool skipped = false;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	dat_meta_read(CRASHERS "oom-time-shift-claims-540m-cpus-v7.dat", m, &err);
	for (i = 0; i < m->nr_skipped; i++)
		skipped |= m->skipped[i].id == DAT_OPT_TIME_SHIFT;
	CU_ASSERT_TRUE(skipped);
	free(m);
}

/* 3000 jobs in a v6 file with one page of CPU 0 claiming twice a page; -1 if not made */
static int damaged_bench(char *path, size_t len, int page)
{
	const char *root = getenv("GT_FIXTURES");
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct gt_error err = { 0 };
	char formats[512];
	uint64_t commit;
	int fd, ret = -1;

	snprintf(formats, sizeof(formats), "%s/formats", root ? root : "tests/fixtures");
	snprintf(path, len, "/tmp/gt-unit-damaged-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || !m)
		goto out;
	if (scenario_bench(formats, path, 3000, 0, 1, &err) || dat_meta_read(path, m, &err) ||
	    m->v6_cpu_bytes[0] < 4 * (uint64_t)m->page_size)
		goto out;
	/* the page header: u64 time stamp, then the commit (data size), a long */
	commit = 2 * (uint64_t)m->page_size;
	if (pwrite(fd, &commit, 8, (off_t)(m->v6_cpu_offset[0] + (uint64_t)page * m->page_size + 8)) == 8)
		ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (fd >= 0 && ret)
		unlink(path);
	free(m);
	return ret;
}

/*
 * dat_meta_read() checks each CPU's first page (what libtracecmd's open
 * loads); dat_meta_check_pages() every page, for a file libtracecmd iterates.
 */
static void test_pages_checked_first_then_all(void)
{
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct gt_error err = { 0 };
	char path[64];
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(damaged_bench(path, sizeof(path), 3), 0);
	CU_ASSERT_EQUAL(dat_meta_read(path, m, &err), 0);
	fd = open(path, O_RDONLY);
	CU_ASSERT_EQUAL(dat_meta_check_pages(fd, path, m, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "CPU 0's page at byte"));
	close(fd);
	unlink(path);

	memset(&err, 0, sizeof(err));
	CU_ASSERT_EQUAL_FATAL(damaged_bench(path, sizeof(path), 0), 0);
	CU_ASSERT_EQUAL(dat_meta_read(path, m, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "CPU 0's page at byte"));
	unlink(path);
	free(m);
}

/*
 * What trace-cmd split writes of a gpu-trace recording: @instances BUFFER
 * options at offset 0 (u64 0, the name), none of their pages, and the top
 * buffer's one record. 0 when written to @path (a mkstemp template).
 */
static int write_split_file(char *path, int instances)
{
	static const char workload[] = "\0\0\0\0\0\0\0\0workload";
	struct gt_error err = { 0 };
	struct fixture *f;
	int fd, i, ret = 0;

	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	f = fixture_new("tests/fixtures/formats/linux-6.12", 1, &err);
	if (!f)
		return -1;
	fixture_writer(f, "trace-cmd split's copy of a gpu-trace recording", 0);
	for (i = 0; i < instances; i++)
		ret |= fixture_raw_option(f, DAT_OPT_BUFFER, workload, sizeof(workload));
	ret |= fixture_add(f, 0, 1000000, 4242, "ftrace/print",
			   (struct fv[]){ FV("ip", 0), FS("buf", "the top buffer\n"), FV_END });
	ret |= fixture_write(f, path, &err);
	fixture_free(f);
	return ret;
}

/*
 * trace-cmd split keeps a recording's BUFFER options but not the instances'
 * pages: each instance at offset 0. The file is read as trace-cmd reads it,
 * its top buffer whole (libtracecmd opens no handle for such an instance),
 * not refused as damaged.
 */
static void test_split_file_instances_absent(void)
{
	char path[] = "/tmp/gt-unit-split-XXXXXX";
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct gt_error err = { 0 };
	struct tracecmd_input *h;
	struct dat_stream *st;
	int records = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(write_split_file(path, 2), 0);
	CU_ASSERT_EQUAL(dat_meta_read(path, m, &err), 0);
	CU_ASSERT_EQUAL(m->v6_instances_absent, 2);
	CU_ASSERT_EQUAL(m->nr_v6_instances, 0);
	CU_ASSERT_EQUAL(m->instance_lost, 0);	/* no losses of pages that are not here */
	st = dat_stream_open(path, m, &err);
	CU_ASSERT_PTR_NOT_NULL(st);
	while (st && dat_stream_next(st, &err))
		records++;
	CU_ASSERT_EQUAL(records, 1);
	dat_stream_close(st);
	tracecmd_set_loglevel(TEP_LOG_NONE);	/* its "failed to read sub buffer" */
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL(tracecmd_buffer_instances(h), 2);
	CU_ASSERT_PTR_NULL(tracecmd_buffer_instance_handle(h, 0));
	tracecmd_close(h);
	unlink(path);
	free(m);
}

/* each absent instance is an open libtracecmd tries: as many as dat-meta reads, no more */
static void test_split_file_instances_bounded(void)
{
	char path[] = "/tmp/gt-unit-split-XXXXXX";
	struct dat_meta *m = calloc(1, sizeof(*m));
	struct gt_error err = { 0 };

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(write_split_file(path, DAT_META_MAX_BUFFERS + 1), 0);
	CU_ASSERT_EQUAL(dat_meta_read(path, m, &err), -1);
	CU_ASSERT_EQUAL(m->v6_instances_absent, DAT_META_MAX_BUFFERS);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cannot check"));
	unlink(path);
	free(m);
}

void suite_dat_meta(void)
{
	CU_pSuite s = CU_add_suite("dat-meta: what libtracecmd must never see", NULL, NULL);

	CU_add_test(s, "a section size that steps back is refused", test_section_size_that_steps_back);
	CU_add_test(s, "a time shift bomb is skipped", test_time_shift_bomb_skipped);
	CU_add_test(s, "each CPU's first page checked on reading, every page on asking",
		    test_pages_checked_first_then_all);
	CU_add_test(s, "trace-cmd split's instances, absent, leave the top buffer read",
		    test_split_file_instances_absent);
	CU_add_test(s, "trace-cmd split's instances: no more than dat-meta reads",
		    test_split_file_instances_bounded);
}
