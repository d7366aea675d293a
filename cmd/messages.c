// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd.h"

/* Messages name files, processes and rings: what they hold is escaped (term-safe.c) */
static void say(const char *prefix, const char *fmt, va_list ap)
{
	char line[8192];

	vsnprintf(line, sizeof(line), fmt, ap);
	fputs(prefix, stderr);
	term_safe_puts(stderr, line);
	fputc('\n', stderr);
}

int cmd_fail(const char *cmd, const struct gt_error *err)
{
	fprintf(stderr, "gpu-trace %s: ", cmd);
	term_safe_puts(stderr, err->msg[0] ? err->msg : "failed");
	fputc('\n', stderr);
	return GT_EXIT_FAILURE;
}

int cmd_failf(const char *cmd, const char *fmt, ...)
{
	char prefix[64];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "gpu-trace %s: ", cmd);
	va_start(ap, fmt);
	say(prefix, fmt, ap);
	va_end(ap);
	return GT_EXIT_FAILURE;
}

void cmd_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

int cmd_option_error(const char *cmd, int c, const char *option, struct gt_error *err)
{
	if (c == ':')
		return gt_error_set(err, EINVAL, "option %s needs a value; see gpu-trace help %s",
				    option, cmd);
	return gt_error_set(err, EINVAL, "unknown option '%s'; see gpu-trace help %s", option, cmd);
}

int cmd_parse_min_change(const char *arg, double *fraction, struct gt_error *err)
{
	char *end;
	double pct = strtod(arg, &end);

	/* written so that "nan" is no percentage either */
	if (end == arg || *end || !(pct >= 0 && pct <= 1000))
		return gt_error_set(err, EINVAL, "bad --min-change '%s': a percentage from 0 to 1000", arg);
	*fraction = pct / 100;
	return 0;
}
