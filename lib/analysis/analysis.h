/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_ANALYSIS_H
#define GT_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <trace-cmd.h>

#include "dat/cpu-coverage.h"
#include "dat/dat-meta.h"
#include "dat/dat-stream.h"
#include "decode/gpu-event.h"
#include "util/gt-error.h"
#include "analysis/analysis-joins.h"
#include "analysis/field-misses.h"
#include "analysis/timeline.h"		/* the hooks' filter and jobs */

struct analysis;
struct hip_line;

/*
 * What a pass met, the session's own model for the outputs: its counts, the file's
 * span and the damage it found (analysis_totals()).
 */
struct analysis_totals {
	uint64_t records, gpu_events, func_events;
	/* records too short for the common fields (damaged): not read */
	uint64_t short_records;
	/* GPU events with a field outside their record (damaged): not used */
	struct field_misses field_misses;
	uint64_t first_ts, last_ts;
	uint64_t missed;			/* in-band "events dropped" counts */
	bool missed_unknown;
	/*
	 * records set aside as damage (a CPU's time stepping back): counted in
	 * missed too, as lost before the CPU's next record (dat-stream.h)
	 */
	struct dat_stream_damage damage;
	struct cpu_coverage cov;		/* judged: see analysis_open_dat */
};

/*
 * What a consumer of the pipeline (report, record's job check, later top,
 * compare, exporters) attaches, given when the pipeline is built.
 */
struct analysis_hooks {
	/* which jobs reach on_job and the statistics; filter.from and .to
	 * are absolute, or after the file's first record when *_relative */
	struct timeline_filter filter;
	bool from_relative, to_relative;
	/* every job that passes the filter, finished or not */
	void (*on_job)(const struct job *job, void *ctx);
	/* every record, with its decoded GPU event or NULL; < 0 stops */
	int (*on_record)(struct analysis *a, struct tep_record *rec,
			 const struct gpu_event *ev, void *ctx);
	/*
	 * GPU event kinds (bits 1 << kind) of which on_record reads ev->kind alone: such
	 * an event no join reads either comes undecoded, its other fields stale
	 */
	uint64_t kinds_unread;
	void *ctx;
	/* the consumer keeps its own per-process numbers (top): the join then
	 * keeps no per-process and per-client summary, which grows with every
	 * process ever seen */
	bool no_groups;
	/* passes run side by side on every CPU (the fleet summary): this one reads and
	 * joins on the caller's thread alone, no reading thread of its own */
	bool one_thread;
};



/**
 * analysis_file_has_system - the file carries formats of @system's events (the kernel it was
 * recorded on had that driver loaded and its events were asked for)
 */
bool analysis_file_has_system(const struct analysis *a, const char *system);

/**
 * analysis_set_probe_timeout - how long libtracecmd's open may take in the probe child
 * @seconds: 60 unless set; 0 sets that
 *
 * analysis_open tries libtracecmd's open in a child first; an open that takes longer than
 * this is a damaged file.
 */
void analysis_set_probe_timeout(unsigned int seconds);
/** analysis_open_timeout - the seconds analysis_set_probe_timeout() set (60 unless set) */
unsigned int analysis_open_timeout(void);
/**
 * analysis_set_open_guard - a process watches this one's libtracecmd opens (open-guard.h):
 * instead of trying each open in a child first, say on @fd which file is being opened and
 * when its open returned. -1: try each in a child again.
 */
void analysis_set_open_guard(int fd);

/**
 * analysis_set_prober - this thread's opens are tried first by the prober process at @fd
 * (open-prober.h) instead of a child forked here: a process with threads must not fork and
 * go on calling libtracecmd in the child (another thread may hold a lock the child then
 * waits for). -1: fork here again.
 */
void analysis_set_prober(int fd);
/**
 * analysis_probe_open_here - libtracecmd's open of @path tried in a child of this process:
 * 0 it opens, else enum analysis_open_fault (for a prober, whose process has one thread)
 */
int analysis_probe_open_here(const char *path);

/* How libtracecmd's open of a file went wrong, for analysis_open_failed(). */
enum analysis_open_fault { OPEN_FAULT_REFUSED = 1, OPEN_FAULT_CRASHED = -1, OPEN_FAULT_HUNG = -2 };
/**
 * analysis_open_failed - the one line for a file libtracecmd could not open (@name: as the
 * user named it), in @err; returns -1
 */
int analysis_open_failed(struct gt_error *err, const char *name, enum analysis_open_fault fault);
/**
 * analysis_open - one .dat opened for a pass, after a probe child opened it unharmed (or
 * opened once under a watching process: analysis_set_open_guard()); hooks may be NULL:
 * statistics only
 */
int analysis_open(struct analysis *a, const char *path,
		  const struct analysis_hooks *hooks, struct gt_error *err);
/**
 * analysis_run - every record of the opened file(s), in time order, through the joins; then
 * analysis_finish()
 */
int analysis_run(struct analysis *a, struct gt_error *err);
/**
 * analysis_open_dat - a .dat as a reader that did not write it needs it: dat_meta_read into m
 * (which validates it), then analysis_open on the file, or on a copy of it without the options
 * whose size does not fit their id (dat-masked.h), then each CPU's window from its first and
 * last pages: where they are far apart (cpu-coverage.h) jobs outside the common window are
 * flagged L. Files gpu-trace recorded and files whose times options shift are left whole.
 */
