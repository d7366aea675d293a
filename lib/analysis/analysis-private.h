/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_ANALYSIS_PRIVATE_H
#define GT_ANALYSIS_PRIVATE_H

/*
 * The session's own state: the files open, the readers' places, each join's
 * state and the dispatch table. For analysis.c and analysis-run.c (and the unit
 * tests, which put a session on their stack); every other file holds a
 * struct analysis * and asks analysis.h's accessors.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <trace-cmd.h>

#include "decode/event-fields.h"
#include "analysis/analysis.h"
#include "analysis/kallsyms-defer.h"

/*
 * One pass over a .dat (v6 or v7, every buffer instance in it) in time order:
 * each record is decoded, GPU events go to the timeline, function records of
 * the KFD paths to the queue tracker.
 */
#define ANALYSIS_MAX_HANDLES 16
struct analysis {
	struct tracecmd_input *handles[ANALYSIS_MAX_HANDLES];	/* top buffer + instances */
	struct kallsyms_deferred *syms;		/* the file's kallsyms, parsed at the first lookup */
	struct dat_stream *stream;		/* records read by us (dat-stream.h); NULL: libtracecmd's */
	int nr_handles;
	struct tep_handle *tep;
	/*
	 * From here to comm: what analysis_decode() reads, on the pipe's reading
	 * thread (record-pipe.h), and nothing the pass writes. Its lines are the
	 * session's own: read_kinds shared one with the totals, which the joining
	 * thread writes for every record, and each decode waited for the line to
	 * come back (two thirds of analysis_decode()'s samples).
	 */
	struct gpu_decoder *dec;
	/*
	 * each join's state (analysis-joins.h), allocated before the first join's
	 * init: read only by the join's own file and its accessor
	 */
	void *states[JOIN_NR];
	struct event_fields print;		/* ftrace:print and its buf */
	uint64_t join_kinds[JOIN_NR];		/* each join's @kinds, after its init */
	/* the kinds a join or the record hook reads: the others are not decoded */
	uint64_t read_kinds;
	int common_end;				/* where common_type and common_pid end */
	/* the last pid analysis_comm() named: a job's writers ask two or three times */
	_Alignas(64) int comm_pid;
	const char *comm;			/* NULL: none asked since the last name given */
	/* for on_record: the record's HIP log line (the HIP join's), or NULL */
	const struct hip_line *hip_current;
	int record_buffer;		/* for on_record: the record's buffer (dat_stream_last_buffer()) */
	long long record_missed;	/* ... and its missed_events */
	bool stopped;			/* an on_record hook ended the pass early */
	/* what the pass met, for the outputs (analysis_totals()) */
	struct analysis_totals totals;
	/* libtracecmd's pass: each (buffer, CPU)'s last time and what waits to be counted */
	struct cpu_order { uint64_t last_ts, set_aside; } *order;
	size_t page_size;
#define ANALYSIS_MAX_CPUS 1024
	struct page_run {
		uintptr_t current;	/* the page this CPU's reader is on */
		uintptr_t start;	/* pages behind it, not yet released */
		size_t len;
		uint64_t last_ts;	/* this CPU's previous record */
		uint64_t read_to;	/* top buffer: file offset past its last record read, 0 none */
		/* libtracecmd's pass, top buffer: pages looked at for zeros up to here */
		uint64_t scanned_to;
		bool had_zeroed;
	} runs[ANALYSIS_MAX_CPUS];
	int scan_fd;			/* libtracecmd's pass: the file, for its pages' headers */
	/* for on_record of a record with missed_events: where the window of
	 * lost events began (that CPU's previous record, or the first one) */
	uint64_t lost_from;
	bool no_pageout;
	uintptr_t map_lo, map_hi;		/* the mapping last looked up */
	bool map_file;				/* ... maps the file */
	struct analysis_hooks hooks;
	int masked_fd;				/* the masked copy read, or -1 */
	int file_fd;				/* analysis_open_dat's file, or -1 */
	const struct dat_meta *meta;		/* analysis_open_dat's (the caller's, kept) */
	char path[4096];			/* what analysis_open opened */
	struct stat file_st;			/* ... its device and inode, */
	bool counted;				/* counted among the files open (analysis.c) */
	/*
	 * per record kind, the joins that read it, in order (most kinds have
	 * one or two): each one's record() and state, looked up once, not per
	 * record; last, so that the fields read per record stay together
	 */
	struct join_call {
		void (*record)(void *state, struct analysis *a, struct join_record *r);
		void *state;
	} joins_of_kind[GEV_NR_KINDS][JOIN_NR];
	uint8_t nr_joins_of_kind[GEV_NR_KINDS];
};

#endif
