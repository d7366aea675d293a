// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracefs/buffer-ladder.h"
#include "capture/env-check.h"
#include "capture/kfd-probes.h"
#include "capture/nvidia-probes.h"
#include "tracefs/event-select.h"
#include "tracefs/presets.h"
#include "tracefs/saved-files.h"
#include "tracefs/session.h"
#include "tracefs/tracer-setup.h"

#define CAP_SYS_ADMIN	21
#define CAP_PERFMON	38

const char *env_check_status_name(enum check_status s)
{
	return s == CHECK_OK ? "OK" : s == CHECK_WARN ? "WARN" : "FAIL";
}

static struct check_finding *add(struct check_report *r, const char *name,
				 enum check_status st, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static struct check_finding *add(struct check_report *r, const char *name,
				 enum check_status st, const char *fix, const char *fmt, ...)
{
	struct check_finding *f;
	va_list ap;

	if (r->nr == CHECK_MAX_FINDINGS)
		return NULL;
	f = &r->findings[r->nr++];
	f->name = name;
	f->status = st;
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
	snprintf(f->fix, sizeof(f->fix), "%s", fix ? fix : "");
	return f;
}

static unsigned long long cap_eff(void)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	if (f)
		fclose(f);
	return caps;
}

static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = text ? strstr(text, word) : NULL; p; p = strstr(p + 1, word))
		if ((p == text || strchr(" [\n", p[-1])) && strchr(" ]\n", p[n]))
			return true;
	return false;
}

static void check_tracer(struct check_report *r, const char *dir, const char *tracer)
{
	int why = 0;

	switch (tracer_probe(dir, tracer, &why)) {
	case TRACER_PERMITTED:
		add(r, tracer, CHECK_OK, NULL, "%s tracer available and permitted", tracer);
		break;
	case TRACER_TOP_LEVEL_ONLY:
		add(r, tracer, CHECK_WARN, "nothing to do: record moves to the top-level buffer and restores it",
		    "%s works only in the top-level buffer on this kernel (before 6.11)", tracer);
		break;
	case TRACER_ABSENT:
		add(r, tracer, CHECK_WARN, "use a kernel built with CONFIG_FUNCTION_GRAPH_TRACER/CONFIG_FUNCTION_TRACER for KFD call graphs",
		    "%s tracer not built into this kernel; record falls back to events only", tracer);
		break;
	case TRACER_REFUSED:
		add(r, tracer, CHECK_WARN, "check lockdown, a hypervisor or seccomp policy forbidding ftrace; events still record",
		    "%s tracer listed but refused by the kernel (%s); record falls back to events only",
		    tracer, strerror(why));
		break;
	}
}

static void check_gpu_systems(struct check_report *r)
{
	char present[256] = "";
	int i, nr, found = 0, drivers = 0;

	for (i = 0; gpu_event_systems[i]; i++) {
		char **ev = event_glob_expand(gpu_event_systems[i], "*", &nr);

		event_string_list_free(ev, nr);
		if (!nr)
			continue;
		found++;
		drivers += is_gpu_driver_system(gpu_event_systems[i]);
		snprintf(present + strlen(present), sizeof(present) - strlen(present), "%s%s",
			 found > 1 ? ", " : "", gpu_event_systems[i]);
	}
	/* dma_fence alone is every kernel's: no driver, no jobs (as record and top say) */
	if (drivers)
		add(r, "gpu-events", CHECK_OK, NULL, "GPU event systems: %s", present);
	else
		add(r, "gpu-events", CHECK_WARN, "load the GPU driver (modprobe amdgpu, i915, xe, virtio-gpu) before recording",
		    "no GPU driver's or scheduler's events on this kernel%s%s%s: a recording holds no jobs",
		    found ? " (only " : "", present, found ? ")" : "");
}

static void check_presets(struct check_report *r)
{
	int i, j, nr;

	for (i = 0; presets[i].name; i++) {
		char missing[512] = "", name[256];
		int have = 0, total = 0;

		for (j = 0; presets[i].events[j]; j++) {
			struct event_spec sp;
			char **ev;

			if (event_spec_parse(presets[i].events[j], true, &sp, NULL))
				continue;
			ev = event_glob_expand(sp.system, sp.event, &nr);
			event_string_list_free(ev, nr);
			total++;
			event_spec_missing_name(&sp, name, sizeof(name));
			/* a preset's several patterns of one missing system name it once */
			if (nr)
				have++;
			else if (!event_name_listed(missing, name))
				snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
					 "%s%s", missing[0] ? ", " : "", name);
			free(sp.system);
			free(sp.event);
			free(sp.filter);
		}
		add(r, "preset", have == total ? CHECK_OK : CHECK_WARN,
		    have == total ? NULL : "load the driver the preset is for, or pick another preset",
		    "preset %s: %s%s%s", presets[i].name,
		    have == total ? "complete" : have ? "partial, lacks " : "empty, lacks ",
		    have == total ? "" : missing, "");
	}
}