int analysis_open_dat(struct analysis *a, const char *path, struct dat_meta *m,
		      const struct analysis_hooks *hooks, struct gt_error *err);
/**
 * analysis_check_dat - the first of analysis_open_dat's checks alone: the file's header,
 * options and sections against its size (a truncated file, or one that is no .dat, is
 * refused), without reading its records. For a caller that reads several files one after
 * another and would fail none half-way for what this finds.
 */
int analysis_check_dat(const char *path, struct gt_error *err);

/**
 * analysis_init - the same pipeline without a file, for records that come from elsewhere (a
 * live stream, a fuzzer): init over their formats, hand in each record in time order, finish
 * once (unfinished jobs go to on_job), close.
 */
int analysis_init(struct analysis *a, struct tep_handle *tep,
		  const struct analysis_hooks *hooks, struct gt_error *err);
/** analysis_record - one record through every join; < 0 when an on_record hook asked to stop */
int analysis_record(struct analysis *a, struct tep_record *rec);
/** analysis_record_of - the same for a record of buffer @buffer (0 top, k the k-th instance) */
int analysis_record_of(struct analysis *a, struct tep_record *rec, int buffer);
/**
 * analysis_record_buffer - for an on_record hook: the record's buffer, 0 the top one, k the
 * k-th buffer instance read (dat_meta_instance_name() names it)
 */
int analysis_record_buffer(const struct analysis *a);
/**
 * analysis_record_missed - for an on_record hook: the record's missed_events, read where
 * the joins read it (its tep_record's line may still be on the reading thread's core)
 */
long long analysis_record_missed(const struct analysis *a);
/** analysis_record_ts - for an on_record hook: the record's time, read as the above */
unsigned long long analysis_record_ts(const struct analysis *a);
/**
 * analysis_finish - the joins' last step (jobs left in flight, queues left open);
 * analysis_run() calls it, a stream's owner calls it at the end
 */
void analysis_finish(struct analysis *a);
/** analysis_close - the files closed and everything the pass holds freed */
void analysis_close(struct analysis *a);
/**
 * analysis_first_ts - the top buffer's first timestamp once opened; 0 when not known before
 * the run.
 */
uint64_t analysis_first_ts(const struct analysis *a);
/**
 * analysis_has_gpu_data - whether the pass met anything of a GPU's: a GPU event, a KFD
 * function or probe record, or a line of the HIP runtime's log.
 */
bool analysis_has_gpu_data(const struct analysis *a);
/** analysis_comm - "<...>" when the file has no name for the pid */
const char *analysis_comm(struct analysis *a, int pid);
/**
 * analysis_name_pid - give @pid a name the trace lacks (a live trace has no
 * saved_cmdlines)
 * @a:    the pass
 * @pid:  the process
 * @comm: its name, as /proc says it now
 */
void analysis_name_pid(struct analysis *a, int pid, const char *comm);

/**
 * analysis_new - a session, to be opened (analysis_open(), analysis_open_dat(),
 * analysis_init()) and freed with analysis_free()
 *
 * Return: the session, owned by the caller; NULL when out of memory
 */
struct analysis *analysis_new(void);
/** analysis_free - analysis_close() and the session's own memory; @a may be NULL */
void analysis_free(struct analysis *a);
/**
 * analysis_totals - what the pass met so far: counts, the file's span, damage and
 * coverage; owned by @a, valid until analysis_close()
 */
const struct analysis_totals *analysis_totals(const struct analysis *a);
/** analysis_tep - the event formats of the file (or stream) open; NULL before */
struct tep_handle *analysis_tep(const struct analysis *a);
/** analysis_decoder - the GPU event decoder over analysis_tep(); NULL before */
struct gpu_decoder *analysis_decoder(const struct analysis *a);
/** analysis_meta - the metadata analysis_open_dat() was given (the caller's); NULL otherwise */
const struct dat_meta *analysis_meta(const struct analysis *a);
/**
 * analysis_lost_from - for on_record of a record with missed_events: where the window
 * of lost events began (that CPU's previous record, or the file's first)
 */
uint64_t analysis_lost_from(const struct analysis *a);
/** analysis_stopped - an on_record hook ended the pass early */
bool analysis_stopped(const struct analysis *a);
/** analysis_stream - the records the pass reads itself (dat-stream.h); NULL: libtracecmd's */
struct dat_stream *analysis_stream(const struct analysis *a);

/*
 * For the joins (analysis-joins.h) alone: their state, and what they tell the session.
 */
/** analysis_state - join @id's state, allocated by the session; NULL before analysis_init() */
void *analysis_state(const struct analysis *a, enum analysis_join_id id);
/** analysis_print_kinds - the kinds a join of print lines reads (analysis_join.kinds): the
 * records of no GPU event, where the file has ftrace's print format */
uint64_t analysis_print_kinds(const struct analysis *a);
/**
 * analysis_set_hip_line - the HIP join's line for the record being dispatched, for the
 * on_record hook (analysis_hip_line()); NULL: the record is none
 */
void analysis_set_hip_line(struct analysis *a, const struct hip_line *line);
/** analysis_hip_line - for on_record: the record's HIP log line, or NULL */
const struct hip_line *analysis_hip_line(const struct analysis *a);

#endif
