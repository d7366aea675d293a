// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms parsed at the first lookup answer as libtraceevent's eager parse
 * does: the same name and start for every address, on a text with modules,
 * the symbols libtraceevent skips, one address under two names, a damaged
 * line, and two texts given to one tep.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../../fixture/fixture.h"
#include "../unit.h"

static const char first_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 t do_one_initcall\n"
	"ffffffff81002000 T kfd_ioctl\t[amdgpu]\n"
	"ffffffff81003000 T kfd_ioctl_create_queue\t[amdgpu]\n"
	"ffffffff81002800 t $a\n"			/* arm's mapping symbols: skipped */
	"0000000000012000 A fixed_percpu_data\n"	/* absolute: skipped */
	"ffffffff81004000 T dup_one\n"
	"ffffffff81004000 T dup_two\n"		/* one address, two names */
	"\n"
	"  ffffffff81005000   W  spaced_out \n"
	"ffffffff81006000 T amdgpu_job_run\t[amdgpu]\n";
static const char second_text[] =
	"ffffffff81008000 T second_text_func\n"
	"ffffffff81007000 T between\n"
	"not a symbol line\n"				/* libtraceevent stops here */
	"ffffffff81009000 T after_the_damage\n";

static void both_parse(struct tep_handle *eager, struct tep_handle *lazy,
		       struct kallsyms_deferred **d, int texts)
{
	tep_parse_kallsyms(eager, first_text);
	if (texts > 1)
		tep_parse_kallsyms(eager, second_text);
	kallsyms_defer_begin();
	tep_parse_kallsyms(lazy, first_text);
	if (texts > 1)
		tep_parse_kallsyms(lazy, second_text);
	*d = kallsyms_defer_end(true);
}

/* every address around every symbol, and past both ends */
static void same_answers(struct tep_handle *eager, struct tep_handle *lazy)
{
	static const unsigned long long bases[] = {
		0, 0x12000, 0xffffffff80ffffffULL, 0xffffffff81000000ULL, 0xffffffff81001000ULL,
		0xffffffff81002000ULL, 0xffffffff81002800ULL, 0xffffffff81003000ULL,
		0xffffffff81004000ULL, 0xffffffff81005000ULL, 0xffffffff81006000ULL,
		0xffffffff81007000ULL, 0xffffffff81008000ULL, 0xffffffff81009000ULL, ~0ULL - 1,
	};
	size_t i;
	int d, differ = 0, named = 0;

	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		for (d = -1; d <= 1; d++) {
			unsigned long long at = bases[i] + d;
			const char *e = tep_find_function(eager, at), *l = tep_find_function(lazy, at);

			named += e != NULL;
			if ((!e) != (!l) || (e && strcmp(e, l)) ||
			    tep_find_function_address(eager, at) != tep_find_function_address(lazy, at))
				differ++;
		}
	}
	CU_ASSERT_EQUAL(differ, 0);
	CU_ASSERT_TRUE(named > 10);	/* the comparison compared names, not two empty maps */
}

