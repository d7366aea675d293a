// SPDX-License-Identifier: GPL-2.0
/*
 * The sections the joins add to the report: every row writes every format,
 * and a report shows the ones it was asked for (the summary all, --queues
 * the KFD one), in text, JSON and CSV alike; the rows with tracks written at
 * the end of a file give Perfetto theirs in a fixed order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/output/report-formats.h"
#include "../unit.h"
#include "analysis/hip-runtime.h"

static void test_every_section_writes_every_format(void)
{
	int i, f;

	for (i = 0; report_sections[i]; i++) {
		CU_ASSERT_PTR_NOT_NULL(report_sections[i]->name);
		for (f = 0; f < REPORT_SECTION_NR_FORMATS; f++)
			CU_ASSERT_PTR_NOT_NULL(report_sections[i]->write[f]);
	}
	CU_ASSERT_EQUAL(i, 14);
}

/*
 * The Perfetto writers run once a file's records are read, in their own order:
 * it numbers their tracks, so a trace's bytes (tests/fixtures/outputs.sha256)
 * hang on it. One writer per place, the places 1, 2, ... in the order the
 * trace has always had them.
 */
static void test_perfetto_writers_keep_their_order(void)
{
	static const char *const order[] = { "kfd", "user queues", "owner switches",
					     "GPU hangs and resets" };
	const struct report_section *by_order[8] = { NULL };
	int i, n = 0;

	for (i = 0; report_sections[i]; i++) {
		const struct report_section *s = report_sections[i];

		if (!s->perfetto) {
			CU_ASSERT_EQUAL(s->perfetto_order, 0);
			continue;
		}
		CU_ASSERT_FATAL(s->perfetto_order >= 1 && s->perfetto_order <= 8);
		CU_ASSERT_PTR_NULL(by_order[s->perfetto_order - 1]);
		by_order[s->perfetto_order - 1] = s;
		n++;
	}
	CU_ASSERT_EQUAL_FATAL(n, 4);
	for (i = 0; i < 4; i++) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(by_order[i]);
		CU_ASSERT_STRING_EQUAL(by_order[i]->name, order[i]);
	}
}

/* The sections @rep shows in @format, as one string (freed by the caller). */
static char *sections(struct report *rep, enum report_section_format format)
{
	char *buf = NULL;
	size_t len = 0;

	rep->stream = open_memstream(&buf, &len);
	if (!rep->stream)
		return NULL;
	report_sections_write(rep, format);
	fclose(rep->stream);
	return buf;
}

/* A HIP program's log beside KFD's functions: both sections have something to say. */
static void test_a_report_shows_what_it_was_asked(void)
{
	static const char *const kfd[REPORT_SECTION_NR_FORMATS] = {
		"\nKFD queues", ",\"kfd\":{", "\n# kfd queues\n" };
	static const char *const hip[REPORT_SECTION_NR_FORMATS] = {
		"\nHIP runtime log", ",\"hip\":{", "\n# hip queues\n" };
	struct gt_error err = { 0 };
	struct report rep = { 0 };
	char path[64], *out;
	int f;

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("hip-kfd", path, sizeof(path)), 0);
	rep.analysis = analysis_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(rep.analysis);
	CU_ASSERT_EQUAL_FATAL(analysis_open(rep.analysis, path, NULL, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(rep.analysis, &err), 0);
	CU_ASSERT_TRUE(hip_runtime_of(rep.analysis)->lines > 0);
	for (f = 0; f < REPORT_SECTION_NR_FORMATS; f++) {
		rep.summary = true;
		out = sections(&rep, (enum report_section_format)f);
		CU_ASSERT_PTR_NOT_NULL_FATAL(out);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, kfd[f]));
		CU_ASSERT_PTR_NOT_NULL(strstr(out, hip[f]));
		/* KFD's first: the order of the table */
		CU_ASSERT_TRUE(strstr(out, kfd[f]) < strstr(out, hip[f]));
		free(out);

		rep.summary = false;
		rep.opts.queues = true;
		out = sections(&rep, (enum report_section_format)f);
		CU_ASSERT_PTR_NOT_NULL_FATAL(out);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, kfd[f]));
		CU_ASSERT_PTR_NULL(strstr(out, hip[f]));
		free(out);

		rep.opts.queues = false;	/* --rings alone: no section */
		out = sections(&rep, (enum report_section_format)f);
		CU_ASSERT_PTR_NOT_NULL_FATAL(out);
		CU_ASSERT_STRING_EQUAL(out, "");
		free(out);
	}
	analysis_free(rep.analysis);
	keymap_free(&rep.ring_jobs);
	unlink(path);
}

void suite_report_sections(void)
{
	CU_pSuite s = CU_add_suite("report sections", NULL, NULL);

	CU_add_test(s, "every section writes every format", test_every_section_writes_every_format);
	CU_add_test(s, "a report shows the sections it was asked for", test_a_report_shows_what_it_was_asked);
	CU_add_test(s, "the Perfetto writers keep their order", test_perfetto_writers_keep_their_order);
}
