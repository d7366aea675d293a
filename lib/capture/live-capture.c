// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fnmatch.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "capture/capture-setup.h"
#include "capture/live-capture.h"
#include "decode/gpu-event.h"
#include "util/time-ns.h"

static bool selects_system(const struct event_selection *sel, const char *system)
{
	int i;

	for (i = 0; i < sel->nr_systems; i++)
		if (!strcmp(sel->systems[i], system))
			return true;
	return false;
}

/* a dma_fence event the user named (-e dma_fence:NAME or a pattern of names), not a whole system */
static bool named_by_user(const struct event_selection *sel, const char *event)
{
	int i;

	for (i = 0; i < sel->nr_specs; i++) {
		const struct event_spec *sp = &sel->specs[i];

		if (!sp->from_preset && strcmp(sp->event, "*") &&
		    !fnmatch(sp->system, "dma_fence", 0) && !fnmatch(sp->event, event, 0))
			return true;
	}
	return false;
}

/*
 * Of dma_fence, only what the job join reads (gpu_fence_kind_joined: with a
 * scheduler's events, the signals, and virtio-gpu's emits) is asked of the
 * kernel: a job's other fence events (init, enable_signal, destroy, waits:
 * most of its records on amdgpu) would each be read, decoded and dropped, on
 * the CPUs the GPU's submitters need. Events the user named are kept as asked.
 */
static void narrow_fence_events(struct live_capture *lc, const struct event_selection *sel)
{
	bool from_fences = gpu_jobs_from_fences(sel->systems, sel->nr_systems);
	bool virtio = selects_system(sel, "virtio_gpu");
	char **names;
	int i;

	if (!selects_system(sel, "dma_fence"))
		return;
	names = tracefs_system_events(lc->tracing_dir, "dma_fence");
	for (i = 0; names && names[i]; i++)
		if (!gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", names[i]), from_fences, virtio) &&
		    !named_by_user(sel, names[i]))
			tracefs_event_disable(lc->session.inst, "dma_fence", names[i]);
	tracefs_list_free(names);
}

int live_capture_open(struct live_capture *lc, const struct live_capture_config *cfg,
		      struct gt_error *err)
{
	struct event_selection *sel = cfg->events;

	if (capture_find_tracefs(&lc->tracing_dir, &lc->mounted_now, cfg->stale, cfg->ctx, err) ||
	    capture_instance_create(&lc->session, lc->tracing_dir, "", err) ||
	    event_selection_apply(sel, &lc->session, NULL, false, err))
		return -1;
	if (!capture_selects_gpu_jobs(sel, cfg->explicit_events)) {
		lc->no_gpu_events = true;
		return gt_error_set(err, ENOENT,
				    "no GPU driver or scheduler events on this kernel (missing: %s); load the GPU driver (e.g. modprobe amdgpu) or name events with -e",
				    sel->missing ? sel->missing : "all the preset's job events");
	}
	narrow_fence_events(lc, sel);
	lc->mono_offset = time_ns_monotonic_offset();
	if (session_set_clock(&lc->session, "mono", err) ||
	    capture_buffer_setup(&lc->session, cfg->buffer_kb, 1, &lc->buffer, err))
		return -1;
	errno = 0;
	lc->tep = capture_load_formats(lc->tracing_dir, sel);
	if (!lc->tep)
		return gt_error_set(err, errno ? errno : EIO,
				    "cannot read the event formats from %s/events; is tracefs readable?",
				    lc->tracing_dir);
	/* where it cannot (a 32-bit kernel's pages), libtracefs' iterator reads them */
	lc->pages = live_pages_open(lc->session.inst, tep_get_header_page_size(lc->tep));
	return 0;
}

int live_capture_start(struct live_capture *lc, struct gt_error *err)
{
	return session_set_tracing(&lc->session, true, err);
}

uint64_t live_capture_now(const struct live_capture *lc)
{
	return time_ns_kernel_mono(lc->mono_offset);
}

struct drain_ctx {
	live_record_fn fn;
	void *ctx;
};

static int on_event(struct tep_event *event, struct tep_record *rec, int cpu, void *ctx)
{
	struct drain_ctx *d = ctx;

	(void)event;
	(void)cpu;
	return d->fn(rec, d->ctx);
}

void live_capture_drain(struct live_capture *lc, uint64_t until, live_record_fn fn, void *ctx)
{
	struct drain_ctx d = { fn, ctx };

	if (lc->pages)
		live_pages_drain(lc->pages, until, fn, ctx);
	else	/* libtracefs consumes what it reads: nothing can stay held */
		tracefs_iterate_raw_events(lc->tep, lc->session.inst, NULL, 0, on_event, &d);
}

int live_capture_mark(struct live_capture *lc, const char *text, struct gt_error *err)
{
	return session_mark(&lc->session, text, err);
}

int live_capture_close(struct live_capture *lc, struct gt_error *err)
{
	int ret;

	/* an instance with a trace_pipe_raw open cannot be removed */
	live_pages_close(lc->pages);
	lc->pages = NULL;
	ret = session_teardown(&lc->session, err);

	if (lc->tep)
		tep_free(lc->tep);
	lc->tep = NULL;
	return ret;
}
