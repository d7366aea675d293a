/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Debian's linux-libc-dev ships linux/kfd_ioctl.h but not the drm/drm.h it
 * includes (that comes with libdrm-dev, under another path).  kfd_ioctl.h
 * needs only the fixed-width types from it.
 */
#ifndef GT_LAB_DRM_H
#define GT_LAB_DRM_H
#include <linux/types.h>
#endif
