/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_OUTFILE_H
#define GT_OUTFILE_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/gt-error.h"

/*
 * The output appears under its name only when complete: we write a private
 * temp file beside it (O_EXCL, so no planted symlink is followed) and rename.
 */
/*
 * Under sudo, the user the file is for: it is created and renamed into
 * place with their rights (user-rights.h), so they get a file only where
 * they could have made one (not -o /etc/ld.so.preload), and it is theirs.
 */
struct outfile_user {
	uid_t uid;
	gid_t gid;
	const char *name;	/* for their groups; NULL: the gid alone */
};

struct outfile {
	char path[4096];
	char dir[4096];
	char tmp_path[4200];
	int fd;
	bool as_user;
	struct outfile_user user;
	char user_name[64];
	/* after a commit: the name another file took meanwhile (path: where ours went), or "" */
	char taken[4096];
	/*
	 * outfile_create_at: the directory every name below is in, opened once
	 * (no path of it followed again), name the file's there; else name is ""
	 */
	int dir_fd;
	char name[256];
};

/**
 * outfile_create - an existing file (or link) of that name is an error unless force. as: the
 * user to create it for, NULL for ourselves.
 */
int outfile_create(struct outfile *o, const char *path, bool force,
		   const struct outfile_user *as, struct gt_error *err);
/**
 * outfile_create_at - outfile_create in the directory dir_fd (not closed, kept open by the
 * caller until the commit or discard), under name, a plain name without '/'; dir_label is
 * the directory as the messages and o->path name it. Nothing is looked up by path again:
 * whoever can rename the directory's path meanwhile cannot redirect the file.
 */
int outfile_create_at(struct outfile *o, int dir_fd, const char *dir_label, const char *name,
		      bool force, struct gt_error *err);
/**
 * outfile_commit - fsync, mode 0640 under the umask (a trace holds kernel addresses and every
 * process's name: never world-readable), rename over path (with the user's rights where it is
 * theirs), fsync the dir. Without force, a file that took the name meanwhile is kept and ours
 * goes to the first free NAME-N.EXT (N from 1 to 99): then o->taken is the name it could not
 * have and o->path where it is.
 */
int outfile_commit(struct outfile *o, bool force, struct gt_error *err);
/**
 * outfile_reserve - reserve blocks for the header up front, so a disk that fills while
 * recording still has room to write what was captured. 0 also when the filesystem cannot
 * reserve.
 */
int outfile_reserve(struct outfile *o, off_t bytes, struct gt_error *err);
/** outfile_commit_partial - commit under "<path>.partial" instead: what a failed recording kept. */
int outfile_commit_partial(struct outfile *o, bool force, struct gt_error *err);
/**
 * outfile_discard - the temporary file closed and removed (as the user) unless committed; safe
 * to call twice
 */
void outfile_discard(struct outfile *o);

#endif
