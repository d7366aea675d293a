/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FLEET_STATS_H
#define GT_FLEET_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/timeline.h"

/*
 * The fleet summary: many recordings (hosts, steps), one row per host and
 * ring with report's own statistics (ring_stats: jobs, busy time, the
 * latency stages, whose jobs they waited behind), summed over the host's
 * files, and the hosts that stand out named beyond noise.
 *
 * A row keeps each stage's distribution as the non-empty buckets of report's
 * histogram (latency-stats.h: 64 per power of two, within 1.6%), which add up
 * across files in any order: the summary is the same whatever order files are
 * read in. A file's own p50 and p99 are report's (exact up to LATENCY_EXACT
 * jobs); a row of several files reads them from the summed buckets.
 *
 * The noise (fleet_judge): per ring name and stage, each host's jobs against
 * those of the ring's other hosts pooled, by compare's Mann-Whitney rank test
 * over the histogram's buckets (latency_rank_z_counts), one-sided (slower);
 * the p-values of every host x ring x stage tested are corrected together by
 * Holm's step-down method, so that the family's chance of naming any healthy
 * host stays under alpha. A host is named where its correction holds and its
 * p50 or p99 lies min_change above the fleet median of that statistic and
 * more than three scaled median absolute deviations of the hosts from it:
 * thousands of jobs make a 1% shift "significant", and hosts differ by their
 * own spread.
 */

#define FLEET_HOST_LEN		65
#define FLEET_RING_LEN		(2 * GEV_STR_LEN)
#define FLEET_COMM_LEN		16
/* processes a row names of those its jobs waited behind (the lowest pids) */
#define FLEET_MAX_BEHIND	4
/* host x ring rows kept; a file's rings past them are counted, not kept */
#define FLEET_MAX_ROWS		16384
/*
 * histogram buckets kept over every row and stage (8 bytes each: 256 MB); a
 * ring whose buckets would pass it is counted, not kept. A real ring's stage
 * fills a few hundred of the 3776; a crafted file can fill them all.
 */
#define FLEET_MAX_BINS		(1u << 25)
/* hosts a ring needs before any of them is judged against the others */
#define FLEET_MIN_HOSTS		3
/* jobs a host's stage needs to be judged (as compare's over jobs) */
#define FLEET_MIN_JOBS		5
/* the family-wise error rate of the Holm correction */
#define FLEET_ALPHA		0.05
/* scaled median absolute deviations a named host lies above the fleet median */
#define FLEET_MAD_K		3.0

enum fleet_host_from {
	FLEET_HOST_MARKER,	/* record's "gpu-trace host: name=" marker */
	FLEET_HOST_PATH,	/* a Hive-style host=NAME folder of its path */
	FLEET_HOST_FILE,	/* the file's name without .dat */
};

/* One histogram bucket (latency-stats.h) and how many values fell in it (saturating). */
struct fleet_bin {
	uint16_t bucket;
	uint32_t n;
};

/* One stage's distribution: report's histogram buckets that are not empty, sorted. */
struct fleet_dist {
	uint64_t count, sum, min, max;
	struct fleet_bin *bins;
	uint32_t nr_bins;
	bool exact;			/* one file's: p50 and p99 are report's own */
	uint64_t exact_p50, exact_p99;
};

struct fleet_pid {
	int pid;
	char comm[FLEET_COMM_LEN];
};

/* One host's ring, summed over its files; fleet_judge() fills the verdicts. */
struct fleet_row {
	char host[FLEET_HOST_LEN];
	char ring[FLEET_RING_LEN];
	char key[FLEET_HOST_LEN + FLEET_RING_LEN + 24];	/* host and ring, unambiguous */
	int files;
	uint64_t jobs, unfinished, lost, timed_jobs;
	uint64_t busy_ns, span_ns;
	/* whose jobs its jobs waited behind (job_behind, summed by report per ring) */
	uint64_t behind_ns, behind_jobs;
	struct fleet_pid behind[FLEET_MAX_BEHIND];
	int nr_behind;
	bool behind_more;
	struct fleet_dist stage[LAT_NR];
	/* fleet_judge(): per stage; NAN where not judged */
	double z[LAT_NR];		/* > 0: this host's jobs tend to take longer */
	double p[LAT_NR];		/* one-sided, Holm-corrected over every test */
	uint64_t fleet_p50[LAT_NR], fleet_p99[LAT_NR];	/* medians of the ring's hosts */
	unsigned int called;		/* bit (1 << stage): named slower */
};

