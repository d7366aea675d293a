// SPDX-License-Identifier: GPL-2.0
/*
 * Several GPUs (7.3 events name the device): rings that share a name on two
 * devices stay apart and the later one says its device; a ring first seen without one
 * (amdgpu_cs_ioctl names none) takes the first device named for it; --dev
 * keeps one device's jobs.
 */
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../../lib/analysis/timeline-stats.h"
#include "../unit.h"
#include "analysis/timeline.h"

static void test_rings_by_device(void)
{
	struct timeline t;
	int a, b, plain, sdma;

	CU_ASSERT_EQUAL_FATAL(timeline_init(&t, false), 0);
	plain = timeline_ring_index_dev(&t, NULL, "gfx_0.0.0");
	a = timeline_ring_index_dev(&t, "0000:03:00.0", "gfx_0.0.0");
	CU_ASSERT_EQUAL(a, plain);		/* adopted, not a second ring */
	CU_ASSERT_STRING_EQUAL(t.rings[a]->dev, "0000:03:00.0");
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(&t, a), "gfx_0.0.0");	/* one device: no label */
	b = timeline_ring_index_dev(&t, "0000:c3:00.0", "gfx_0.0.0");
	CU_ASSERT_NOT_EQUAL(a, b);
	/* the first keeps its name (what was written under it stays true) */
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(&t, a), "gfx_0.0.0");
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(&t, b), "gfx_0.0.0@c3:00.0");
	CU_ASSERT_EQUAL(timeline_ring_index_dev(&t, "0000:c3:00.0", "gfx_0.0.0"), b);
	CU_ASSERT_EQUAL(timeline_ring_index_dev(&t, "", "gfx_0.0.0"), a);	/* no device: the first */
	sdma = timeline_ring_index_dev(&t, "0001:00:00.0", "sdma0");
	CU_ASSERT_STRING_EQUAL(timeline_ring_name(&t, sdma), "sdma0");
	CU_ASSERT_EQUAL(t.nr_devs, 3);
	CU_ASSERT_EQUAL(t.nr_rings, 3);
	timeline_free(&t);
}

static int analyse(struct analysis *a, struct kept_jobs *k, const char *path, const char *dev)
{
	struct gt_error err = { 0 };
	struct analysis_hooks h = { .on_job = kept_job, .ctx = k };

	h.filter.dev = dev;
	if (analysis_open(a, path, &h, &err))
		return -1;
	return analysis_run(a, &err);
}

static void test_the_two_gpus_fixture(void)
{
	struct kept_jobs k = { 0 };
	const struct job *j;
	struct analysis a;
	char path[64];
	int ga, gb;

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("two-gpus", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analyse(&a, &k, path, NULL), 0);
	CU_ASSERT_EQUAL(timeline_of(&a)->nr_rings, 3);
	CU_ASSERT_EQUAL(timeline_of(&a)->nr_devs, 2);
	ga = timeline_ring_index_dev(timeline_of(&a), "0000:03:00.0", "gfx_0.0.0");
	gb = timeline_ring_index_dev(timeline_of(&a), "0000:c3:00.0", "gfx_0.0.0");
	CU_ASSERT_EQUAL(timeline_of(&a)->rings[ga]->jobs, 2);
	CU_ASSERT_EQUAL(timeline_of(&a)->rings[gb]->jobs, 1);
	CU_ASSERT_EQUAL(timeline_of(&a)->rings[ga]->busy_ns, 197000ULL);
	CU_ASSERT_EQUAL(timeline_of(&a)->rings[gb]->busy_ns, 300000ULL);
	j = kept_by_ctx(&k, 400, 1);		/* B's job: on its own ring, nothing ahead */
	CU_ASSERT_FATAL(j != NULL);
	CU_ASSERT_EQUAL(j->ring, gb);
	CU_ASSERT_EQUAL(j->lat[LAT_RUN_TO_HW], 0);
	j = kept_by_ctx(&k, 100, 2);		/* A's second: behind A's first */
	CU_ASSERT_FATAL(j != NULL);
	CU_ASSERT_EQUAL(j->lat[LAT_RUN_TO_HW], 89000ULL);
	kept_jobs_free(&k);
	analysis_close(&a);

	CU_ASSERT_EQUAL_FATAL(analyse(&a, &k, path, "0000:c3:00.0"), 0);
	CU_ASSERT_EQUAL(k.nr, 1);
	CU_ASSERT_EQUAL(timeline_of(&a)->filtered_out, 3);
	kept_jobs_free(&k);
	analysis_close(&a);
	unlink(path);
}

void suite_devices(void)
{
	CU_pSuite s = CU_add_suite("devices", NULL, NULL);

	CU_add_test(s, "rings by device: apart, labelled, adopted", test_rings_by_device);
	CU_add_test(s, "the two-gpus fixture, and --dev", test_the_two_gpus_fixture);
}
