// SPDX-License-Identifier: GPL-2.0
/*
 * srun --gpu-trace[=DIR]: gpu-trace records every node of a job step.
 *
 * A SPANK plugin (spank(8)): in slurmstepd, as root, before the step's tasks
 * are forked (init_post_opt), each node starts
 *     gpu-trace record -a -o DIR/host=NODE/gpu-trace-JOB.STEP.dat
 * and waits until it says it traces; when the step ends (exit) it stops it with
 * SIGINT and waits for the file. DIR is the option's, relative to the job's
 * submit directory, default "gpu-trace"; the file and its folders are the
 * job user's (record writes as SUDO_UID says), so a directory of many steps
 * and nodes is one Hive-style table to `gpu-trace fleet` and the engines.
 * Each file names its host and carries clock pairs, so report puts all the
 * nodes on one UTC axis.
 *
 * plugstack.conf, as the administrator sets it (the binary is never looked
 * up in the job's environment):
 *     optional /usr/local/lib/gpu-trace/gpu_trace_spank.so gpu_trace=/usr/local/bin/gpu-trace
 * with preset=NAME to record a preset's events instead of the default.
 * A recorder that fails is said in the step's log; the job runs on.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <slurm/spank.h>

SPANK_PLUGIN(gpu_trace, 1);

#ifndef GPU_TRACE_BIN
#define GPU_TRACE_BIN "/usr/local/bin/gpu-trace"
#endif

/* steps past this (batch, extern, interactive) are Slurm's own, not the user's srun */
#define GT_SPANK_MAX_STEP	0xfffffff0U
#define GT_START_TIMEOUT_S	20
#define GT_STOP_TIMEOUT_S	120

static int enabled;
static char dir_opt[PATH_MAX] = "gpu-trace";
static char gpu_trace_bin[PATH_MAX] = GPU_TRACE_BIN;
static char preset[64];
static pid_t recorder = -1;
static int log_fd = -1;
static char out_path[PATH_MAX];

static int opt_gpu_trace(int val, const char *optarg, int remote)
{
	(void)val;
	(void)remote;
	enabled = 1;
	if (optarg && *optarg) {
		if (strlen(optarg) >= sizeof(dir_opt)) {
			slurm_error("gpu-trace: --gpu-trace=%.40s...: the path is too long", optarg);
			return -1;
		}
		snprintf(dir_opt, sizeof(dir_opt), "%s", optarg);
	}
	return 0;
}

struct spank_option spank_options[] = {
	{ "gpu-trace", "DIR",
	  "record the GPU driver's events on every node of the step: DIR/host=NODE/gpu-trace-JOB.STEP.dat (DIR default ./gpu-trace)",
	  2, 0, opt_gpu_trace },
	SPANK_OPTIONS_TABLE_END
};

/* plugstack.conf's arguments: gpu_trace=ABSOLUTE_PATH, preset=NAME */
int slurm_spank_init(spank_t sp, int ac, char **av)
{
	(void)sp;
	for (int i = 0; i < ac; i++) {
		if (!strncmp(av[i], "gpu_trace=", 10) && av[i][10] == '/' &&
		    strlen(av[i] + 10) < sizeof(gpu_trace_bin)) {
			snprintf(gpu_trace_bin, sizeof(gpu_trace_bin), "%s", av[i] + 10);
		} else if (!strncmp(av[i], "preset=", 7) && strlen(av[i] + 7) < sizeof(preset) &&
			   strspn(av[i] + 7, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(av[i] + 7)) {
			snprintf(preset, sizeof(preset), "%s", av[i] + 7);
		} else {
			slurm_error("gpu-trace: plugstack.conf argument '%s' is not gpu_trace=/ABSOLUTE/PATH or preset=NAME",
				    av[i]);
			return -1;
		}
	}
	return 0;
}

/* mkdir -p, as whoever runs it */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0750) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, 0750) && errno != EEXIST ? -1 : 0;
}

/*
 * The recorder said "recording system-wide" on its standard error (the memory file, read
 * without moving its offset): it traces, and a stop now still writes its file. (A new
 * instance reads tracing_on 1 before record has set it up: no sign to go by.)
 */
