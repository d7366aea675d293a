/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_HIP_LOG_H
#define GT_HIP_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One line of the HIP runtime's AMD_LOG_LEVEL log (ROCm clr,
 * rocclr/utils/debug.cpp):
 *
 *   ":%d:%-25s:%-4d: %010llu us: %s %s"  level, file, line, time, pid/tid, message
 *
 * The time is CLOCK_MONOTONIC in microseconds (Os::timeNanos() / 1000), the
 * clock of a recording's default "mono" trace clock (the runtime's: in a time
 * namespace, record's, a container's or one the workload made itself, record
 * takes its offset back before the lines become records, as far as it saw each
 * writer: hip-capture.h). The pid/tid part is
 * "[pid:%u tid: 0x%05zx]" at level >= 4 in recent releases (the tid a
 * 20-bit hash, not a kernel tid), "[tid:0x7f..]" or "[7f..]" in older ones,
 * empty below level 4; the file is blank and the line 0 unless AMD_LOG_MASK
 * has LOG_LOCATION. One release printed a stray character after the time
 * ("0476093991d us:"): the parser skips it.
 */
enum hip_kind {
	HIP_OTHER,		/* any other message: kept as a plain log line */
	HIP_QUEUE_CREATE,	/* Created SWq=.. to map on HWq=.. with size .. with priority .. */
	HIP_QUEUE_ACQUIRE,	/* acquireQueue refCount: .. (..) */
	HIP_DISPATCH,		/* SWq=.., HWq=.., id=.., Dispatch Header = .. grid=[..] .. */
	HIP_SHADER_NAME,	/* ShaderName : .. */
	HIP_CMD_ENQUEUED,	/* Command (..) enqueued: .. [to queue: ..] */
	HIP_CMD_COMPLETE,	/* Command .. complete (Wall: .., CPU: .., GPU: .. us) */
	HIP_COPY,		/* a copy with dst=, src=, size= */
	HIP_NR_KINDS
};

/*
 * The line record --hip-log adds to the log when a cap on what it reads of
 * the workload's files was hit; report shows it with the log's summary.
 */
#define HIP_LOG_CAPTURE_NOTE	"gpu-trace: hip log: "

/*
 * The latest line time (us) that is a u64 of ns, as its record's time is: a
 * later one (584 years of uptime, so only a forged line) is no line.
 */
#define HIP_LOG_TS_US_MAX	(UINT64_MAX / 1000)

struct hip_line {
	int level;
	char file[64];			/* "" without LOG_LOCATION */
	int src_line;
	uint64_t ts_us;			/* CLOCK_MONOTONIC, microseconds */
	bool has_pid, has_tid;
	int pid;			/* the runtime's getpid(): its pid namespace's */
	uint64_t tid;			/* a hash or a pthread id, never a kernel tid */
	const char *msg;		/* into the parsed line, to its end */
	enum hip_kind kind;
	/* what the kind carries; 0 when absent */
	uint64_t swq, hwq;		/* create, dispatch: the HSA queue addresses */
	int queue_size, priority, cooperative;	/* create */
	int refcount;			/* acquire */
	uint64_t dispatch_id;		/* dispatch: id=, per queue */
	unsigned int header;		/* dispatch: the AQL packet header */
	uint64_t grid[3], workgroup[3];
	uint64_t kernel_obj, correlation_id;
	uint64_t rptr, wptr;
	char name[128];			/* shader name; command type ("KernelExecution") */
	uint64_t command;		/* enqueued, complete: the command's address */
	uint64_t to_queue;		/* enqueued, newer releases */
	/*
	 * complete: the durations as printed; one runtime build prints an
	 * absolute CLOCK_MONOTONIC time in nanoseconds as Wall (larger than the
	 * line's own time in us: no duration since boot can be), read as the
	 * command's start (wall_us: from it to the line). A CPU or GPU of 0 may
	 * be a command under a microsecond or a build that does not measure:
	 * hip-runtime.c decides by the process's lines together.
	 */
	int64_t wall_us, cpu_us, gpu_us;
	bool has_wall, has_cpu, has_gpu;
	bool wall_absolute;
	uint64_t copy_size;		/* copy */
};

/**
 * hip_log_parse - parses one NUL-terminated line (no newline). 0, or -1 when it is not a HIP
 * log line (no ":level:file:line: time us:" header); out->msg points into line.
 */
int hip_log_parse(const char *line, struct hip_line *out);
/** hip_kind_name - a HIP log line's kind ("queue", "acquire", ..., "log" for the rest) */
const char *hip_kind_name(enum hip_kind kind);

#endif
