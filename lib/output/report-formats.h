/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_REPORT_FORMATS_H
#define GT_REPORT_FORMATS_H

#include <stdbool.h>
#include <stdio.h>

#include "dat/dat-meta.h"
#include "decode/event-print.h"
#include "util/keymap.h"
#include "util/text-buf.h"
#include "analysis/analysis.h"

#define REPORT_MAX_INPUTS 64

/* An input file and how far its timestamps move (--ts-offset). */
struct report_input {
	const char *file;
	int64_t offset;			/* ns */
	bool offset_set;		/* given by --ts-offset, not from the clock pairs */
	uint32_t machine;		/* its host: 0 the first input's (or unknown), 1, ... others */
};

struct report_output;

/* What was asked for; no section flag means the whole summary. */
struct report_opts {
	struct report_input inputs[REPORT_MAX_INPUTS];
	int nr_inputs;
	const char *file;		/* the input being read */
	const char *output;		/* -o: NULL for standard output */
	bool force;			/* --force: -o may replace a file */
	int width;			/* text --jobs: the columns to fit (a terminal's), 0: all */
	bool wide, no_pager;		/* --wide, --no-pager */
	bool jobs, events, rings, queues;
	const struct report_output *format;	/* --format: a row of report_formats */
	struct timeline_filter filter;
	const char *from_arg, *to_arg;	/* resolved once the trace start is known */
	int top;			/* slowest jobs shown */
	const char **hip_logs;		/* --hip-log: runtime logs captured apart */
	int nr_hip_logs;
};

struct report;

/**
 * struct report_output - one --format, and a row of report_formats[]
 *
 * Jobs stream out as they finish (job), the rest per input file at its end;
 * a format that keeps state of its own makes it in open and keeps it in
 * rep->out; close and done are called whether the report succeeded or not,
 * open or not. A new format is one file and one row.
 */
struct report_output {
	const char *name;			/* --format NAME */
	bool every_job;				/* jobs go to job() without --jobs */
	bool escaped;				/* the file's strings, escaped for a terminal */
	bool timeline;				/* the whole timeline: several inputs, --ts-offset */
	/* -o names a directory the format fills with files of its own (each input's, several
	 * inputs each on its own clock); nothing goes to the stream */
	bool directory;
	/* several inputs, each one's report after the other's (each on its own clock) */
	bool several;
	/*
	 * its rows carry UTC as they are written: the file's clock offset (the narrowest
	 * pair, which may come late in it) is read by a pass of its own first (rep->utc_*)
	 */
	bool utc_first;
	const char *not_to_terminal;		/* binary: the error when stdout is a terminal */
	int (*open)(struct report *rep, struct gt_error *err);	/* once, the stream open */
	int (*begin)(struct report *rep, struct gt_error *err);	/* per input file */
	/* every record of the file, where the format wants them */
	int (*on_record)(struct analysis *a, struct tep_record *rec,
			 const struct gpu_event *ev, void *ctx);
	uint64_t kinds_unread;			/* analysis_hooks.kinds_unread of on_record */
	void (*job)(struct report *rep, const struct job *j);
	int (*end)(struct report *rep, struct gt_error *err);	/* per input file */
	/* errno of a write of the format's own that failed (ended the pass early) */
	int (*write_error)(const struct report *rep);
	void (*finish)(struct report *rep);	/* once, after the last file */
	/*
	 * once, when the report stops at an error after the stream was opened (a file found
	 * damaged while its records are read, or one a later check refused): what the format
	 * has open closed as its syntax wants, @err recorded for rep->opts.file; finish is
	 * not called then. rep->begun: the file's begin came and its end did not.
	 */
	void (*failed)(struct report *rep, const struct gt_error *err);
	/* once, before the output is closed: what writes into it, rep->stream as opened */
	void (*close)(struct report *rep);
	/* once the output is complete: 1 and a line for the user in buf, or 0 */
	int (*note)(const struct report *rep, char *buf, size_t len);
	/* last, whatever happened: frees the rest */
	void (*done)(struct report *rep);
};

/* --events: the printers of the file's events, the lines not yet written, the damaged records */
struct report_events {
	struct event_print *print;	/* of the input being read (its formats) */
	struct tep_handle *tep;		/* ... whose formats they are */
	struct text_buf out;		/* lines, written to the stream in large pieces */
	unsigned long tep_calls;	/* event_print_tep_calls() when the comm was looked up */
	int pid;			/* the last header's pid and comm, and "%16s-%-5d" of them */
	char comm[32];
	char who[64];
	size_t who_len;
	uint64_t damaged;
	char first[256];		/* the first damaged record: its event, time and why */
	/*
	 * A file naming buffer instances: each line starts with its buffer's name,
	 * "%*s: " (the top buffer's "%*s  "), @width the longest read, as trace-cmd
	 * report prints them; @by_buffer false: no column
	 */
	bool by_buffer;
	int width;
	/*
	 * A function_graph entry held until its buffer's next record: trace-cmd
	 * report prints "duration |  f();" when that record is its exit (same
	 * pid and function), "|  f() {" otherwise. @held_head: its line up to
	 * the graph column, to go in at @held_at of out (other buffers' lines
	 * after it are already there).
	 */
	bool held;
	char held_head[192];
	size_t held_len, held_at;
	int held_pid, held_buffer, held_depth;
	unsigned long long held_func;
};

