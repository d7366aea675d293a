// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "capture/capture-setup.h"
#include "capture/dat-writer.h"
#include "tracefs/presets.h"
#include "tracefs/trace-file.h"
#include "util/pid-ns.h"

int capture_find_tracefs(const char **tracing_dir, bool *mounted_now, stale_note stale,
			 void *ctx, struct gt_error *err)
{
	if (session_find_tracing_dir(tracing_dir, mounted_now, err))
		return -1;
	/* a gpu-trace killed by SIGKILL could not clean up: do it now */
	stale_clean(*tracing_dir, stale, ctx);
	return 0;
}

int capture_instance_create(struct trace_session *s, const char *tracing_dir,
			    const char *suffix, struct gt_error *err)
{
	char name[64];

	snprintf(name, sizeof(name), "%s%d%s%s", GT_INSTANCE_PREFIX, (int)getpid(),
		 pid_ns_instance_tag(), suffix);
	if (session_create_instance(s, tracing_dir, name, err))
		return -1;
	return session_set_tracing(s, false, err);
}

int capture_buffer_setup(struct trace_session *s, unsigned long want_kb, int share,
			 struct buffer_result *res, struct gt_error *err)
{
	struct buffer_ops ops = session_buffer_ops(s);
	int ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	unsigned long cap = buffer_safe_cap_kb(buffer_mem_available_kb(), ncpus) /
			    (unsigned long)(share > 1 ? share : 1);

	if (buffer_ladder_apply(&ops, want_kb, cap, res, err))
		return -1;
	res->share = share;
	return 0;
}

bool capture_selects_gpu_jobs(const struct event_selection *sel, bool explicit_events)
{
	int i;

	for (i = 0; i < sel->nr_systems; i++) {
		const char *sys = sel->systems[i];

		if (is_gpu_driver_system(sys) || (explicit_events && is_gpu_event_system(sys)))
			return true;
	}
	return false;
}

struct tep_handle *capture_load_formats(const char *tracing_dir,
					const struct event_selection *sel)
{
	char *header = trace_file_read(tracing_dir, "events/header_page");
	struct tep_handle *tep = tep_alloc();
	int i, j;

	if (!tep || !header ||
	    tep_parse_header_page(tep, header, strlen(header), (int)sizeof(long))) {
		free(header);
		if (tep)
			tep_free(tep);
		return NULL;
	}
	free(header);
	for (i = 0; i < sel->nr_systems; i++) {
		struct dat_event_system sys;

		if (dat_event_system_load(&sys, sel->systems[i]))
			continue;
		for (j = 0; j < sys.nr_formats; j++) {
			struct tep_event *event;

			tep_parse_format(tep, &event, sys.formats[j], strlen(sys.formats[j]),
					 sys.name);
		}
		dat_event_system_free(&sys);
	}
	return tep;
}
