// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "cmd.h"

static const char record_usage[] =
"usage: gpu-trace record [options] [-- command [args...]]\n"
"\n"
"Records GPU driver events in a private tracefs instance while the command runs\n"
"(or system-wide with -a) and writes a trace-cmd v6 file that trace-cmd report,\n"
"KernelShark and gpuvis read. tracefs is left exactly as it was found.\n"
"\n"
"What to record:\n"
"  --preset P          amd, drm, i915, xe, virtio or all-gpu (default when no -e):\n"
"                      enables the preset's events this kernel has, names the rest\n"
"  -e SYS[:EVENT]      enable events (globs allowed; repeatable); an event the\n"
"                      kernel lacks is an error unless --ignore-missing\n"
"  -f FILTER           kernel filter for the -e just before it\n"
"  --ignore-missing    skip -e events this kernel lacks instead of failing\n"
"  -p TRACER           function_graph, function or nop; falls back\n"
"                      function_graph -> function -> events only, saying why\n"
"  -l FILTER           function filter, e.g. ':mod:amdgpu' or 'kfd_*' (repeatable)\n"
"  -g FUNC             function_graph root function (repeatable)\n"
"  --max-graph-depth N function_graph depth limit\n"
"  --strict            fail instead of falling back to a lesser tracer\n"
"\n"
"How:\n"
"  -b KB               per-CPU buffer size; default: climb 4, 8, 12, 16 MB while the\n"
"                      kernel grants it, never above 1/8 of MemAvailable in total;\n"
"                      a refused -b walks down the same ladder\n"
"  -C CLOCK            trace clock (default mono, as CLOCK_MONOTONIC in user space)\n"
"  -o FILE             output file (default trace.dat); written under a temp name\n"
"                      and renamed when complete; an existing FILE is an error\n"
"  --force             replace an existing -o FILE (-f is the event filter, as in\n"
"                      trace-cmd)\n"
"  --top-level         record in the top-level buffer (kernels before 6.11 allow\n"
"                      function_graph only there); its settings are restored\n"
"\n"
"Whom:\n"
"  -- command args     run the command and record while it runs. GPU event\n"
"                      systems (gpu_scheduler, dma_fence, amdgpu, drm, kfd, ...)\n"
"                      are recorded system-wide: a job runs in the scheduler's\n"
"                      kthread or workqueue and completes in interrupts, and\n"
"                      other processes' jobs are why yours waited. The tracer\n"
"                      and other events (sched, syscalls, ...) follow the command\n"
"                      and its children; its pid tree is recorded so report marks\n"
"                      its jobs (buffer instance 'workload' in the file)\n"
"  --system-wide-events  record the non-GPU events of every process too\n"
"  --no-follow         follow the command's own pid only, not its children\n"
"  -P PID              attach to running processes and all their threads\n"
"                      (repeatable; comma lists ok), scoped as a command is,\n"
"                      until they exit, Ctrl-C or --duration\n"
"  --cgroup PATH       scope to a cgroup's processes as they join it (polled every\n"
"                      100 ms; PATH absolute or under the cgroup2 mount), with or\n"
"                      without a command, until Ctrl-C, --duration or the command ends\n"
"  --container NAME    the same for a docker or podman container's cgroup:\n"
"                      record --container c -- docker exec c python3 gemm.py\n"
"  -a                  everything system-wide (until Ctrl-C, --duration, or the\n"
"                      command ends; a command's jobs are still marked)\n"
"  --duration SECONDS  stop after this long\n"
"  --as-root           under sudo, run the command as root instead of as the\n"
"                      user who ran sudo (the default drops to SUDO_UID/SUDO_GID)\n"
"  --hip-log[=LEVEL]   keep the HIP runtime's log (AMD_LOG_LEVEL, default 4: every\n"
"                      dispatch) in the file, each line a print record at its own\n"
"                      time in buffer 'hip-log'; report summarizes it\n"
"  --kfd-args          (on with --preset amd) kprobes on KFD's queue ioctls and\n"
"                      eviction paths in a group gpu_trace_<pid>, removed after:\n"
"                      queue type, GPU, ring, priority, result, queue id and\n"
"                      doorbell (a return probe where the kernel allows; else the\n"
"                      create ioctl's pr_debug lines); no kprobes: one line says\n"
"                      so and the function records remain (--strict: an error)\n"
"  --no-kfd-args       not even with --preset amd\n"
"  --kfd-snapshot MS   KFD's debugfs (kfd/mqds, kfd/hqds) every MS milliseconds\n"
"                      too; with --kfd-args it is snapshotted at the start and\n"
"                      the end (buffer 'kfd-debugfs'; report decodes the MQDs)\n"
"\n"
"Exit status: the command's own (128+N if killed by signal N); 125 if gpu-trace\n"
"failed, 126/127 if the command cannot run or is not found.\n";