static void check_modules(struct check_report *r)
{
	bool kfd = access("/dev/kfd", F_OK) == 0;
	bool amdgpu = access("/sys/module/amdgpu", F_OK) == 0;
	bool modules = access("/proc/modules", F_OK) == 0;

	add(r, "kfd", kfd ? CHECK_OK : CHECK_WARN, kfd ? NULL : "modprobe amdgpu (KFD is part of it)",
	    kfd ? "/dev/kfd present (ROCm compute queues can be traced)" : "no /dev/kfd: amdgpu is not loaded");
	if (amdgpu)
		add(r, "mod-amdgpu", CHECK_OK, NULL, ":mod:amdgpu function filters possible (amdgpu loaded)");
	else
		add(r, "mod-amdgpu", CHECK_WARN,
		    modules ? "modprobe amdgpu before recording with --preset amd" :
			      "use a kernel with loadable modules and amdgpu",
		    ":mod:amdgpu filters match nothing now: %s",
		    modules ? "amdgpu is not loaded" : "this kernel has no loadable modules");
}

static void check_buffer(struct check_report *r)
{
	unsigned long avail = buffer_mem_available_kb(), cap, rung = 0;
	int cpus = (int)sysconf(_SC_NPROCESSORS_CONF), i;

	cap = buffer_safe_cap_kb(avail, cpus);
	for (i = 0; i < BUFFER_LADDER_NR_RUNGS; i++)
		if (buffer_ladder_rungs_kb[i] <= cap)
			rung = buffer_ladder_rungs_kb[i];
	if (rung)
		add(r, "buffer", CHECK_OK, NULL,
		    "buffer ladder can reach %lu KB per CPU x %d CPU%s = %lu MB of %lu MB available",
		    rung, cpus, cpus == 1 ? "" : "s", rung * (unsigned long)cpus / 1024, avail / 1024);
	else
		add(r, "buffer", CHECK_WARN, "free memory, or pass a smaller -b",
		    "1/8 of MemAvailable (%lu MB) is below 4 MB per CPU x %d CPU%s: record keeps the kernel's size",
		    avail / 1024, cpus, cpus == 1 ? "" : "s");
}

static void check_tracefs_files(struct check_report *r, const char *dir)
{
	char *clocks = trace_file_read(dir, "trace_clock");
	char path[4200];
	bool pid, fork;

	snprintf(path, sizeof(path), "%s/set_event_pid", dir);
	pid = access(path, F_OK) == 0;
	snprintf(path, sizeof(path), "%s/options/event-fork", dir);
	fork = access(path, F_OK) == 0;
	add(r, "pid-follow", pid && fork ? CHECK_OK : CHECK_WARN,
	    pid && fork ? NULL : "use -a (system-wide) and filter by pid in the report",
	    "set_event_pid %s, event-fork %s", pid ? "present" : "missing", fork ? "present" : "missing");
	add(r, "clock", has_word(clocks, "mono") ? CHECK_OK : CHECK_WARN,
	    has_word(clocks, "mono") ? NULL : "pass -C with a clock from trace_clock",
	    "trace clock mono %s", has_word(clocks, "mono") ? "available" : "missing");
	free(clocks);
}

static void check_top_level(struct check_report *r, const char *dir)
{
	char *tracer = trace_file_read(dir, "current_tracer");
	char *events = trace_file_read(dir, "set_event");
	char inst[4200], stale[256] = "";
	bool busy = (tracer && strncmp(tracer, "nop", 3)) || (events && events[0]);
	char **names;
	int i;

	add(r, "top-level", busy ? CHECK_WARN : CHECK_OK,
	    busy ? "fine for record's own instance; --top-level would fight the other user" : NULL,
	    busy ? "another tracer uses the top-level buffer (tracer %s, events %s)" :
		   "top-level buffer idle (tracer %s%s)",
	    tracer ? strtok(tracer, "\n") : "?", busy && events && events[0] ? "enabled" : "");
	free(tracer);
	free(events);
	snprintf(inst, sizeof(inst), "%s/instances", dir);
	names = tracefs_instances(NULL);
	for (i = 0; names && names[i]; i++)
		if (!strncmp(names[i], GT_INSTANCE_PREFIX, strlen(GT_INSTANCE_PREFIX)))
			snprintf(stale + strlen(stale), sizeof(stale) - strlen(stale), "%s%s",
				 stale[0] ? ", " : "", names[i]);
	tracefs_list_free(names);
	add(r, "instances", stale[0] ? CHECK_WARN : CHECK_OK,
	    stale[0] ? "if no gpu-trace is running: sudo gpu-trace reset" : NULL,
	    stale[0] ? "gpu-trace instances present: %s" : "no gpu-trace instances left over%s",
	    stale);
}

static void check_kfd_probes(struct check_report *r, const char *dir)
{
	const char *why = kfd_probes_unavailable(dir);
	enum kfd_id_source ids;

	if (why) {
		add(r, "kfd-probes", CHECK_WARN,
		    "use a kernel with CONFIG_KPROBE_EVENTS and amdgpu loaded; until then KFD queues come from function records, without their values",
		    "KFD queue probes (--kfd-args, --preset amd) not possible: %s", why);
		return;
	}
	ids = kfd_probes_id_source_here();
	add(r, "kfd-probes", ids == KFD_ID_NONE ? CHECK_WARN : CHECK_OK,
	    ids == KFD_ID_NONE ? "use a kernel whose return probes read entry arguments (2024+), or one with CONFIG_DYNAMIC_DEBUG, for queue ids" : NULL,
	    "KFD queue probes possible (--kfd-args, --preset amd); queue ids and doorbells from %s",
	    kfd_id_source_name(ids));
}

