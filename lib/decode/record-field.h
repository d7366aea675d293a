/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RECORD_FIELD_H
#define GT_RECORD_FIELD_H

#include <stdbool.h>

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

#endif
