// SPDX-License-Identifier: GPL-2.0
/*
 * amdgpu's user-mode queues joined from the real 7.3 formats (the userq
 * fixture): states and their times, fences emit -> signaled joined on the
 * low 32 bits dma_fence carries, the time not mapped while work was
 * pending, a dependency wait, a failed create, a queue from before the file.
 */
#include <stdlib.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../fixture/fixture.h"
#include "../unit.h"
#include "analysis/user-queues.h"

#define US	1000ULL

static void test_the_userq_fixture(void)
{
	struct gt_error err = { 0 };
	struct analysis a;
	const struct user_queue *q;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("userq", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	CU_ASSERT_TRUE(user_queues_present(user_queues_of(&a)));
	CU_ASSERT_EQUAL(user_queues_of(&a)->records, 18);
	CU_ASSERT_EQUAL_FATAL(user_queues_of(&a)->nr, 3);
	CU_ASSERT_TRUE(analysis_has_gpu_data(&a));

	q = &user_queues_of(&a)->queues[0];		/* llama's compute queue */
	CU_ASSERT_EQUAL(q->type, 1);
	CU_ASSERT_EQUAL(q->doorbell, 16);
	CU_ASSERT_EQUAL(q->pid, 4242);
	CU_ASSERT_TRUE(q->has_client && q->client_id == 7);
	CU_ASSERT_STRING_EQUAL(q->dev, "0000:03:00.0");
	CU_ASSERT_TRUE(q->has_result && q->result == 0 && q->create_ns == 20 * US);
	CU_ASSERT_FALSE(q->destroyed);
	CU_ASSERT_EQUAL(q->state, USERQ_HUNG);
	CU_ASSERT_EQUAL(q->state_ns[USERQ_UNMAPPED], 40 * US);
	CU_ASSERT_EQUAL(q->state_ns[USERQ_MAPPED], 2160 * US);
	CU_ASSERT_EQUAL(q->state_ns[USERQ_PREEMPTED], 300 * US);
	CU_ASSERT_EQUAL(q->state_ns[USERQ_HUNG], 500 * US);	/* to the file's end */
	CU_ASSERT_EQUAL(q->entered[USERQ_MAPPED], 2);
	/* the 64-bit context 0x1_00000005 met dma_fence's 5 */
	CU_ASSERT_EQUAL(q->emits, 4);
	CU_ASSERT_EQUAL(q->signaled, 3);
	CU_ASSERT_EQUAL(q->pending, 1);
	CU_ASSERT_EQUAL(q->emit_to_signal.max, 600 * US);
	/* preempted 600-900 with fence 2 pending, hung 2500-3000 with fence 4 */
	CU_ASSERT_EQUAL(q->unmapped_pending_ns, 800 * US);
	CU_ASSERT_EQUAL(q->dep_waits, 1);
	CU_ASSERT_EQUAL(q->deps_unresolved, 0);
	CU_ASSERT_EQUAL(q->dep_wait.max, 300 * US);

	q = &user_queues_of(&a)->queues[1];		/* vkcube's gfx queue: the create failed */
	CU_ASSERT_EQUAL(q->type, 0);
	CU_ASSERT_TRUE(q->has_result && q->result == -22);
	CU_ASSERT_TRUE(q->destroyed);

	q = &user_queues_of(&a)->queues[2];		/* an SDMA queue from before the file */
	CU_ASSERT_FALSE(q->has_create);
	CU_ASSERT_EQUAL(q->type, 2);
	CU_ASSERT_TRUE(q->destroyed && q->destroyed_at == 1000000000ULL + 2990 * US);
	CU_ASSERT_EQUAL(q->state_ns[USERQ_MAPPED], 2300 * US);
	CU_ASSERT_EQUAL(q->signaled, 1);
	CU_ASSERT_EQUAL(q->unmapped_pending_ns, 0);
	analysis_close(&a);
	unlink(path);
}

/* A file without the formats: no table, no GPU data from it. */
static void test_no_user_queue_formats(void)
{
	struct gt_error err = { 0 };
	struct analysis a;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("deps", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	CU_ASSERT_EQUAL(user_queues_of(&a)->records, 0);
	CU_ASSERT_EQUAL(user_queues_of(&a)->nr, 0);
	analysis_close(&a);
	unlink(path);
}

/* A queue that changes state more often than spans are kept: totals stay whole, the rest counted */
static void test_more_spans_than_kept(void)
{
	struct gt_error err = { 0 };
	char path[] = "/tmp/gt-unit-userq-XXXXXX";
	struct fixture *f;
	struct analysis a;
	int fd = mkstemp(path), i, ret = 0, n = USERQ_MAX_SPANS + 10;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	f = fixture_new("tests/fixtures/formats/linux-7.3", 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	/* mapped (1) and preempted (2) by turns, 1 us each */
	for (i = 0; i < n; i++)
		ret |= fixture_add(f, 0, US * (10 + (unsigned long long)i), 4242,
				   "amdgpu/amdgpu_userq_state_changed",
				   (struct fv[]){ FV("doorbell_index", 16), FV("client_id", 7),
						  FV("queue_type", 1), FV("to", 1 + i % 2), FV_END });
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL_FATAL(fixture_write(f, path, &err), 0);
	fixture_free(f);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	CU_ASSERT_EQUAL(user_queues_of(&a)->nr_spans, USERQ_MAX_SPANS);
	/* n - 1 intervals, each closed by the next change (the last is still open at the end) */
	CU_ASSERT_EQUAL(user_queues_of(&a)->spans_dropped, (uint64_t)(n - 1 - USERQ_MAX_SPANS));
	CU_ASSERT_EQUAL_FATAL(user_queues_of(&a)->nr, 1);
	CU_ASSERT_EQUAL(user_queues_of(&a)->queues[0].state_ns[USERQ_MAPPED] + user_queues_of(&a)->queues[0].state_ns[USERQ_PREEMPTED],
			(uint64_t)(n - 1) * US);
	analysis_close(&a);
	unlink(path);
}

void suite_user_queues(void)
{
	CU_pSuite s = CU_add_suite("user queues", NULL, NULL);

	CU_add_test(s, "the userq fixture: states, fences, waits, a failed create", test_the_userq_fixture);
	CU_add_test(s, "no user-queue records: an empty table", test_no_user_queue_formats);
	CU_add_test(s, "more state intervals than kept: counted, totals whole", test_more_spans_than_kept);
}
