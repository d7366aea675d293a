// SPDX-License-Identifier: GPL-2.0
/* The HTML page's binary job rows (html-job-rows.h), decoded back byte by byte. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/output/html-job-rows.h"
#include "../unit.h"

static size_t unbase64(const char *in, unsigned char *out)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint32_t acc = 0;
	int bits = 0;
	size_t n = 0;

	for (; *in && *in != '='; in++) {
		acc = acc << 6 | (uint32_t)(strchr(abc, *in) - abc);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (unsigned char)(acc >> bits);
		}
	}
	return n;
}

static uint32_t rd32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const unsigned char *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* rows of @jobs through the writer, decoded back into @rows, the keys into @keys */
static size_t rows_of(const struct job *jobs, int nr, unsigned char *rows, uint64_t *left_out,
		      unsigned char *keys, size_t *nr_keys)
{
	struct html_job_rows w;
	char *text = NULL, *sep;
	size_t len = 0, n;
	FILE *f = open_memstream(&text, &len);
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_TRUE_FATAL(html_job_rows_begin(&w, f));
	for (i = 0; i < nr; i++)
		html_job_rows_add(&w, &jobs[i]);
	CU_ASSERT_TRUE(html_job_rows_end(&w));
	fputc('|', f);
	CU_ASSERT_TRUE(html_job_rows_keys(&w));
	fclose(f);
	sep = strchr(text, '|');
	CU_ASSERT_PTR_NOT_NULL_FATAL(sep);
	*sep = '\0';
	CU_ASSERT_EQUAL(strlen(text) % 4, 0);
	CU_ASSERT_EQUAL(strlen(sep + 1) % 4, 0);
	n = unbase64(text, rows);
	*nr_keys = unbase64(sep + 1, keys);
	free(text);
	*left_out = w.left_out;
	return n;
}

static void test_fields(void)
{
	struct job jobs[3] = {
		{ .ring = 2, .pid = 4242, .has_id = true, .id = 77, .t_submit = 1000, .t_queue = 1500,
		  .t_run = 2000, .t_hw_start = 2500, .t_done = 5000, .flags = 0x121 },
		/* waited 3 s: past what a u32 of ns holds, so in us */
		{ .ring = 0, .pid = 1, .has_fence = true, .ctx = (1ULL << 60) + 3, .seqno = (1ULL << 40) + 9,
		  .t_queue = 10, .t_done = 10 + 3000000123ULL },
		/* a ring the page cannot number is left out */
		{ .ring = 70000, .pid = 5, .t_queue = 1 },
	};
	unsigned char rows[3 * HTML_JOB_ROW + 4], keys[64];
	/* 77; 2^60 + 3 and 2^40 + 9 as LEB128 */
	static const unsigned char want_keys[] = {
		77, 0x83, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10,
		0x89, 0x80, 0x80, 0x80, 0x80, 0x20,
	};
	uint64_t left_out, bits;
	size_t n, nr_keys;
	double first;

	jobs[0].has_lat[LAT_DEP_WAIT] = true;
	jobs[0].lat[LAT_DEP_WAIT] = 300;
	n = rows_of(jobs, 3, rows, &left_out, keys, &nr_keys);
	CU_ASSERT_EQUAL_FATAL(n, 2 * HTML_JOB_ROW);
	CU_ASSERT_EQUAL(left_out, 1);
	bits = rd64(rows);
	memcpy(&first, &bits, sizeof(first));
	CU_ASSERT_EQUAL(first, 1000.0);
	CU_ASSERT_EQUAL(rows[8] | rows[9] << 8, 2);
	CU_ASSERT_EQUAL((rows[10] | rows[11] << 8) & 0x3fff, 0x121);
	CU_ASSERT_EQUAL((rows[10] | rows[11] << 8) >> 14, 1);
	CU_ASSERT_EQUAL(rd32(rows + 12), 4242);
	CU_ASSERT_EQUAL(rd32(rows + 16), 0);		/* submit is the first time */
	CU_ASSERT_EQUAL(rd32(rows + 20), 500);
	CU_ASSERT_EQUAL(rd32(rows + 24), 1000);
	CU_ASSERT_EQUAL(rd32(rows + 28), 1500);
	CU_ASSERT_EQUAL(rd32(rows + 32), 4000);
	CU_ASSERT_EQUAL(rd32(rows + 36), 300);
	CU_ASSERT_EQUAL(rd32(rows + 40), 0xffffffffu);	/* on the engine from start to done */
	/* the fence's row: no submit, run or hw start; done 3 s on, in us; the key exact */
	CU_ASSERT_EQUAL((rows[HTML_JOB_ROW + 10] | rows[HTML_JOB_ROW + 11] << 8) >> 14, 2);
	CU_ASSERT_EQUAL(rd32(rows + HTML_JOB_ROW + 16), 0xffffffffu);
	CU_ASSERT_EQUAL(rd32(rows + HTML_JOB_ROW + 24), 0xffffffffu);
	CU_ASSERT_EQUAL(rd32(rows + HTML_JOB_ROW + 28), 0xffffffffu);
	CU_ASSERT_EQUAL(rd32(rows + HTML_JOB_ROW + 32), 0x80000000u | 3000000u);
	CU_ASSERT_EQUAL(rd32(rows + HTML_JOB_ROW + 36), 0xffffffffu);	/* no dep wait known */
	/* the keys: the id, then the fence's context and seqno, exact */
	CU_ASSERT_EQUAL_FATAL(nr_keys, sizeof(want_keys));
	CU_ASSERT_EQUAL(memcmp(keys, want_keys, sizeof(want_keys)), 0);
}