struct report {
	struct report_opts opts;
	struct dat_meta *meta;
	struct analysis *analysis;	/* the session, analysis_new()'s */
	const struct report_output *format;
	FILE *stream;			/* what the formats write: raw, or an escaping stream over it */
	FILE *raw;			/* stdout, or the output file */
	struct job *slow;		/* top o.top by total latency, slowest first */
	int nr_slow;
	uint64_t jobs_shown;
	bool jobs_header_written;	/* text --jobs: the table's head, once per file */
	bool summary;			/* no section flag: everything */
	int input;			/* index into opts.inputs */
	bool opened;			/* the format's open done: its stream holds what it wrote */
	bool begun;			/* the input's begin written, its end not yet */
	int rings_seen;			/* over every input */
	struct keymap ring_jobs;	/* pid << 20 | ring -> jobs, for the HIP section */
	void *out;			/* the format's own state (open, close) */
	/*
	 * A format that writes files of its own (a directory) names the temporary one it has
	 * open, one at a time, and NULL once it is renamed or removed (or was never made): cmd/
	 * removes it on a stop. "" just before it makes one: cmd/ holds the stop signals until
	 * it is named, so that none lands between. NULL: nobody to tell.
	 */
	void (*temp_file)(const char *path);
	struct report_events events;	/* --events */
	/* utc_first formats: the input's UTC minus trace clock, from its narrowest clock pair */
	bool utc_known;
	int64_t utc_offset;
};

extern const struct report_output report_text, report_csv, report_json, report_perfetto,
	report_html, report_parquet;

struct perfetto_export;

enum report_section_format {
	REPORT_SECTION_TEXT,
	REPORT_SECTION_JSON,
	REPORT_SECTION_CSV,
	REPORT_SECTION_NR_FORMATS,
};

/**
 * struct report_section - what one join adds to the report, in each format;
 * a row of report_sections[]
 * @name:        for tests and messages
 * @with_queues: --queues shows it too (every section is in the summary)
 * @write:       the section in text, JSON (",\"key\":..." members of the
 *               report's object: HTML embeds them) and CSV ("# table" blocks)
 * @perfetto:    its tracks in a Perfetto trace at the end of each file, or NULL
 * @perfetto_order: where among the Perfetto writers, 1 first
 *
 * A join whose results the report shows brings one file with its section in
 * each format and one row in report-sections.c; the formats loop over them.
 */
struct report_section {
	const char *name;
	bool with_queues;
	void (*write[REPORT_SECTION_NR_FORMATS])(struct report *rep);
	/*
	 * its tracks in a Perfetto trace, written once the file's records are read; NULL
	 * where the trace gets the section's events as the records pass (or has none)
	 */
	void (*perfetto)(struct perfetto_export *p);
	/*
	 * where among those writers it runs, 1 first: the order numbers their tracks, so a
	 * trace's bytes depend on it; a new writer takes the next number
	 */
	int perfetto_order;
};

extern const struct report_section report_section_kfd, report_section_user_queues,
	report_section_owner_switches, report_section_gpu_hangs, report_section_buffer_moves, report_section_vm,
	report_section_dma_bufs,	report_section_drm_clients,
	report_section_hip, report_section_nvidia, report_section_i915_requests,
	report_section_vblanks, report_section_cpu_side, report_section_xe_engines;
/* Every section, in the order the report prints them; NULL-terminated. */
extern const struct report_section *const report_sections[];
/* Every format, in the order --help names them; NULL-terminated. */
extern const struct report_output *const report_formats[];

/** report_host_text - the header's host, gpu and utc lines (report-host.c); none without markers */
void report_host_text(struct report *rep);
/** report_host_json - the object's "host" member: null, or the host, its GPUs and clock */
void report_host_json(struct report *rep);
/** report_flight_text - a flight recorder dump's trigger and window lines (report-flight.c) */
void report_flight_text(struct report *rep);
/** report_flight_json - the object's "flight" member: null, or the dump's triggers and window */
void report_flight_json(struct report *rep);
/**
 * report_utc_text - @ns since the epoch as "2026-11-29T05:47:13.123456789Z" into @buf;
 * "?" for a time before 1970 or one gmtime cannot give. Return: @buf.
 */
