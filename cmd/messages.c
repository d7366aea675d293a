// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "cmd.h"

int cmd_fail(const char *cmd, const struct gt_error *err)
{
	fprintf(stderr, "gpu-trace %s: %s\n", cmd, err->msg[0] ? err->msg : "failed");
	return GT_EXIT_FAILURE;
}

int cmd_failf(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpu-trace %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return GT_EXIT_FAILURE;
}

void cmd_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *cmd_bold(void)
{
	return isatty(STDERR_FILENO) ? "\033[1m" : "";
}

const char *cmd_plain(void)
{
	return isatty(STDERR_FILENO) ? "\033[0m" : "";
}

int cmd_option_error(const char *cmd, int c, const char *option, struct gt_error *err)
{
	if (c == ':')
		return gt_error_set(err, EINVAL, "option %s needs a value; see gpu-trace help %s",
				    option, cmd);
	return gt_error_set(err, EINVAL, "unknown option '%s'; see gpu-trace help %s", option, cmd);
}
