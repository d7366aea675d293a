/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_SAVED_FILES_H
#define GT_SAVED_FILES_H

#include <stddef.h>

#include "util/gt-error.h"
#include "tracefs/trace-file.h"

/*
 * Top-level tracefs files we change, with the value they had, so that teardown
 * (or `gpu-trace reset` after a SIGKILL, through the journal) puts them back.
 */
struct saved_file {
	char *name;	/* relative to the tracing dir, e.g. "current_tracer" */
	char *value;	/* what to write back, already normalised */
};

struct saved_files {
	struct saved_file *files;
	int nr;
	char *journal;	/* path of the on-disk copy, NULL for none */
};

/** saved_value_normalize - turns what a file reads as into what writing restores it with. */
char *saved_value_normalize(const char *name, const char *content);

/** saved_files_remember - a tracefs file's value kept (and journalled) before its first change */
int saved_files_remember(struct saved_files *sf, const char *tracing_dir,
			 const char *name, struct gt_error *err);
/**
 * saved_files_restore - every remembered file written back, last changed first; the journal
 * removed when all were
 */
int saved_files_restore(struct saved_files *sf, const char *tracing_dir,
			struct gt_error *err);
/** saved_files_free - the remembered values */
void saved_files_free(struct saved_files *sf);

/**
 * saved_files_journal_write - the remembered values written to the journal (through a .tmp,
 * O_NOFOLLOW), for a later reset
 */
int saved_files_journal_write(const struct saved_files *sf, struct gt_error *err);
/** saved_files_journal_load - a journal read back (a dead run's), its file names checked */
int saved_files_journal_load(struct saved_files *sf, const char *path,
			     struct gt_error *err);

#endif
