// SPDX-License-Identifier: GPL-2.0
/*
 * analysis_record(), the one door every record of a file comes through:
 * a record shorter than the common fields is damage; libtraceevent would
 * read its type and pid past it (a SEGV fuzz-output found), so it is
 * counted and goes no further. analysis_open() tries libtracecmd's open in
 * a child first, or under the guard opens once while its parent watches: an
 * open that crashes or never ends is one error, not a crashed or hung
 * report.
 */
#include <dlfcn.h>
#include <event-parse.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <trace-cmd.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../../lib/analysis/open-guard.h"
#include "../unit.h"
#include "analysis/hip-runtime.h"
#include "analysis/kfd-queue-table.h"
#include "analysis/kfd-queues.h"

static void test_short_records_go_no_further(void)
{
	struct tep_handle *tep = tep_with_format("linux-6.12", "gpu_scheduler", "drm_sched_job");
	struct tep_event *e;
	unsigned char data[256] = { 0 };
	struct tep_record rec = { .data = data, .ts = 1000 };
	struct gt_error err = { 0 };
	struct analysis a;
	uint16_t id;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	e = tep_find_event_by_name(tep, "gpu_scheduler", "drm_sched_job");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	id = (uint16_t)e->id;
	memcpy(data, &id, 2);
	CU_ASSERT_EQUAL_FATAL(analysis_init(&a, tep, NULL, &err), 0);
	CU_ASSERT_EQUAL(a.common_end, 8);	/* common_pid ends there */
	rec.size = 4;				/* type and flags, no pid */
	analysis_record(&a, &rec);
	CU_ASSERT_EQUAL(analysis_totals(&a)->short_records, 1);
	CU_ASSERT_EQUAL(analysis_totals(&a)->records, 0);
	CU_ASSERT_EQUAL(analysis_totals(&a)->gpu_events, 0);
	rec.size = (int)sizeof(data);
	analysis_record(&a, &rec);
	CU_ASSERT_EQUAL(analysis_totals(&a)->records, 1);
	CU_ASSERT_EQUAL(analysis_totals(&a)->gpu_events, 1);
	analysis_finish(&a);
	analysis_close(&a);
	tep_free(tep);
}

static enum { OPEN_REAL, OPEN_HANGS, OPEN_CRASHES } open_mode;
static bool interrupt_in_open;

/*
 * The unit binary's definition comes before libtracecmd's: an open that
 * never ends, or crashes, as no file found so far makes 3.1.6's do.
 */
struct tracecmd_input *tracecmd_open(const char *file, int flags)
{
	static struct tracecmd_input *(*real)(const char *, int);

	/* the user's ^C while the open hangs: to the guard's watcher, which passes it on */
	if (open_mode == OPEN_HANGS && interrupt_in_open)
		kill(getppid(), SIGINT);
	if (open_mode == OPEN_HANGS)
		for (;;)
			pause();
	if (open_mode == OPEN_CRASHES)
		raise(SIGSEGV);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "tracecmd_open");
	return real ? real(file, flags) : NULL;
}

static void test_an_open_that_hangs_or_crashes_is_one_error(void)
{
	struct gt_error err = { 0 };
	struct analysis a;
	char path[64];
	time_t t0;

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("two-rings", path, sizeof(path)), 0);
	analysis_set_probe_timeout(1);

	open_mode = OPEN_HANGS;
	t0 = time(NULL);
	CU_ASSERT_EQUAL(analysis_open(&a, path, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "does not finish opening"));
	CU_ASSERT(time(NULL) - t0 < 10);

	open_mode = OPEN_CRASHES;
	err.msg[0] = '\0';
	CU_ASSERT_EQUAL(analysis_open(&a, path, NULL, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "crashes reading"));

	/* the control: the same file opens */
	open_mode = OPEN_REAL;
	CU_ASSERT_EQUAL(analysis_open(&a, path, NULL, &err), 0);
	analysis_close(&a);
	analysis_set_probe_timeout(0);
	unlink(path);
}

/*
 * In the guard's child: open @path as report does, then end as @how says;
 * never back into the test runner.
 */
static void guarded_child(const char *path, int how)
{
	struct gt_error err = { 0 };
	struct analysis a;

	if (analysis_open(&a, path, NULL, &err))
		_exit(9);
	analysis_close(&a);
	if (how == SIGTERM) {
		/* a signal to the watcher reaches the child */
		kill(getppid(), SIGTERM);
		for (;;)
			pause();
	}
	if (how)
		raise(how);
	_exit(3);
}

/* How the watched child ended, the open it was in when it crashed or hung. */
static struct open_guard guarded(const char *path, int mode, int how)
{
	struct open_guard g;