struct fleet_host {
	char name[FLEET_HOST_LEN];
	enum fleet_host_from from;
	int files;
};

/* One file's summary, as a pass leaves it: its host and one row per ring. */
struct fleet_file {
	char host[FLEET_HOST_LEN];
	enum fleet_host_from from;
	struct fleet_row *rings;
	int nr_rings;
};

struct fleet {
	struct fleet_row **rows;
	size_t nr_rows, cap_rows;
	struct fleet_host *hosts;
	size_t nr_hosts, cap_hosts;
	struct fleet_index *index;	/* rows by key, hosts by name (fleet-stats.c's) */
	uint64_t rows_dropped;		/* rings past FLEET_MAX_ROWS or FLEET_MAX_BINS */
	uint64_t nr_bins;		/* kept over every row and stage */
	int files;			/* summaries added */
	double min_change;		/* 0.1: within 10% of the fleet median is not named */
	size_t tests;			/* fleet_judge(): host x ring x stage tests, corrected */
	size_t nr_called;		/* rows named */
	bool failed;			/* out of memory */
};

/** fleet_init - an empty fleet; a host within @min_change (0.1: 10%) of the median: not named */
void fleet_init(struct fleet *f, double min_change);
/**
 * fleet_add_file - one file's summary into its host's rows (the rows are made on first use);
 * the summary's distributions are taken (@ff is left empty). Commutative: any order of files
 * gives the same fleet. Out of memory sets f->failed.
 */
void fleet_add_file(struct fleet *f, struct fleet_file *ff);
/** fleet_file_free - what a file's summary holds */
void fleet_file_free(struct fleet_file *ff);
/**
 * fleet_judge - rows sorted by host then ring, hosts by name, then every host x ring x stage
 * tested against the ring's other hosts and corrected together (Holm): p, z, the fleet medians
 * and the called stages of each row
 */
void fleet_judge(struct fleet *f);
/** fleet_host_find - the host so named, NULL when the fleet has none */
const struct fleet_host *fleet_host_find(const struct fleet *f, const char *name);
/** fleet_free - everything the fleet holds */
void fleet_free(struct fleet *f);

/**
 * fleet_dist_from_stats - @s as its non-empty buckets into @d (which it fills from empty),
 * with its exact p50 and p99; @counts is scratch of LATENCY_BUCKETS. -1 when out of memory.
 */
int fleet_dist_from_stats(struct fleet_dist *d, struct latency_stats *s, uint64_t *counts);
/** fleet_dist_merge - @src's values added to @dst's; -1 when out of memory (dst unchanged) */
int fleet_dist_merge(struct fleet_dist *dst, const struct fleet_dist *src);
/** fleet_dist_percentile - nearest rank as report reads it; p 50 and 99 exact for one file's */
uint64_t fleet_dist_percentile(const struct fleet_dist *d, double p);
/** fleet_dist_free - the buckets */
void fleet_dist_free(struct fleet_dist *d);

/**
 * fleet_behind_add - a process its jobs waited behind into @r's few (the lowest pids, then
 * names, are kept: the same set whatever order files come in; more sets behind_more)
 */
void fleet_behind_add(struct fleet_row *r, int pid, const char *comm);

/**
 * fleet_host_from_path - the NAME of the last host=NAME folder in @path into @buf; false when
 * there is none
 */
bool fleet_host_from_path(const char *path, char *buf, size_t len);
/** fleet_host_from_name - the file's name without its folders and ".dat" into @buf */
void fleet_host_from_name(const char *path, char *buf, size_t len);
/** fleet_host_from_text - "marker", "path" or "file" */
const char *fleet_host_from_text(enum fleet_host_from from);

/**
 * fleet_holm - Holm's step-down correction of @n p-values in place: each becomes the smallest
 * family-wise level at which it is rejected (monotone in the sorted order, at most 1); ties and
 * order are broken by index, so the result is the same for any order of equal values.
 * -1 when out of memory (p unchanged).
 */
int fleet_holm(double *p, size_t n);

#endif
