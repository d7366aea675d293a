// SPDX-License-Identifier: GPL-2.0
/*
 * record's DRM fdinfo snapshots read back (drm-fdinfo-line.h,
 * drm-clients.h): the line forms, values with units, and the fdinfo
 * fixture: client ids named by process, engine time between the first and
 * last snapshot, resident memory, the jobs' own hardware time beside it.
 */
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../unit.h"
#include "analysis/drm-clients.h"
#include "decode/drm-fdinfo-line.h"
#include "analysis/timeline.h"

static void test_lines(void)
{
	struct fdinfo_line l;
	uint64_t v;

	CU_ASSERT_TRUE(fdinfo_line_parse("drm-fdinfo 3 4242 7 drm-engine-gfx:\t123456 ns", &l));
	CU_ASSERT_TRUE(l.kind == FDINFO_KEY && l.seq == 3 && l.pid == 4242 && l.fd == 7);
	CU_ASSERT_STRING_EQUAL(l.key, "drm-engine-gfx");
	CU_ASSERT_STRING_EQUAL(l.value, "123456 ns");
	CU_ASSERT_TRUE(fdinfo_value_ns(l.value, &v) && v == 123456);
	CU_ASSERT_TRUE(fdinfo_line_parse("drm-fdinfo 1 snapshot: start", &l) && l.kind == FDINFO_SNAPSHOT);
	CU_ASSERT_STRING_EQUAL(l.value, "start");
	CU_ASSERT_TRUE(fdinfo_line_parse("drm-fdinfo 9 files: 0", &l) && l.kind == FDINFO_FILES && l.seq == 9);
	/* not ours, or not a drm- key */
	CU_ASSERT_FALSE(fdinfo_line_parse("kfd-debugfs 1 mqds: x", &l));
	CU_ASSERT_FALSE(fdinfo_line_parse("drm-fdinfo 1 4242 7 pos:\t0", &l));
	CU_ASSERT_FALSE(fdinfo_line_parse("drm-fdinfo 1 -3 7 drm-driver:\tamdgpu", &l));
	CU_ASSERT_FALSE(fdinfo_line_parse("drm-fdinfo x", &l));
	CU_ASSERT_TRUE(fdinfo_value_bytes("2048 KiB", &v) && v == 2048 * 1024);
	CU_ASSERT_TRUE(fdinfo_value_bytes("3 MiB", &v) && v == 3 << 20);
	CU_ASSERT_TRUE(fdinfo_value_bytes("4096", &v) && v == 4096);
	CU_ASSERT_FALSE(fdinfo_value_bytes("lots", &v));
	CU_ASSERT_FALSE(fdinfo_value_ns("12 cycles", &v));
}

static void test_the_fdinfo_fixture(void)
{
	struct gt_error err = { 0 };
	const struct drm_client *cl;
	struct analysis a;
	char path[64];
	int i;

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("fdinfo", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	CU_ASSERT_EQUAL(drm_clients_of(&a)->snapshots, 2);
	CU_ASSERT_EQUAL(drm_clients_of(&a)->nr, 3);
	cl = drm_clients_find(drm_clients_of(&a), 7);
	CU_ASSERT_FATAL(cl != NULL);
	CU_ASSERT_EQUAL(cl->pid, 5000);
	CU_ASSERT_STRING_EQUAL(cl->driver, "amdgpu");
	CU_ASSERT_STRING_EQUAL(cl->pdev, "0000:03:00.0");
	CU_ASSERT_EQUAL(cl->snapshots, 2);
	CU_ASSERT_EQUAL(cl->nr_engines, 2);	/* gfx and compute; the capacity key is not an engine */
	CU_ASSERT_EQUAL(drm_client_engine_ns(cl), 500000ULL);
	/* the events in the same interval: its third job came after the last snapshot */
	CU_ASSERT_EQUAL(drm_client_events_ns(cl), 500000ULL);
	CU_ASSERT_EQUAL(cl->last_ts - cl->first_ts, 999000ULL);
	CU_ASSERT_TRUE(cl->has_resident && cl->resident == (524288ULL + 2048) * 1024);
	cl = drm_clients_find(drm_clients_of(&a), 11);
	CU_ASSERT_FATAL(cl != NULL);
	CU_ASSERT_EQUAL(drm_client_engine_ns(cl), 5100000ULL);
	CU_ASSERT_EQUAL(drm_client_events_ns(cl), 100000ULL);
	CU_ASSERT_PTR_NULL(drm_clients_find(drm_clients_of(&a), 12));
	/* the job join's own hardware time per client, all of the file */
	for (i = 0; i < timeline_of(&a)->nr_clients; i++)
		if (timeline_of(&a)->clients[i]->key == 7)
			CU_ASSERT_EQUAL(timeline_of(&a)->clients[i]->exec_ns, 800000ULL);
	CU_ASSERT_EQUAL(timeline_client_hw_ns(timeline_of(&a), 7), 800000ULL);
	CU_ASSERT_EQUAL(timeline_client_hw_ns(timeline_of(&a), 9), 0ULL);
	analysis_close(&a);
	unlink(path);
}

void suite_drm_clients(void)
{
	CU_pSuite s = CU_add_suite("drm clients", NULL, NULL);

	CU_add_test(s, "fdinfo lines and values", test_lines);
	CU_add_test(s, "the fdinfo fixture: ids named, engine time, resident", test_the_fdinfo_fixture);
}
