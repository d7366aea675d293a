/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_ENV_CHECK_H
#define GT_ENV_CHECK_H

/*
 * `gpu-trace check`: what this machine lets gpu-trace record, one finding
 * per question, each with what to do about it. Reads only; the tracer probe
 * uses a scratch instance that it removes at once.
 */
enum check_status { CHECK_OK, CHECK_WARN, CHECK_FAIL };

struct check_finding {
	const char *name;		/* short key: "tracefs", "privileges", ... */
	enum check_status status;
	char message[384];
	char fix[256];			/* empty when nothing to do */
};

#define CHECK_MAX_FINDINGS 32

struct check_report {
	int nr;
	struct check_finding findings[CHECK_MAX_FINDINGS];
};

/**
 * env_check_run - every check of this machine (tracefs, events, tracers, probes, privileges)
 * into @r
 */
void env_check_run(struct check_report *r);
/** env_check_exit_code - 0 all OK, 1 warnings, 2 gpu-trace cannot record here */
int env_check_exit_code(const struct check_report *r);
/** env_check_status_name - OK, WARN, FAIL or SKIP */
const char *env_check_status_name(enum check_status s);

#endif
