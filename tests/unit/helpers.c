// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
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

/* the format file at @path (under tests/fixtures) of system @sys in a tep of its own */
static struct tep_handle *tep_from_file(const char *path, const char *sys)
{
	char *fmt;
	struct tep_handle *tep;

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

struct tep_handle *tep_with_format(const char *kernel, const char *sys, const char *name)
{
	char path[640];

	snprintf(path, sizeof(path), "formats/%s/%s/%s/format", kernel, sys, name);
	return tep_from_file(path, sys);
}

static uint32_t seed = 7;

uint32_t fixture_rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

/* Random bytes with believable strings: each __data_loc points inside the record, mostly. */
static void random_record(struct tep_event *e, unsigned char *rec, int size)
{
	struct tep_format_field *f;
	int i;

	for (i = 0; i < size; i++)
		rec[i] = (unsigned char)(fixture_rnd() % 4 ? 'a' + fixture_rnd() % 26 : fixture_rnd());
	for (f = e->format.fields; f; f = f->next) {
		uint32_t at = (uint32_t)(size / 2 + fixture_rnd() % (size / 2 + 1)), len = fixture_rnd() % 24;

		if (!(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size != 4 || f->offset + 4 > size)
			continue;
		if (fixture_rnd() % 8 == 0)
			at = fixture_rnd();	/* past the record: bounded */
		memcpy(rec + f->offset, &(uint32_t){ (at & 0xffff) | len << 16 }, 4);
	}
	memcpy(rec, &(uint16_t){ (uint16_t)e->id }, 2);
}

void fixture_random_records(struct tep_event *e, int n,
			    void (*fn)(struct tep_record *r, void *ctx), void *ctx)
{
	int i;

	for (i = 0; i < n; i++) {
		unsigned char rec[256];
		int size = i % 4 ? (int)sizeof(rec) : 8 + (int)(fixture_rnd() % 120);
		struct tep_record r = { .ts = fixture_rnd(), .cpu = 1, .data = rec, .size = size };

		random_record(e, rec, (int)sizeof(rec));
		fn(&r, ctx);
	}
}

unsigned long fixture_formats_each(bool (*want)(const char *sys, const char *name),
				   void (*fn)(struct tep_handle *tep, struct tep_event *e, void *ctx),
				   void *ctx)
{
	static const char *const kernels[] = { "linux-5.10", "linux-6.1", "linux-6.12", "linux-7.3",
					       "amdgpu-4.11", "i915-4.16", "i915-7.3", "sched-6.18",
					       "syscalls-6.18", "irq-6.18", "ftrace-6.18" };
	unsigned long events = 0;
	size_t k;

	for (k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		char dir[256];
		struct dirent *sys;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/formats/%s",
			 getenv("GT_FIXTURES") ? getenv("GT_FIXTURES") : "tests/fixtures", kernels[k]);
		d = opendir(dir);
		CU_ASSERT_PTR_NOT_NULL(d);
		while (d && (sys = readdir(d))) {
			char sdir[512];
			struct dirent *ev;
			DIR *sd;

			snprintf(sdir, sizeof(sdir), "%s/%s", dir, sys->d_name);
			sd = sys->d_name[0] == '.' ? NULL : opendir(sdir);
			while (sd && (ev = readdir(sd))) {
				char path[1024], system[32];
				struct tep_handle *tep;
				struct tep_event *e;

				/* sched-6.18/EVENT/format: the system is the folder's first word */
				if (!strcmp(ev->d_name, "format")) {
					snprintf(system, sizeof(system), "%.*s", (int)strcspn(kernels[k], "-"),
						 kernels[k]);
					if (!want(system, sys->d_name))
						continue;
					snprintf(path, sizeof(path), "formats/%s/%s/format", kernels[k], sys->d_name);
					tep = tep_from_file(path, system);
					e = tep ? tep_find_event_by_name(tep, system, sys->d_name) : NULL;
				} else {
					if (ev->d_name[0] == '.' || !want(sys->d_name, ev->d_name))
						continue;
					tep = tep_with_format(kernels[k], sys->d_name, ev->d_name);
					e = tep ? tep_find_event_by_name(tep, sys->d_name, ev->d_name) : NULL;
				}
				if (e) {
					events++;
					fn(tep, e, ctx);
				}
				tep_free(tep);
			}
			if (sd)
				closedir(sd);
		}
		if (d)
			closedir(d);
	}
	return events;
}
