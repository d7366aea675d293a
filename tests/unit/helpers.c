// SPDX-License-Identifier: GPL-2.0
#include <event-parse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/analysis/timeline.h"
#include "../fixture/scenarios.h"
#include "unit.h"

#define RB_MISSED_EVENTS	(1UL << 31)
#define RB_MISSED_STORED	(1UL << 30)

static void store_commit(struct raw_page *p, uint64_t flags)
{
	uint64_t commit = p->used | flags;

	memcpy(p->data + 8, &commit, 8);
}

void raw_page_init(struct raw_page *p, unsigned long long timestamp)
{
	uint64_t ts = timestamp;

	memset(p, 0, sizeof(*p));
	memcpy(p->data, &ts, 8);
	store_commit(p, 0);
}

int raw_page_add(struct raw_page *p, unsigned int time_delta, const void *payload,
		 size_t len)
{
	size_t padded = (len + 3) & ~(size_t)3;
	uint32_t header;

	/* type_len 1..28 encodes the length in words: enough for test events */
	if (padded / 4 > 28 || 16 + p->used + 4 + padded > sizeof(p->data) - 8)
		return -1;
	header = (uint32_t)(padded / 4) | (time_delta << 5);
	memcpy(p->data + 16 + p->used, &header, 4);
	memcpy(p->data + 16 + p->used + 4, payload, len);
	p->used += 4 + padded;
	store_commit(p, 0);
	return 0;
}

void raw_page_set_missed(struct raw_page *p, unsigned long missed)
{
	uint64_t m = missed;

	/* the count sits right after the data when there is room */
	memcpy(p->data + 16 + p->used, &m, 8);
	store_commit(p, RB_MISSED_EVENTS | RB_MISSED_STORED);
}

char *fixture_read(const char *relpath)
{
	const char *dir = getenv("GT_FIXTURES");
	char path[4096];
	long size;
	char *buf;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures", relpath);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	buf = malloc((size_t)size + 1);
	if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[size] = '\0';
	fclose(f);
	return buf;
}

void kept_job(const struct job *j, void *ctx)
{
	struct kept_jobs *k = ctx;

	if (!k->list)
		k->list = calloc(8, sizeof(*k->list));
	if (k->list && k->nr < 8)
		k->list[k->nr++] = *j;
}

const struct job *kept_by_ctx(const struct kept_jobs *k, unsigned long long ctx, unsigned long long seqno)
{
	int i;

	for (i = 0; i < k->nr; i++)
		if (k->list[i].ctx == ctx && (seqno == ~0ULL || k->list[i].seqno == seqno))
			return &k->list[i];
	return NULL;
}

void kept_jobs_free(struct kept_jobs *k)
{
	free(k->list);
	k->list = NULL;
	k->nr = 0;
}

int scenario_tmpfile(const char *scenario, char *path, size_t len)
{
	const char *root = getenv("GT_FIXTURES");
	struct gt_error err = { 0 };
	char formats[512];
	int fd;

	snprintf(formats, sizeof(formats), "%s/formats", root ? root : "tests/fixtures");
	snprintf(path, len, "/tmp/gt-unit-scenario-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	if (scenario_write(scenario_find(scenario), formats, path, &err)) {
		unlink(path);
		return -1;
	}
	return 0;
}

struct tep_handle *tep_with_format(const char *kernel, const char *sys, const char *name)
{
	char path[256], *fmt;
	struct tep_handle *tep;

	snprintf(path, sizeof(path), "formats/%s/%s/%s/format", kernel, sys, name);
	fmt = fixture_read(path);
	if (!fmt)
		return NULL;
	tep = tep_alloc();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	if (tep_parse_event(tep, fmt, strlen(fmt), sys)) {
		tep_free(tep);
		tep = NULL;
	}
	free(fmt);
	return tep;
}
