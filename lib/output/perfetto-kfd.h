/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PERFETTO_KFD_H
#define GT_PERFETTO_KFD_H

#include "output/perfetto-export.h"

/**
 * perfetto_kfd_probes - what record --kfd-args's probes and the KFD debugfs snapshots saw, on
 * tracks of their own under "KFD queues": per process each queue's life (its values as
 * arguments, its create inside), its ioctls (failed creates, updates, destroys with their
 * answers) and its evictions; the snapshots as instants.
 */
void perfetto_kfd_probes(struct perfetto_export *p);

#endif
