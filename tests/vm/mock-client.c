// SPDX-License-Identifier: GPL-2.0
/*
 * mock-client SCENARIO [HOLD_MS]: a DRM client of the lab's mock driver.
 * Opens the render node whose driver calls itself gt_mock, holds it idle
 * for HOLD_MS (default 1500: record's once-a-second fdinfo snapshots see
 * the file before any work), submits SCENARIO through the driver's ioctl
 * (it returns when the jobs are done), holds it idle again (a snapshot
 * sees the engine time of all of them) and prints the ground truth: its
 * pid and the client id the DRM core gave the file, from its own fdinfo.
 */
#include <stdlib.h>
#include <time.h>

#include "drm-open.h"

struct gt_mock_submit {
	char scenario[32];
};

#define GT_MOCK_SUBMIT		_IOW(DRM_BASE, DRM_COMMAND_BASE + 0x00, struct gt_mock_submit)

/* drm-client-id of our own file, as the DRM core prints it */
static long long client_id(int fd)
{
	char path[64], line[256];
	long long id = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "drm-client-id: %lld", &id) == 1)
			break;
	fclose(f);
	return id;
}

static void hold(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	struct gt_mock_submit submit = { { 0 } };
	long ms = argc > 2 ? atol(argv[2]) : 1500;
	char path[64], seen[512];
	int fd;

	if (argc < 2 || strlen(argv[1]) >= sizeof(submit.scenario)) {
		fprintf(stderr, "usage: mock-client SCENARIO [HOLD_MS]\n");
		return 2;
	}
	strcpy(submit.scenario, argv[1]);
	fd = drm_open_driver("renderD", 128, 191, "gt_mock", path, sizeof(path), seen, sizeof(seen));
	if (fd < 0) {
		printf("mock-client: no gt_mock render node in /dev/dri:%s\n", seen);
		return 2;
	}
	hold(ms);
	if (ioctl(fd, GT_MOCK_SUBMIT, &submit)) {
		printf("mock-client: %s: GT_MOCK_SUBMIT %s: %s\n", path, argv[1], strerror(errno));
		return 1;
	}
	hold(ms);
	printf("mock-client: pid=%d client_id=%lld node=%s scenario=%s\n", (int)getpid(),
	       client_id(fd), path, argv[1]);
	close(fd);
	return 0;
}
