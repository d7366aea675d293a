/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PERFETTO_PACKET_H
#define GT_PERFETTO_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/perfetto-export.h"

/*
 * One TracePacket of the trace perfetto-export.c writes, for the writers
 * beside it: begun on the trace's one sequence (with its timestamp moved by
 * the source's offset when timestamped), its fields added with pb_*(&p->buf),
 * then ended.
 */
size_t perfetto_packet_begin(struct perfetto_export *p, uint64_t ts, bool timestamped);
void perfetto_packet_end(struct perfetto_export *p, size_t at);

#endif
