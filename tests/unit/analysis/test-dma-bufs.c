// SPDX-License-Identifier: GPL-2.0
/*
 * dma-buf events per buffer: importers other than the exporter, the first
 * device attached, and the tables' bounds (DMA_BUFS_MAX buffers, DMA_BUF_PIDS
 * importers each).
 */
#include <stdio.h>
#include <string.h>

#include "../../../lib/analysis/dma-bufs.h"
#include "../unit.h"

static void add(struct dma_bufs *d, const char *name, int pid, unsigned long long ino,
		const char *dev)
{
	struct gpu_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = GEV_DMA_BUF;
	ev.name = name;
	ev.dma_buf_op = gpu_event_dma_buf_op(name);
	ev.pid = pid;
	ev.ino = ino;
	ev.ts = ino;
	ev.bo_bytes = 4096;
	snprintf(ev.driver, sizeof(ev.driver), "amdgpu");
	snprintf(ev.dev, sizeof(ev.dev), "%s", dev ? dev : "");
	dma_bufs_add(d, &ev);
}

static void test_importers_and_devices(void)
{
	struct dma_bufs d;
	int pid;

	memset(&d, 0, sizeof(d));
	add(&d, "dma_buf_export", 10, 1, NULL);
	add(&d, "dma_buf_get", 10, 1, NULL);	/* its own exporter: not an import by another */
	for (pid = 20; pid < 20 + DMA_BUF_PIDS + 2; pid++) {
		add(&d, "dma_buf_get", pid, 1, NULL);
		add(&d, "dma_buf_get", pid, 1, NULL);
	}
	add(&d, "dma_buf_dynamic_attach", 20, 1, "0000:03:00.0");
	add(&d, "dma_buf_dynamic_attach", 21, 1, "0000:c3:00.0");
	add(&d, "dma_buf_mmap", 10, 1, NULL);
	add(&d, "dma_buf_mmap_internal", 10, 1, NULL);
	CU_ASSERT_EQUAL_FATAL(d.nr, 1);
	CU_ASSERT_EQUAL(d.bufs[0].export_pid, 10);
	CU_ASSERT_EQUAL(d.bufs[0].gets, 1 + 2 * (DMA_BUF_PIDS + 2));
	CU_ASSERT_EQUAL(d.bufs[0].nr_importers, DMA_BUF_PIDS);
	CU_ASSERT_EQUAL(d.bufs[0].importers[0], 20);
	CU_ASSERT_TRUE(d.bufs[0].more_importers);
	CU_ASSERT_EQUAL(d.shared, 1);
	CU_ASSERT_STRING_EQUAL(d.bufs[0].device, "0000:03:00.0");
	CU_ASSERT_TRUE(d.bufs[0].more_devices);
	CU_ASSERT_EQUAL(d.bufs[0].attaches, 2);
	CU_ASSERT_EQUAL(d.bufs[0].mmaps, 2);
	CU_ASSERT_EQUAL(d.events, 2 + 2 * (DMA_BUF_PIDS + 2) + 4);
	dma_bufs_free(&d);
}

static void test_buffers_past_the_table(void)
{
	struct dma_bufs d;
	unsigned long long i;

	memset(&d, 0, sizeof(d));
	for (i = 1; i <= DMA_BUFS_MAX + 5; i++)
		add(&d, "dma_buf_get", 7, i, NULL);
	add(&d, "dma_buf_put", 7, 1, NULL);
	CU_ASSERT_EQUAL(d.nr, DMA_BUFS_MAX);
	CU_ASSERT_EQUAL(d.untracked, 5);
	CU_ASSERT_EQUAL(d.bufs[0].puts, 1);
	CU_ASSERT_EQUAL(d.bufs[0].export_pid, -1);
	/* an import of a buffer exported before the file: not counted as shared */
	CU_ASSERT_EQUAL(d.shared, 0);
	CU_ASSERT_FALSE(d.failed);
	dma_bufs_free(&d);
}

void suite_dma_bufs(void)
{
	CU_pSuite s = CU_add_suite("dma-bufs", NULL, NULL);

	CU_add_test(s, "importers and devices of one buffer", test_importers_and_devices);
	CU_add_test(s, "buffers past the table", test_buffers_past_the_table);
}
