/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_FILES_H
#define GT_DAT_FILES_H

#include <stddef.h>

#include "util/gt-error.h"

/*
 * The .dat files a command was given: files as named, directories searched
 * (depth first, at most DAT_FILES_MAX_DEPTH folders down) for regular files
 * named *.dat. Nothing is followed out of a directory: a symbolic link is
 * taken only where it resolves inside the directory searched, and then only
 * to a file (a linked folder could lead round in a circle). Hidden entries
 * are skipped; a folder below one given that cannot be read is counted and
 * skipped (the first said in first_unreadable). A file reached twice (by two names, a link beside its target)
 * is listed once, by its first name in byte order. At most max files are
 * listed; the rest are counted.
 */
#define DAT_FILES_MAX_DEPTH	16

struct dat_files {
	char **paths;			/* sorted, each once */
	struct dat_file_id { unsigned long long dev, ino; } *ids;	/* each path's file */
	int nr, cap, max;
	unsigned long long over;	/* found past max, not listed */
	unsigned long long unreadable;	/* folders under the ones given that could not be read */
	char first_unreadable[320];	/* the first of them and why */
};

/** dat_files_init - an empty list of at most @max files */
void dat_files_init(struct dat_files *l, int max);
/**
 * dat_files_add - @path: a file as given (whatever its name), or a directory searched for *.dat;
 * -1 with @err when it cannot be read
 */
int dat_files_add(struct dat_files *l, const char *path, struct gt_error *err);
/** dat_files_sort - sorted by path (byte order), a file named twice kept once */
void dat_files_sort(struct dat_files *l);
/** dat_files_free - the list */
void dat_files_free(struct dat_files *l);

#endif
