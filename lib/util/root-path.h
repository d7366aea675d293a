/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_ROOT_PATH_H
#define GT_ROOT_PATH_H

#include <stddef.h>

/*
 * Programs root runs on the user's behalf (docker, podman; the pager) are
 * found where root's are, never through a PATH that sudo -E or env_keep
 * carried over from the user.
 */
#define ROOT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/**
 * root_path_find - @name looked up in ROOT_PATH when running as root (else in $PATH, as
 * execvp() would), written to @out as an absolute path; 0, or -1 when no directory holds an
 * executable regular file of that name. A name with a slash is taken as it is.
 */
int root_path_find(const char *name, char *out, size_t len);

#endif
