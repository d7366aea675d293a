/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_USER_RIGHTS_H
#define GT_USER_RIGHTS_H

#include <stdbool.h>
#include <sys/types.h>

#include "util/gt-error.h"

/*
 * Root acting, for a moment, with a user's rights: effective uid and gid and
 * the user's groups, so that the kernel checks a path as it would for them
 * (record's output under sudo: the user gets a file only where they could
 * have made one). The real and saved ids stay root's, so leave() gets back.
 */
struct user_rights {
	bool entered;
	uid_t euid;		/* ours, to put back */
	gid_t egid;
	gid_t *groups;		/* ours, to put back */
	int nr_groups;
};

/**
 * user_rights_enter - root takes the user's effective uid, gid and groups until
 * user_rights_leave()
 */
int user_rights_enter(struct user_rights *r, uid_t uid, gid_t gid, const char *user,
		      struct gt_error *err);
/** user_rights_leave - root's own ids and groups back */
void user_rights_leave(struct user_rights *r);

#endif
