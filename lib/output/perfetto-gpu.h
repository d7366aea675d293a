/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PERFETTO_GPU_H
#define GT_PERFETTO_GPU_H

#include <stdint.h>

#include "output/perfetto-export.h"

/**
 * perfetto_gpu_job - a finished job as Perfetto's GPU render stage event: from its hardware
 * start to @end on its ring's hardware queue, in its process's graphics context, named @name,
 * @key (job id or fence) as extra data.
 */
void perfetto_gpu_job(struct perfetto_export *p, const struct job *j, const char *name,
		      const char *key, uint64_t end);

#endif
