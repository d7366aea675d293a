/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_COMPARE_VERDICT_H
#define GT_COMPARE_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/latency-stats.h"
#include "analysis/timeline.h"

/*
 * Is B slower than A, where, and beyond noise? Each side is one or more runs
 * (recordings of the same case); per ring (matched by name) and per latency
 * stage, every job of every run goes into a pooled distribution and each run
 * contributes its own median. With COMPARE_MIN_RUNS or more runs on both sides
 * the noise is the runs' own spread: the Mann-Whitney rank test over the runs'
 * medians, exact for small counts (rank-test.h), calls a difference at
 * p < COMPARE_ALPHA. Fewer runs cannot reach that (three a side split cleanly
 * by chance one time in ten; a bootstrap of three values called that 95%):
 * there only the jobs are there, the Mann-Whitney rank test over the pooled
 * jobs (|z| > 3.29, p < 0.001), which cannot see run-to-run noise.
 * Either way a change smaller than min_change of A's median is not called:
 * with thousands of jobs a 0.5% shift is "significant" and useless.
 */
enum cmp_side { CMP_A, CMP_B };

/* Runs a side for the noise over runs (4 and 4 split cleanly: p = 0.029); fewer: over jobs. */
#define COMPARE_MIN_RUNS	4
/* The p under which the test over runs calls a difference. */
#define COMPARE_ALPHA		0.05
/* Jobs a side for the rank test over jobs. */
#define COMPARE_MIN_JOBS	5

struct cmp_stage {
	struct latency_stats pooled;
	double *run_p50;		/* per run that had this stage, ns */
	int nr_runs;
};

struct cmp_ring {
	char name[2 * GEV_STR_LEN];	/* ring@device where devices share names */
	struct cmp_stage stage[2][LAT_NR];
	uint64_t jobs[2], unfinished[2], lost[2];
	double busy_pct[2];		/* summed over runs */
	int runs[2];			/* runs the ring appears in */
};

enum cmp_verdict { CMP_SAME, CMP_SLOWER, CMP_FASTER, CMP_TOO_FEW, CMP_ONE_SIDE };

struct cmp_result {
	uint64_t p50[2], p90[2], p99[2];	/* of the pooled jobs */
	double median[2];		/* what the change compares: by_runs, the median of
					 * the runs' p50s; else the pooled p50 */
	uint64_t n[2];
	double change;			/* (B - A) / A of the medians; NAN when A's is 0 */
	bool by_runs;			/* the rank test over runs, else over jobs */
	double p;			/* by_runs: two-sided p of the runs' medians */
	double z;			/* over jobs: > 0 when B is larger */
	enum cmp_verdict verdict;
	bool under_min;			/* CMP_SAME of a change beyond noise, under min_change */
};

struct compare {
	struct cmp_ring *rings;
	int nr_rings;
	int runs[2];
	double min_change;		/* 0.05: changes under 5% are not called */
	int failed;			/* out of memory */
};

/** compare_init - an empty A/B comparison; changes under @min_change (0.05: 5%) are not called */
void compare_init(struct compare *c, double min_change);
/** compare_ring - the ring so named, added on first use; NULL when out of memory. */
struct cmp_ring *compare_ring(struct compare *c, const char *name);
/** compare_add_job - one job's latencies into the pooled distributions of its ring. */
void compare_add_job(struct compare *c, enum cmp_side side, struct cmp_ring *r,
		     const struct job *j);
/** compare_end_run - after each run: its rings' medians and counts. */
void compare_end_run(struct compare *c, enum cmp_side side, struct timeline *tl,
		     uint64_t span_ns);
/**
 * compare_stage - one ring's stage compared: medians, their change, the test's p or z and the
 * verdict, into @out
 */
void compare_stage(struct compare *c, struct cmp_ring *r, enum job_latency l,
		   struct cmp_result *out);
/**
 * compare_verdict_name - "same", "B slower", "B faster", "too few jobs" or "only one side", as
 * the report prints it
 */
const char *compare_verdict_name(enum cmp_verdict v);
/**
 * struct cmp_ring_verdict - one line for a ring: what changed beyond noise
 * @verdict: CMP_SLOWER or CMP_FASTER when every called stage goes that way;
 *           CMP_SAME when none was called (mixed: @slower and @faster both
 *           set); CMP_TOO_FEW or CMP_ONE_SIDE when no stage could be judged
 * @slower:  bit (1 << stage) of each stage called slower
 * @faster:  the same, faster
 * @under_min: the same, of stages whose change is beyond noise but under min_change
 */
struct cmp_ring_verdict {
	enum cmp_verdict verdict;
	unsigned int slower, faster, under_min;
};

/** compare_ring_verdict - the stages of @r judged together */
void compare_ring_verdict(struct compare *c, struct cmp_ring *r, struct cmp_ring_verdict *out);
/** compare_has_jobs - whether any ring of either side has a job: something to compare */
bool compare_has_jobs(const struct compare *c);
/** compare_free - everything the comparison holds */
void compare_free(struct compare *c);

/** compare_median - the median of n values (sorted in place); 0 when n is 0. */
double compare_median(double *v, int n);

#endif
