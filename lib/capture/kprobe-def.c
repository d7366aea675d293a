// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/kprobe-def.h"

struct tracefs_dynevent *kprobe_def_alloc(const char *group, const struct kprobe_def *d,
					  bool with_return_args)
{
	bool extra = with_return_args && d->fetch_at_return;
	char fetch[1024];

	snprintf(fetch, sizeof(fetch), "%s%s%s", d->fetch ? d->fetch : "",
		 extra && d->fetch && d->fetch[0] ? " " : "", extra ? d->fetch_at_return : "");
	if (d->ret)
		return tracefs_kretprobe_alloc(group, d->event, d->func, fetch, 0);
	return tracefs_kprobe_alloc(group, d->event, d->func, fetch);
}

struct tracefs_dynevent *kprobe_def_create(const char *group, const struct kprobe_def *d,
					   bool *with_return_args, struct gt_error *err)
{
	struct tracefs_dynevent *ev = kprobe_def_alloc(group, d, true);
	char *why;
	int e;

	*with_return_args = d->fetch_at_return != NULL;
	if (ev && !tracefs_dynevent_create(ev))
		return ev;
	if (ev && d->fetch_at_return) {
		tracefs_dynevent_free(ev);
		*with_return_args = false;
		ev = kprobe_def_alloc(group, d, false);
		if (ev && !tracefs_dynevent_create(ev))
			return ev;
	}
	e = errno ? errno : ENOMEM;
	why = tracefs_error_last(NULL);
	/* error_log's entry spans lines (the command, a caret): one line here */
	for (char *c = why; c && *c; c++)
		if (*c == '\n')
			*c = ' ';
	gt_error_set(err, e, "cannot define kprobe %s/%s on %s: %s%s%s", group, d->event,
		     d->func, strerror(e), why ? "; kernel says: " : "", why ? why : "");
	free(why);
	tracefs_dynevent_free(ev);
	return NULL;
}

int kprobe_defs_remove(struct tracefs_dynevent **evs, int nr, const char *group,
		       struct gt_error *err)
{
	int i, ret = 0;

	for (i = nr - 1; i >= 0; i--) {
		if (tracefs_dynevent_destroy(evs[i], true) && !ret)
			ret = gt_error_set(err, errno, "cannot remove kprobe %s: %s; run gpu-trace reset",
					   group, strerror(errno));
		tracefs_dynevent_free(evs[i]);
	}
	return ret;
}

const char *kprobes_unavailable(const char *tracing_dir)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/kprobe_events", tracing_dir);
	if (!access(path, W_OK))
		return NULL;
	return errno == ENOENT ? "this kernel has no kprobe_events (CONFIG_KPROBE_EVENTS)" :
				 "kprobe_events is not writable (run as root; lockdown forbids kprobes)";
}
