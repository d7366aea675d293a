// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tracefs/buffer-ladder.h"

const unsigned long buffer_ladder_rungs_kb[BUFFER_LADDER_NR_RUNGS] = {
	4096, 8192, 12288, 16384
};

unsigned long buffer_mem_available_kb(void)
{
	unsigned long kb = 0;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %lu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

unsigned long buffer_safe_cap_kb(unsigned long mem_available_kb, int nr_cpus)
{
	if (nr_cpus < 1)
		nr_cpus = 1;
	return mem_available_kb / BUFFER_SAFE_SHARE_DIV / (unsigned long)nr_cpus;
}

static void note(struct buffer_result *res, unsigned long kb,
		 enum buffer_attempt_result result)
{
	if (res->nr_attempts < (int)(sizeof(res->attempts) / sizeof(res->attempts[0])))
		res->attempts[res->nr_attempts++] = (struct buffer_attempt){ kb, result };
}

/* 1 granted, 0 refused (ENOMEM), -1 hard error */
static int try_size(const struct buffer_ops *ops, unsigned long kb,
		    struct buffer_result *res, struct gt_error *err)
{
	struct gt_error e = { 0 };
	int ret = ops->set_kb(ops->ctx, kb, &e);

	if (ret == 0) {
		note(res, kb, BUFFER_GRANTED);
		return 1;
	}
	if (ret == -ENOMEM) {
		note(res, kb, BUFFER_REFUSED);
		return 0;
	}
	/* the operation's own message names the file and why: keep it */
	if (e.msg[0]) {
		if (err)
			*err = e;
		return -1;
	}
	return gt_error_set(err, -ret,
			    "setting buffer_size_kb to %lu KB failed: %s; check that tracefs is writable",
			    kb, strerror(-ret));
}

static int climb(const struct buffer_ops *ops, struct buffer_result *res,
		 struct gt_error *err)
{
	bool granted = false;
	int i, ret;

	for (i = 0; i < BUFFER_LADDER_NR_RUNGS; i++) {
		unsigned long kb = buffer_ladder_rungs_kb[i];

		if (kb > res->cap_kb) {
			note(res, kb, BUFFER_SKIPPED);
			break;
		}
		ret = try_size(ops, kb, res, err);
		if (ret < 0)
			return -1;
		if (ret == 0)
			break;
		granted = true;
	}
	res->kept_previous = !granted;
	return 0;
}

/*
 * Between the top rung and a refused size, the largest the kernel grants:
 * halving, never above the safe share (the user asked for more than the
 * machine has, not for all of it). 1 granted, 0 none, -1 hard error.
 */
static int descend_by_halves(const struct buffer_ops *ops, struct buffer_result *res,
			     struct gt_error *err)
{
	unsigned long top = buffer_ladder_rungs_kb[BUFFER_LADDER_NR_RUNGS - 1];
	unsigned long kb = res->explicit_kb, want, last = 0;
	int ret;

	while ((kb /= 2) > top) {
		want = kb < res->cap_kb ? kb : res->cap_kb;
		if (want <= top)
			break;
		if (want == last)
			continue;
		last = want;
		ret = try_size(ops, want, res, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* An explicit size the kernel refused walks down by halves, then the rungs below it. */
static int explicit_then_descend(const struct buffer_ops *ops,
				 struct buffer_result *res, struct gt_error *err)
{
	int i, ret;

	ret = try_size(ops, res->explicit_kb, res, err);
	if (ret != 0)
		return ret < 0 ? -1 : 0;
	ret = descend_by_halves(ops, res, err);
	if (ret != 0)
		return ret < 0 ? -1 : 0;

	for (i = BUFFER_LADDER_NR_RUNGS - 1; i >= 0; i--) {
		unsigned long kb = buffer_ladder_rungs_kb[i];

		if (kb >= res->explicit_kb)
			continue;
		if (kb > res->cap_kb) {
			note(res, kb, BUFFER_SKIPPED);
			continue;
		}
		ret = try_size(ops, kb, res, err);
		if (ret < 0)
			return -1;
		if (ret > 0)
			return 0;
	}
	res->kept_previous = true;
	return 0;
}

int buffer_ladder_apply(const struct buffer_ops *ops, unsigned long explicit_kb,
			unsigned long cap_kb, struct buffer_result *res,
			struct gt_error *err)
{
	long got;
	int ret;

	memset(res, 0, sizeof(*res));
	res->explicit_kb = explicit_kb;
	res->cap_kb = cap_kb;

	ret = explicit_kb ? explicit_then_descend(ops, res, err) : climb(ops, res, err);
	if (ret < 0)
		return -1;

	got = ops->get_kb(ops->ctx);
	if (got < 0)
		return gt_error_set(err, (int)-got,
				    "reading back buffer_size_kb failed: %s; check that tracefs is readable",
				    strerror((int)-got));
	res->granted_kb = (unsigned long)got;
	return 0;
}

static const char *attempt_word(enum buffer_attempt_result r)
{
	switch (r) {
	case BUFFER_GRANTED:
		return "ok";
	case BUFFER_REFUSED:
		return "refused (ENOMEM)";
	case BUFFER_SKIPPED:
		return "skipped (over safe share)";
	}
	return "?";
}

void buffer_result_describe(const struct buffer_result *res, int nr_cpus,
			    char *buf, size_t len)
{
	unsigned long long total_kb = (unsigned long long)res->granted_kb * nr_cpus;
	size_t off;
	int i;

	off = (size_t)snprintf(buf, len,
			       "buffer: %lu KB per CPU x %d CPU%s = %llu MB",
			       res->granted_kb, nr_cpus, nr_cpus == 1 ? "" : "s",
			       (total_kb + 512) / 1024);
	if (off >= len)
		return;
	off += (size_t)snprintf(buf + off, len - off, " (%s",
				res->explicit_kb ? "-b" : "ladder");
	for (i = 0; i < res->nr_attempts && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s %lu KB %s",
					i ? "," : ":", res->attempts[i].kb,
					attempt_word(res->attempts[i].result));
	if (off < len && res->kept_previous)
		off += (size_t)snprintf(buf + off, len - off,
					"; nothing granted, kept the size the kernel had");
	if (off < len)
		snprintf(buf + off, len - off, "; safe share 1/%d of MemAvailable = %lu KB per CPU)",
			 BUFFER_SAFE_SHARE_DIV * (res->share > 1 ? res->share : 1), res->cap_kb);
}
