// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "capture/cmdlines.h"
#include "capture/kfd-probes.h"
#include "decode/nvidia-names.h"
#include "capture/partial-output.h"
#include "tracefs/saved-files.h"
#include "tracefs/run-lock.h"
#include "capture/stale.h"
#include "tracefs/run-dir.h"
#include "tracefs/session.h"
#include "decode/probe-group.h"
#include "util/pid-ns.h"

int stale_owner_pid(const char *name)
{
	const char *p = name + strlen(GT_INSTANCE_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, GT_INSTANCE_PREFIX, strlen(GT_INSTANCE_PREFIX)))
		return 0;
	if (!strncmp(p, "probe-", 6))
		p += 6;
	pid = strtol(p, &end, 10);
	return (end != p && (*end == '\0' || *end == '.') && pid > 0) ? (int)pid : 0;
}

unsigned long long stale_owner_ns(const char *name)
{
	const char *p = name + strlen(GT_INSTANCE_PREFIX);

	if (strncmp(name, GT_INSTANCE_PREFIX, strlen(GT_INSTANCE_PREFIX)))
		return 0;
	if (!strncmp(p, "probe-", 6))
		p += 6;
	p += strspn(p, "0123456789");
	return pid_ns_of_tail(p, '.');
}

/* By the lock every run holds for its life (run-lock.h), not by its comm */
bool stale_owner_running(int pid)
{
	return pid == (int)getpid() || run_lock_alive(pid);
}

static int clean_journals(const char *tracing_dir, stale_note note, void *ctx)
{
	struct dirent *d;
	DIR *dir = opendir(run_dir_path());
	int failed = 0;

	while (dir && (d = readdir(dir))) {
		struct gt_error err = { 0 };
		struct saved_files sf;
		char path[1024];
		int pid = stale_owner_pid(d->d_name);

		if (!pid || strstr(d->d_name, ".tmp") ||
		    (!strstr(d->d_name, ".restore") && !strstr(d->d_name, ".dyndbg") &&
		     !strstr(d->d_name, ".partial")))
			continue;
		if (stale_owner_running(pid)) {
			note(d->d_name, pid, STALE_IN_USE, 0, ctx);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", run_dir_path(), d->d_name);
		if (strstr(d->d_name, ".partial")) {
			/* a killed record's unfinished output: the file, if it is still there */
			char removed[4096];

			if (partial_output_clean(path, removed, sizeof(removed), &err)) {
				note(d->d_name, pid, STALE_FAILED, err.errnum, ctx);
				failed++;
			} else if (removed[0]) {
				note(removed, pid, STALE_REMOVED, 0, ctx);
			}
			continue;
		}
		if (strstr(d->d_name, ".dyndbg")) {
			/* kfd probes' pr_debug switch: no tracefs files to count */
			if (kfd_dyndbg_restore_journal(path, &err)) {
				note(d->d_name, pid, STALE_FAILED, err.errnum, ctx);
				failed++;
			} else {
				note(d->d_name, pid, STALE_RESTORED, 1, ctx);
			}
			continue;
		}
		if (saved_files_journal_load(&sf, path, &err) ||
		    saved_files_restore(&sf, tracing_dir, &err)) {
			note(d->d_name, pid, STALE_FAILED, err.errnum, ctx);
			failed++;
		} else {
			note(d->d_name, pid, STALE_RESTORED, sf.nr, ctx);
		}
		saved_files_free(&sf);
	}
	if (dir)
		closedir(dir);
	return failed;
}

static int clean_instances(const char *tracing_dir, stale_note note, void *ctx)
{
	char path[4200];
	struct dirent *d;
	DIR *dir;
	int failed = 0;

	/* tracefs_instances() of libtracefs 1.6.4 leaks its regex */
	snprintf(path, sizeof(path), "%s/instances", tracing_dir);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		struct tracefs_instance *inst;
		int pid = stale_owner_pid(d->d_name);

		if (!pid)
			continue;
		/* another PID namespace's run: whether it lives, our run locks cannot say */
		if (stale_owner_ns(d->d_name) != pid_ns_id()) {
			note(d->d_name, pid, STALE_OTHER_NS, 0, ctx);
			continue;
		}
		if (stale_owner_running(pid)) {
			if (pid != (int)getpid())
				note(d->d_name, pid, STALE_IN_USE, 0, ctx);
			continue;
		}
		inst = tracefs_instance_alloc(NULL, d->d_name);
		if (inst)
			tracefs_trace_off(inst);
		if (!inst || tracefs_instance_destroy(inst)) {
			note(d->d_name, pid, STALE_FAILED, errno, ctx);
			failed++;
		} else {
			note(d->d_name, pid, STALE_REMOVED, 0, ctx);
		}
		tracefs_instance_free(inst);
	}
	if (dir)
		closedir(dir);
	return failed;
}

/* After the instances: a probe enabled in a live instance cannot go. */
static int clean_probes(stale_note note, void *ctx)
{
	struct tracefs_dynevent **evs = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE |
								 TRACEFS_DYNEVENT_KRETPROBE, NULL);
	char noted[64] = "";
	int failed = 0, i;

	for (i = 0; evs && evs[i]; i++) {
		char *group = NULL;
		int pid;

		tracefs_dynevent_info(evs[i], &group, NULL, NULL, NULL, NULL);
		pid = !group ? 0 : kfd_probe_group_pid(group) ? kfd_probe_group_pid(group) :
						nv_probe_group_pid(group);
		if (pid && probe_group_ns(group) != pid_ns_id()) {
			if (strcmp(group, noted))
				note(group, pid, STALE_OTHER_NS, 0, ctx);
			snprintf(noted, sizeof(noted), "%s", group);
		} else if (pid && !stale_owner_running(pid)) {
			if (tracefs_dynevent_destroy(evs[i], true)) {
				note(group, pid, STALE_FAILED, errno, ctx);
				failed++;
			} else if (strcmp(group, noted)) {
				/* one line per group, not per probe */
				note(group, pid, STALE_REMOVED, 0, ctx);
				snprintf(noted, sizeof(noted), "%s", group);
			}
		}
		free(group);
	}
	tracefs_dynevent_list_free(evs);
	return failed;
}

/* The lock files of runs whose locks are free: gone runs' (run-lock.h) */
static void clean_live_locks(void)
{
	DIR *dir = opendir(run_dir_path());
	struct dirent *d;

	while (dir && (d = readdir(dir))) {
		int pid;
		char end;

		if (sscanf(d->d_name, "live-%d.loc%c", &pid, &end) == 2 && end == 'k' &&
		    pid > 0 && pid != (int)getpid())
			run_lock_forget(pid);
	}
	if (dir)
		closedir(dir);
}

int stale_clean(const char *tracing_dir, stale_note note, void *ctx)
{
	int failed = clean_journals(tracing_dir, note, ctx) +
		     clean_instances(tracing_dir, note, ctx) + clean_probes(note, ctx);

	clean_live_locks();
	return failed;
}
