/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RUN_DIR_H
#define GT_RUN_DIR_H

#include "util/gt-error.h"

#define GT_RUN_DIR		"/run/gpu-trace"

/**
 * run_dir_path - where the restore journals and run locks live: GT_RUN_DIR, or
 * $GPU_TRACE_RUN_DIR (tests) where no other user could change that path (sudo -E passes it
 * on). record and reset must agree.
 */
const char *run_dir_path(void);
/**
 * run_dir_make - creates it (and missing parents: a minimal initramfs has no /run),
 * private.
 */
int run_dir_make(struct gt_error *err);

#endif
