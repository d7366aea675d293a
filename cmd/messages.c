// SPDX-License-Identifier: GPL-2.0
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