/* defines the probes in this process's group and removes them at once: what record would get */
static void check_nvidia_probes(struct check_report *r, const char *dir)
{
	const char *why = nv_probes_unavailable(dir);
	bool xid = tracefs_event_file_exists(NULL, "nvidia", "nvidia_dev_xid", "format");
	struct gt_error err = { 0 };
	struct nv_probes p;

	if (why) {
		add(r, "nvidia-probes", CHECK_WARN,
		    strstr(why, "kprobe_events") ? "use a kernel with CONFIG_KPROBE_EVENTS, as root, without lockdown" :
					 "modprobe nvidia (and nvidia-uvm) before recording with --preset nvidia",
		    "NVIDIA probes (--preset nvidia) not possible: %s", why);
		return;
	}
	if (nv_probes_create(&p, (int)getpid(), &err)) {
		add(r, "nvidia-probes", CHECK_WARN, "see the kernel's words; --preset nvidia records Xids only",
		    "NVIDIA probes (--preset nvidia) not possible: %s", err.msg);
		return;
	}
	nv_probes_remove(&p, NULL);
	add(r, "nvidia-probes", p.missing[0] || !p.statuses || !xid ? CHECK_WARN : CHECK_OK,
	    p.missing[0] || !p.statuses || !xid ? "record --preset nvidia records what is there and names the rest" : NULL,
	    "NVIDIA probes possible on %s (--preset nvidia): %d; RM control statuses %s; Xids %s%s%s",
	    p.module[0] ? p.module : "the kernel", p.nr_defined,
	    p.statuses ? "read at return" : "not read (return probes read entry arguments from 6.10 on)",
	    xid ? "from nvidia:nvidia_dev_xid" : "not traced (no nvidia:nvidia_dev_xid in this driver build: it came in 575)",
	    p.missing[0] ? "; not set: " : "", p.missing);
}

void env_check_run(struct check_report *r)
{
	unsigned long long caps = cap_eff();
	bool priv = geteuid() == 0 || (caps & (1ULL << CAP_SYS_ADMIN)) ||
		    (caps & (1ULL << CAP_PERFMON));
	char dir[2048], *lockdown;

	memset(r, 0, sizeof(*r));
	add(r, "privileges", priv ? CHECK_OK : CHECK_FAIL, priv ? NULL : "run with sudo",
	    priv ? "%s" : "not root and no CAP_SYS_ADMIN or CAP_PERFMON%s",
	    priv ? (geteuid() == 0 ? "running as root" : "CAP_SYS_ADMIN or CAP_PERFMON held") : "");
	lockdown = trace_file_read("/sys/kernel/security", "lockdown");
	if (lockdown && strstr(lockdown, "[confidentiality]"))
		add(r, "lockdown", CHECK_FAIL, "boot without lockdown=confidentiality",
		    "kernel lockdown is confidentiality: tracefs cannot be used");
	else if (lockdown && strstr(lockdown, "[integrity]"))
		add(r, "lockdown", CHECK_WARN, "events still work; boot without lockdown for kprobes",
		    "kernel lockdown is integrity");
	else
		add(r, "lockdown", CHECK_OK, NULL, "kernel lockdown %s", lockdown ? "off" : "not configured");
	free(lockdown);

	if (!session_mounted_tracefs(dir, sizeof(dir))) {
		add(r, "tracefs", priv ? CHECK_WARN : CHECK_FAIL, "gpu-trace record mounts it (as root)",
		    "tracefs is not mounted");
		if (!priv || access("/sys/kernel/tracing", F_OK))
			return;
		/* the rest needs a mounted tracefs: report what can be said */
		snprintf(dir, sizeof(dir), "/sys/kernel/tracing");
	} else if (access(dir, W_OK)) {
		add(r, "tracefs", CHECK_FAIL, "run with sudo", "tracefs at %s is not writable: %s",
		    dir, strerror(errno));
		return;
	} else {
		add(r, "tracefs", CHECK_OK, NULL, "tracefs mounted at %s and writable", dir);
	}
	if (access(dir, W_OK))
		return;
	tracefs_set_tracing_dir(dir);
	check_tracer(r, dir, "function");
	check_tracer(r, dir, "function_graph");
	check_gpu_systems(r);
	check_presets(r);
	check_modules(r);
	check_kfd_probes(r, dir);
	check_nvidia_probes(r, dir);
	check_buffer(r);
	check_tracefs_files(r, dir);
	check_top_level(r, dir);
}

int env_check_exit_code(const struct check_report *r)
{
	int i, code = 0;

	for (i = 0; i < r->nr; i++) {
		if (r->findings[i].status == CHECK_FAIL)
			return 2;
		if (r->findings[i].status == CHECK_WARN)
			code = 1;
	}
	return code;
}
