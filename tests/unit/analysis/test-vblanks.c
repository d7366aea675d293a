// SPDX-License-Identifier: GPL-2.0
/*
 * The vblank join (vblanks.h): the vblank fixture's numbers, two devices'
 * CRTC 0 told apart by their counts (a display's and a virtual one's, and a
 * page flip's event at count 0 from a device with no counter), page flips
 * paired with their asks, and a flood of asks held to VBLANK_FLIP_ASKS.
 */
#include <stdio.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../unit.h"
#include "analysis/vblanks.h"

#define US	1000ULL

static struct vblanks *run_scenario(struct analysis *a, const char *scenario, char *path, size_t len)
{
	struct gt_error err = { 0 };

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile(scenario, path, len), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(a, &err), 0);
	return vblanks_of(a);
}

/* vblank: a gap, a late event, a page flip's, two CRTCs at 60 and 144 Hz */
static void test_the_vblank_fixture(void)
{
	struct analysis a;
	struct vblanks *v;
	struct vblank_crtc *c;
	char path[64];

	v = run_scenario(&a, "vblank", path, sizeof(path));
	CU_ASSERT_EQUAL_FATAL(v->nr_crtcs, 2);
	c = &v->crtcs[0];
	CU_ASSERT_EQUAL(c->crtc, 0);
	CU_ASSERT_EQUAL(c->display, 0);
	CU_ASSERT_EQUAL(c->vblanks, 29);
	CU_ASSERT_EQUAL(c->gaps, 1);
	CU_ASSERT_EQUAL(c->unseen, 2);
	CU_ASSERT_EQUAL(c->queued, 4);
	CU_ASSERT_EQUAL(c->delivered, 5);
	CU_ASSERT_EQUAL(c->late, 1);
	CU_ASSERT_EQUAL(c->late_vblanks, 2);
	CU_ASSERT_EQUAL(c->unmatched, 1);
	CU_ASSERT_EQUAL(latency_stats_percentile(&c->period, 50), 16667 * US);
	/* no file metadata here: the delivery latency (from the vblank's own time on mono) is the report's to check */
	CU_ASSERT_EQUAL(v->crtcs[1].crtc, 1);
	CU_ASSERT_EQUAL(latency_stats_percentile(&v->crtcs[1].period, 50), 6944 * US);
	analysis_close(&a);
	unlink(path);
}

/*
 * page-flips: each flip's event paired with its DRM_IOCTL_MODE_PAGE_FLIP (a refused ask
 * and an atomic commit are none), the vblanks it missed counted from the ask's return
 */
static void test_page_flips_paired(void)
{
	struct analysis a;
	struct vblanks *v;
	struct vblank_crtc *c;
	char path[64];

	v = run_scenario(&a, "page-flips", path, sizeof(path));
	CU_ASSERT_EQUAL_FATAL(v->nr_crtcs, 1);
	c = &v->crtcs[0];
	CU_ASSERT_EQUAL(c->vblanks, 10);
	CU_ASSERT_EQUAL(c->unseen, 1);
	CU_ASSERT_EQUAL(c->unmatched, 5);
	CU_ASSERT_EQUAL(c->core_events, 1);
	CU_ASSERT_EQUAL(c->flips_late, 1);
	/* by the count: 2003 and 2004 (no record) passed */
	CU_ASSERT_EQUAL(c->flips_late_vblanks, 2);
	CU_ASSERT_EQUAL(c->flip_present.count, 4);
	CU_ASSERT_EQUAL(latency_stats_percentile(&c->flip_present, 50), 16416 * US);
	CU_ASSERT_EQUAL(c->flip_present.max, 49448 * US);
	CU_ASSERT_EQUAL(v->flip_asks, 5);
	CU_ASSERT_EQUAL(v->flip_asks_unpaired, 1);
	analysis_close(&a);
	unlink(path);
	/* without the workload's ioctls, a flip's event is counted and paired with nothing */
	v = run_scenario(&a, "vblank", path, sizeof(path));
	CU_ASSERT_EQUAL(v->crtcs[0].unmatched, 1);
	CU_ASSERT_EQUAL(v->crtcs[0].flip_present.count, 0);
	CU_ASSERT_EQUAL(v->flip_asks, 0);
	analysis_close(&a);
	unlink(path);
}

/*
 * page-flips-flood: asks past VBLANK_FLIP_ASKS are not followed while every slot is in
 * flight, and give up the oldest returned after: a hostile file's asks hold 16 slots
 */
static void test_page_flips_flood_bounded(void)
{
	struct analysis a;
	struct vblanks *v;
	char path[64];

	v = run_scenario(&a, "page-flips-flood", path, sizeof(path));
	CU_ASSERT_EQUAL(v->flip_asks, 40);
	CU_ASSERT_EQUAL(v->flip_asks_unpaired, 39);
	CU_ASSERT_EQUAL(v->crtcs[0].flip_present.count, 1);
	CU_ASSERT_EQUAL(v->crtcs[0].flips_late, 1);
	CU_ASSERT_EQUAL(v->crtcs[0].flips_late_vblanks, 29);
	analysis_close(&a);
	unlink(path);
}

/* vblank-two-displays: each count a display of its own, nothing going back or unseen */
static void test_two_devices_crtc_0(void)
{
	struct analysis a;
	struct vblanks *v;
	char path[64];
	int i;

	v = run_scenario(&a, "vblank-two-displays", path, sizeof(path));
	CU_ASSERT_EQUAL_FATAL(v->nr_crtcs, 3);
	for (i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(v->crtcs[i].crtc, 0);
		CU_ASSERT_EQUAL(v->crtcs[i].display, i);
		CU_ASSERT_EQUAL(v->crtcs[i].backwards, 0);
		CU_ASSERT_EQUAL(v->crtcs[i].unseen, 0);
	}
	CU_ASSERT_EQUAL(v->crtcs[0].vblanks, 20);
	CU_ASSERT_EQUAL(v->crtcs[0].first_seq, 1);
	CU_ASSERT_EQUAL(latency_stats_percentile(&v->crtcs[0].period, 50), 16667 * US);
	CU_ASSERT_EQUAL(v->crtcs[0].queued, 1);
	CU_ASSERT_EQUAL(v->crtcs[0].delivered, 1);
	CU_ASSERT_EQUAL(v->crtcs[0].unmatched, 0);
	CU_ASSERT_EQUAL(v->crtcs[1].vblanks, 20);
	CU_ASSERT_EQUAL(v->crtcs[1].first_seq, 23000);
	CU_ASSERT_EQUAL(latency_stats_percentile(&v->crtcs[1].period, 50), 13333 * US);
	CU_ASSERT_EQUAL(v->crtcs[1].delivered, 0);
	CU_ASSERT_EQUAL(v->crtcs[2].vblanks, 0);
	CU_ASSERT_EQUAL(v->crtcs[2].delivered, 1);
	CU_ASSERT_EQUAL(v->crtcs[2].unmatched, 1);
	analysis_close(&a);
	unlink(path);
}

void suite_vblanks(void)
{
	CU_pSuite s = CU_add_suite("vblanks", NULL, NULL);

	CU_add_test(s, "the vblank fixture: gaps, late events, a page flip's, two CRTCs", test_the_vblank_fixture);
	CU_add_test(s, "two devices' CRTC 0: each count a display of its own", test_two_devices_crtc_0);
	CU_add_test(s, "page flips paired with their asks, the vblanks they missed", test_page_flips_paired);
	CU_add_test(s, "a flood of page flip asks: 16 followed, the oldest given up", test_page_flips_flood_bounded);
}
