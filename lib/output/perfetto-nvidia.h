/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PERFETTO_NVIDIA_H
#define GT_PERFETTO_NVIDIA_H

#include "output/perfetto-export.h"

/**
 * perfetto_nvidia - what the record just finished (a->nv.done: a call into nvidia.ko, an
 * interrupt's ISR or bottom half, a UVM fault service pass, an Xid), drawn under "NVIDIA":
 * "ioctls COMM TID" per calling thread (each ioctl named by its escape and RM control command,
 * open/close/mmap beside them), "irq N ISR" and "irq N bottom half" per interrupt line, "UVM
 * KIND faults GPU" per fault buffer, "Xids" (an instant each, with its device and text).
 */
void perfetto_nvidia(struct perfetto_export *p);

#endif
