// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's memory (flight-ring.h): pages leave oldest first
 * whatever their CPU, the pool never grows past its size, and the window
 * starts after the last record of the newest page given up.
 */
#include <string.h>

#include "../unit.h"
#include "capture/flight-ring.h"

static void test_oldest_first_and_the_window(void)
{
	struct flight_ring r = { 0 };
	unsigned char page[64];

	/* 4 pages asked for, but 2 CPUs need 2 each at least: 4 */
	CU_ASSERT_EQUAL_FATAL(flight_ring_init(&r, sizeof(page), 3 * sizeof(page), 2), 0);
	CU_ASSERT_EQUAL(r.cap, 4);
	for (int i = 0; i < 4; i++) {
		memset(page, i, sizeof(page));
		flight_ring_push(&r, i % 2, page, 100 * (i + 1), 100 * (i + 1) + 50);
	}
	CU_ASSERT_EQUAL(r.count, 4);
	CU_ASSERT_EQUAL(r.window_start, 0);
	CU_ASSERT_EQUAL(r.dropped_pages, 0);
	/* a fifth page gives up the first (CPU 0's, records to 150) */
	memset(page, 9, sizeof(page));
	flight_ring_push(&r, 1, page, 500, 550);
	CU_ASSERT_EQUAL(r.count, 4);
	CU_ASSERT_EQUAL(r.dropped_pages, 1);
	CU_ASSERT_EQUAL(r.window_start, 150);
	CU_ASSERT_EQUAL(flight_ring_at(&r, 0)->first_ts, 200);
	CU_ASSERT_EQUAL(flight_ring_at(&r, 0)->data[0], 1);
	CU_ASSERT_EQUAL(flight_ring_at(&r, 3)->cpu, 1);
	CU_ASSERT_EQUAL(flight_ring_at(&r, 3)->data[63], 9);
	/* an empty page given up does not move the window back */
	flight_ring_push(&r, 0, page, 0, 0);
	flight_ring_push(&r, 0, page, 0, 0);
	CU_ASSERT_EQUAL(r.window_start, 350);
	flight_ring_free(&r);
	CU_ASSERT_PTR_NULL(r.pages);
	flight_ring_free(&r);
}

void suite_flight_ring(void)
{
	CU_pSuite s = CU_add_suite("flight ring", NULL, NULL);

	CU_add_test(s, "oldest page first, the window after it", test_oldest_first_and_the_window);
}
