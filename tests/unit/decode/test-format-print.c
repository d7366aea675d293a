// SPDX-License-Identifier: GPL-2.0
/*
 * report --events' print fmt printer against libtraceevent's own print of
 * the same records: every format of every kernel in the fixtures, random
 * records, byte for byte; and the formats it must leave to libtraceevent.
 */
#include <event-parse.h>
#include <stdbool.h>
#include <string.h>
#include <trace-seq.h>

#include "../../../lib/decode/format-print.h"
#include "../../../lib/decode/print-guard.h"
#include "../unit.h"

struct check {
	struct tep_handle *tep;
	struct tep_event *e;
	struct format_print *f;
	struct print_guard *guard;
	unsigned long formats, ours, records;
};

static void one_record(struct tep_record *r, void *ctx)
{
	struct check *c = ctx;
	struct text_buf out = { 0 };
	struct tep_record *safe;
	struct trace_seq s;
	char why[128];
	bool damaged;

	/* report prints by the format only what the guard allows */
	if (!print_guard_allows(c->guard, c->e, r, why, sizeof(why), &damaged))
		return;
	safe = print_guard_copy(c->guard, r, why, sizeof(why));
	CU_ASSERT_PTR_NOT_NULL_FATAL(safe);
	trace_seq_init(&s);
	tep_print_event(c->tep, &s, safe, "%s", TEP_PRINT_INFO);
	format_print_record(c->f, r, &out);
	CU_ASSERT(out.len == s.len && !memcmp(out.buf, s.buffer, s.len));
	if (out.len != s.len || memcmp(out.buf, s.buffer, s.len))
		fprintf(stderr, "\n  %s:%s: '%.*s' != '%.*s'\n", c->e->system, c->e->name,
			(int)out.len, out.buf, (int)s.len, s.buffer);
	c->records++;
	text_buf_free(&out);
	trace_seq_destroy(&s);
}

static void one_format(struct tep_handle *tep, struct tep_event *e, void *ctx)
{
	struct check *c = ctx;

	c->formats++;
	c->f = format_print_new(e);
	if (!c->f)
		return;
	c->ours++;
	c->tep = tep;
	c->e = e;
	c->guard = print_guard_new();
	CU_ASSERT_PTR_NOT_NULL_FATAL(c->guard);
	fixture_random_records(e, 64, one_record, c);
	print_guard_free(c->guard);
	format_print_free(c->f);
}

static bool every_format(const char *sys, const char *name)
{
	(void)sys;
	(void)name;
	return true;
}

static void test_as_libtraceevent(void)
{
	struct check c = { 0 };

	fixture_formats_each(every_format, one_format, &c);
	/* hundreds of formats, a good share of them printed by ours */
	CU_ASSERT(c.formats > 200);
	CU_ASSERT(c.ours > 40);
	CU_ASSERT(c.records > 2000);
}

/* one format from its text, in a tep of its own */
static struct tep_event *parse(struct tep_handle **tep, const char *fmt)
{
	*tep = tep_alloc();
	tep_set_long_size(*tep, 8);
	if (tep_parse_event(*tep, fmt, strlen(fmt), "test")) {
		tep_free(*tep);
		*tep = NULL;
		return NULL;
	}
	return tep_find_event_by_name(*tep, "test", "t");
}

#define HEAD "name: t\nID: 7\nformat:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n" \
	"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:unsigned long b;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:char c[16];\toffset:24;\tsize:16;\tsigned:0;\n" \
	"\tfield:__data_loc char[] s;\toffset:40;\tsize:4;\tsigned:0;\n\n"

/* what is ours and what stays libtraceevent's */
static void test_which_formats(void)
{
	static const struct {
		const char *print;
		bool ours;
	} cases[] = {
		{ "print fmt: \"a=%d b=0x%08lx c=%s\", REC->a, REC->b, REC->c", true },
		{ "print fmt: \"%%a=%-5d\\tb=%llu\", REC->a, ((unsigned long long)(REC->b))", true },
		{ "print fmt: \"a=%d\", (u8)REC->a", true },
		{ "print fmt: \"s=%s\", __get_str(s)", false },
		{ "print fmt: \"a=%*d\", REC->a, REC->a", false },
		{ "print fmt: \"b=%p\", REC->b", false },
		{ "print fmt: \"a=%c\", REC->a", false },
		{ "print fmt: \"a=%s\", __print_symbolic(REC->a, { 0, \"zero\" })", false },
		{ "print fmt: \"a=%d\", REC->a + 1", false },
		{ "print fmt: \"b=%s\", REC->b", false },	/* an address printed as a string */
		{ "print fmt: \"a=%d b=%d\", REC->a", false },	/* an argument short */
	};
	char text[1024];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tep_handle *tep;
		struct tep_event *e;
		struct format_print *f;

		snprintf(text, sizeof(text), "%s%s\n", HEAD, cases[i].print);
		e = parse(&tep, text);
		CU_ASSERT_PTR_NOT_NULL(e);
		if (!e)
			continue;
		f = format_print_new(e);
		CU_ASSERT_EQUAL(f != NULL, cases[i].ours);
		if ((f != NULL) != cases[i].ours)
			fprintf(stderr, "\n  %s: %s\n", cases[i].print, f ? "ours" : "not ours");
		format_print_free(f);
		tep_free(tep);
	}
}

void suite_format_print(void)
{
	CU_pSuite s = CU_add_suite("format-print", NULL, NULL);

	CU_add_test(s, "prints as libtraceevent on every fixture format", test_as_libtraceevent);
	CU_add_test(s, "leaves to libtraceevent what it does not reproduce", test_which_formats);
}
