/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CAPTURE_SETUP_H
#define GT_CAPTURE_SETUP_H

#include <stdbool.h>

#include "capture/stale.h"
#include "tracefs/buffer-ladder.h"
#include "tracefs/event-select.h"
#include "tracefs/session.h"
#include "util/gt-error.h"

struct tep_handle;

/*
 * The set-up steps record and top share: each capture finds tracefs the same
 * way, names its instances the same way (reset and the stale cleanup know
 * them by it) and sizes its buffer on the same ladder.
 */

/**
 * capture_find_tracefs - tracefs found (mounted if need be), dead runs cleaned
 * @tracing_dir: set to tracefs's path
 * @mounted_now: set when this call mounted it (may be NULL)
 * @stale:       hears about every leftover of a killed gpu-trace
 * @ctx:         passed to @stale
 * @err:         why tracefs is not usable
 *
 * Return: 0, or -1 with @err set.
 */
int capture_find_tracefs(const char **tracing_dir, bool *mounted_now, stale_note stale,
			 void *ctx, struct gt_error *err);

/**
 * capture_instance_create - our instance "gpu-trace-<pid><suffix>", not tracing
 * @s:           the session to fill
 * @tracing_dir: from capture_find_tracefs()
 * @suffix:      "" for the main buffer, ".workload" for the scoped one
 * @err:         why the instance could not be made
 *
 * A new instance traces at once; this one is held off until the caller has
 * set everything and calls session_set_tracing().
 *
 * Return: 0, or -1 with @err set.
 */
int capture_instance_create(struct trace_session *s, const char *tracing_dir,
			    const char *suffix, struct gt_error *err);

/**
 * capture_buffer_setup - the buffer ladder on @s
 * @s:       the session whose per-CPU buffer is sized
 * @want_kb: -b in KB per CPU, 0 for the ladder
 * @share:   how many buffers split the safe share of MemAvailable
 * @res:     what was asked, granted and refused (res->cap_kb: the share)
 * @err:     why no size could be set
 *
 * Return: 0, or -1 with @err set.
 */
int capture_buffer_setup(struct trace_session *s, unsigned long want_kb, int share,
			 struct buffer_result *res, struct gt_error *err);

/**
 * capture_selects_gpu_jobs - whether @sel has events that make GPU jobs
 * @sel:             an applied selection
 * @explicit_events: -e named them: any GPU event system counts
 *
 * dma_fence, drm and dma_buf are on every kernel, GPU or not: a preset needs
 * a driver's or the scheduler's events for a job to appear.
 */
bool capture_selects_gpu_jobs(const struct event_selection *sel, bool explicit_events);

/**
 * capture_load_formats - the event formats of @sel's systems, read from tracefs
 * @tracing_dir: tracefs's path
 * @sel:         the systems to load
 *
 * Only those systems: tracefs_local_events_system() would also parse every
 * kernel symbol (seconds under a sanitizer), which a live view never prints.
 *
 * Return: a tep handle with the header page and the formats, or NULL (errno).
 */
struct tep_handle *capture_load_formats(const char *tracing_dir,
					const struct event_selection *sel);

#endif
