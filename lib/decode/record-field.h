/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RECORD_FIELD_H
#define GT_RECORD_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <event-parse.h>

/*
 * A record's fields by the file's formats, bounded. The formats come from
 * the file: an offset or size may be anything a crafted file says (negative,
 * past the record, large enough that offset + size overflows an int). Every
 * decoder reads fields through these, never by f->offset alone; every number
 * through record_field_read(), the one place a field's bytes are read.
 *
 * A field the format names but the record does not hold (it lies, wholly or
 * partly, past the record's end) is a miss: the readers say false, and the
 * caller must not take the 0 they leave for a value.
 */

/** record_field_fits - the field lies wholly inside the record. */
static inline bool record_field_fits(const struct tep_format_field *f, const struct tep_record *r)
{
	return f && r && r->data && f->offset >= 0 && f->size >= 0 && r->size >= 0 &&
	       (long long)f->offset + f->size <= r->size;
}

/** record_field_number_size - a size a number has (1, 2, 4, 8): what record_field_num() reads */
static inline bool record_field_number_size(const struct tep_format_field *f)
{
	return f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8;
}

/**
 * record_field_value - a number field's bytes at @data (the record's), unchecked: only where
 * record_field_fits() said yes, or a check of the whole record did (gpu-event.c)
 *
 * Files are little-endian (dat-meta refuses others), as is every host we build for. A size
 * no number has (1, 2, 4 and 8 are) reads as 0, as libtraceevent reads it.
 */
static inline uint64_t record_field_value(const struct tep_format_field *f, const void *data)
{
	const unsigned char *p = (const unsigned char *)data + f->offset;

	switch (f->size) {
	case 1:
		return *p;
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		return x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		return x;
	}
	case 8: {
		uint64_t x;

		memcpy(&x, p, 8);
		return x;
	}
	default:
		return 0;
	}
}

/**
 * record_field_read - a number field of a record, the one bounded read of every decoder
 * @f: the field (the file's format)
 * @r: the record
 * @v: its value (record_field_value()); 0 on a miss
 *
 * Return: false on a miss: @f is NULL or lies, wholly or partly, outside the record. A
 * field of a size no number has, inside the record, is no miss: it reads 0.
 */
static inline bool record_field_read(const struct tep_format_field *f, const struct tep_record *r,
				     uint64_t *v)
{
	if (!record_field_fits(f, r)) {
		*v = 0;
		return false;
	}
	*v = record_field_value(f, r->data);
	return true;
}

/**
 * record_field_num - its number; false on a miss (record_field_read()) and for a size no
 * number has
 */
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
 *
 * Return: false on a miss: @f is NULL, lies outside the record, or is a __data_loc whose
 * string starts or ends past the record's end (@out then holds what of it the record has).
 * A kernel pointer to a string is no miss: the string was never in the record.
 */
bool record_field_str(const struct tep_format_field *f, const struct tep_record *r, char *out,
		      size_t len);
/**
 * record_field_str_whole - what record_field_str() would return, nothing copied: for a
 * record whose strings no one reads but whose misses are counted
 */
bool record_field_str_whole(const struct tep_format_field *f, const struct tep_record *r);

#endif