static int tracing(void)
{
	char buf[8192];
	ssize_t n = pread(log_fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, "recording system-wide") != NULL;
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* What the recorder said (its standard error, kept in a memory file), a line each to the step's log */
static void say_log(int failed)
{
	char buf[4096];
	ssize_t n;

	if (log_fd < 0)
		return;
	if (lseek(log_fd, 0, SEEK_SET) == 0 && (n = read(log_fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
			if (failed)
				slurm_error("gpu-trace: %s", line);
			else
				slurm_info("gpu-trace: %s", line);
		}
	}
	close(log_fd);
	log_fd = -1;
}

/* The recorder: folders made as the job's user, then record as root writing the file as theirs */
static void child(uid_t uid, gid_t gid, const char *dir)
{
	char uid_s[16], gid_s[16], path[PATH_MAX];
	char *env[] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin", uid_s, gid_s, NULL };
	char *argv[] = { gpu_trace_bin, "record", "-a", "-o", out_path,
			 preset[0] ? "--preset" : NULL, preset, NULL };
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	sigset_t none;

	/*
	 * slurmstepd's threads block signals, and a child inherits its mask: a
	 * recorder with SIGINT blocked would never hear the step end
	 */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);

	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(log_fd, 2) < 0)
		_exit(126);
	/* slurmstepd's own descriptors stay its own */
	for (int i = 3; i < 1024; i++)
		close(i);
	setsid();
	snprintf(path, sizeof(path), "%s", dir);
	if (setegid(gid) || seteuid(uid))
		_exit(126);
	if (make_dirs(path)) {
		fprintf(stderr, "cannot make %s as uid %d: %s\n", dir, (int)uid, strerror(errno));
		_exit(126);
	}
	if (seteuid(0) || setegid(0))
		_exit(126);
	snprintf(uid_s, sizeof(uid_s), "SUDO_UID=%d", (int)uid);
	snprintf(gid_s, sizeof(gid_s), "SUDO_GID=%d", (int)gid);
	execve(gpu_trace_bin, argv, env);
	fprintf(stderr, "cannot run %s: %s\n", gpu_trace_bin, strerror(errno));
	_exit(127);
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	char base[PATH_MAX] = "", host[64], dir[PATH_MAX];
	uint32_t job = 0, step = 0;
	uid_t uid;
	gid_t gid;
	int status;

	(void)ac;
	(void)av;
	if (!enabled || !spank_remote(sp))
		return 0;
	if (spank_get_item(sp, S_JOB_UID, &uid) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_GID, &gid) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_ID, &job) != ESPANK_SUCCESS ||
	    spank_get_item(sp, S_JOB_STEPID, &step) != ESPANK_SUCCESS) {
		slurm_error("gpu-trace: cannot read the step's user, job and step ids; not recording");
		return 0;
	}
	if (step >= GT_SPANK_MAX_STEP)
		return 0;
	if (dir_opt[0] != '/' &&
	    spank_getenv(sp, "SLURM_SUBMIT_DIR", base, sizeof(base)) != ESPANK_SUCCESS)
		snprintf(base, sizeof(base), "/tmp");
	if (gethostname(host, sizeof(host)))
		snprintf(host, sizeof(host), "unknown");
	host[strcspn(host, ".")] = '\0';
	if (snprintf(dir, sizeof(dir), "%s%s%s/host=%s", dir_opt[0] == '/' ? "" : base,
		     dir_opt[0] == '/' ? "" : "/", dir_opt, host) >= (int)sizeof(dir) ||
	    snprintf(out_path, sizeof(out_path), "%s/gpu-trace-%u.%u.dat", dir, job, step) >=
		    (int)sizeof(out_path)) {
		slurm_error("gpu-trace: the output path under %s is too long; not recording", dir_opt);
		return 0;
	}
	log_fd = memfd_create("gpu-trace-spank", MFD_CLOEXEC);
	if (log_fd < 0) {
		slurm_error("gpu-trace: cannot make a log for the recorder: %s; not recording", strerror(errno));
		return 0;
	}
	recorder = fork();
	if (recorder < 0) {
		slurm_error("gpu-trace: cannot fork the recorder: %s; not recording", strerror(errno));
		say_log(1);
		return 0;
	}
	if (recorder == 0)
		child(uid, gid, dir);
	/* the tasks start once it traces, or not at all if it failed */
	for (int i = 0; i < GT_START_TIMEOUT_S * 20; i++) {
		if (tracing()) {
			slurm_info("gpu-trace: recording node %s of step %u.%u into %s", host, job, step, out_path);
			return 0;
		}
		if (waitpid(recorder, &status, WNOHANG) == recorder) {
			recorder = -1;
			slurm_error("gpu-trace: the recorder on %s exited before tracing (status %d)", host, status);
			say_log(1);
			return 0;
		}
		sleep_ms(50);
	}
	slurm_error("gpu-trace: the recorder on %s is not tracing after %d s; the step runs without waiting for it",
		    host, GT_START_TIMEOUT_S);
	return 0;
}

int slurm_spank_exit(spank_t sp, int ac, char **av)
{
	int status = 0, i;

	(void)ac;
	(void)av;
	if (!spank_remote(sp) || recorder <= 0)
		return 0;
	kill(recorder, SIGINT);
	for (i = 0; i < GT_STOP_TIMEOUT_S * 20; i++) {
		if (waitpid(recorder, &status, WNOHANG) == recorder)
			break;
		sleep_ms(50);
	}
	if (i == GT_STOP_TIMEOUT_S * 20) {
		kill(recorder, SIGKILL);
		waitpid(recorder, &status, 0);
		slurm_error("gpu-trace: the recorder did not finish %s in %d s; killed (gpu-trace reset cleans up)",
			    out_path, GT_STOP_TIMEOUT_S);
	}
	recorder = -1;
	/* record's own status: 0, or 128 + SIGINT when stopped by it without a command */
	say_log(!(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 128 + SIGINT)));
	return 0;
}
