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
	const struct event_selection *sels[] = { &run->opts.events, &run->tree_events };
	char **out = calloc((size_t)(run->opts.events.nr_systems + run->tree_events.nr_systems) + 1,
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

int record_write_dat(struct record_run *run, struct scan_totals *t, struct gt_error *err)
{
	char *header_page = trace_file_read(run->tracing_dir, "events/header_page");
	char *header_event = trace_file_read(run->tracing_dir, "events/header_event");
	char *print_fmt = tracefs_event_file_read(NULL, "ftrace", "print", "format", NULL);
	char *printk = trace_file_read(run->tracing_dir, "printk_formats");
	int nr = run->recorder.nr_cpus, i, ret = -1, nr_systems = 0;
	int *fds = calloc((size_t)nr * 5, sizeof(int));
	off_t *sizes = calloc((size_t)nr * 5, sizeof(off_t));
	char **stats_text = calloc((size_t)nr * 5, sizeof(char *));
	char **names = all_systems(run, &nr_systems);
	struct dat_event_system ftrace = { 0 };
	struct dat_event_system *systems = calloc((size_t)(nr_systems + run->nr_probe_formats) + 1,
						  sizeof(*systems));
	int nr_in_file = nr_systems;
	struct dat_buffer buffers[4] = {
		{ "workload", stats_text + nr, fds + nr, sizes + nr },
		{ HIP_LOG_BUFFER, stats_text + 2 * nr, fds + 2 * nr, sizes + 2 * nr },
		{ KFD_DEBUGFS_BUFFER, stats_text + 3 * nr, fds + 3 * nr, sizes + 3 * nr },
		{ DRM_FDINFO_BUFFER, stats_text + 4 * nr, fds + 4 * nr, sizes + 4 * nr },
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
		/* our own records, on the first CPU: nothing was lost there */
		stats_text[2 * nr + i] = stats_text[3 * nr + i] = stats_text[4 * nr + i] =
			(char *)"entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\ndropped events: 0\n";
		fds[2 * nr + i] = run->hip_fd;
		sizes[2 * nr + i] = i ? 0 : run->hip_size;
		fds[3 * nr + i] = run->kfd_dbg_fd;
		sizes[3 * nr + i] = i ? 0 : run->kfd_dbg_size;
		fds[4 * nr + i] = run->fdinfo_fd;
		sizes[4 * nr + i] = i ? 0 : run->fdinfo_size;
	}
	if (run->has_scope)
		nr_buffers++;
	if (run->hip_fd >= 0)
		buffers[nr_buffers++] = buffers[1];
	if (run->kfd_dbg_fd >= 0 && run->kfd_dbg_size)
		buffers[nr_buffers++] = buffers[2];
	if (run->fdinfo_fd >= 0 && run->fdinfo_size)
		buffers[nr_buffers++] = buffers[3];
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
	for (i = 0; i < run->nr_probe_formats; i++)
		if (!is_selected_system(names, nr_systems, run->probe_formats[i].name))
			systems[nr_in_file++] = run->probe_formats[i];
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

