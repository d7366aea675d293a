/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RECORD_FIELD_H
#define GT_RECORD_FIELD_H

#include <stdbool.h>
#include <stddef.h>

#include <event-parse.h>

/*
 * A record's fields by the file's formats, bounded. The formats come from
 * the file: an offset or size may be anything a crafted file says (negative,
 * past the record, large enough that offset + size overflows an int). Every
 * decoder reads fields through these, never by f->offset alone.
 */

/** record_field_fits - the field lies wholly inside the record. */
bool record_field_fits(const struct tep_format_field *f, const struct tep_record *r);
/** record_field_num - its number (as libtraceevent reads it); false when it does not fit. */
bool record_field_num(const struct tep_format_field *f, const struct tep_record *r,
		      unsigned long long *v);
/**
 * record_field_tail - from the field's offset to the record's end (a trailing string such as
 * ftrace print's buf); NULL when the offset is outside the record.
 */
const char *record_field_tail(const struct tep_format_field *f, const struct tep_record *r,
			      int *len);

/**
 * record_field_str - a string field, cut to @len - 1 bytes and terminated
 * @f:   a __string() (__data_loc, relative or not) or char[N] field
 * @r:   the record
 * @out: where the string goes ("" when it is not in the record: a kernel
 *       pointer, or an offset or length outside the record)
 * @len: @out's size, at least 1
 */
void record_field_str(const struct tep_format_field *f, const struct tep_record *r, char *out,
		      size_t len);

#endif