/* every length of output ends in whole, padded base64 groups */
static void test_padding(void)
{
	struct job j = { .ring = 1, .pid = 2, .t_queue = 3 };
	unsigned char rows[4 * HTML_JOB_ROW + 4], keys[8];
	uint64_t left_out;
	size_t nr_keys;
	int nr;

	for (nr = 1; nr <= 4; nr++) {
		struct job jobs[4] = { j, j, j, j };

		CU_ASSERT_EQUAL(rows_of(jobs, nr, rows, &left_out, keys, &nr_keys), (size_t)nr * HTML_JOB_ROW);
		CU_ASSERT_EQUAL(nr_keys, 0);
	}
}

/* the ioctls' stream: a row for the job just added (none for one left out), 3 s in us */
static void test_ioctls(void)
{
	struct job jobs[3] = {
		{ .ring = 1, .pid = 600, .t_queue = 5000 },
		{ .ring = 70000, .pid = 600, .t_queue = 6000 },	/* left out: its ioctl too */
		{ .ring = 1, .pid = 601, .t_queue = 9000 },
	};
	struct html_ioctl io = { .enter = 4000, .to_queued_ns = 1000, .on_cpu_ns = 500,
				 .runnable_ns = 200, .sleeping_ns = 250, .blocked_ns = 100,
				 .irq_ns = 50, .tid = 600, .name = 3 };
	unsigned char rows[2 * HTML_IOCTL_ROW + 4];
	struct html_job_rows w;
	char *text = NULL, *at;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	uint64_t bits;
	double enter;
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_TRUE_FATAL(html_job_rows_begin(&w, f));
	for (i = 0; i < 3; i++) {
		if (!html_job_rows_add(&w, &jobs[i]))
			continue;
		CU_ASSERT_TRUE(html_job_rows_ioctl(&w, &io));
		io = (struct html_ioctl){ .enter = 1000, .to_queued_ns = 3000000123ULL,
					  .on_cpu_ns = 3000000123ULL, .tid = 601,
					  .name = HTML_IOCTL_OTHER };
	}
	CU_ASSERT_EQUAL(w.nr_ioctls, 2);
	CU_ASSERT_TRUE(html_job_rows_end(&w));
	fputc('|', f);
	CU_ASSERT_TRUE(html_job_rows_keys(&w));
	fputc('|', f);
	CU_ASSERT_TRUE(html_job_rows_ioctls(&w));
	fclose(f);
	at = strrchr(text, '|');
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	CU_ASSERT_EQUAL(strlen(at + 1) % 4, 0);
	CU_ASSERT_EQUAL_FATAL(unbase64(at + 1, rows), 2 * HTML_IOCTL_ROW);
	bits = rd64(rows);
	memcpy(&enter, &bits, sizeof(enter));
	CU_ASSERT_EQUAL(enter, 4000.0);
	CU_ASSERT_EQUAL(rd32(rows + 8), 0);		/* the first job's row */
	CU_ASSERT_EQUAL(rd32(rows + 12), 1000);
	CU_ASSERT_EQUAL(rd32(rows + 16), 500);
	CU_ASSERT_EQUAL(rd32(rows + 20), 200);
	CU_ASSERT_EQUAL(rd32(rows + 24), 250);
	CU_ASSERT_EQUAL(rd32(rows + 28), 100);
	CU_ASSERT_EQUAL(rd32(rows + 32), 50);
	CU_ASSERT_EQUAL(rd32(rows + 36), 600);
	CU_ASSERT_EQUAL(rows[40] | rows[41] << 8, 3);
	/* the third job is the page's second row; 3 s in us */
	CU_ASSERT_EQUAL(rd32(rows + HTML_IOCTL_ROW + 8), 1);
	CU_ASSERT_EQUAL(rd32(rows + HTML_IOCTL_ROW + 12), 0x80000000u | 3000000u);
	CU_ASSERT_EQUAL(rd32(rows + HTML_IOCTL_ROW + 16), 0x80000000u | 3000000u);
	CU_ASSERT_EQUAL(rd32(rows + HTML_IOCTL_ROW + 20), 0);
	CU_ASSERT_EQUAL(rows[HTML_IOCTL_ROW + 40] | rows[HTML_IOCTL_ROW + 41] << 8, HTML_IOCTL_OTHER);
	free(text);
}

void suite_html_job_rows(void)
{
	CU_pSuite s = CU_add_suite("html-job-rows", NULL, NULL);

	CU_add_test(s, "every field, us past 2.1 s, exact 64-bit keys, rings left out", test_fields);
	CU_add_test(s, "whole base64 groups at every length", test_padding);
	CU_add_test(s, "ioctl rows: the job just added, us past 2.1 s, names past the table", test_ioctls);
}
