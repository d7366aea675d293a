// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture/env-check.h"
#include "cmd.h"

int cmd_check(int argc, char **argv)
{
	struct check_report r;
	bool json = false, colour = isatty(STDOUT_FILENO);
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(cmd_usage("check"), stdout);
			return 0;
		} else {
			return cmd_failf("check", "unknown option '%s'; see gpu-trace help check", argv[i]);
		}
	}
	env_check_run(&r);
	if (json)
		printf("{\"exit\":%d,\"findings\":[", env_check_exit_code(&r));
	for (i = 0; i < r.nr; i++) {
		const struct check_finding *f = &r.findings[i];

		if (!json) {
			/* WARN and FAIL stand out on a terminal, never in a pipe */
			const char *on = !colour || f->status == CHECK_OK ? "" :
					 f->status == CHECK_FAIL ? "\033[1;31m" : "\033[1;33m";

			printf("%s%-4s%s %-14s %s%s%s\n", on, env_check_status_name(f->status),
			       on[0] ? "\033[0m" : "", f->name, f->message,
			       f->fix[0] ? "; fix: " : "", f->fix);
			continue;
		}
		printf("%s\n{\"name\":", i ? "," : "");
		json_str(stdout, f->name);
		printf(",\"status\":\"%s\",\"message\":", env_check_status_name(f->status));
		json_str(stdout, f->message);
		printf(",\"fix\":");
		json_str(stdout, f->fix);
		printf("}");
	}
	if (json)
		printf("]}\n");
	return env_check_exit_code(&r);
}