static const char report_usage[] =
"usage: gpu-trace report [options] [[-i] FILE]     (FILE defaults to trace.dat)\n"
"       gpu-trace report --format perfetto|html [options] FILE [--ts-offset D] FILE...\n"
"\n"
"Decodes GPU driver events of a trace-cmd .dat (v6 or v7, from gpu-trace or\n"
"trace-cmd record) into jobs and prints: the recording (kernel, CPUs, clock,\n"
"buffer, lost events), per-ring job counts, busy %, queue depth, dependency waits\n"
"and latency statistics, the slowest jobs, per-process and per-client summaries,\n"
"and KFD queue operations.\n"
"\n"
"Sections (default: all of the summary):\n"
"  --jobs              every job: submit, queued, run, hw start, done and latencies\n"
"  --events            every record decoded, like trace-cmd report (text only)\n"
"  --rings             the per-ring table only\n"
"  --queues            the KFD queue operations only\n"
"  --top N             slowest jobs shown in the summary (default 10)\n"
"\n"
"Output:\n"
"  --format F          text (default), csv, json (schema: man gpu-trace-report)\n"
"                      perfetto: a Perfetto trace (open in ui.perfetto.dev), or\n"
"                      html: one page with a zoomable timeline, opens offline\n"
"  -o, --output FILE   write there (complete or not at all) instead of stdout\n"
"  --hip-log FILE      add the HIP runtime's log captured apart (AMD_LOG_LEVEL_FILE)\n"
"                      to the summary (repeatable)\n"
"  --ts-offset D       move the file named before it by D (-1.5s, 250us): several\n"
"                      files go into one perfetto trace or html page, a group each\n"
"\n"
"Filters (jobs and --events):\n"
"  --pid PID, --comm COMM   the submitting process\n"
"  --workload-only          jobs of the recorded workload (record -- cmd or -P)\n"
"  --ring NAME              one ring, e.g. gfx_0.0.0\n"
"  --from T, --to T         window: seconds as trace-cmd prints them, or +S from the start\n"
"  --min-latency D          jobs whose total is at least D (250us, 2ms, 1.5s; default unit us)\n"
"\n"
"Latencies: submit->queue (ioctl to scheduler), queue->run (scheduler wait),\n"
"dep wait (until the last dependency signalled), run->hw start (waiting behind\n"
"earlier jobs on the ring: hw start = max(run, previous done)), exec, total.\n"
"behind: how long a job waited on its ring while the ring ran other processes'\n"
"jobs (outside the workload, for the workload's jobs), and how many.\n"
"Flags: W the recorded workload's, U unfinished, L in flight while events were\n"
"lost (shown, not counted), F done taken from dma_fence_signaled, D a dependency\n"
"outside the trace.\n"
"\n"
"Exit status: 0; 2 when the file holds no GPU events; 125 on an error.\n";

static const char compare_usage[] =
"usage: gpu-trace compare [options] A B\n"
"\n"
"Is B slower than A, on which ring and stage, beyond noise? A and B are each a\n"
".dat or a directory of them (the runs of one case, e.g. scripts/gpu-trace-experiment's\n"
"results/EXP/CASE, searched four levels deep). Per ring (by name) and stage\n"
"(submit->queue, queue->run, dep wait, run->hw, exec, total): A's and B's p50,\n"
"p90 and p99 over every job, the change of the median, and a verdict:\n"
"  with 2+ runs a side: B - A of the runs' medians against a bootstrap 95%\n"
"  interval over the runs (their own spread is the noise)\n"
"  with one run a side: a Mann-Whitney rank test over the jobs (|z| > 3.29);\n"
"  it cannot see run-to-run noise, so repeat the runs\n"
"A change smaller than --min-change of A's median is never called. Also: jobs\n"
"and busy % per ring, lost events, and HIP dispatches per kernel when both\n"
"sides have the runtime's log (record --hip-log).\n"
"\n"
"  --format F          text (default) or json (schema: man gpu-trace-compare)\n"
"  --min-change PCT    smallest change called, in % of A's median (default 5)\n"
"\n"
"Exit status: 0 whatever the verdict; 125 when an input cannot be read.\n";

