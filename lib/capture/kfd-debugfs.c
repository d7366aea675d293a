// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "capture/kfd-debugfs.h"
#include "decode/kfd-names.h"
#include "capture/print-record.h"
#include "util/time-ns.h"

#define DEBUGFS_DEFAULT	"/sys/kernel/debug"
#define TOPOLOGY_NODES	"/sys/class/kfd/kfd/topology/nodes"
/* a line of a dump is under 120 characters; longer ones are cut here */
#define MAX_LINE	512

static bool debugfs_mount(char *path, size_t len)
{
	char line[1024], dev[256], dir[512], type[64];
	FILE *f = fopen("/proc/mounts", "re");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %511s %63s", dev, dir, type) == 3 && !strcmp(type, "debugfs")) {
			snprintf(path, len, "%s", dir);
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

int kfd_debugfs_open(struct kfd_debugfs *d, const struct print_record_format *fmt, int pid,
		     int fd, size_t page_size, struct gt_error *err)
{
	char mnt[512], mqds[700];

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->mono_offset = time_ns_monotonic_offset();
	if (!debugfs_mount(mnt, sizeof(mnt))) {
		if (mount("debugfs", DEBUGFS_DEFAULT, "debugfs", 0, NULL))
			return gt_error_set(err, errno, "debugfs is not mounted and mounting it on %s failed: %s",
					    DEBUGFS_DEFAULT, strerror(errno));
		snprintf(mnt, sizeof(mnt), "%s", DEBUGFS_DEFAULT);
		d->mounted_now = true;
	}
	snprintf(d->kfd_dir, sizeof(d->kfd_dir), "%.100s/kfd", mnt);
	snprintf(mqds, sizeof(mqds), "%s/mqds", d->kfd_dir);
	if (access(mqds, R_OK)) {
		int e = errno;

		if (d->mounted_now)
			umount(DEBUGFS_DEFAULT);
		d->mounted_now = false;
		return gt_error_set(err, e, "%s: %s (amdgpu not loaded, or a kernel without CONFIG_DEBUG_FS)",
				    mqds, strerror(e));
	}
	if (rb_pages_init(&d->pages, fd, page_size)) {
		kfd_debugfs_close(d, NULL);
		return gt_error_set(err, ENOMEM, "out of memory for the KFD snapshots");
	}
	d->fd = fd;
	d->fmt = *fmt;
	d->pid = pid;
	return 0;
}

static void put(struct kfd_debugfs *d, uint64_t ts, const char *file, const char *line, size_t len)
{
	unsigned char rec[MAX_LINE + 128];
	char text[MAX_LINE + 64];
	int n;

	if (d->failed)
		return;
	n = snprintf(text, sizeof(text), "%s%d %s: %.*s", KFD_DEBUGFS_PREFIX, d->seq, file,
		     (int)(len > MAX_LINE ? MAX_LINE : len), line);
	if (n < 0)
		return;
	if (n >= (int)sizeof(text))
		n = (int)sizeof(text) - 1;
	n = rb_pages_add(&d->pages, ts, rec, print_record(&d->fmt, d->pid, text, (size_t)n, rec));
	if (n)
		d->failed = -n;
	else
		d->records++;
}

/* Every line of a debugfs file; an error becomes the snapshot's error line. */
static void put_file(struct kfd_debugfs *d, uint64_t ts, const char *name)
{
	char path[200], *buf = NULL, *line, *nl;
	size_t len = 0, cap = 0;
	int fd;
	ssize_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", d->kfd_dir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	while (fd >= 0) {
		if (len + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!b)
				break;
			buf = b;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (fd < 0 || n < 0 || !buf) {
		char why[256];
		int w = snprintf(why, sizeof(why), "%s: %s", path, strerror(errno ? errno : ENOMEM));

		put(d, ts, "error", why, (size_t)w);
		if (fd >= 0)
			close(fd);
		free(buf);
		return;
	}
	close(fd);
	buf[len] = '\0';
	for (line = buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		put(d, ts, name, line, (size_t)(nl - line + (*nl != '\n')));
		if (!nl[1])
			break;
	}
	free(buf);
}

/* gpu_id and gfx_target_version per GPU node: they say the MQD layout. */
static void put_topology(struct kfd_debugfs *d, uint64_t ts)
{
	DIR *dir = opendir(TOPOLOGY_NODES);
	struct dirent *e;

	while (dir && (e = readdir(dir))) {
		char path[512], line[256], out[96];
		unsigned long gpu = 0, version = 0;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/gpu_id", TOPOLOGY_NODES, e->d_name);
		f = fopen(path, "re");
		if (!f || fscanf(f, "%lu", &gpu) != 1)
			gpu = 0;
		if (f)
			fclose(f);
		if (!gpu)
			continue;	/* a CPU node */
		snprintf(path, sizeof(path), "%s/%s/properties", TOPOLOGY_NODES, e->d_name);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f))
			sscanf(line, "gfx_target_version %lu", &version);
		if (f)
			fclose(f);
		put(d, ts, "topology", out, (size_t)snprintf(out, sizeof(out), "gpu_id %lx gfx_target_version %lu",
							       gpu, version));
	}
	if (dir)
		closedir(dir);
}

void kfd_debugfs_snapshot(struct kfd_debugfs *d, const char *why)
{
	uint64_t ts;

	if (d->fd < 0)
		return;
	ts = time_ns_kernel_mono(d->mono_offset);
	d->seq++;
	put(d, ts, "snapshot", why, strlen(why));
	put_topology(d, ts);
	put_file(d, ts, "mqds");
	put_file(d, ts, "hqds");
	put_file(d, ts, "rls");		/* the runlist: kept for the viewers, not decoded */
}

long long kfd_debugfs_close(struct kfd_debugfs *d, struct gt_error *err)
{
	long long size = d->fd >= 0 ? rb_pages_close(&d->pages, d->failed) : -EBADF;

	if (size < 0 && d->fd >= 0)
		gt_error_set(err, (int)-size, "writing the KFD snapshots failed: %s", strerror((int)-size));
	d->fd = -1;
	if (d->mounted_now)
		umount(DEBUGFS_DEFAULT);
	d->mounted_now = false;
	return size < 0 ? -1 : size;
}
