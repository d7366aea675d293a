// SPDX-License-Identifier: GPL-2.0
/* The .dat of a finished recording: metadata, cmdlines and the per-CPU pages. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "capture/cmdlines.h"
#include "capture/dat-writer.h"
#include "tracefs/saved-files.h"
#include "capture/record-engine.h"

/* Count what the file will hold, the way a reader will see it. */
static void scan_cpu_files(struct recorder *r, struct scan_totals *t,
			   int long_size, int pid_offset, int *fds, off_t *sizes)
{
	int i;

	for (i = 0; i < r->nr_cpus; i++) {
		fds[i] = r->cpus[i].fd;
		sizes[i] = lseek(r->cpus[i].fd, 0, SEEK_END);
		t->bytes += (unsigned long long)sizes[i];
		page_scan_fd(r->cpus[i].fd, r->page_size, long_size, pid_offset, &t->scan);
	}
}

/* Every system whose events a buffer can hold, each once. */
static char **all_systems(struct record_run *run, int *nr)
{
	const struct event_selection *sels[] = {
		&run->opts.events, &run->tree_events, &run->cpu_ioctls, &run->cpu_events
	};
	char **out = calloc((size_t)(run->opts.events.nr_systems + run->tree_events.nr_systems +
				     run->cpu_ioctls.nr_systems + run->cpu_events.nr_systems) + 1,
			    sizeof(*out));
	size_t k;
	int i, j;

	*nr = 0;
	for (k = 0; out && k < sizeof(sels) / sizeof(sels[0]); k++) {
		for (i = 0; i < sels[k]->nr_systems; i++) {
			for (j = 0; j < *nr && strcmp(out[j], sels[k]->systems[i]); j++)
				;
			if (j == *nr)
				out[(*nr)++] = sels[k]->systems[i];
		}
	}
	return out;
}

static bool is_selected_system(char **names, int nr, const char *name)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Names for pids the kernel's cmdlines cache missed: ours and the workload. */
static char *build_cmdlines(struct record_run *run, const struct scan_totals *t)
{
	char *saved = trace_file_read(run->tracing_dir, "saved_cmdlines");
	int nr = 0, i;
	struct pid_comm *known = calloc((size_t)(run->recorder.nr_cpus + run->scoped_rec.nr_cpus +
						 run->opts.nr_pids + 1), sizeof(*known));
	char *out;

	if (known && run->workload.pid > 0) {
		known[nr].pid = run->workload.pid;
		snprintf(known[nr++].comm, sizeof(known->comm), "%s", run->workload.comm);
	}
	for (i = 0; known && run->attached && i < run->opts.nr_pids; i++)
		known[nr++] = run->attached[i];
	for (i = 0; known && i < run->recorder.nr_cpus + run->scoped_rec.nr_cpus; i++) {
		const struct recorder *r = i < run->recorder.nr_cpus ? &run->recorder : &run->scoped_rec;

		known[nr].pid = atomic_load(&r->cpus[i % run->recorder.nr_cpus].tid);
		snprintf(known[nr++].comm, sizeof(known->comm), "gpu-trace");
	}
	out = cmdlines_merge(saved, t->scan.pids, t->scan.nr_pids, known, nr);
	free(known);
	free(saved);
	return out;
}

/*
 * Each capture source's pages as a buffer of the file, in table order: its records on
 * the first CPU (nothing was lost there), the set after the top buffer's and the
 * workload's. Returns how many buffers.
 */
static int source_buffers(const struct record_run *run, int nr, int *fds, off_t *sizes,
			  char **stats_text, struct dat_buffer *buffers)
{
	int n = 0;

	for (size_t s = 0; s < capture_nr_sources; s++) {
		struct capture_pages p;
		size_t set = (size_t)nr * (2 + s);

		if (!run->source_state[s] || !capture_sources[s]->pages ||
		    !capture_sources[s]->pages(run, run->source_state[s], &p))
			continue;
		for (int i = 0; i < nr; i++) {
			stats_text[set + i] =
				(char *)"entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\ndropped events: 0\n";
			fds[set + i] = p.fd;
			sizes[set + i] = i ? 0 : p.size;
		}
		buffers[n++] = (struct dat_buffer){ p.buffer, stats_text + set, fds + set, sizes + set };
	}
	return n;
}