static void test_same_answers_as_an_eager_parse(void)
{
	struct tep_handle *eager = tep_alloc(), *lazy = tep_alloc();
	struct kallsyms_deferred *d = NULL;

	CU_ASSERT_FATAL(eager && lazy);
	both_parse(eager, lazy, &d, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_FALSE(kallsyms_deferred_parsed(d));
	same_answers(eager, lazy);
	CU_ASSERT_TRUE(kallsyms_deferred_parsed(d));
	CU_ASSERT_STRING_EQUAL(tep_find_function(lazy, 0xffffffff81003010ULL), "kfd_ioctl_create_queue");
	CU_ASSERT_EQUAL(tep_find_function_address(lazy, 0xffffffff81003010ULL), 0xffffffff81003000ULL);
	CU_ASSERT_STRING_EQUAL(tep_find_function(lazy, 0xffffffff81005001ULL), "spaced_out");
	kallsyms_deferred_free(d);
	/* freed: the tep answers from its own (empty) map, not from freed memory */
	CU_ASSERT_PTR_NULL(tep_find_function(lazy, 0xffffffff81003010ULL));
	tep_free(eager);
	tep_free(lazy);
}

/* a second text joins the first; the damaged line ends it as libtraceevent ends it */
static void test_two_texts_and_damage(void)
{
	struct tep_handle *eager = tep_alloc(), *lazy = tep_alloc();
	struct kallsyms_deferred *d = NULL;

	CU_ASSERT_FATAL(eager && lazy);
	both_parse(eager, lazy, &d, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	same_answers(eager, lazy);
	CU_ASSERT_STRING_EQUAL(tep_find_function(lazy, 0xffffffff81007004ULL), "between");
	CU_ASSERT_PTR_NULL(tep_find_function(lazy, 0xffffffff81009000ULL));	/* after the damage */
	kallsyms_deferred_free(d);
	tep_free(eager);
	tep_free(lazy);
}

/* a text given after a lookup is refused; the names already answered stay */
static void test_a_late_text(void)
{
	struct tep_handle *tep = tep_alloc();
	struct kallsyms_deferred *d;

	CU_ASSERT_FATAL(tep != NULL);
	kallsyms_defer_begin();
	CU_ASSERT_EQUAL(tep_parse_kallsyms(tep, first_text), 0);
	CU_ASSERT_STRING_EQUAL(tep_find_function(tep, 0xffffffff81001004ULL), "do_one_initcall");
	errno = 0;
	CU_ASSERT_EQUAL(tep_parse_kallsyms(tep, second_text), -1);
	CU_ASSERT_EQUAL(errno, EBUSY);
	d = kallsyms_defer_end(true);
	CU_ASSERT_PTR_NOT_NULL(d);
	CU_ASSERT_STRING_EQUAL(tep_find_function(tep, 0xffffffff81001004ULL), "do_one_initcall");
	CU_ASSERT_PTR_NULL(tep_find_function(tep, 0xffffffff81007004ULL));
	kallsyms_deferred_free(d);
	tep_free(tep);
}

/* eager: libtraceevent's own map, the only one that knows a function's size */
static bool eager(struct tep_handle *tep)
{
	unsigned long size = 0;

	return tep_find_function_info(tep, 0xffffffff81001004ULL, NULL, NULL, &size) && size == 0x1000;
}

/* outside a window, and for a second tep in one, a parse is at once; a failed open's text goes */
static void test_window_bounds(void)
{
	struct tep_handle *tep = tep_alloc(), *other = tep_alloc(), *second = tep_alloc();
	struct kallsyms_deferred *d;

	CU_ASSERT_FATAL(tep && other && second);
	kallsyms_defer_begin();
	CU_ASSERT_PTR_NULL(kallsyms_defer_end(true));	/* nothing came */
	tep_parse_kallsyms(tep, first_text);
	CU_ASSERT_TRUE(eager(tep));
	kallsyms_defer_begin();
	tep_parse_kallsyms(other, first_text);
	tep_parse_kallsyms(second, first_text);
	d = kallsyms_defer_end(true);
	CU_ASSERT_PTR_NOT_NULL(d);
	CU_ASSERT_FALSE(eager(other));	/* deferred: the resolver knows no size */
	CU_ASSERT_TRUE(eager(second));
	kallsyms_deferred_free(d);
	kallsyms_defer_begin();
	tep_parse_kallsyms(tep, first_text);
	CU_ASSERT_PTR_NULL(kallsyms_defer_end(false));
	tep_free(tep);	/* frees the resolver struct: nothing of ours is left (LSan) */
	tep_free(other);
	tep_free(second);
}

/* @path analysed; whether its kallsyms were parsed by the end (-1: not read) */
static int parsed_by_the_end(const char *path)
{
	struct gt_error err = { 0 };
	struct analysis a;
	int parsed;

	if (analysis_open(&a, path, &(struct analysis_hooks){ 0 }, &err))
		return -1;
	if (analysis_run(&a, &err) || !a.syms) {
		analysis_close(&a);
		return -1;
	}
	parsed = kallsyms_deferred_parsed(a.syms);
	analysis_close(&a);
	return parsed;
}

/*
 * A report opens the file without parsing its kallsyms, and parses them
 * when a record names a function (the KFD call chains), not otherwise.
 */
static void test_a_report_parses_only_when_it_names(void)
{
	char path[] = "/tmp/gt-unit-kallsyms-XXXXXX", graph[256];
	struct gt_error err = { 0 };
	struct fixture *f;
	int fd, ret = 0;

	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	f = fixture_new("tests/fixtures/formats/linux-6.12", 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	ret |= fixture_kallsyms(f, first_text);
	ret |= fixture_add(f, 0, 1000000, 4242, "ftrace/print",
			   (struct fv[]){ FV("ip", 0xffffffff81001004ULL), FS("buf", "no function named\n"),
					  FV_END });
	CU_ASSERT_EQUAL(ret, 0);
	CU_ASSERT_EQUAL_FATAL(fixture_write(f, path, &err), 0);
	fixture_free(f);
	CU_ASSERT_EQUAL(parsed_by_the_end(path), 0);
	unlink(path);
	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("kfd-graph", graph, sizeof(graph)), 0);
	CU_ASSERT_EQUAL(parsed_by_the_end(graph), 1);
	unlink(graph);
}

void suite_kallsyms_defer(void)
{
	CU_pSuite s = CU_add_suite("kallsyms_defer", NULL, NULL);

	CU_add_test(s, "same answers as an eager parse", test_same_answers_as_an_eager_parse);
	CU_add_test(s, "two texts and damage", test_two_texts_and_damage);
	CU_add_test(s, "a late text", test_a_late_text);
	CU_add_test(s, "window bounds", test_window_bounds);
	CU_add_test(s, "a report parses only when it names", test_a_report_parses_only_when_it_names);
}
