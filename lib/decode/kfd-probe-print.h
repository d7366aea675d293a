/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KFD_PROBE_PRINT_H
#define GT_KFD_PROBE_PRINT_H

#include <stdbool.h>

#include <event-parse.h>

/**
 * kfd_probe_print - record --kfd-args's probe event @ev as a sentence ("compute queue on gpu
 * 0x1234: ring ... size ... priority ... percentage ...", "failed: EINVAL"); another group's
 * event of the same name as its fields: a libtraceevent event handler
 */
int kfd_probe_print(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
		    void *context);
/** kfd_probe_prints - whether @ev is one of those probe events (kfd_probe_print()'s sentence) */
bool kfd_probe_prints(const struct tep_event *ev);
/** kfd_probe_register - kfd_probe_print() the handler of each such event name on @tep */
void kfd_probe_register(struct tep_handle *tep);
/** kfd_probe_unregister - the handlers kfd_probe_register() set, taken off @tep */
void kfd_probe_unregister(struct tep_handle *tep);

#endif
