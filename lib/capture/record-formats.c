// SPDX-License-Identifier: GPL-2.0
/*
 * What the capture sources hand the engine for the file: how print records look on this
 * kernel (sources that write their own), and event formats read before their probes go.
 */
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "capture/record-engine.h"
#include "capture/print-record.h"

struct print_record_format record_print_format(const struct record_run *run)
{
	char *format = tracefs_event_file_read(NULL, "ftrace", "print", "format", NULL);
	struct print_record_format fmt = {
		.event_id = print_record_event_id(format),
		.long_size = (int)sizeof(long),
		.ip = print_record_ip(run->kallsyms),
	};

	free(format);
	return fmt;
}

void record_keep_formats(struct record_run *run, const char *system)
{
	for (int i = 0; i < run->nr_formats; i++)
		if (!strcmp(run->formats[i].name, system))
			return;
	if (run->nr_formats < RECORD_MAX_FORMATS &&
	    !dat_event_system_load(&run->formats[run->nr_formats], system))
		run->nr_formats++;
}
