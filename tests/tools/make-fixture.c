// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the scenario .dat files (tests/fixture/scenarios.c) for the
 * integration tests and for a look with trace-cmd report:
 *   make-fixture FORMATS_ROOT NAME OUT.dat     (NAME "list" lists them)
 *   make-fixture FORMATS_ROOT bench:JOBS OUT.dat  (the report benchmark's trace)
 *   make-fixture FORMATS_ROOT bench:JOBS:EXEC_PCT:SEED OUT.dat  (one run of a case:
 *       execution scaled to EXEC_PCT %, +-3% per job from SEED)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fixture/scenarios.h"

int main(int argc, char **argv)
{
	const struct scenario *s;
	struct gt_error err = { 0 };
	int i;

	if (argc == 3 && !strcmp(argv[2], "list")) {
		for (i = 0; scenarios[i].name; i++)
			printf("%-14s %-10s %s\n", scenarios[i].name, scenarios[i].kernel,
			       scenarios[i].summary);
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: make-fixture FORMATS_ROOT NAME|list OUT.dat\n");
		return 2;
	}
	if (!strncmp(argv[2], "bench:", 6)) {
		unsigned int pct = 100, seed = 0;
		unsigned long jobs = 0;

		if (sscanf(argv[2] + 6, "%lu:%u:%u", &jobs, &pct, &seed) < 1) {
			fprintf(stderr, "make-fixture: bench:JOBS[:EXEC_PCT:SEED]\n");
			return 2;
		}
		if (scenario_bench(argv[1], argv[3], jobs, pct, seed, &err)) {
			fprintf(stderr, "make-fixture: %s\n", err.msg);
			return 1;
		}
		return 0;
	}
	s = scenario_find(argv[2]);
	if (!s) {
		fprintf(stderr, "make-fixture: no scenario %s\n", argv[2]);
		return 2;
	}
	if (scenario_write(s, argv[1], argv[3], &err)) {
		fprintf(stderr, "make-fixture: %s\n", err.msg);
		return 1;
	}
	return 0;
}
