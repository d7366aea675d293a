// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/user-rights.h"

#define MAX_GROUPS 1024

int user_rights_enter(struct user_rights *r, uid_t uid, gid_t gid, const char *user,
		      struct gt_error *err)
{
	gid_t *theirs = NULL;
	int n = MAX_GROUPS, e;

	memset(r, 0, sizeof(*r));
	r->euid = geteuid();
	r->egid = getegid();
	r->groups = calloc(MAX_GROUPS, sizeof(gid_t));
	theirs = calloc(MAX_GROUPS, sizeof(gid_t));
	if (!r->groups || !theirs)
		goto fail;
	r->nr_groups = getgroups(MAX_GROUPS, r->groups);
	if (r->nr_groups < 0)
		goto fail;
	if (!user || !*user || getgrouplist(user, gid, theirs, &n) < 0) {
		theirs[0] = gid;
		n = 1;
	}
	if (setgroups((size_t)n, theirs) || setegid(gid) || seteuid(uid))
		goto fail;
	free(theirs);
	r->entered = true;
	return 0;
fail:
	e = errno ? errno : ENOMEM;
	free(theirs);
	r->entered = true;	/* whatever was changed goes back */
	user_rights_leave(r);
	return gt_error_set(err, e, "cannot take on uid %d's rights: %s", (int)uid, strerror(e));
}

void user_rights_leave(struct user_rights *r)
{
	if (!r->entered)
		return;
	/*
	 * The saved ids are still ours, so this cannot fail; if it ever did,
	 * carrying on as neither root nor the user would be worse than dying.
	 */
	if (seteuid(r->euid) || setegid(r->egid) ||
	    (r->nr_groups >= 0 && setgroups((size_t)r->nr_groups, r->groups)))
		abort();
	free(r->groups);
	memset(r, 0, sizeof(*r));
}
