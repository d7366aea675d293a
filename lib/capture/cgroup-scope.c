// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture/cgroup-scope.h"
#include "util/root-path.h"
#include "capture/workload.h"

extern char **environ;

/* Where cgroup2 is mounted (/sys/fs/cgroup, or .../unified on hybrid systems). */
static bool cgroup2_mount(char *out, size_t len)
{
	char line[1024], dir[512], type[64];
	FILE *f = fopen("/proc/self/mounts", "re");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %511s %63s", dir, type) == 2 && !strcmp(type, "cgroup2")) {
			snprintf(out, len, "%s", dir);
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

int cgroup_scope_open(struct cgroup_scope *c, const char *path, struct gt_error *err)
{
	char mnt[400], procs[600];

	memset(c, 0, sizeof(*c));
	if (path[0] == '/')
		snprintf(c->dir, sizeof(c->dir), "%s", path);
	else if (cgroup2_mount(mnt, sizeof(mnt)))
		snprintf(c->dir, sizeof(c->dir), "%s/%s", mnt, path);
	else
		return gt_error_set(err, ENOENT, "cgroup '%s': no cgroup2 mount to find it under; give its absolute directory",
				    path);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", c->dir);
	if (access(procs, R_OK))
		return gt_error_set(err, errno, "cannot read %s: %s; give a cgroup directory (as /proc/PID/cgroup names it, under the cgroup mount)",
				    procs, strerror(errno));
	return 0;
}

/* The first line of a command's output (no shell: the name is an argument). */
static int run_line(char *const argv[], char *out, size_t len)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	/*
	 * As root, docker and podman from root's PATH and with root's own
	 * environment, never the caller's (sudo -E): DOCKER_HOST=ssh://...
	 * would have docker run ssh from the caller's PATH, DOCKER_CONFIG and
	 * CONTAINERS_CONF read the caller's files
	 */
	static char *const root_env[] = { "PATH=" ROOT_PATH, "HOME=/root", "LANG=C", NULL };
	char prog[4096];

	if (root_path_find(argv[0], prog, sizeof(prog)) || pipe2(pipefd, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	status = posix_spawn(&pid, prog, &fa, NULL, argv, geteuid() ? environ : root_env);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (status) {
		close(pipefd[0]);
		return -1;
	}
	n = read(pipefd[0], out, len - 1);
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

int cgroup_of_container(const char *name, char *dir, size_t len, struct gt_error *err)
{
	static const char *const tools[] = { "docker", "podman" };
	char out[64], mnt[512], line[1024], path[64];
	long pid = 0;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]) && pid <= 0; i++) {
		/* "--": a name that starts with '-' is a name, not an option */
		char *argv[] = { (char *)tools[i], "inspect", "--format", "{{.State.Pid}}", "--",
				 (char *)name, NULL };

		if (!run_line(argv, out, sizeof(out)))
			pid = strtol(out, NULL, 10);
	}
	if (pid <= 0)
		return gt_error_set(err, ENOENT, "container '%s': neither docker nor podman inspect knows it running; check the name with docker ps or podman ps",
				    name);
	snprintf(path, sizeof(path), "/proc/%ld/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return gt_error_set(err, errno, "container '%s': cannot read %s: %s", name, path,
				    strerror(errno));
	/* cgroup2's "0::/path"; a v1-only host: the pids controller's */
	dir[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "0::", 3) && cgroup2_mount(mnt, sizeof(mnt)))
			snprintf(dir, len, "%s%s", mnt, line + 3);
		else if (!dir[0] && strstr(line, ":pids:"))
			snprintf(dir, len, "/sys/fs/cgroup/pids%s", strstr(line, ":pids:") + 5);
	}
	fclose(f);
	if (!dir[0])
		return gt_error_set(err, ENOENT, "container '%s': no cgroup found for its pid %ld", name, pid);
	return 0;
}

static bool seen(const struct cgroup_scope *c, pid_t pid)
{
	return keymap_get(&c->by_pid, (uint64_t)(uint32_t)pid + 1) != NULL;
}

static int add_seen(struct cgroup_scope *c, pid_t pid, pid_t nspid)
{
	if (c->nr_seen == c->cap) {
		int cap = c->cap ? 2 * c->cap : 64;
		struct cgroup_pid *n = realloc(c->seen, sizeof(*n) * (size_t)cap);

		if (!n)
			return -1;
		c->seen = n;
		c->cap = cap;
	}
	/* the latest process with an nspid names it, as the runtime's log means */
	if (keymap_put(&c->by_pid, (uint64_t)(uint32_t)pid + 1, (void *)1) ||
	    keymap_put(&c->by_nspid, (uint64_t)(uint32_t)nspid + 1,
		       (void *)(uintptr_t)(c->nr_seen + 1)))
		return -1;
	c->seen[c->nr_seen++] = (struct cgroup_pid){ pid, nspid };
	return 0;
}

/* The innermost NSpid of /proc/PID/status: the pid the process sees itself as. */
static pid_t nspid_of(pid_t pid)
{
	char path[64], line[256];
	pid_t ns = pid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *last;

		if (strncmp(line, "NSpid:", 6))
			continue;
		last = strrchr(line, '\t');
		ns = (pid_t)strtol(last ? last + 1 : line + 6, NULL, 10);
		break;
	}
	if (f)
		fclose(f);
	return ns;
}

int cgroup_scope_poll(struct cgroup_scope *c, pid_t **tids, int *nr)
{
	char path[600], line[32];
	int added = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", c->dir);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		pid_t pid = (pid_t)strtol(line, NULL, 10);

		if (pid <= 0 || seen(c, pid))
			continue;
		if (workload_list_tasks(pid, tids, nr) || add_seen(c, pid, nspid_of(pid))) {
			fclose(f);
			return -1;
		}
		added++;
	}
	if (f)
		fclose(f);
	return added;
}

pid_t cgroup_scope_host_pid(const struct cgroup_scope *c, pid_t nspid)
{
	uintptr_t i = (uintptr_t)keymap_get(&c->by_nspid, (uint64_t)(uint32_t)nspid + 1);

	return i ? c->seen[i - 1].pid : 0;
}

void cgroup_scope_free(struct cgroup_scope *c)
{
	free(c->seen);
	c->seen = NULL;
	c->nr_seen = c->cap = 0;
	keymap_free(&c->by_pid);
	keymap_free(&c->by_nspid);
}
