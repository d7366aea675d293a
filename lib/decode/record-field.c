// SPDX-License-Identifier: GPL-2.0
#include "decode/record-field.h"

bool record_field_fits(const struct tep_format_field *f, const struct tep_record *r)
{
	return f && r && r->data && f->offset >= 0 && f->size >= 0 && r->size >= 0 &&
	       (long long)f->offset + f->size <= r->size;
}

bool record_field_num(const struct tep_format_field *f, const struct tep_record *r,
		      unsigned long long *v)
{
	*v = 0;
	return f && f->size > 0 && f->size <= 8 && record_field_fits(f, r) &&
	       !tep_read_number_field((struct tep_format_field *)f, r->data, v);
}

const char *record_field_tail(const struct tep_format_field *f, const struct tep_record *r,
			      int *len)
{
	if (!f || !r || !r->data || f->offset < 0 || r->size < 0 || f->offset >= r->size)
		return NULL;
	*len = r->size - f->offset;
	return (const char *)r->data + f->offset;
}
