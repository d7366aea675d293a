// SPDX-License-Identifier: GPL-2.0
/*
 * vblank-client [COUNT]: on gt_vblank's card node (the lab's display), ask
 * COUNT times for an event at the next vblank (DRM_IOCTL_WAIT_VBLANK, relative
 * 1, with an event) and read it; then once for a vblank already two behind
 * (absolute, with an event): the DRM core delivers that one at once, at a
 * later vblank than asked for. Prints what it asked for and got, for the
 * lab's check. The uapi structs as include/uapi/drm/drm.h has them.
 */
#include <stdint.h>
#include <stdlib.h>

#include "drm-open.h"

struct wait_request {
	uint32_t type, sequence;
	unsigned long signal;
};

struct wait_reply {
	uint32_t type, sequence;
	long tval_sec, tval_usec;
};

union wait_vblank {
	struct wait_request request;
	struct wait_reply reply;
};

struct event_vblank {
	uint32_t type, length;
	uint64_t user_data;
	uint32_t tv_sec, tv_usec, sequence, crtc_id;
};

#define WAIT_VBLANK		_IOWR(DRM_BASE, 0x3a, union wait_vblank)
#define VBLANK_ABSOLUTE		0x0
#define VBLANK_RELATIVE		0x1
#define VBLANK_EVENT		0x4000000
#define EVENT_VBLANK		0x01

/* ask for an event at @seq (absolute) or @seq on (relative); read it: its sequence, or -1 */
static long long wait_event(int fd, uint32_t type, uint32_t seq, unsigned long tag)
{
	union wait_vblank w = { .request = { type | VBLANK_EVENT, seq, tag } };
	struct event_vblank e;
	ssize_t n;

	if (ioctl(fd, WAIT_VBLANK, &w)) {
		printf("vblank-client: WAIT_VBLANK: %s\n", strerror(errno));
		return -1;
	}
	n = read(fd, &e, sizeof(e));
	if (n != (ssize_t)sizeof(e) || e.type != EVENT_VBLANK || e.user_data != tag) {
		printf("vblank-client: read %zd bytes, event type %u, tag %llu\n", n, e.type,
		       (unsigned long long)e.user_data);
		return -1;
	}
	return e.sequence;
}

int main(int argc, char **argv)
{
	int fd, i, n = argc > 1 ? atoi(argv[1]) : 30;
	long long seq = -1, first = -1, late;
	char path[64], seen[512];

	fd = drm_open_driver("card", 0, 15, "gt_vblank", path, sizeof(path), seen, sizeof(seen));
	if (fd < 0) {
		printf("vblank-client: no gt_vblank device in /dev/dri:%s\n", seen);
		return 2;
	}
	for (i = 0; i < n; i++) {
		seq = wait_event(fd, VBLANK_RELATIVE, 1, (unsigned long)i + 1);
		if (seq < 0)
			return 1;
		if (first < 0)
			first = seq;
	}
	late = wait_event(fd, VBLANK_ABSOLUTE, (uint32_t)(seq - 2), 1000);
	printf("vblank-client: pid=%d %s: %d events from vblank %lld to %lld; asked for %lld, got %lld\n",
	       (int)getpid(), path, n, first, seq, seq - 2, late);
	close(fd);
	return late < 0 ? 1 : 0;
}
