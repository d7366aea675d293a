// SPDX-License-Identifier: GPL-2.0
/*
 * What makes a file one host's among many: print records in the main buffer
 * (trace_marker lines, which trace-cmd, KernelShark and gpuvis show as they
 * show any marker) naming the host (its name, machine-id and boot id), each
 * DRM device it has (PCI address, vendor:device, driver and its version, a
 * UUID where sysfs offers one), and pairs of CLOCK_REALTIME and the trace
 * clock: a realtime reading, the marker (the trace clock stamps it), and a
 * second reading in a marker of its own. The first marker's trace time lies
 * between the two readings, whatever the trace clock, so report puts the file
 * on UTC with that interval's half as its uncertainty. Written at the start,
 * every few seconds and at the end. The names are the report's
 * (lib/analysis/host-clock.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "capture/record-engine.h"
#include "capture/record-identity.h"

#define CLOCK_PERIOD_S	5.0

/* @src into @out, cut to fit; "-" when empty */
static void copy_word(char *out, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	if (!n) {
		src = "-";
		n = 1;
	}
	memcpy(out, src, n);
	out[n] = '\0';
}

/* A one-line sysfs or /etc value with no spaces, "-" when absent */
static void read_word(const char *path, char *out, size_t len)
{
	char buf[128];
	FILE *f = fopen(path, "re");
	size_t n;

	snprintf(out, len, "-");
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, " \t\r\n")] = '\0';
	copy_word(out, len, buf);
}

/* The last part of the link at @path (a device's PCI address, its driver's name) */
static bool link_tail(const char *path, char *out, size_t len)
{
	char target[256];
	const char *base;
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	snprintf(out, len, "-");
	if (n <= 0)
		return false;
	target[n] = '\0';
	base = strrchr(target, '/');
	copy_word(out, len, base ? base + 1 : target);
	return true;
}

/* /sys/class/drm/CARD/device/FILE's word */
static void device_word(const char *card, const char *file, char *out, size_t len)
{
	char path[160];

	snprintf(path, sizeof(path), "/sys/class/drm/%s/device/%s", card, file);
	read_word(path, out, len);
}

/* One marker per DRM card: cardN only, not its connectors (card0-DP-1) */
static int mark_gpus(struct trace_session *s, struct gt_error *err)
{
	DIR *d = opendir("/sys/class/drm");
	struct dirent *e;
	int ret = 0, n = 0;

	while (d && !ret && n < 64 && (e = readdir(d))) {
		char path[160], pci[64], vendor[16], device[16], driver[64], version[64], uuid[64];
		char card[33], line[600];

		if (strncmp(e->d_name, "card", 4) || strchr(e->d_name, '-'))
			continue;
		copy_word(card, sizeof(card), e->d_name);
		snprintf(path, sizeof(path), "/sys/class/drm/%s/device", card);
		if (!link_tail(path, pci, sizeof(pci)))
			continue;
		device_word(card, "vendor", vendor, sizeof(vendor));
		device_word(card, "device", device, sizeof(device));
		snprintf(path, sizeof(path), "/sys/class/drm/%s/device/driver", card);
		link_tail(path, driver, sizeof(driver));
		snprintf(path, sizeof(path), "/sys/module/%s/version", driver);
		read_word(path, version, sizeof(version));
		/* amdgpu's unique_id; others have none in sysfs */
		device_word(card, "unique_id", uuid, sizeof(uuid));
		snprintf(line, sizeof(line),
			 "gpu-trace gpu: card=%s pci=%s vendor=%s device=%s driver=%s version=%s uuid=%s",
			 card, pci, vendor, device, driver, version, uuid);
		ret = session_mark(s, line, err);
		n++;
	}
	if (d)
		closedir(d);
	return ret;
}

int identity_mark_host(struct trace_session *s, struct gt_error *err)
{
	char machine[64], boot[64], line[400];
	struct utsname u;

	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "-");
	read_word("/etc/machine-id", machine, sizeof(machine));
	read_word("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	snprintf(line, sizeof(line), "gpu-trace host: name=%.64s machine_id=%s boot_id=%s",
		 u.nodename[0] ? u.nodename : "-", machine, boot);
	return session_mark(s, line, err) || mark_gpus(s, err) ? -1 : 0;
}

int record_mark_identity(struct record_run *run, struct gt_error *err)
{
	if (identity_mark_host(&run->session, err))
		return -1;
	run->next_clock = 0;
	return record_mark_clock(run, err);
}

static unsigned long long realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

int identity_mark_clock(struct trace_session *s, struct gt_error *err)
{
	char line[96];
	unsigned long long before, after;

	before = realtime_ns();
	snprintf(line, sizeof(line), "gpu-trace clock: realtime_ns=%llu", before);
	if (session_mark(s, line, err))
		return -1;
	after = realtime_ns();
	snprintf(line, sizeof(line), "gpu-trace clock end: realtime_ns=%llu", after);
	return session_mark(s, line, err);
}

int record_mark_clock(struct record_run *run, struct gt_error *err)
{
	run->next_clock = run->elapsed + CLOCK_PERIOD_S;
	return identity_mark_clock(&run->session, err);
}
