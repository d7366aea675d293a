// SPDX-License-Identifier: GPL-2.0
/* Buffers shared through dma-buf, per buffer (dma-bufs.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/dma-bufs.h"
#include "util/keymap.h"

static struct dma_buf_use *buffer(struct dma_bufs *d, const struct gpu_event *ev)
{
	uintptr_t at = d->by_ino ? (uintptr_t)keymap_get(d->by_ino, ev->ino) : 0;
	struct dma_buf_use *b;

	if (at)
		return &d->bufs[at - 1];
	if (d->nr == DMA_BUFS_MAX)
		return NULL;
	if (d->nr == d->cap) {
		int cap = d->cap ? 2 * d->cap : 64;

		b = realloc(d->bufs, sizeof(*b) * (size_t)cap);
		if (!b) {
			d->failed = 1;
			return NULL;
		}
		d->bufs = b;
		d->cap = cap;
	}
	if (!d->by_ino)
		d->by_ino = calloc(1, sizeof(*d->by_ino));
	if (!d->by_ino || keymap_put(d->by_ino, ev->ino, (void *)(uintptr_t)(d->nr + 1))) {
		d->failed = 1;
		return NULL;
	}
	b = &d->bufs[d->nr++];
	memset(b, 0, sizeof(*b));
	b->ino = ev->ino;
	b->export_pid = -1;
	b->first_ts = ev->ts;
	return b;
}

static void imported_by(struct dma_bufs *d, struct dma_buf_use *b, int pid)
{
	int i;

	if (pid == b->export_pid)
		return;
	for (i = 0; i < b->nr_importers; i++)
		if (b->importers[i] == pid)
			return;
	if (!b->nr_importers && b->export_pid >= 0)
		d->shared++;
	if (b->nr_importers == DMA_BUF_PIDS) {
		b->more_importers = true;
		return;
	}
	b->importers[b->nr_importers++] = pid;
}

static void attached(struct dma_buf_use *b, const char *dev)
{
	b->attaches++;
	if (!b->device[0])
		memcpy(b->device, dev, GEV_STR_LEN);
	else if (strcmp(b->device, dev))
		b->more_devices = true;
}

void dma_bufs_add(struct dma_bufs *d, const struct gpu_event *ev)
{
	struct dma_buf_use *b;

	if (ev->kind != GEV_DMA_BUF)
		return;
	d->events++;
	b = buffer(d, ev);
	if (!b) {
		d->untracked++;
		return;
	}
	b->last_ts = ev->ts;
	if (ev->bo_bytes)
		b->size = ev->bo_bytes;
	if (ev->driver[0] && !b->exporter[0])
		memcpy(b->exporter, ev->driver, GEV_STR_LEN);
	switch (ev->dma_buf_op) {
	case DMA_BUF_EXPORT:
		b->export_pid = ev->pid;
		b->export_ts = ev->ts;
		d->exports++;
		d->exported_bytes += ev->bo_bytes;
		break;
	case DMA_BUF_FD:
		b->fds++;
		break;
	case DMA_BUF_GET:
		b->gets++;
		imported_by(d, b, ev->pid);
		break;
	case DMA_BUF_ATTACH:
		attached(b, ev->dev);
		break;
	case DMA_BUF_DETACH:
		b->detaches++;
		break;
	case DMA_BUF_MMAP:
		b->mmaps++;
		break;
	case DMA_BUF_PUT:
		b->puts++;
		break;
	case DMA_BUF_OTHER:
		break;
	}
}

void dma_bufs_free(struct dma_bufs *d)
{
	if (d->by_ino)
		keymap_free(d->by_ino);
	free(d->by_ino);
	free(d->bufs);
	memset(d, 0, sizeof(*d));
}
