// SPDX-License-Identifier: GPL-2.0
/*
 * The --format table: a new output format is its own file and a row here.
 * The formats call the sections (report-sections.c), never this table.
 */
#include <stddef.h>

#include "output/report-formats.h"

const struct report_output *const report_formats[] = {
	&report_text,
	&report_csv,
	&report_json,
	&report_perfetto,
	&report_html,
	&report_parquet,
	NULL,
};
