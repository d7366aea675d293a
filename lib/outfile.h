/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_OUTFILE_H
#define GT_OUTFILE_H

#include <stdbool.h>
#include <sys/types.h>

#include "gt-error.h"

/*
 * The output appears under its name only when complete: we write a private
 * temp file beside it (O_EXCL, so no planted symlink is followed) and rename.
 */
struct outfile {
	char path[4096];
	char dir[4096];
	char tmp_path[4200];
	int fd;
};

/* An existing file (or link) of that name is an error unless force. */
int outfile_create(struct outfile *o, const char *path, bool force, struct gt_error *err);
/* fsync, hand to owner (uid -1: keep), rename over path, fsync the dir. */
int outfile_commit(struct outfile *o, uid_t uid, gid_t gid, bool force,
		   struct gt_error *err);
/*
 * Reserve blocks for the header up front, so a disk that fills while
 * recording still has room to write what was captured. 0 also when the
 * filesystem cannot reserve.
 */
int outfile_reserve(struct outfile *o, off_t bytes, struct gt_error *err);
/* Commit under "<path>.partial" instead: what a failed recording kept. */
int outfile_commit_partial(struct outfile *o, uid_t uid, gid_t gid, bool force,
			   struct gt_error *err);
void outfile_discard(struct outfile *o);

#endif
