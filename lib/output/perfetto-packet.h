/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PERFETTO_PACKET_H
#define GT_PERFETTO_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/perfetto-export.h"

/*
 * One TracePacket of the trace perfetto-export.c writes, for the writers
 * beside it: begun, its fields added with pb_*(&p->buf), then ended.
 */
/**
 * perfetto_packet_begin - a packet on the trace's one sequence, stamped with @ts moved by the
 * source's offset when @timestamped (ERANGE in p->error below 0); returns what to end
 */
size_t perfetto_packet_begin(struct perfetto_export *p, uint64_t ts, bool timestamped);
/** perfetto_packet_end - closes the packet; writes the buffer out once it is large */
void perfetto_packet_end(struct perfetto_export *p, size_t at);

#endif
