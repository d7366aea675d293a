/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_GPU_HANGS_H
#define GT_GPU_HANGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/timeline.h"

/*
 * Ring timeouts and GPU resets as amdgpu tells them: no tracepoint marks a
 * hang, the kernel's log does (printk:console, which record takes with the
 * GPU events): "ring gfx_0.0.0 timeout, signaled seq=N, emitted seq=M" (or
 * "..., but soft recovered"), the process it blames, a per-ring reset
 * ("Ring X reset succeeded" / "failure", 6.12+) and a whole-GPU reset
 * ("GPU reset begin!" ... "GPU reset(N) succeeded!" / "failed", "GPU reset
 * end with ret = R"), with amdgpu_reset_reg_dumps records in between. At the
 * timeout line, the jobs in flight on that ring are what hung: the job
 * join lists them and flags them H.
 *
 * xe says it differently: "xe DEV: [drm] GT0: Timedout job: seqno=S,
 * lrc_seqno=L, guc_id=G, flags=0x.. in PROCESS [PID]" in the log and the
 * xe_sched_job_timedout tracepoint just after; both name the job by its
 * GuC queue and seqno, not by the scheduler's ring, so such a hang is
 * listed as "GuC queue G" with the process the kernel blamed, and no jobs.
 */

#define GPU_HANGS_MAX		256	/* hangs and resets kept; more are counted */
#define GPU_HANG_JOBS		16	/* jobs listed per hang; the rest counted */
#define GPU_HANG_NAME		32

enum hang_line_kind {
	HANG_LINE_NONE, HANG_LINE_TIMEOUT, HANG_LINE_SOFT_RECOVERED, HANG_LINE_PROCESS,
	HANG_LINE_RING_RESET_OK, HANG_LINE_RING_RESET_FAILED, HANG_LINE_RESET_BEGIN,
	HANG_LINE_RESET_OK, HANG_LINE_RESET_FAILED, HANG_LINE_RESET_END, HANG_LINE_XE_TIMEOUT,
};

/* xe's names for a timed-out job */
struct xe_job_id {
	int guc_id, gt;			/* gt -1: not said */
	uint32_t seqno, lrc_seqno;
	bool has_lrc_seqno;
};

/* What one kernel log line says, when it is one of the above. */
struct hang_line {
	enum hang_line_kind kind;
	char dev[GPU_HANG_NAME];	/* "0000:03:00.0" of dev_err's "amdgpu 0000:03:00.0: " */
	char ring[GEV_STR_LEN];
	bool has_seq;
	uint32_t signaled, emitted;
	char process[GPU_HANG_NAME], thread[GPU_HANG_NAME];
	int tgid, pid;
	bool has_result;
	int result;
	struct xe_job_id xe;		/* HANG_LINE_XE_TIMEOUT */
};

enum ring_reset { RING_RESET_NONE, RING_RESET_OK, RING_RESET_FAILED };

struct gpu_hang {
	uint64_t ts;
	char dev[GPU_HANG_NAME], ring[GEV_STR_LEN];
	bool soft_recovered;
	bool has_seq;
	uint32_t signaled, emitted;
	/* the process the kernel blamed (its "Process information" line) */
	bool has_process;
	char process[GPU_HANG_NAME], thread[GPU_HANG_NAME];
	int tgid, pid;
	/* what hung: the jobs in flight on the ring, oldest first */
	struct job_in_flight jobs[GPU_HANG_JOBS];
	size_t nr_jobs, jobs_in_flight;
	enum ring_reset ring_reset;
	uint64_t ring_reset_ts;
	int reset;			/* the GPU reset that followed: index, -1 none */
	/* an xe job's timeout (ring: "GuC queue G"): from the log, the tracepoint or both */
	bool is_xe, xe_logged, xe_traced;
	struct xe_job_id xe;
	/* the scheduler ring xe named after the queue ("rcs5": class and GuC id); "" none
	 * or several (xe_rings: how many rings of the device had such a name) */
	char xe_ring[GEV_STR_LEN];
	int xe_rings;
};

struct gpu_reset {
	uint64_t begin, end;		/* end 0: no end in the file */
	bool ended;			/* its last line ("GPU reset end with ret") seen */
	char dev[GPU_HANG_NAME];
	bool failed, has_result;
	int result;
	uint64_t reg_dumps;		/* amdgpu_reset_reg_dumps records during it */
};

/*
 * What the join found, for the outputs: its decode state (the formats it reads)
 * is gpu-hangs.c's alone.
 */
struct gpu_hangs {
	bool reads_console;		/* the file has printk:console with its msg */
	bool reads_xe;			/* the file has xe_sched_job_timedout */
	uint64_t lines;			/* log lines recognized */
	struct gpu_hang *hangs;
	size_t nr_hangs;
	struct gpu_reset *resets;
	size_t nr_resets;
	uint64_t dropped;		/* hangs and resets past the bound */
	uint64_t reg_dumps_alone;	/* register dumps outside any reset */
	/*
	 * jobs whose fence the driver set an error on (xe_sched_job_set_error: a
	 * job the GuC banned or a reset killed), counted; the last one kept
	 */
	uint64_t job_errors;
	struct {
		uint64_t ts;
		char dev[GPU_HANG_NAME];
		int guc_id, error;
		uint32_t seqno;
	} last_job_error;
};

/**
 * hang_line_parse - what one kernel log line says of a hang or reset
 * @text: the line, NUL-terminated
 * @out:  filled when it is one
 *
 * Return: true when amdgpu, xe (or DRM) tells of a hang or reset in it
 */
bool hang_line_parse(const char *text, struct hang_line *out);

/**
 * gpu_hangs_present - whether the file can tell hangs
 * @h: gpu_hangs_of()'s
 *
 * Return: true when it has the kernel log's format (printk:console) or xe's timeouts
 */
bool gpu_hangs_present(const struct gpu_hangs *h);

struct analysis;
/**
 * gpu_hangs_of - what the hangs and resets join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its hangs and resets, owned by @a (valid until analysis_close()), to read
 * only; NULL before analysis_init()
 */
const struct gpu_hangs *gpu_hangs_of(const struct analysis *a);

#endif
