/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_CMD_H
#define GT_CMD_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "tracefs/event-select.h"
#include "util/gt-error.h"

#ifndef GT_VERSION
#define GT_VERSION "0.0.0"
#endif

/*
 * gpu-trace's own failures exit 125 (as env(1) and timeout(1) do), so they
 * never pass for the workload's status, which record returns as its own.
 */
#define GT_EXIT_FAILURE		125
#define GT_EXIT_CANNOT_EXEC	126
#define GT_EXIT_NOT_FOUND	127

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_fleet(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* Usage text of a subcommand, or NULL if there is none by that name. */
const char *cmd_usage(const char *name);

/*
 * The rest of the command in a child that opens each .dat once while this
 * process watches (open-watcher.c); returns in the child, or here when no
 * child could be made. Call it before anything is written to stdout.
 */
void cmd_open_guard(const char *cmd);
/* "gpu-trace record: <msg>" on stderr; returns GT_EXIT_FAILURE. */
int cmd_fail(const char *cmd, const struct gt_error *err);
int cmd_failf(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct report_opts;
struct report;
/**
 * report_align_utc - several hosts' files of a timeline put on UTC by their clock pairs
 * (cmd/report-utc.c), unless one was given --ts-offset or one has none; and each one's
 * host numbered as a machine
 * @o:   the options, whose inputs' offsets and machines it sets
 * @err: why a file could not be read
 *
 * Return: 0, or -1 with @err set.
 */
int report_align_utc(struct report_opts *o, struct gt_error *err);
/**
 * report_prepass - what the pass needs first, read by a pass of its own (report-prepass.c): a
 * flight recorder dump's triggers handed to @rep's session, so the job that fired is flagged
 * as it retires; for a utc_first format, the file's clock offset (rep->utc_known, utc_offset)
 * @rep: the report, its file opened (rep->meta read) and not yet run
 * @err: why the pass failed
 *
 * Return: 0 (also when nothing was needed), or -1 with @err set.
 */
int report_prepass(struct report *rep, struct gt_error *err);
/**
 * report_name_input - several input files: @err, unless it names input @i already, begins
 * with its name and place ("b.dat (file 2 of 3): ..."), so that the one line says which
 * file it is about
 */
void report_name_input(const struct report_opts *o, int i, struct gt_error *err);
/* A status line for the user, on stderr (stdout is the workload's). */
void cmd_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
struct dat_stream_damage;
/**
 * cmd_say_damage - "gpu-trace CMD: FILE is damaged: CPU N's time steps back ..." on stderr
 * when @d set records aside, "... N pages of zeros amid CPU N's data ..." when it met such
 * pages; nothing otherwise
 */
void cmd_say_damage(const char *cmd, const char *file, const struct dat_stream_damage *d);
/**
 * cmd_say_instances_absent - "gpu-trace CMD: FILE names N buffer instances whose pages it
 * does not hold ..." on stderr when @n (dat-meta's v6_instances_absent, trace-cmd split's)
 * is not 0 (@read: the instances it does hold, read); nothing otherwise
 */
void cmd_say_instances_absent(const char *cmd, const char *file, int n, int read);
/* How record and reset report what a killed gpu-trace left (lib/capture/stale.h). */
#include "capture/stale.h"
#include "util/json-str.h"
void cmd_stale_note(const char *name, int pid, enum stale_action what, int err, void *ctx);

/* --min-change PCT of compare and fleet, as a fraction (0.05 for 5); -1 with err */
int cmd_parse_min_change(const char *arg, double *fraction, struct gt_error *err);

/* getopt_long's ':' (missing value) or '?' for `gpu-trace CMD`, as one line; -1. */
int cmd_option_error(const char *cmd, int c, const char *option, struct gt_error *err);


struct report_opts;
struct report;
/* report's command line (report-options.c): 0, 1 when --help was shown, -1 */
int report_opts_parse(int argc, char **argv, struct report_opts *o, struct gt_error *err);

/*
 * record's and top's ending (stop-signals.c): the signal that asked the run
 * to stop (0 while none did), and the handlers that set it; extra, when
 * given, handles extra_sig (record's reader wake-up, top's resize).
 */
extern volatile sig_atomic_t cmd_stop_signal;
void cmd_stop_signals_install(int extra_sig, void (*extra)(int));
/**
 * cmd_stop_if_output_gone - cmd_stop_signal set to SIGPIPE when standard output or error is a
 * pipe or socket whose reader went away (record's wait asks every turn)
 */
void cmd_stop_if_output_gone(void *ctx);
/*
 * cmd_remove_on_stop - until cmd_remove_on_stop_done(), Ctrl-C, SIGTERM, SIGHUP and Ctrl-\
 * (those not ignored) remove @path, then end the process as they would have
 */
void cmd_remove_on_stop(const char *path);
void cmd_remove_on_stop_done(void);
/*
 * cmd_remove_on_stop_hold - the stop signals held until cmd_remove_on_stop() or
 * cmd_remove_on_stop_done(): called before the file is made, so that none ends us between
 * its making and the handler that removes it
 */
void cmd_remove_on_stop_hold(void);

/*
 * The options record and top share (capture-options.c): the same letters,
 * long names and meaning in both. Each puts CAPTURE_SHORT_OPTIONS in its
 * optstring and CAPTURE_LONG_OPTIONS in its table, hands every option to
 * cmd_capture_option() first, and ends with cmd_capture_events().
 */
#define CAPTURE_SHORT_OPTIONS	"e:b:P:ah"
#define OPT_CAPTURE_PRESET	256	/* long-only options of a command start above it */
#define OPT_CAPTURE_FIRST	(OPT_CAPTURE_PRESET + 1)
#define CAPTURE_LONG_OPTIONS \
	{ "event", required_argument, NULL, 'e' }, \
	{ "buffer-size", required_argument, NULL, 'b' }, \
	{ "pid", required_argument, NULL, 'P' }, \
	{ "all", no_argument, NULL, 'a' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "preset", required_argument, NULL, OPT_CAPTURE_PRESET }

struct preset;

struct capture_args {
	struct event_selection *events;	/* -e adds here, then the preset's */
	bool explicit_events;		/* -e was given */
	const struct preset *preset;	/* --preset, or the default without -e */
	unsigned long buffer_kb;	/* -b, 0: the ladder */
	pid_t *pids;			/* -P */
	int nr_pids;
	bool system_wide;		/* -a */
};

/*
 * One option of getopt_long for `gpu-trace cmd`: 1 when it was one of the
 * shared ones (-h printed the usage: *help set), 0 when it is the command's
 * own, -1 with err.
 */
int cmd_capture_option(const char *cmd, int c, const char *arg, struct capture_args *a,
		       bool *help, struct gt_error *err);
/* The preset's events after -e's (the default preset without either); -1 with err. */
int cmd_capture_events(struct capture_args *a, struct gt_error *err);
/* -P PID[,PID...] of record and top, appended to *pids */
int cmd_parse_pids(const char *arg, pid_t **pids, int *nr, struct gt_error *err);
/* -b: KB per CPU, or with a unit (64M, 1G) */
int cmd_parse_buffer_kb(const char *arg, unsigned long *kb, struct gt_error *err);

/* pager.c: long listings on a terminal through a pager, as perf report does */
/* stdout a pipe into the pager from now on: true, or false (none: print as is) */
bool cmd_pager_start(void);
bool cmd_pager_active(void);
/* the listing ended: the pager reads to its end (or was quit) and exits */
void cmd_pager_finish(void);
/* stdout's terminal width ($COLUMNS, else 80, where it cannot be asked) */
int cmd_terminal_columns(void);

/* Bold on a terminal, plain otherwise. */
const char *cmd_bold(void);
const char *cmd_plain(void);

/*
 * Untrusted text for a terminal (term-safe.c): control characters but
 * newline and tab, DEL and C1 controls escaped as \xNN / \u00NN.
 * term_safe_puts keeps cmd_bold()/cmd_plain() of our own; term_safe_stream
 * is a stream that writes so to out (closing it does not close out).
 */
void term_safe_puts(FILE *out, const char *text);
FILE *term_safe_stream(FILE *out);

#endif
