// SPDX-License-Identifier: GPL-2.0
/*
 * amdgpu's buffer moves (buffer-moves.h) from the memory fixture (real 7.3
 * formats): by direction, evictions, creations, and per job the bytes that
 * moved while it waited, added up on its ring.
 */
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../unit.h"
#include "analysis/timeline.h"

#define MIB	(1024ULL * 1024ULL)

static void test_the_memory_fixture(void)
{
	struct gt_error err = { 0 };
	struct kept_jobs k = { 0 };
	const struct buffer_moves *m;
	const struct ring_stats *gfx;
	const struct job *j;
	struct analysis a;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("memory", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, &(struct analysis_hooks){ .on_job = kept_job, .ctx = &k },
					    &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	m = &timeline_of(&a)->moves;
	CU_ASSERT_EQUAL(m->moves, 4);
	CU_ASSERT_EQUAL(m->bytes, 116 * MIB);
	CU_ASSERT_EQUAL(m->count[2][1], 2);		/* VRAM -> GTT */
	CU_ASSERT_EQUAL(m->moved[2][1], 68 * MIB);
	CU_ASSERT_EQUAL(m->moved[1][2], 32 * MIB);
	CU_ASSERT_EQUAL(m->moved[0][1], 16 * MIB);
	CU_ASSERT_EQUAL(m->evictions, 2);
	CU_ASSERT_EQUAL(m->evicted_bytes, 68 * MIB);
	CU_ASSERT_EQUAL(m->creates, 2);
	CU_ASSERT_EQUAL(m->created_bytes, 24 * MIB);

	j = kept_by_ctx(&k, 100, 1);		/* A: 64 + 32 + 16 MiB in its wait */
	CU_ASSERT_FATAL(j != NULL);
	CU_ASSERT_EQUAL(j->moved_in_wait, 112 * MIB);
	j = kept_by_ctx(&k, 100, 2);		/* B: nothing moved */
	CU_ASSERT_FATAL(j != NULL);
	CU_ASSERT_EQUAL(j->moved_in_wait, 0);
	j = kept_by_ctx(&k, 300, 1);		/* R: queued and run before the moves */
	CU_ASSERT_FATAL(j != NULL);
	CU_ASSERT_EQUAL(j->moved_in_wait, 0);

	gfx = timeline_of(&a)->rings[timeline_ring_find(timeline_of(&a), "gfx_0.0.0")];
	CU_ASSERT_EQUAL(gfx->moved_wait_jobs, 1);
	CU_ASSERT_EQUAL(gfx->moved_wait_bytes, 112 * MIB);
	CU_ASSERT_EQUAL(gfx->moved_wait_ns, 392000ULL);
	kept_jobs_free(&k);
	analysis_close(&a);
	unlink(path);
}

/* Placements past those the kernel defines count as "other", never out of bounds. */
static void test_unknown_placements(void)
{
	struct buffer_moves m = { 0 };
	struct gpu_event ev = { .kind = GEV_BO_MOVE, .ts = 1, .bo_bytes = 4096,
				.placement_from = 2, .placement_to = 0xffffffffu };

	buffer_moves_add(&m, &ev);
	CU_ASSERT_EQUAL(m.count[2][BO_PLACEMENTS], 1);
	CU_ASSERT_EQUAL(m.evictions, 1);
	ev.placement_from = 77;
	ev.placement_to = 2;
	buffer_moves_add(&m, &ev);
	CU_ASSERT_EQUAL(m.count[BO_PLACEMENTS][2], 1);
	CU_ASSERT_STRING_EQUAL(bo_placement_name(77), "?");
	CU_ASSERT_STRING_EQUAL(bo_placement_name(2), "VRAM");
}

void suite_buffer_moves(void)
{
	CU_pSuite s = CU_add_suite("buffer moves", NULL, NULL);

	CU_add_test(s, "the memory fixture: directions, evictions, moved while waiting",
		    test_the_memory_fixture);
	CU_add_test(s, "placements the kernel does not define", test_unknown_placements);
}
