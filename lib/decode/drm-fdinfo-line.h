/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DRM_FDINFO_LINE_H
#define GT_DRM_FDINFO_LINE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * record's DRM fdinfo snapshot lines, as the print records of the file's
 * drm-fdinfo buffer hold them (lib/capture/drm-fdinfo.c writes them):
 *   "drm-fdinfo <seq> snapshot: <why>"
 *   "drm-fdinfo <seq> <pid> <fd> <key>:\t<value>"   (a key of the fdinfo, drm-*)
 *   "drm-fdinfo <seq> files: <n>"
 */
#define DRM_FDINFO_BUFFER	"drm-fdinfo"
#define DRM_FDINFO_PREFIX	"drm-fdinfo "

enum fdinfo_line_kind { FDINFO_NONE, FDINFO_SNAPSHOT, FDINFO_KEY, FDINFO_FILES };

struct fdinfo_line {
	enum fdinfo_line_kind kind;
	int seq;
	int pid, fd;
	char key[64];			/* "drm-engine-gfx" */
	char value[96];			/* "123456 ns" */
};

/** fdinfo_line_parse - one of those lines; false when the text is not one */
bool fdinfo_line_parse(const char *text, struct fdinfo_line *out);

/**
 * fdinfo_value_ns - a drm-engine-* value ("123456 ns") in ns; false when it is not one
 */
bool fdinfo_value_ns(const char *value, uint64_t *ns);
/** fdinfo_value_bytes - a memory value ("2048 KiB", "12 MiB", "4096") in bytes */
bool fdinfo_value_bytes(const char *value, uint64_t *bytes);

#endif
