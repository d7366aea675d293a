// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/saved-files.h"
#include "../lib/trace-session.h"
#include "cmd.h"

/* The pid in "gpu-trace-<pid>", or 0 for a name that is not ours. */
static int owner_pid(const char *name)
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

/* A live gpu-trace still owns what carries its pid. */
static bool owner_running(int pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (pid == (int)getpid())
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strncmp(comm, "gpu-trace", 9);
}

static int reset_journals(const char *tracing_dir, int *done)
{
	struct dirent *d;
	DIR *dir = opendir(GT_RUN_DIR);
	int failed = 0;

	while (dir && (d = readdir(dir))) {
		struct gt_error err = { 0 };
		struct saved_files sf;
		char path[512];
		int pid = owner_pid(d->d_name);

		if (!pid || !strstr(d->d_name, ".restore") || strstr(d->d_name, ".tmp"))
			continue;
		if (owner_running(pid)) {
			cmd_say("reset: %s belongs to running gpu-trace %d; left alone", d->d_name, pid);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", GT_RUN_DIR, d->d_name);
		if (saved_files_journal_load(&sf, path, &err) ||
		    saved_files_restore(&sf, tracing_dir, &err)) {
			cmd_fail("reset", &err);
			failed++;
		} else {
			cmd_say("reset: restored %d top-level tracefs file%s changed by gpu-trace %d",
				sf.nr, sf.nr == 1 ? "" : "s", pid);
			(*done)++;
		}
		saved_files_free(&sf);
	}
	if (dir)
		closedir(dir);
	return failed;
}

/* Walks instances/ itself: tracefs_instances() of 1.6.4 leaks its regex. */
static int reset_instances(const char *tracing_dir, int *done)
{
	char path[4200];
	struct dirent *d;
	DIR *dir;
	int failed = 0;

	snprintf(path, sizeof(path), "%s/instances", tracing_dir);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		struct tracefs_instance *inst;
		int pid = owner_pid(d->d_name);

		if (!pid)
			continue;
		if (owner_running(pid)) {
			cmd_say("reset: instance %s belongs to running gpu-trace %d; left alone",
				d->d_name, pid);
			continue;
		}
		inst = tracefs_instance_alloc(NULL, d->d_name);
		if (inst)
			tracefs_trace_off(inst);
		if (!inst || tracefs_instance_destroy(inst)) {
			cmd_failf("reset", "cannot remove instance %s: %s; is a reader still open on it?",
				  d->d_name, strerror(errno));
			failed++;
		} else {
			cmd_say("reset: removed stale instance %s", d->d_name);
			(*done)++;
		}
		tracefs_instance_free(inst);
	}
	if (dir)
		closedir(dir);
	return failed;
}

int cmd_reset(int argc, char **argv)
{
	struct gt_error err = { 0 };
	const char *dir;
	int done = 0, failed;

	if (argc > 1) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			fputs(cmd_usage("reset"), stdout);
			return 0;
		}
		return cmd_failf("reset", "unexpected argument '%s'; see gpu-trace help reset", argv[1]);
	}
	if (session_find_tracing_dir(&dir, NULL, &err))
		return cmd_fail("reset", &err);
	failed = reset_journals(dir, &done) + reset_instances(dir, &done);
	if (!done && !failed)
		cmd_say("reset: nothing to do (no stale gpu-trace instances or journals)");
	return failed ? GT_EXIT_FAILURE : 0;
}
