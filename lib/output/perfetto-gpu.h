/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PERFETTO_GPU_H
#define GT_PERFETTO_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "output/perfetto-export.h"

/**
 * perfetto_gpu_job - a finished job (or one of its stints on the engine) as Perfetto's GPU
 * render stage event: from @start to @end on its ring's hardware queue, in its process's
 * graphics context, named @name (@name_len bytes), @key (job id or fence, @key_len bytes) as
 * extra data.
 */
void perfetto_gpu_job(struct perfetto_export *p, const struct job *j, const char *name,
		      size_t name_len, const char *key, size_t key_len, uint64_t start, uint64_t end);

/**
 * perfetto_gpu_id - Perfetto's gpu_id for ring @ring's device: numbered across the trace's
 * sources in the order met (past PF_MAX_GPUS the last number stands for the rest)
 */
int perfetto_gpu_id(struct perfetto_export *p, int ring);

/**
 * perfetto_gpu_info - at a source's end: the devices met so far, one GpuInfo entry per gpu_id
 * (named, PCI address where the events give one, their rings); each packet lists them all
 */
void perfetto_gpu_info(struct perfetto_export *p);

#endif
