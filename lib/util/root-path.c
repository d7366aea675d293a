// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/root-path.h"

int root_path_find(const char *name, char *out, size_t len)
{
	const char *path = geteuid() == 0 ? ROOT_PATH : getenv("PATH");
	const char *dir, *end;
	struct stat st;

	if (!name || !*name)
		return -1;
	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return 0;
	}
	for (dir = path ? path : ROOT_PATH; *dir; dir = *end ? end + 1 : end) {
		end = strchrnul(dir, ':');
		if (end == dir)
			continue;
		if ((size_t)snprintf(out, len, "%.*s/%s", (int)(end - dir), dir, name) >= len)
			continue;
		if (!stat(out, &st) && S_ISREG(st.st_mode) && !access(out, X_OK))
			return 0;
	}
	out[0] = '\0';
	return -1;
}