const char *report_utc_text(char *buf, size_t len, int64_t ns);
/** report_us - "-" for an absent value, else microseconds with 3 decimals */
const char *report_us(char *buf, size_t len, bool has, uint64_t ns);
/** report_size - "64.0 KiB" under a MiB, else "3.0 MiB" */
const char *report_size(char *buf, size_t len, uint64_t bytes);
/** report_ts - trace-cmd's seconds.microseconds */
const char *report_ts(char *buf, size_t len, uint64_t ns);
/**
 * report_zeroed_pages - "N pages of zeros amid CPU c's data (the first after T): the records
 * they held are lost, their number unknown" of @d's zeroed pages, into @buf
 */
const char *report_zeroed_pages(char *buf, size_t len, const struct dat_stream_damage *d);
/** report_instances_absent - what @absent instances without pages, beside @read ones, leave read */
const char *report_instances_absent(int absent, int read);
/**
 * report_job_flags - "W" the workload's, "U" unfinished, "L" lost, "F" done from a fence, "D"
 * dependency unknown, "I" after an owner switch, "H" in flight at a ring timeout; "-" for none
 */
const char *report_job_flags(char *buf, size_t len, unsigned int flags);
/**
 * report_job_key - a job's name in the report: fence context:seqno, the scheduler's id, or the
 * fence pointer
 */
const char *report_job_key(char *buf, size_t len, const struct job *j);
/**
 * report_key - the same from the keys a job carries, for what keeps them apart from the job
 * (an owner switch, a job in flight at a timeout)
 */
const char *report_key(char *buf, size_t len, bool has_fence, uint64_t ctx, uint64_t seqno,
		       bool has_id, uint64_t id, uint64_t fence_ptr);
/** report_plural - "s" unless @n is 1: "1 job", "2 jobs" */
const char *report_plural(uint64_t n);
/** report_ring_jobs - how many jobs pid submitted to ring. */
uint64_t report_ring_jobs(const struct report *rep, int pid, int ring);
/** report_has_workload - the file names the recorded workload (record -- cmd or -P). */
bool report_has_workload(const struct report *rep);
/** report_busy_ns - every ring's busy time added up: what the processes' GPU time shares */
uint64_t report_busy_ns(const struct report *rep);
/** report_busy_pct - the share of the trace's span the ring's hardware was busy, in percent */
double report_busy_pct(const struct report *rep, const struct ring_stats *ring);
/**
 * report_busy_known - whether @ring's busy time is known: some job of it has a hardware time
 * (none does on i915 without its low-level events), or it has no finished job
 */
bool report_busy_known(const struct ring_stats *ring);
/** report_lost_stats - events the kernel dropped, from the per-CPU statistics and the instances' */
uint64_t report_lost_stats(const struct report *rep);

/**
 * report_sections_write - every section this report shows (the summary: all; --queues: those
 * with_queues), in @format
 */
void report_sections_write(struct report *rep, enum report_section_format format);
/** report_sections_write_all - every section in @format, whatever was asked (the HTML page) */
void report_sections_write_all(struct report *rep, enum report_section_format format);
/**
 * report_sections_write_perfetto - every section's Perfetto writer, by its perfetto_order:
 * what a file's trace gets once its records are read
 */
void report_sections_write_perfetto(struct perfetto_export *p);

/** report_json_u64 - @v, or null when @has is false */
void report_json_u64(FILE *f, bool has, uint64_t v);
/**
 * report_json_latency - ,"@key":{"count":N,"p50_ns":..,"p99_ns":..,"max_ns":..} of @s, the
 * three null when it is empty
 */
void report_json_latency(FILE *f, const char *key, struct latency_stats *s);
/** report_json_hex - the member ,"@key":"0x@v" */
void report_json_hex(FILE *f, const char *key, uint64_t v);
/** report_csv_u64 - ",@v", or "," (an empty field) when @has is false */
void report_csv_u64(FILE *f, bool has, uint64_t v);
/**
 * report_csv_text - @s as one CSV field, quoted as RFC 4180 says where it must be; a field that
 * starts with = + - @, a tab or a carriage return (a formula to a spreadsheet) is quoted behind
 * an apostrophe
 */
void report_csv_text(FILE *f, const char *s);

/**
 * report_events_note - 1 and a line in @buf when --events met damaged records (they were
 * printed field by field), else 0
 */
int report_events_note(struct report *rep, char *buf, size_t len);
/**
 * report_events_flush - the lines --events holds written to the stream: before anything else
 * writes there (a job line, the end of a file)
 */
void report_events_flush(struct report *rep);
/** report_events_done - what --events kept freed */
void report_events_done(struct report *rep);
/** report_events_record - --events: the decoded listing */
int report_events_record(struct analysis *a, struct tep_record *rec,
			 const struct gpu_event *ev, void *ctx);

/**
 * report_json_summary - the JSON report's header, rings, processes, clients and KFD sections
 * (",\"file\":..." on), as the HTML page embeds them.
 */
void report_json_summary(struct report *rep);

#endif
