/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PARTIAL_OUTPUT_H
#define GT_PARTIAL_OUTPUT_H

#include <stddef.h>

#include "util/gt-error.h"
#include "util/outfile.h"

/*
 * A record killed by SIGKILL leaves its output's private temp file
 * (.NAME.dat.partial-XXXXXX) beside the name it was for. Each run notes it
 * in the run directory, "gpu-trace-<pid>.partial" (the user it was made
 * for, its device and inode, its path), while the run's lock is held; the
 * stale clean-up of the next record or of reset removes a gone run's file,
 * with that user's rights and only if it is still that very file.
 */

/**
 * partial_output_remember - note @o's temp file for a clean-up after a kill
 * @o:   an output just created (outfile_create), not committed
 * @err: why the note could not be written
 *
 * Return: 0, or -1 with @err set.
 */
int partial_output_remember(const struct outfile *o, struct gt_error *err);

/** partial_output_forget - the note of this run gone: its output was committed or discarded */
void partial_output_forget(void);

/**
 * partial_output_clean - a gone run's note: its temp file removed, then the note
 * @journal: the note's path in the run directory
 * @removed: set to the path of the file removed, "" when it was gone already
 * @len:     @removed's size
 * @err:     why the file or the note could not be removed
 *
 * Return: 0, or -1 with @err set.
 */
int partial_output_clean(const char *journal, char *removed, size_t len, struct gt_error *err);

#endif
