// SPDX-License-Identifier: GPL-2.0
/*
 * Ring timeouts and GPU resets from the kernel's log (gpu-hangs.h): the
 * lines as 6.1 (DRM_ERROR), 6.12+ (dev_err) and drm_err print them, lines
 * that only look alike, the hang fixture's numbers (jobs in flight flagged
 * H, the process blamed, the reset and its register dumps), and the bound.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../fixture/fixture.h"
#include "../../fixture/scenarios.h"
#include "../unit.h"
#include "analysis/gpu-hangs.h"
#include "analysis/timeline.h"

static void test_lines(void)
{
	struct hang_line l;

	CU_ASSERT_TRUE(hang_line_parse("[drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=41, emitted seq=43\n", &l));
	CU_ASSERT_EQUAL(l.kind, HANG_LINE_TIMEOUT);
	CU_ASSERT_STRING_EQUAL(l.ring, "gfx_0.0.0");
	CU_ASSERT_TRUE(l.has_seq && l.signaled == 41 && l.emitted == 43);
	CU_ASSERT_STRING_EQUAL(l.dev, "");

	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:c3:00.0: ring comp_1.0.1 timeout, signaled seq=7, emitted seq=9", &l));
	CU_ASSERT_EQUAL(l.kind, HANG_LINE_TIMEOUT);
	CU_ASSERT_STRING_EQUAL(l.dev, "0000:c3:00.0");
	CU_ASSERT_STRING_EQUAL(l.ring, "comp_1.0.1");

	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:03:00.0: [drm] *ERROR* ring sdma0 timeout, but soft recovered\n", &l));
	CU_ASSERT_EQUAL(l.kind, HANG_LINE_SOFT_RECOVERED);
	CU_ASSERT_STRING_EQUAL(l.ring, "sdma0");
	CU_ASSERT_FALSE(l.has_seq);

	/* a comm with a space in it */
	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:03:00.0: Process information: process Web Content pid 812 thread Renderer pid 830\n", &l));
	CU_ASSERT_EQUAL(l.kind, HANG_LINE_PROCESS);
	CU_ASSERT_STRING_EQUAL(l.process, "Web Content");
	CU_ASSERT_EQUAL(l.tgid, 812);
	CU_ASSERT_STRING_EQUAL(l.thread, "Renderer");
	CU_ASSERT_EQUAL(l.pid, 830);

	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:03:00.0: Ring gfx_0.0.0 reset succeeded\n", &l));
	CU_ASSERT_EQUAL(l.kind, HANG_LINE_RING_RESET_OK);
	CU_ASSERT_STRING_EQUAL(l.ring, "gfx_0.0.0");
	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:03:00.0: Ring gfx_0.0.0 reset failure\n", &l));
	CU_ASSERT_EQUAL(l.kind, HANG_LINE_RING_RESET_FAILED);

	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:03:00.0: amdgpu: GPU reset begin!\n", &l));
	CU_ASSERT_EQUAL(l.kind, HANG_LINE_RESET_BEGIN);
	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:03:00.0: amdgpu: GPU reset(2) succeeded!\n", &l));
	CU_ASSERT_EQUAL(l.kind, HANG_LINE_RESET_OK);
	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:03:00.0: amdgpu: GPU reset(3) failed with error -110\n", &l));
	CU_ASSERT_TRUE(l.kind == HANG_LINE_RESET_FAILED && l.has_result && l.result == -110);
	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:03:00.0: amdgpu: GPU reset(3) failed\n", &l));
	CU_ASSERT_TRUE(l.kind == HANG_LINE_RESET_FAILED && !l.has_result);
	CU_ASSERT_TRUE(hang_line_parse("amdgpu 0000:03:00.0: amdgpu: GPU reset end with ret = -5\n", &l));
	CU_ASSERT_TRUE(l.kind == HANG_LINE_RESET_END && l.result == -5);
	CU_ASSERT_TRUE(hang_line_parse("[drm:amdgpu_job_timedout [amdgpu]] *ERROR* GPU Recovery Failed: -22\n", &l));
	CU_ASSERT_TRUE(l.kind == HANG_LINE_RESET_FAILED && l.result == -22);

	/* xe: 7.x with the process, 6.12 without, 6.8 without lrc_seqno */
	CU_ASSERT_TRUE(hang_line_parse("xe 0000:00:02.0: [drm] GT1: Timedout job: seqno=18, lrc_seqno=17, guc_id=5, flags=0x0 in Web Content [812]\n", &l));
	CU_ASSERT_TRUE(l.kind == HANG_LINE_XE_TIMEOUT && l.xe.seqno == 18 && l.xe.lrc_seqno == 17 &&
		       l.xe.has_lrc_seqno && l.xe.guc_id == 5 && l.xe.gt == 1);
	CU_ASSERT_STRING_EQUAL(l.dev, "0000:00:02.0");
	CU_ASSERT_STRING_EQUAL(l.process, "Web Content");
	CU_ASSERT_EQUAL(l.tgid, 812);
	CU_ASSERT_TRUE(l.pid == 0 && !l.thread[0]);	/* xe names no thread */
	CU_ASSERT_TRUE(hang_line_parse("xe 0000:00:02.0: [drm] GT0: Timedout job: seqno=3, lrc_seqno=3, guc_id=2, flags=0x8\n", &l));
	CU_ASSERT_TRUE(l.kind == HANG_LINE_XE_TIMEOUT && l.xe.guc_id == 2 && l.tgid == 0 && !l.process[0]);
	CU_ASSERT_TRUE(hang_line_parse("xe 0000:00:02.0: [drm] Timedout job: seqno=9, guc_id=4, flags=0x0\n", &l));
	CU_ASSERT_TRUE(l.kind == HANG_LINE_XE_TIMEOUT && l.xe.seqno == 9 && !l.xe.has_lrc_seqno &&
		       l.xe.gt == -1);
	/* the kernel's own queue: "no process [0]" blames nobody */
	CU_ASSERT_TRUE(hang_line_parse("xe 0000:00:02.0: [drm] GT0: Timedout job: seqno=1, lrc_seqno=1, guc_id=0, flags=0x1 in no process [0]\n", &l));
	CU_ASSERT_TRUE(l.kind == HANG_LINE_XE_TIMEOUT && l.tgid == 0 && !l.process[0]);
	CU_ASSERT_FALSE(hang_line_parse("xe 0000:00:02.0: [drm] GT0: Timedout job: seqno=x\n", &l));

	/* alike, but not a hang */
	CU_ASSERT_FALSE(hang_line_parse("io_uring setup failed\n", &l));
	CU_ASSERT_FALSE(hang_line_parse("ring buffer resized to 4096\n", &l));
	CU_ASSERT_FALSE(hang_line_parse("virtio_net virtio0: ring 3 timeout, signaled seq=1, emitted seq=2\n", &l));
	CU_ASSERT_FALSE(hang_line_parse("amdgpu: ring buffer of 4096 entries\n", &l));
	CU_ASSERT_FALSE(hang_line_parse("Process information: process", &l));
	CU_ASSERT_FALSE(hang_line_parse("ring ", &l));
	CU_ASSERT_FALSE(hang_line_parse("", &l));
}

