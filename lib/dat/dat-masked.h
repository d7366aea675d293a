/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_MASKED_H
#define GT_DAT_MASKED_H

#include "dat/dat-meta.h"
#include "util/gt-error.h"

/**
 * dat_masked_copy - a private copy of a .dat in which each option dat-meta skipped (its size
 * does not fit its id) carries DAT_OPT_MASKED instead: libtracecmd 3.1.6 reads any option 8 as
 * a CPU count whatever its size, and would look for hundreds of millions of CPUs; an id it
 * does not know it skips by size. The copy is a memfd, as large as the file, gone with the
 * process. in: the file, open (read with offsets; path names it in messages). Returns the
 * copy's fd (read it as /proc/self/fd/N), or -1 with err set.
 */
int dat_masked_copy(int in, const char *path, const struct dat_meta *m, struct gt_error *err);

#endif
