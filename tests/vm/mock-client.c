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
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

struct drm_version {
	int major, minor, patchlevel;
	size_t name_len;
	char *name;
	size_t date_len;
	char *date;
	size_t desc_len;
	char *desc;
};

struct gt_mock_submit {
	char scenario[32];
};

#define DRM_BASE		'd'
#define DRM_COMMAND_BASE	0x40
#define DRM_VERSION		_IOWR(DRM_BASE, 0x00, struct drm_version)
#define GT_MOCK_SUBMIT		_IOW(DRM_BASE, DRM_COMMAND_BASE + 0x00, struct gt_mock_submit)

/* @seen: what each node turned out to be, for the message when none is ours */
static int open_mock(char *path, size_t len, char *seen, size_t seen_len)
{
	size_t off = 0;
	int i, fd;

	seen[0] = '\0';
	for (i = 128; i < 192; i++) {
		char name[32] = "";
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(path, len, "/dev/dri/renderD%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT && off < seen_len)
				off += (size_t)snprintf(seen + off, seen_len - off, " renderD%d: %s;", i,
							strerror(errno));
			continue;
		}
		if (!ioctl(fd, DRM_VERSION, &v) && !strcmp(name, "gt_mock"))
			return fd;
		if (off < seen_len)
			off += (size_t)snprintf(seen + off, seen_len - off, " renderD%d: %s;", i,
						name[0] ? name : strerror(errno));
		close(fd);
	}
	return -1;
}

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
	fd = open_mock(path, sizeof(path), seen, sizeof(seen));
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