static unsigned int flags_of(const struct kept_jobs *k, uint64_t ctx)
{
	const struct job *j = kept_by_ctx(k, ctx, ~0ULL);

	return j ? j->flags : ~0u;
}

static void test_the_hang_fixture(void)
{
	struct gt_error err = { 0 };
	struct kept_jobs k = { 0 };
	const struct gpu_hangs *h;
	const struct gpu_hang *g;
	struct analysis a;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("hang", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, &(struct analysis_hooks){ .on_job = kept_job, .ctx = &k },
					    &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	h = gpu_hangs_of(&a);
	CU_ASSERT_TRUE(gpu_hangs_present(h));
	CU_ASSERT_EQUAL(h->lines, 6);		/* the USB line is not one */
	CU_ASSERT_EQUAL_FATAL(h->nr_hangs, 2);
	CU_ASSERT_EQUAL_FATAL(h->nr_resets, 1);

	g = &h->hangs[0];
	CU_ASSERT_STRING_EQUAL(g->ring, "gfx_0.0.0");
	CU_ASSERT_FALSE(g->soft_recovered);
	CU_ASSERT_TRUE(g->has_process && g->tgid == 4242 && g->pid == 4243);
	CU_ASSERT_STRING_EQUAL(g->process, "llama");
	CU_ASSERT_EQUAL(g->jobs_in_flight, 2);
	CU_ASSERT_EQUAL_FATAL(g->nr_jobs, 2);
	/* job 1 on the hardware since its run; job 2 sent behind it */
	CU_ASSERT_TRUE(g->jobs[0].ctx == 100 && g->jobs[0].pid == 4242);
	CU_ASSERT_EQUAL(g->ts - g->jobs[0].since, 10000000ULL);
	CU_ASSERT_TRUE(g->jobs[1].ctx == 101 && g->jobs[1].since == 0 && g->jobs[1].t_run);
	CU_ASSERT_EQUAL(g->reset, 0);

	CU_ASSERT_EQUAL(h->resets[0].end - h->resets[0].begin, 275000ULL);
	CU_ASSERT_TRUE(h->resets[0].ended && !h->resets[0].failed);
	CU_ASSERT_TRUE(h->resets[0].has_result && h->resets[0].result == 0);
	CU_ASSERT_EQUAL(h->resets[0].reg_dumps, 3);
	CU_ASSERT_STRING_EQUAL(h->resets[0].dev, "0000:03:00.0");

	g = &h->hangs[1];
	CU_ASSERT_TRUE(g->soft_recovered && g->reset == -1);
	CU_ASSERT_EQUAL(g->jobs_in_flight, 1);
	CU_ASSERT_EQUAL(g->ts - g->jobs[0].since, 995000ULL);

	CU_ASSERT_EQUAL(timeline_of(&a)->rings[timeline_ring_find(timeline_of(&a), "gfx_0.0.0")]->timeouts, 1);
	CU_ASSERT_EQUAL_FATAL(k.nr, 4);
	CU_ASSERT_TRUE(flags_of(&k, 100) & JOB_HANG);
	CU_ASSERT_TRUE(flags_of(&k, 101) & JOB_HANG);
	CU_ASSERT_TRUE(flags_of(&k, 201) & JOB_HANG);
	CU_ASSERT_FALSE(flags_of(&k, 200) & JOB_HANG);	/* done before */
	kept_jobs_free(&k);
	analysis_close(&a);
	unlink(path);
}

/*
 * xe: the log line and the tracepoint of one timeout make one hang; a tracepoint
 * alone another. Queue 5's jobs are on the ring xe named for it (rcs5); queue
 * 2 has none in the file.
 */
static void test_the_xe_fixture(void)
{
	struct gt_error err = { 0 };
	const struct gpu_hang *g;
	struct analysis a;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("xe-hang", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	CU_ASSERT_TRUE(gpu_hangs_present(gpu_hangs_of(&a)));
	CU_ASSERT_EQUAL_FATAL(gpu_hangs_of(&a)->nr_hangs, 2);
	g = &gpu_hangs_of(&a)->hangs[0];
	CU_ASSERT_TRUE(g->is_xe && g->xe_logged && g->xe_traced);
	CU_ASSERT_STRING_EQUAL(g->ring, "GuC queue 5");
	CU_ASSERT_STRING_EQUAL(g->dev, "0000:00:02.0");
	CU_ASSERT_TRUE(g->xe.seqno == 18 && g->xe.lrc_seqno == 18 && g->xe.gt == 0);
	CU_ASSERT_TRUE(g->has_process && g->tgid == 4242);
	CU_ASSERT_STRING_EQUAL(g->process, "llama");
	CU_ASSERT_STRING_EQUAL(g->xe_ring, "rcs5");
	CU_ASSERT_EQUAL(g->xe_rings, 1);
	CU_ASSERT_EQUAL(g->jobs_in_flight, 2);
	CU_ASSERT_EQUAL(g->nr_jobs, 2);
	g = &gpu_hangs_of(&a)->hangs[1];
	CU_ASSERT_TRUE(g->is_xe && !g->xe_logged && g->xe_traced && !g->has_process);
	CU_ASSERT_TRUE(g->xe.guc_id == 2 && g->xe.seqno == 7);
	CU_ASSERT_STRING_EQUAL(g->xe_ring, "");
	CU_ASSERT_EQUAL(g->xe_rings, 0);
	CU_ASSERT_EQUAL(g->jobs_in_flight, 0);
	/* queue 2's job then given -ECANCELED: a job error the flight recorder fires on */
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->job_errors, 1);
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->last_job_error.guc_id, 2);
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->last_job_error.seqno, 7);
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->last_job_error.error, -125);
	CU_ASSERT_STRING_EQUAL(gpu_hangs_of(&a)->last_job_error.dev, "0000:00:02.0");
	analysis_close(&a);
	unlink(path);
}

