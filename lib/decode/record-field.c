// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <string.h>

#include "decode/record-field.h"

bool record_field_num(const struct tep_format_field *f, const struct tep_record *r,
		      unsigned long long *v)
{
	uint64_t x;

	*v = 0;
	if (!record_field_read(f, r, &x))
		return false;
	*v = x;
	return record_field_number_size(f);
}

const char *record_field_tail(const struct tep_format_field *f, const struct tep_record *r,
			      int *len)
{
	if (!f || !r || !r->data || f->offset < 0 || r->size < 0 || f->offset >= r->size)
		return NULL;
	*len = r->size - f->offset;
	return (const char *)r->data + f->offset;
}

/*
 * Where a string field's bytes lie. __string()/__data_loc: low 16 bits offset,
 * high 16 length (with the NUL). -1 on a miss, 0 for a kernel pointer to a
 * string (never in the record), else 1 with @off and @n, and @whole false when
 * the record ends inside the string.
 */
static int str_span(const struct tep_format_field *f, const struct tep_record *r,
		    unsigned int *off, unsigned int *n, bool *whole)
{
	unsigned long long v;

	*whole = true;
	if (!record_field_fits(f, r))
		return -1;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* a __data_loc is a u32; a format may say otherwise */
		if (!record_field_number_size(f))
			return -1;
		v = record_field_value(f, r->data);	/* it fits: checked above */
		*off = (unsigned int)(v & 0xffff);
		*n = (unsigned int)(v >> 16);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			*off += (unsigned int)(f->offset + f->size);
	} else if ((f->flags & TEP_FIELD_IS_ARRAY) && !(f->flags & TEP_FIELD_IS_POINTER)) {
		*off = (unsigned int)f->offset;
		*n = (unsigned int)f->size;
	} else {
		return 0;
	}
	if (*off >= (unsigned int)r->size) {
		*whole = !*n;		/* an empty string may start at the end */
		*n = 0;
		return 1;
	}
	if (*n > (unsigned int)r->size - *off) {
		*n = (unsigned int)r->size - *off;
		*whole = false;
	}
	return 1;
}

bool record_field_str(const struct tep_format_field *f, const struct tep_record *r, char *out,
		      size_t len)
{
	unsigned int off, n, i;
	bool whole;
	const char *src;
	int span = str_span(f, r, &off, &n, &whole);

	out[0] = '\0';
	if (span <= 0)
		return !span;
	if (!n)
		return whole;	/* none of it in the record: no pointer past its end */
	if (n > len - 1)
		n = (unsigned int)(len - 1);
	/*
	 * The kernel's NUL inside the length, or a short one: stop at the
	 * first. Eight bytes at a time while none of them is a NUL, then byte
	 * by byte: these are ring and driver names of a few bytes, where
	 * memcpy() and strnlen() cost more in their calls (a third of the
	 * reading thread's decoding went to copying them a byte at a time).
	 */
	src = (const char *)r->data + off;
	for (i = 0; i + 8 <= n; i += 8) {
		uint64_t v;

		memcpy(&v, src + i, sizeof(v));
		if ((v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL)
			break;		/* a NUL among them */
		memcpy(out + i, &v, sizeof(v));
	}
	for (; i < n && src[i]; i++)
		out[i] = src[i];
	out[i] = '\0';
	return whole;
}

bool record_field_str_whole(const struct tep_format_field *f, const struct tep_record *r)
{
	unsigned int off, n;
	bool whole;
	int span = str_span(f, r, &off, &n, &whole);

	return span == 0 || (span > 0 && whole);
}
