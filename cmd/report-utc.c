// SPDX-License-Identifier: GPL-2.0
/*
 * Several hosts' files on one axis without a hand-set offset: where each
 * input of a timeline (Perfetto, the page) has a clock pair of record's
 * (host-clock.h) and none was given --ts-offset, each is moved by its own
 * UTC offset less the smallest of them, so that one instant of UTC is one
 * place on the timeline whatever each host's trace clock read then (a mono
 * clock counts from its own boot). Files of one boot share one clock: left
 * as they are. Each file's offset is its tightest clock pair's, the one the
 * JSON report's utc_offset_ns gives: a pass reads every pair (record writes
 * one at the start, every 5 s and at the end; on a loaded host the first
 * can be the widest by a millisecond).
 *
 * The same pass names each file's host (its machine-id and its name: images
 * cloned onto many nodes share a machine-id):
 * Perfetto draws each host as a machine of its own, the first one's files
 * on the trace's own (machine 0), every file there when all are one host's.
 * A file without record's host marker cannot say: it stays on machine 0.
 * Where an offset is given by hand, no file is moved by its clock, and the
 * pass ends at the host marker, which record writes first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "output/report-formats.h"
#include "analysis/host-clock.h"

struct utc_of {
	bool known;
	int64_t offset;
	uint64_t uncertainty;
	char host[65], machine[40 + 65], boot[40], clock[32];
};

/* the host is all that is asked (every offset given): the pass ends at record's host marker */
static int stop_at_host(struct analysis *a, struct tep_record *rec, const struct gpu_event *ev,
			void *ctx)
{
	(void)rec;
	(void)ev;
	(void)ctx;
	return host_clock_of(a)->known ? -1 : 0;
}

static int probe(const char *file, bool host_only, struct utc_of *u, struct gt_error *err)
{
	struct analysis_hooks hooks = { .on_record = host_only ? stop_at_host : NULL };
	struct dat_meta *m = calloc(1, sizeof(*m));
	const struct host_clock *h;
	struct analysis *a = analysis_new();
	int ret = -1;

	if (!m || !a) {
		gt_error_set(err, ENOMEM, "out of memory");
		goto out;
	}
	if (analysis_open_dat(a, file, m, &hooks, err))
		goto out;
	if (!analysis_run(a, err)) {
		h = host_clock_of(a);
		u->known = host_clock_offset(h, &u->offset, &u->uncertainty);
		snprintf(u->host, sizeof(u->host), "%s", h->name[0] ? h->name : "?");
		if (h->known)
			snprintf(u->machine, sizeof(u->machine), "%s %s", h->machine_id, h->name);
		snprintf(u->boot, sizeof(u->boot), "%s", h->boot_id);
		snprintf(u->clock, sizeof(u->clock), "%s", m->clock);
		ret = 0;
	}
out:
	analysis_free(a);
	free(m);
	return ret;
}

/* Each input's host as a machine number: 0 the first host's (and the unknown), 1, ... the others. */
static void number_hosts(struct report_opts *o, const struct utc_of *u)
{
	uint32_t next = 1;
	int i, j;

	for (i = 0; i < o->nr_inputs; i++) {
		o->inputs[i].machine = 0;
		if (!u[i].machine[0] || !strcmp(u[i].machine, u[0].machine))
			continue;
		for (j = 1; j < i; j++)
			if (!strcmp(u[i].machine, u[j].machine))
				break;
		o->inputs[i].machine = j < i ? o->inputs[j].machine : next++;
	}
}

int report_align_utc(struct report_opts *o, struct gt_error *err)
{
	bool one_boot = true, all_known = true, offsets_given = false;
	struct utc_of *u;
	int64_t base = 0;
	int i, ret = 0;

	if (!o->format->timeline || o->nr_inputs < 2)
		return 0;
	for (i = 0; i < o->nr_inputs; i++)
		offsets_given |= o->inputs[i].offset_set;
	u = calloc((size_t)o->nr_inputs, sizeof(*u));
	if (!u)
		return gt_error_set(err, ENOMEM, "out of memory");
	for (i = 0; i < o->nr_inputs && !ret; i++) {
		/*
		 * an offset given (no file is then moved by its clock): the host is all that
		 * is asked, and record writes its marker first; else every clock pair, for
		 * the tightest
		 */
		ret = probe(o->inputs[i].file, offsets_given, &u[i], err);
		if (ret)
			report_name_input(o, i, err);
		all_known &= u[i].known;	/* another writer's file: the times as they are */
		if (i && (strcmp(u[i].boot, u[0].boot) || !u[0].boot[0] ||
			  strcmp(u[i].clock, u[0].clock)))
			one_boot = false;
		if (!i || u[i].offset < base)
			base = u[i].offset;
	}
	if (ret)
		goto out;
	number_hosts(o, u);
	if (offsets_given || !all_known || one_boot)
		goto out;
	for (i = 0; i < o->nr_inputs; i++) {
		char unc[32];

		o->inputs[i].offset = u[i].offset - base;
		cmd_say("gpu-trace report: %s (host %s) on UTC from its clock pair: moved by %.9f s, within %s us",
			o->inputs[i].file, u[i].host, (double)o->inputs[i].offset / 1e9,
			report_us(unc, sizeof(unc), true, u[i].uncertainty));
	}
out:
	free(u);
	return ret;
}
