/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PARQUET_TABLES_H
#define GT_PARQUET_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "output/parquet-writer.h"
#include "output/report-formats.h"

/*
 * The tables of --format parquet (docs/parquet.md, schema gpu-trace-parquet/3):
 * each a fixed list of columns and the rows one input gives it, the values
 * those the JSON report (--format json --jobs) has under the same names.
 * Every table starts with file (the input as named) and run (its name
 * without folder or .dat: what tells one step from the next); the host is
 * the Hive folder a file is in (host=NAME/). Times are the trace clock's
 * nanoseconds (*_ns, as the JSON's) and, where the file has record's clock
 * pairs, the same instant in UTC (*_utc, TIMESTAMP NANOS); null where the
 * file does not say.
 */
#define PARQUET_SCHEMA	"gpu-trace-parquet/3"

enum parquet_table_id {
	PQT_JOBS,
	PQT_RINGS,
	PQT_RING_WAITS,
	PQT_PROCESSES,
	PQT_CLIENTS,
	PQT_HOSTS,
	PQT_GPUS,
	PQT_KFD_OPS,
	PQT_KFD_QUEUES,
	PQT_CPU_SIDE,
	PQT_NR,
};

struct parquet_table {
	const char *name;		/* its folder under -o DIR */
	const struct pq_column *cols;
	int nr_cols;
	/* the rows of the input just read (jobs: NULL, they stream through parquet_job_row) */
	void (*rows)(struct report *rep, struct pq_writer *w, const char *run);
};

extern const struct parquet_table parquet_tables[PQT_NR];

/** parquet_job_row - one job of the input, as the JSON's "jobs" list has it */
void parquet_job_row(struct report *rep, struct pq_writer *w, const char *run, const struct job *j);

#endif