/* @f written to a temporary file (@path), freed, and analysed into @a: 0 on success */
static int analysed(struct fixture *f, char *path, struct analysis *a)
{
	struct gt_error err = { 0 };
	int fd = mkstemp(path), ret;

	if (fd < 0) {
		fixture_free(f);
		return -1;
	}
	close(fd);
	ret = fixture_write(f, path, &err);
	fixture_free(f);
	if (ret || analysis_open(a, path, NULL, &err))
		return -1;
	return analysis_run(a, &err);
}

/*
 * Two GTs' GuCs number their queues apart: rcs5 (GT0) and vcs5 (the media GT)
 * on one device, and a log line naming GuC id 5: which ring is not known, and
 * no job is flagged
 */
static void test_xe_queue_of_two_rings(void)
{
	static const char *const rings[] = { "rcs5", "vcs5" };
	struct gt_error err = { 0 };
	char path[] = "/tmp/gt-unit-hangs-XXXXXX";
	struct fixture *f;
	struct analysis a;
	int i, ret = 0;

	f = fixture_new("tests/fixtures/formats/linux-7.3", 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (i = 0; i < 2; i++)
		ret |= fixture_add(f, 0, US(10 + i), 4242, "gpu_scheduler/drm_sched_job_queue",
				   (struct fv[]){ FS("name", rings[i]), FV("job_count", 0), FV("hw_job_count", 0),
						  FS("dev", "0000:00:02.0"), FV("fence_context", 40 + i),
						  FV("fence_seqno", 1), FV("client_id", 3), FV_END });
	ret |= fixture_add(f, 0, US(5000), 310, "printk/console",
			   (struct fv[]){ FS("msg", "xe 0000:00:02.0: [drm] GT0: Timedout job: seqno=1, lrc_seqno=1, guc_id=5, flags=0x0 in llama [4242]\n"),
					  FV_END });
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL_FATAL(analysed(f, path, &a), 0);
	CU_ASSERT_EQUAL_FATAL(gpu_hangs_of(&a)->nr_hangs, 1);
	CU_ASSERT_TRUE(gpu_hangs_of(&a)->hangs[0].is_xe);
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->hangs[0].xe_rings, 2);
	CU_ASSERT_STRING_EQUAL(gpu_hangs_of(&a)->hangs[0].xe_ring, "");
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->hangs[0].jobs_in_flight, 0);
	analysis_close(&a);
	unlink(path);
}