	open_mode = mode;
	if (!open_guard_start(&g))
		guarded_child(path, how);
	open_mode = OPEN_REAL;
	return g;
}

static void test_the_guard_watches_each_open(void)
{
	struct open_guard g;
	char path[64];
	time_t t0;

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("two-rings", path, sizeof(path)), 0);
	analysis_set_probe_timeout(1);

	t0 = time(NULL);
	g = guarded(path, OPEN_HANGS, 0);
	CU_ASSERT_EQUAL(g.end, GUARD_HUNG_OPENING);
	CU_ASSERT_STRING_EQUAL(g.file, path);
	CU_ASSERT(time(NULL) - t0 < 10);

	g = guarded(path, OPEN_CRASHES, 0);
	CU_ASSERT_EQUAL(g.end, GUARD_CRASHED_OPENING);
	CU_ASSERT_STRING_EQUAL(g.file, path);

	/*
	 * A signal passed on during an open is the child's end, not a crash of
	 * the open. (Started in the background by a shell without job control,
	 * this binary ignores SIGINT, and so would the child: as a user's shell
	 * would not.)
	 */
	signal(SIGINT, SIG_DFL);
	interrupt_in_open = true;
	g = guarded(path, OPEN_HANGS, 0);
	interrupt_in_open = false;
	CU_ASSERT_EQUAL(g.end, GUARD_SIGNALLED);
	CU_ASSERT_EQUAL(g.status, SIGINT);

	/* once the open returned, the child's end is its own */
	g = guarded(path, OPEN_REAL, 0);
	CU_ASSERT_EQUAL(g.end, GUARD_EXITED);
	CU_ASSERT_EQUAL(g.status, 3);
	g = guarded(path, OPEN_REAL, SIGUSR1);
	CU_ASSERT_EQUAL(g.end, GUARD_SIGNALLED);
	CU_ASSERT_EQUAL(g.status, SIGUSR1);
	g = guarded(path, OPEN_REAL, SIGTERM);
	CU_ASSERT_EQUAL(g.end, GUARD_SIGNALLED);
	CU_ASSERT_EQUAL(g.status, SIGTERM);

	analysis_set_probe_timeout(0);
	unlink(path);
}

/* "the file has GPU data" is what the joins say, each for what it saw */
static void test_gpu_data_is_the_joins_verdict(void)
{
	struct tep_handle *tep = tep_with_format("linux-6.12", "gpu_scheduler", "drm_sched_job");
	struct gt_error err = { 0 };
	struct analysis a;

	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	CU_ASSERT_EQUAL_FATAL(analysis_init(&a, tep, NULL, &err), 0);
	CU_ASSERT_FALSE(analysis_has_gpu_data(&a));
	/* the KFD probe join saw a probe record: the models are read-only to all but their join */
	((struct kfd_queue_table *)kfd_queue_table_of(&a))->records = 1;
	CU_ASSERT_TRUE(analysis_has_gpu_data(&a));
	((struct kfd_queue_table *)kfd_queue_table_of(&a))->records = 0;
	/* the print-line join saw a HIP log line */
	((struct hip_runtime *)hip_runtime_of(&a))->lines = 1;
	CU_ASSERT_TRUE(analysis_has_gpu_data(&a));
	((struct hip_runtime *)hip_runtime_of(&a))->lines = 0;
	a.totals.func_events = 5;		/* functions outside KFD are no GPU data */
	CU_ASSERT_FALSE(analysis_has_gpu_data(&a));
	/* what the KFD function join would have counted: its model is read-only to all else */
	((struct kfd_queues *)kfd_queues_of(&a))->kfd_records = 1;
	CU_ASSERT_TRUE(analysis_has_gpu_data(&a));
	((struct kfd_queues *)kfd_queues_of(&a))->kfd_records = 0;
	a.totals.gpu_events = 1;
	CU_ASSERT_TRUE(analysis_has_gpu_data(&a));
	a.totals.gpu_events = 0;
	analysis_close(&a);
	tep_free(tep);
}

void suite_trace_analysis(void)
{
	CU_pSuite s = CU_add_suite("analysis: the records' door", NULL, NULL);

	CU_add_test(s, "records shorter than the common fields go no further", test_short_records_go_no_further);
	CU_add_test(s, "an open that hangs or crashes is one error", test_an_open_that_hangs_or_crashes_is_one_error);
	CU_add_test(s, "the guard: a hang or crash in an open is that file's, other ends the child's",
		    test_the_guard_watches_each_open);
	CU_add_test(s, "GPU data is what the joins say they saw", test_gpu_data_is_the_joins_verdict);
}
