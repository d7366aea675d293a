// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's triggers (flight-rules.h): the rules' text, which
 * jobs break them, and the plan that makes one dump per cause (later
 * triggers folded in, a cause within --min-gap of its last dump counted);
 * and what report reads back of a dump (flight-marks.h): the flight-dump
 * fixture's triggers, window, and the job that fired flagged T.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../lib/analysis/analysis-private.h"
#include "../unit.h"
#include "analysis/flight-marks.h"
#include "analysis/flight-rules.h"

#define MS	1000000ULL

static void test_rule_text(void)
{
	struct gt_error err = { 0 };
	struct flight_rule r;

	CU_ASSERT_EQUAL(flight_rule_parse("gfx*:total>50ms", &r, &err), 0);
	CU_ASSERT_STRING_EQUAL(r.ring, "gfx*");
	CU_ASSERT_EQUAL(r.stage, LAT_TOTAL);
	CU_ASSERT_EQUAL(r.over_ns, 50 * MS);
	CU_ASSERT_EQUAL(flight_rule_parse("*:queue>800us", &r, &err), 0);
	CU_ASSERT_EQUAL(r.stage, LAT_QUEUE_TO_RUN);
	CU_ASSERT_EQUAL(r.over_ns, 800000);
	CU_ASSERT_EQUAL(flight_rule_parse("sdma0:exec>1.5s", &r, &err), 0);
	CU_ASSERT_EQUAL(r.over_ns, 1500 * MS);
	/* a ring name may hold a colon (gfx_0.0.0@c3:00.0): the last one splits */
	CU_ASSERT_EQUAL(flight_rule_parse("gfx@c3:00.0:dep_wait>2ms", &r, &err), 0);
	CU_ASSERT_STRING_EQUAL(r.ring, "gfx@c3:00.0");
	CU_ASSERT_EQUAL(r.stage, LAT_DEP_WAIT);
	CU_ASSERT_EQUAL(flight_rule_parse("gfx:total>50", &r, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "with its unit"));
	CU_ASSERT_EQUAL(flight_rule_parse("gfx:latency>5ms", &r, &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown stage 'latency'"));
	CU_ASSERT_EQUAL(flight_rule_parse("gfx>5ms", &r, &err), -1);
	CU_ASSERT_EQUAL(flight_rule_parse(":total>5ms", &r, &err), -1);
	CU_ASSERT_EQUAL(flight_rule_parse("gfx:total>-5ms", &r, &err), -1);
	CU_ASSERT_EQUAL(flight_rule_parse("gfx:total>0ms", &r, &err), -1);
}

static void test_which_jobs_break_a_rule(void)
{
	struct gt_error err = { 0 };
	struct flight_rule r;
	struct job j = { 0 };

	CU_ASSERT_EQUAL_FATAL(flight_rule_parse("gfx*:exec>50ms", &r, &err), 0);
	j.has_lat[LAT_EXEC] = true;
	j.lat[LAT_EXEC] = 80 * MS;
	CU_ASSERT_TRUE(flight_rule_match(&r, "gfx_0.0.0", &j));
	CU_ASSERT_FALSE(flight_rule_match(&r, "sdma0", &j));
	j.lat[LAT_EXEC] = 50 * MS;		/* over, not at */
	CU_ASSERT_FALSE(flight_rule_match(&r, "gfx_0.0.0", &j));
	j.lat[LAT_EXEC] = 80 * MS;
	j.has_lat[LAT_EXEC] = false;		/* not measured: no trigger */
	CU_ASSERT_FALSE(flight_rule_match(&r, "gfx_0.0.0", &j));
}

static void test_one_dump_per_cause(void)
{
	struct flight_plan p = { .after_ns = 2000 * MS, .min_gap_ns = 60000 * MS };

	CU_ASSERT_EQUAL(flight_plan_next_due(&p, 0), FLIGHT_NR);
	CU_ASSERT_EQUAL(flight_plan_fire(&p, FLIGHT_SLOW_JOB, 1000 * MS, "ring=gfx"), FLIGHT_ARMED);
	CU_ASSERT_STRING_EQUAL(p.pending[FLIGHT_SLOW_JOB].detail, "ring=gfx");
	/* a storm of slow jobs before the dump: folded into it */
	for (int i = 0; i < 1000; i++)
		CU_ASSERT_EQUAL(flight_plan_fire(&p, FLIGHT_SLOW_JOB, 1500 * MS, "x"), FLIGHT_FOLDED);
	/* another cause is a dump of its own */
	CU_ASSERT_EQUAL(flight_plan_fire(&p, FLIGHT_TIMEOUT, 1800 * MS, "ring=gfx"), FLIGHT_ARMED);
	CU_ASSERT_EQUAL(flight_plan_next_due(&p, 2999 * MS), FLIGHT_NR);
	CU_ASSERT_EQUAL(flight_plan_next_due(&p, 3000 * MS), FLIGHT_SLOW_JOB);
	flight_plan_done(&p, FLIGHT_SLOW_JOB);
	CU_ASSERT_EQUAL(flight_plan_next_due(&p, 3000 * MS), FLIGHT_NR);
	CU_ASSERT_EQUAL(flight_plan_next_due(&p, 3800 * MS), FLIGHT_TIMEOUT);
	flight_plan_done(&p, FLIGHT_TIMEOUT);
	/* within --min-gap of the last slow-job dump's trigger: counted only */
	CU_ASSERT_EQUAL(flight_plan_fire(&p, FLIGHT_SLOW_JOB, 60999 * MS, "x"), FLIGHT_SUPPRESSED);
	CU_ASSERT_EQUAL(p.suppressed[FLIGHT_SLOW_JOB], 1);
	CU_ASSERT_EQUAL(flight_plan_fire(&p, FLIGHT_SLOW_JOB, 61000 * MS, "y"), FLIGHT_ARMED);
	/* what a person or a period asks for is never held back */
	CU_ASSERT_EQUAL(flight_plan_fire(&p, FLIGHT_SIGNAL, 62000 * MS, NULL), FLIGHT_ARMED);
	flight_plan_done(&p, FLIGHT_SIGNAL);
	CU_ASSERT_EQUAL(flight_plan_fire(&p, FLIGHT_SIGNAL, 62001 * MS, NULL), FLIGHT_ARMED);
	CU_ASSERT_STRING_EQUAL(flight_cause_name(FLIGHT_SLOW_JOB), "slow-job");
	CU_ASSERT_STRING_EQUAL(flight_cause_name(FLIGHT_NR), "?");
}

static void test_a_dump_read_back(void)
{
	struct gt_error err = { 0 };
	const struct flight_marks *m;
	struct analysis a;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("flight-dump", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, &(struct analysis_hooks){ 0 }, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	m = flight_marks_of(&a);
	CU_ASSERT_EQUAL_FATAL(m->nr, 2);
	CU_ASSERT_STRING_EQUAL(m->marks[0].cause, "slow-job");
	CU_ASSERT_STRING_EQUAL(m->marks[0].ring, "gfx_0.0.0");
	CU_ASSERT_STRING_EQUAL(m->marks[0].stage, "exec");
	CU_ASSERT_TRUE(m->marks[0].has_job);
	CU_ASSERT_EQUAL(m->marks[0].ns, 90 * MS);
	CU_ASSERT_EQUAL(m->marks[0].over_ns, 50 * MS);
	CU_ASSERT_EQUAL(m->marks[0].pid, 5000);
	CU_ASSERT_EQUAL(m->marks[0].done_ns, 1000000000ULL + 90070000ULL);
	CU_ASSERT_EQUAL(m->marks[0].ts, 1000000000ULL + 90200000ULL);
	CU_ASSERT_STRING_EQUAL(m->marks[1].cause, "signal");
	CU_ASSERT_FALSE(m->marks[1].has_job);
	CU_ASSERT_TRUE(m->dump);
	CU_ASSERT_STRING_EQUAL(m->dump_cause, "slow-job");
	CU_ASSERT_EQUAL(m->window_from_ns, 1000000000ULL + 20000ULL);
	analysis_close(&a);
	unlink(path);
}

static unsigned int flagged;
static uint64_t flagged_done;

static void count_flagged(const struct job *j, void *ctx)
{
	(void)ctx;
	if (j->flags & JOB_TRIGGER) {
		flagged++;
		flagged_done = j->t_done;
	}
}

/* the marker follows the job: only triggers known before the pass flag it */
static void test_the_job_that_fired(void)
{
	struct gt_error err = { 0 };
	struct analysis a, b;
	char path[64];

	CU_ASSERT_EQUAL_FATAL(scenario_tmpfile("flight-dump", path, sizeof(path)), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&a, path, &(struct analysis_hooks){ 0 }, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&a, &err), 0);
	flagged = 0;
	CU_ASSERT_EQUAL_FATAL(analysis_open(&b, path, &(struct analysis_hooks){
		.on_job = count_flagged }, &err), 0);
	CU_ASSERT_EQUAL_FATAL(analysis_run(&b, &err), 0);
	CU_ASSERT_EQUAL(flagged, 0);
	analysis_close(&b);
	CU_ASSERT_EQUAL_FATAL(analysis_open(&b, path, &(struct analysis_hooks){
		.on_job = count_flagged }, &err), 0);
	flight_marks_known(&b, flight_marks_of(&a));
	CU_ASSERT_EQUAL_FATAL(analysis_run(&b, &err), 0);
	CU_ASSERT_EQUAL(flagged, 1);
	CU_ASSERT_EQUAL(flagged_done, 1000000000ULL + 90070000ULL);
	analysis_close(&b);
	analysis_close(&a);
	unlink(path);
}

void suite_flight_rules(void)
{
	CU_pSuite s = CU_add_suite("flight rules", NULL, NULL);

	CU_add_test(s, "--trigger RING:STAGE>DURATION", test_rule_text);
	CU_add_test(s, "which jobs break a rule", test_which_jobs_break_a_rule);
	CU_add_test(s, "one dump per cause, folded and rate-limited", test_one_dump_per_cause);
	CU_add_test(s, "a dump's markers read back", test_a_dump_read_back);
	CU_add_test(s, "the job that fired is flagged", test_the_job_that_fired);
}