/* A log that times out more than is kept: counted, and a reset past it still attaches nowhere */
static void test_more_hangs_than_kept(void)
{
	struct gt_error err = { 0 };
	char path[] = "/tmp/gt-unit-hangs-XXXXXX";
	struct fixture *f;
	struct analysis a;
	int i, ret = 0;

	f = fixture_new("tests/fixtures/formats/linux-6.1", 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	for (i = 0; i < GPU_HANGS_MAX + 4; i++)
		ret |= fixture_add(f, 0, US(10 + i), 310, "printk/console",
				   (struct fv[]){ FS("msg", "amdgpu 0000:03:00.0: ring gfx_0.0.0 timeout, signaled seq=1, emitted seq=2\n"),
						  FV_END });
	ret |= fixture_add(f, 0, US(1000), 310, "amdgpu/amdgpu_reset_reg_dumps",
			   (struct fv[]){ FV("address", 4), FV("value", 5), FV_END });
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL_FATAL(analysed(f, path, &a), 0);
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->nr_hangs, GPU_HANGS_MAX);
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->dropped, 4);
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->reg_dumps_alone, 1);
	CU_ASSERT_EQUAL(gpu_hangs_of(&a)->hangs[0].jobs_in_flight, 0);
	analysis_close(&a);
	unlink(path);
}

void suite_gpu_hangs(void)
{
	CU_pSuite s = CU_add_suite("GPU hangs", NULL, NULL);

	CU_add_test(s, "the kernel's lines of 6.1, 6.12+ and drm_err; look-alikes", test_lines);
	CU_add_test(s, "xe: a GuC id two GTs' rings are named for", test_xe_queue_of_two_rings);
	CU_add_test(s, "the hang fixture: jobs in flight, the process blamed, the reset", test_the_hang_fixture);
	CU_add_test(s, "more timeouts than kept: counted", test_more_hangs_than_kept);
	CU_add_test(s, "xe: the log line and the tracepoint of one timeout, one alone", test_the_xe_fixture);
}
