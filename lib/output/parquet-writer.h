/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PARQUET_WRITER_H
#define GT_PARQUET_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output/thrift-compact.h"

/*
 * One Parquet file of one table (apache/parquet-format), written as
 * rows arrive: each column's values of a row group are kept encoded in
 * memory (PLAIN, with RLE definition levels: every column may be null; a
 * LIST's with repetition levels) and
 * written, one zstd-compressed v1 data page per column, when the group
 * holds PQ_GROUP_ROWS rows or PQ_GROUP_BYTES of values, or the file ends; the footer (Thrift compact)
 * carries each chunk's statistics (min, max, null count) so that engines
 * skip row groups, the schema with its logical types, and key-value
 * metadata. Memory is one row group's values, whatever the file holds.
 */
#define PQ_GROUP_ROWS	65536
#define PQ_GROUP_BYTES	(64u << 20)	/* or fewer rows, once their values hold this much */
#define PQ_STAT_MAX	64	/* a string longer than this has no min/max written */

enum pq_kind {
	PQ_INT64,		/* INT64 */
	PQ_TIMESTAMP,		/* INT64, TIMESTAMP(isAdjustedToUTC=true, NANOS) */
	PQ_STRING,		/* BYTE_ARRAY, STRING (UTF-8) */
	PQ_BOOL,		/* BOOLEAN */
	PQ_DOUBLE,		/* DOUBLE */
	/*
	 * LIST of STRING: an optional group, its repeated "list", a required
	 * "element" (the 3-level layout of parquet-format's LogicalTypes.md):
	 * definition levels 0 null, 1 empty, 2 an element; repetition 0 a row's
	 * first, 1 the next of the same row
	 */
	PQ_STRING_LIST,
	/*
	 * One INT64 field of a LIST of STRUCT, named "LIST.FIELD": consecutive
	 * columns of one LIST name are its element's fields, in order, each a
	 * leaf of its own (LIST.list.element.FIELD). An optional group, its
	 * repeated "list", a required "element" group of required INT64s: the
	 * levels of PQ_STRING_LIST, the same in every field of the list
	 */
	PQ_STRUCT_LIST_I64,
};

/* a Parquet leaf column: a table's column, or one field of a LIST of STRUCT */
struct pq_column {
	const char *name;
	enum pq_kind kind;
};

/* one column chunk's statistics, kept in its encoded form for the footer */
struct pq_stats {
	uint8_t min[PQ_STAT_MAX], max[PQ_STAT_MAX];
	uint32_t min_len, max_len;
	bool has_minmax, too_long;
	int64_t imin, imax;
	double dmin, dmax;
	uint64_t nulls;		/* a list's leaf: its levels under the maximum (null, empty lists) */
};

struct pq_chunk_meta {
	int64_t offset, uncompressed, compressed;	/* offset: its data page */
	int64_t dict_offset;		/* its dictionary page, where has_dict */
	bool has_dict;
	uint64_t values;
	struct pq_stats stats;
};

struct pq_writer {
	FILE *f;
	const struct pq_column *cols;
	int nr_cols;
	uint32_t group_rows;		/* PQ_GROUP_ROWS, or fewer (tests) */
	/* the row group being filled, per column */
	struct pq_buffered {
		struct pb_buf values, defs;	/* PLAIN values; one byte per row: 1 set, 0 null */
		struct pb_buf reps;		/* a LIST's: a byte per level, as defs */
		uint32_t rows;			/* rows given a value (or null) so far */
		uint32_t bits;			/* BOOLEAN: values bit-packed so far */
		struct pq_stats stats;
	} *cur;
	uint32_t rows;			/* in the group being filled */
	size_t bytes;			/* its values so far, every column's */
	uint64_t total_rows;
	int64_t offset;			/* bytes written so far */
	struct pq_chunk_meta *meta;	/* nr_groups * nr_cols */
	int nr_groups, cap_groups;
	int64_t *group_rows_of;		/* each group's rows */
	int error;			/* the first errno; nothing more is written */
};

/**
 * pq_open - a writer of @cols (kept by the caller until pq_close) into @f, which it writes from
 * its start; "PAR1" first. Return: 0, or a negative errno.
 */
int pq_open(struct pq_writer *w, FILE *f, const struct pq_column *cols, int nr_cols);

/* One value of column @col for the row being filled; a column not set is null. */
/** pq_null - column @col of this row is null: not measured, not known */
void pq_null(struct pq_writer *w, int col);
/** pq_i64 - an INT64 or TIMESTAMP column's value */
void pq_i64(struct pq_writer *w, int col, int64_t v);
/** pq_opt_i64 - @v, or null when @has is false */
void pq_opt_i64(struct pq_writer *w, int col, bool has, int64_t v);
/** pq_str - @s (NULL: null); what is not UTF-8 becomes U+FFFD as in the JSON output */
void pq_str(struct pq_writer *w, int col, const char *s);
/** pq_bool - a BOOLEAN column's value */
void pq_bool(struct pq_writer *w, int col, bool v);
/** pq_f64 - a DOUBLE column's value (a NaN leaves the chunk without min/max) */
void pq_f64(struct pq_writer *w, int col, double v);
/** pq_list_begin - a LIST column's list for this row, empty until its elements are added */
void pq_list_begin(struct pq_writer *w, int col);
/** pq_list_str - @s appended to this row's list of @col (after pq_list_begin) */
void pq_list_str(struct pq_writer *w, int col, const char *s);
/*
 * A LIST of STRUCT's row: pq_list_begin on its first field's column begins the
 * list of every field (pq_null on each, or none set, is a null list); each
 * pq_list_i64s appends one element, @v[k] its k-th field's value, @n the
 * struct's number of fields
 */
/** pq_list_i64s - one element appended to this row's list of STRUCT at @col (its first field) */
void pq_list_i64s(struct pq_writer *w, int col, const int64_t *v, int n);

/** pq_row_end - the row is complete; a full row group is written. Return: 0 or a negative errno */
int pq_row_end(struct pq_writer *w);

/**
 * pq_close - the last row group, then the footer with @nr_kv key-value pairs (@kv[i][0] the key)
 * and the closing "PAR1"; the writer's memory freed (pq_free). Return: 0 or a negative errno.
 */
int pq_close(struct pq_writer *w, const char *const (*kv)[2], int nr_kv);

/** pq_free - what the writer holds, whether it was closed or not; safe twice */
void pq_free(struct pq_writer *w);

#endif
