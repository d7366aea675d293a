/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FUZZ_MEMORY_CAP_H
#define GT_FUZZ_MEMORY_CAP_H

/*
 * libFuzzer's -rss_limit_mb and -malloc_limit_mb watch the fuzzing process
 * alone; report tries libtracecmd's open in a child first (analysis.c
 * probe_open), which pays for what a file makes libtracecmd allocate. A
 * file that makes any child's peak pass the cap is a finding too: abort, so
 * libFuzzer keeps the input (ru_maxrss of the children is the largest any
 * had, in KB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#define FUZZ_CHILD_CAP_MB 1024

static inline void fuzz_children_within_cap(void)
{
	struct rusage ru;

	if (!getrusage(RUSAGE_CHILDREN, &ru) && ru.ru_maxrss > FUZZ_CHILD_CAP_MB * 1024L) {
		fprintf(stderr, "fuzz: a child of this input peaked at %ld MB, past the %d MB cap\n",
			ru.ru_maxrss / 1024, FUZZ_CHILD_CAP_MB);
		abort();
	}
}

#endif
