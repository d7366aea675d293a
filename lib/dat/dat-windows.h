/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DAT_WINDOWS_H
#define GT_DAT_WINDOWS_H

#include <stdbool.h>

#include "dat/cpu-coverage.h"
#include "dat/dat-meta.h"

/**
 * dat_cpu_windows - each CPU's first and last record time in the top buffer of a .dat (v6, v7
 * uncompressed or zstd), read from its first and last page only, so a report knows every CPU's
 * window before it reads a record. Fills c (not judged); 0, or -1 when the file's layout is
 * not one read here.
 */
int dat_cpu_windows(const char *path, const struct dat_meta *m, struct cpu_coverage *c);

/**
 * dat_meta_written_by_record - gpu-trace record streams every page as it fills and never
 * overwrites: a CPU of its files starts when that CPU's first event came.
 */
bool dat_meta_written_by_record(const struct dat_meta *m);

#endif
