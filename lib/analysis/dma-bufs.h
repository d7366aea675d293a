/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DMA_BUFS_H
#define GT_DMA_BUFS_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/gpu-event.h"

/*
 * Buffers shared through dma-buf (the dma_buf_* events, 6.17+): who exported
 * each (by its inode), which processes took an fd of it or imported it, which
 * devices attached to it, how often it was mapped. A decoder handing frames to
 * a display, or a GPU's buffer imported by another GPU, is shared this way;
 * a buffer first seen after its export is listed with what the file shows.
 */

#define DMA_BUFS_MAX		4096	/* buffers kept; later ones only counted */
#define DMA_BUF_PIDS		4	/* importing processes named per buffer */

struct dma_buf_use {
	uint64_t ino, size;
	char exporter[GEV_STR_LEN];	/* exp_name: the exporting driver */
	char device[GEV_STR_LEN];	/* the first device attached */
	int export_pid;			/* -1: its export is not in the file */
	uint64_t export_ts, first_ts, last_ts;
	uint64_t fds, gets, attaches, detaches, mmaps, puts;
	int importers[DMA_BUF_PIDS];	/* dma_buf_get by another process than its exporter */
	int nr_importers;
	bool more_importers, more_devices;
};

struct keymap;

/*
 * What the buffers did, for the outputs: all zero is empty. Its index (by_ino) is
 * dma-bufs.c's alone, a pointer to what the outputs cannot see.
 */
struct dma_bufs {
	struct dma_buf_use *bufs;
	int nr, cap;
	struct keymap *by_ino;		/* inode -> index + 1; NULL until the first buffer */
	uint64_t events, exports, exported_bytes, shared;	/* shared: imported by another process */
	uint64_t untracked;		/* events of buffers past DMA_BUFS_MAX */
	int failed;			/* out of memory */
};

/**
 * dma_bufs_add - one dma_buf_* event into the buffers' table
 * @d:  the table; all zero before the first event
 * @ev: the decoded event, its dma_buf_op set
 *
 * Out of memory, the event is counted but its buffer not kept, and @d->failed set.
 */
void dma_bufs_add(struct dma_bufs *d, const struct gpu_event *ev);

/**
 * dma_bufs_free - the buffers and their index, which @d owns; @d is all zero after
 * @d: the table
 */
void dma_bufs_free(struct dma_bufs *d);

#endif
