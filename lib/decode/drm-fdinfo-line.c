// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/drm-fdinfo-line.h"

bool fdinfo_line_parse(const char *text, struct fdinfo_line *out)
{
	const char *p;
	int at = 0;

	memset(out, 0, sizeof(*out));
	if (strncmp(text, DRM_FDINFO_PREFIX, strlen(DRM_FDINFO_PREFIX)))
		return false;
	p = text + strlen(DRM_FDINFO_PREFIX);
	if (sscanf(p, "%d snapshot: %n", &out->seq, &at) == 1 && at) {
		out->kind = FDINFO_SNAPSHOT;
		snprintf(out->value, sizeof(out->value), "%s", p + at);
		return true;
	}
	at = 0;
	if (sscanf(p, "%d files: %n", &out->seq, &at) == 1 && at) {
		out->kind = FDINFO_FILES;
		snprintf(out->value, sizeof(out->value), "%s", p + at);
		return true;
	}
	at = 0;
	if (sscanf(p, "%d %d %d %63[^: \t]:%n", &out->seq, &out->pid, &out->fd, out->key, &at) != 4 ||
	    !at || out->pid <= 0 || out->fd < 0 || strncmp(out->key, "drm-", 4))
		return false;
	p += at;
	p += strspn(p, " \t");
	snprintf(out->value, sizeof(out->value), "%s", p);
	out->kind = FDINFO_KEY;
	return true;
}

bool fdinfo_value_ns(const char *value, uint64_t *ns)
{
	char *end;
	unsigned long long v = strtoull(value, &end, 10);

	if (end == value || strncmp(end, " ns", 3))
		return false;
	*ns = v;
	return true;
}

bool fdinfo_value_bytes(const char *value, uint64_t *bytes)
{
	char *end;
	unsigned long long v = strtoull(value, &end, 10);

	if (end == value)
		return false;
	while (*end == ' ')
		end++;
	if (!strncmp(end, "KiB", 3))
		v <<= 10;
	else if (!strncmp(end, "MiB", 3))
		v <<= 20;
	else if (!strncmp(end, "GiB", 3))
		v <<= 30;
	else if (*end)
		return false;
	*bytes = v;
	return true;
}