static const char top_usage[] =
"usage: gpu-trace top [options] [-a | -P PID | -- command [args...]]\n"
"\n"
"A live view of the GPU jobs on this machine, from the scheduler, driver and\n"
"fence events of a private tracefs instance (left as found afterwards),\n"
"joined into jobs as gpu-trace report joins them. Every interval, per ring:\n"
"jobs/s, busy %, jobs queued and on the hardware, jobs that waited on a\n"
"dependency, queue->run and exec p50/p99 over the interval, and since the\n"
"start jobs and queue->run p99; below, per process and per DRM client id\n"
"(6.17+): jobs/s and average wait.\n"
"\n"
"  --preset P          events of a preset (default all-gpu; events only)\n"
"  -e SYS[:EVENT]      these events instead (repeatable)\n"
"  -d SECONDS          interval (default 1, at least 0.1)\n"
"  -n COUNT            stop after COUNT intervals\n"
"  --sort KEY          jobs (default), busy, wait or name\n"
"  --json              one JSON object per interval on stdout, no screen\n"
"  -b KB               per-CPU buffer size (default: the ladder, as record)\n"
"  -a                  every process (the default)\n"
"  -P PID              stop when these processes end (GPU jobs of all are shown)\n"
"  -- command args     run the command; stop when it ends\n"
"\n"
"Keys: q quit, s next sort key, p pause the screen, r reset the statistics.\n"
"\n"
"Exit status: 0 (the command's own with a command); 2 when the kernel has no\n"
"GPU event system to watch; 125 on an error.\n";

static const char list_usage[] =
"usage: gpu-trace list [-e] [-t] [--preset P]\n"
"\n"
"Shows what this kernel offers for GPU tracing.\n"
"  -e            GPU-related event systems and their events\n"
"  -t            tracers (available, and whether the kernel permits them)\n"
"  --preset P    what preset P would enable here and what it lacks\n"
"Without options: systems, tracers and every preset's coverage.\n";

static const char check_usage[] =
"usage: gpu-trace check [--json]\n"
"\n"
"Says, line by line with OK, WARN or FAIL and a fix for each, what this machine\n"
"lets gpu-trace record: privileges, lockdown, tracefs, the function and\n"
"function_graph tracers (tried in a scratch instance), GPU event systems and\n"
"which presets are complete, /dev/kfd, :mod:amdgpu filters, the buffer memory the\n"
"ladder would use, pid following, the mono clock, another user of the top-level\n"
"buffer and leftover gpu-trace instances. It changes nothing.\n"
"\n"
"Exit status: 0 all OK, 1 warnings (recording works, with less), 2 cannot record.\n";

static const char reset_usage[] =
"usage: gpu-trace reset\n"
"\n"
"Removes tracefs instances named gpu-trace-<pid> whose gpu-trace is no longer\n"
"running, and restores top-level tracefs files a killed --top-level record\n"
"changed (from its journal in /run/gpu-trace). Running recordings are left alone.\n"
"gpu-trace record does the same when it starts.\n";

const char *cmd_usage(const char *name)
{
	if (!strcmp(name, "record"))
		return record_usage;
	if (!strcmp(name, "report"))
		return report_usage;
	if (!strcmp(name, "top"))
		return top_usage;
	if (!strcmp(name, "compare"))
		return compare_usage;
	if (!strcmp(name, "list"))
		return list_usage;
	if (!strcmp(name, "check"))
		return check_usage;
	if (!strcmp(name, "reset"))
		return reset_usage;
	return NULL;
}
