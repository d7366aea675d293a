// SPDX-License-Identifier: GPL-2.0
/*
 * MQD decoding with the layouts of Linux 7.3's v9/v10/v11/v12 structs, and
 * record's debugfs snapshot lines read back (tests/fixture: kfd-snapshot).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/kfd-snapshots-private.h"
#include "../../../lib/analysis/analysis-private.h"
#include "../unit.h"
#include "analysis/hip-runtime.h"
#include "analysis/kfd-queue-table.h"
#include "analysis/kfd-snapshots.h"

/* The compute MQD keeps its CP_HQD registers at the same offsets in all four. */
static void test_compute_every_generation(void)
{
	struct kfd_mqd m;
	int gen;

	for (gen = 9; gen <= 12; gen++) {
		memset(&m, 0, sizeof(m));
		m.generation = gen;
		m.nr_words = 512;
		m.words[130] = 1;
		m.words[133] = 2;
		m.words[134] = 15;
		m.words[136] = 0x34567800;
		m.words[137] = 0x12;
		m.words[143] = (1u << 30) | (0x2c4 << 2);
		m.words[145] = 0xc0000000 | 9;		/* high bits ignored */
		m.words[165] = 0x00001000;
		m.words[182] = 7;
		CU_ASSERT_TRUE_FATAL(kfd_mqd_decode(&m));
		CU_ASSERT_EQUAL(m.ring, 0x1234567800ULL << 8);
		CU_ASSERT_EQUAL(m.ring_size, 4096);	/* 2^(9+1) dwords */
		CU_ASSERT_EQUAL(m.doorbell_offset, 0x2c4);
		CU_ASSERT_TRUE(m.doorbell_enabled);
		CU_ASSERT_TRUE(m.active);
		CU_ASSERT_EQUAL(m.pipe_priority, 2);
		CU_ASSERT_EQUAL(m.queue_priority, 15);
		CU_ASSERT_EQUAL(m.eop, 0x1000ULL << 8);
		CU_ASSERT_EQUAL(m.wptr, 7);
		CU_ASSERT_EQUAL(m.sdma_engine, -1);
	}
	m.nr_words = 100;	/* a truncated dump is not decoded */
	CU_ASSERT_FALSE(kfd_mqd_decode(&m));
}

/* SDMA MQDs differ: doorbell and engine ids per generation. */
static void test_sdma_per_generation(void)
{
	static const struct { int gen, words, doorbell, offset, engine; } l[] = {
		{ 9, 128, 18, 22, 126 }, { 10, 130, 18, 22, 128 },
		{ 11, 128, 17, 19, 126 }, { 12, 128, 15, 17, 126 },
	};
	struct kfd_mqd m;
	size_t i;

	for (i = 0; i < sizeof(l) / sizeof(l[0]); i++) {
		memset(&m, 0, sizeof(m));
		m.sdma = true;
		m.generation = l[i].gen;
		m.nr_words = l[i].words;
		m.words[0] = (10 << 1) | 1;
		m.words[1] = 0xabc00000;
		m.words[2] = 0x7f;
		m.words[l[i].doorbell] = 1u << 28;
		m.words[l[i].offset] = 0x1e0 << 2;
		m.words[l[i].engine] = 3;
		m.words[l[i].engine + 1] = 5;
		CU_ASSERT_TRUE_FATAL(kfd_mqd_decode(&m));
		CU_ASSERT_EQUAL(m.ring, 0x7fabc00000ULL << 8);
		CU_ASSERT_EQUAL(m.ring_size, 4096);
		CU_ASSERT_EQUAL(m.doorbell_offset, 0x1e0);
		CU_ASSERT_TRUE(m.doorbell_enabled);
		CU_ASSERT_EQUAL(m.sdma_engine, 3);
		CU_ASSERT_EQUAL(m.sdma_queue, 5);
	}
	/* no topology: v10's 130 dwords say which it is, 128 could be any other */
	m.generation = 0;
	m.nr_words = 130;
	CU_ASSERT_TRUE(kfd_mqd_decode(&m));
	m.nr_words = 128;
	CU_ASSERT_FALSE(kfd_mqd_decode(&m));
	CU_ASSERT_EQUAL(kfd_mqd_generation(90010), 9);
	CU_ASSERT_EQUAL(kfd_mqd_generation(110000), 11);
	CU_ASSERT_EQUAL(kfd_mqd_generation(80003), 0);
}