int record_write_dat(struct record_run *run, struct scan_totals *t, struct gt_error *err)
{
	char *header_page = trace_file_read(run->tracing_dir, "events/header_page");
	char *header_event = trace_file_read(run->tracing_dir, "events/header_event");
	char *print_fmt = tracefs_event_file_read(NULL, "ftrace", "print", "format", NULL);
	char *printk = trace_file_read(run->tracing_dir, "printk_formats");
	int nr = run->recorder.nr_cpus, i, ret = -1, nr_systems = 0;
	/* the top buffer's CPUs, the workload's, then a set per capture source */
	size_t sets = 2 + CAPTURE_MAX_SOURCES;
	int *fds = calloc((size_t)nr * sets, sizeof(int));
	off_t *sizes = calloc((size_t)nr * sets, sizeof(off_t));
	char **stats_text = calloc((size_t)nr * sets, sizeof(char *));
	char **names = all_systems(run, &nr_systems);
	struct dat_event_system ftrace = { 0 };
	struct dat_event_system *systems = calloc((size_t)(nr_systems + run->nr_formats) + 1,
						  sizeof(*systems));
	int nr_in_file = nr_systems;
	struct dat_buffer buffers[1 + CAPTURE_MAX_SOURCES] = {
		{ "workload", stats_text + nr, fds + nr, sizes + nr },
	};
	int nr_buffers = 0;
	struct utsname u;
	char uname_s[512], version[64], *cmdlines = NULL;
	struct dat_input in;

	if (!fds || !sizes || !stats_text || !names || !systems || !header_page || !header_event ||
	    (run->has_scope && run->scoped_rec.nr_cpus != nr)) {
		gt_error_set(err, errno ? errno : ENOMEM,
			     "cannot read events/header_page of %s: %s", run->tracing_dir,
			     strerror(errno ? errno : ENOMEM));
		goto out;
	}
	for (i = 0; i < nr; i++) {
		stats_text[i] = run->stats[i].text;
		if (run->has_scope)
			stats_text[nr + i] = run->scoped_stats[i].text;
	}
	if (run->has_scope)
		nr_buffers++;
	nr_buffers += source_buffers(run, nr, fds, sizes, stats_text, buffers + nr_buffers);
	scan_cpu_files(&run->recorder, t, page_scan_long_size(header_page),
		       page_scan_pid_offset(print_fmt), fds, sizes);
	if (run->has_scope)
		scan_cpu_files(&run->scoped_rec, t, page_scan_long_size(header_page),
			       page_scan_pid_offset(print_fmt), fds + nr, sizes + nr);
	cmdlines = build_cmdlines(run, t);
	dat_event_system_load(&ftrace, "ftrace");
	for (i = 0; i < nr_systems; i++)
		dat_event_system_load(&systems[i], names[i]);
	/* read before the probes were removed; freed with the run */
	for (i = 0; i < run->nr_formats; i++)
		if (!is_selected_system(names, nr_systems, run->formats[i].name))
			systems[nr_in_file++] = run->formats[i];
	uname(&u);
	snprintf(uname_s, sizeof(uname_s), "%s %s %s %s", u.sysname, u.nodename,
		 u.release, u.machine);
	snprintf(version, sizeof(version), "gpu-trace %s", GT_VERSION);
	in = (struct dat_input){
		.header_page = header_page,
		.header_event = header_event,
		.ftrace = &ftrace,
		.systems = systems,
		.nr_systems = nr_in_file,
		.kallsyms = run->kallsyms,
		.printk_formats = printk,
		.cmdlines = cmdlines,
		.trace_clock = run->trace_clock,
		.uname = uname_s,
		.version = version,
		.cpu_stats = stats_text,
		.nr_cpus = nr,
		.page_size = run->recorder.page_size,
		.cpu_fds = fds,
		.cpu_sizes = sizes,
		.instances = buffers,
		.nr_instances = nr_buffers,
		.consume_cpu_files = true,
	};
	ret = dat_write_v6(run->out.fd, &in, err);
out:
	free(header_page);
	free(header_event);
	free(print_fmt);
	free(printk);
	free(cmdlines);
	free(fds);
	free(sizes);
	free(stats_text);
	dat_event_system_free(&ftrace);
	for (i = 0; systems && i < nr_systems; i++)
		dat_event_system_free(&systems[i]);
	free(systems);
	free(names);
	return ret;
}

