/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RECORD_IDENTITY_H
#define GT_RECORD_IDENTITY_H

#include "tracefs/session.h"
#include "util/gt-error.h"

/*
 * The markers that name a recording's host and put it on UTC
 * (record-identity.c), for any buffer: record's, and the flight
 * recorder's before each dump (its ring has long lost the first ones).
 */

/**
 * identity_mark_host - "gpu-trace host: ..." and a "gpu-trace gpu: ..." per DRM card in @s
 * @s:   the buffer, tracing on
 * @err: why a marker could not be written
 *
 * Return: 0, or -1 with @err set.
 */
int identity_mark_host(struct trace_session *s, struct gt_error *err);
/**
 * identity_mark_clock - a clock pair: CLOCK_REALTIME read around a marker the trace clock stamps
 * @s:   the buffer, tracing on
 * @err: why a marker could not be written (may be NULL)
 *
 * Return: 0, or -1 with @err set.
 */
int identity_mark_clock(struct trace_session *s, struct gt_error *err);

#endif
