/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RECORD_PROGRESS_H
#define GT_RECORD_PROGRESS_H

#include "capture/recorder.h"

/* One updating line on a terminal; nothing when stderr is not one. */
void progress_update(const struct recorder *r, const char *buffer_dir,
		     double elapsed);
void progress_clear(void);

#endif