/* Lines as kfd/mqds prints them; garbage and foreign lines change nothing. */
static void test_lines(void)
{
	struct kfd_snapshots_state k = { 0 };
	char line[256];
	int i;

	CU_ASSERT_FALSE(kfd_snapshots_line(&k, 5, "KFD version answered"));
	CU_ASSERT_TRUE(kfd_snapshots_line(&k, 5, "kfd-debugfs garbage"));
	CU_ASSERT_TRUE(kfd_snapshots_line(&k, 5, "kfd-debugfs 1 snapshot: start"));
	CU_ASSERT_TRUE(kfd_snapshots_line(&k, 5, "kfd-debugfs 1 mqds: Process 77 PASID 0x8001:"));
	CU_ASSERT_TRUE(kfd_snapshots_line(&k, 5, "kfd-debugfs 1 mqds:   DIQ on device 1234"));
	CU_ASSERT_TRUE(kfd_snapshots_line(&k, 5, "kfd-debugfs 1 mqds:     00000000: 00000001 00000002"));
	CU_ASSERT_TRUE(kfd_snapshots_line(&k, 5, "kfd-debugfs 1 mqds:   SDMA queue on device 1234"));
	for (i = 0; i < 128; i += 8) {
		snprintf(line, sizeof(line), "kfd-debugfs 1 mqds:     %08x: %08x %08x %08x 0 0 0 0 0",
			 i * 4, i == 0 ? (9 << 1) : 0, i == 0 ? 0x11100000 : 0, i == 0 ? 0x7f : 0);
		CU_ASSERT_TRUE(kfd_snapshots_line(&k, 5, line));
	}
	CU_ASSERT_TRUE(kfd_snapshots_line(&k, 5, "kfd-debugfs 1 mqds:     ffffffff: 1 2 3"));
	CU_ASSERT_TRUE(kfd_snapshots_line(&k, 5, "kfd-debugfs 1 topology: gpu_id 1234 gfx_target_version 110001"));
	kfd_snapshots_finish(&k);
	CU_ASSERT_EQUAL_FATAL(k.model.nr, 1);
	CU_ASSERT_STRING_EQUAL(k.model.snaps[0].why, "start");
	CU_ASSERT_EQUAL(k.model.snaps[0].nr_processes, 1);
	CU_ASSERT_EQUAL(k.model.snaps[0].pids[0], 77);
	CU_ASSERT_EQUAL_FATAL(k.model.snaps[0].nr_mqds, 1);	/* the DIQ's dump is not a queue */
	CU_ASSERT_EQUAL(k.model.snaps[0].mqds[0].generation, 11);
	CU_ASSERT_EQUAL(k.model.snaps[0].mqds[0].nr_words, 128);
	CU_ASSERT_TRUE(k.model.snaps[0].mqds[0].decoded);
	CU_ASSERT_EQUAL(k.model.snaps[0].mqds[0].ring, 0x7f11100000ULL << 8);
	CU_ASSERT_EQUAL(k.model.snaps[0].mqds[0].ring_size, 2048);
	CU_ASSERT_PTR_EQUAL(kfd_snapshots_find_ring(&k.model, 0x7f11100000ULL << 8),
			    &k.model.snaps[0].mqds[0]);
	CU_ASSERT_PTR_NULL(kfd_snapshots_find_ring(&k.model, 0x1000));
	kfd_snapshots_free(&k);
}

static void test_snapshot_scenario(void)
{
	struct gt_error err = { 0 };
	struct analysis a;
	const struct kfd_snapshot *s;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("kfd-snapshot", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	CU_ASSERT_EQUAL_FATAL(kfd_snapshots_of(&a)->nr, 3);
	CU_ASSERT_EQUAL(kfd_snapshots_of(&a)->snaps[0].nr_processes, 0);
	s = &kfd_snapshots_of(&a)->snaps[1];
	CU_ASSERT_STRING_EQUAL(s->why, "periodic");
	CU_ASSERT_EQUAL_FATAL(s->nr_mqds, 2);
	CU_ASSERT_EQUAL(s->nr_hqds, 2);		/* the HIQ is not a user queue's */
	CU_ASSERT_EQUAL(s->mqds[0].ring, 0x7f1000000000ULL);
	CU_ASSERT_EQUAL(s->mqds[0].doorbell_offset, 0x1002);
	CU_ASSERT_EQUAL(s->mqds[0].mqd_addr, 0xfff000400000ULL);
	CU_ASSERT_EQUAL(s->mqds[0].ctx_save, 0x7f1000040000ULL);
	CU_ASSERT_TRUE(s->mqds[0].on_hqd);
	CU_ASSERT_EQUAL(s->mqds[0].pipe, 1);
	CU_ASSERT_EQUAL(s->mqds[0].queue, 2);
	CU_ASSERT_TRUE(s->mqds[1].sdma);
	CU_ASSERT_FALSE(s->mqds[1].on_hqd);
	CU_ASSERT_EQUAL(s->mqds[1].sdma_engine, 1);
	/* the probe queue's ring finds its MQD: queue 0 in the periodic one */
	CU_ASSERT_PTR_EQUAL(kfd_snapshots_find_ring(kfd_snapshots_of(&a), kfd_queue_table_of(&a)->queues[0].ring), &s->mqds[0]);
	/* queue 1 was updated to a new ring: the end snapshot's MQD has it */
	CU_ASSERT_PTR_EQUAL(kfd_snapshots_find_ring(kfd_snapshots_of(&a), kfd_queue_table_of(&a)->queues[2].ring),
			    &kfd_snapshots_of(&a)->snaps[2].mqds[0]);
	/* the runtime's one line; the snapshot lines are not the HIP runtime's */
	CU_ASSERT_EQUAL(hip_runtime_of(&a)->lines, 1);
	analysis_close(&a);
	unlink(path);
}

void suite_kfd_mqd(void)
{
	CU_pSuite s = CU_add_suite("kfd mqd", NULL, NULL);

	CU_add_test(s, "compute MQD, v9 to v12", test_compute_every_generation);
	CU_add_test(s, "SDMA MQD per generation", test_sdma_per_generation);
	CU_add_test(s, "kfd/mqds lines", test_lines);
	CU_add_test(s, "snapshots beside the probes", test_snapshot_scenario);
}
