/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_FORMAT_PRINT_H
#define GT_FORMAT_PRINT_H

#include <event-parse.h>

#include "util/text-buf.h"

/*
 * An event's print fmt printed without libtraceevent, byte for byte as
 * libtraceevent 1.7.1 prints it, for the formats whose every piece we
 * reproduce: literal text, numbers of fixed fields (casts too) in %d, %u,
 * %i, %x, %X and %o with their flags, width and length, and char arrays
 * in %s. Judged once per format; anything else (__print_symbolic(),
 * __print_flags(), __get_str(), helpers, %p, '*' widths) is not ours and
 * stays with libtraceevent.
 */
struct format_print;

/** format_print_new - @event's print fmt parsed as libtraceevent parses it; NULL when not ours */
struct format_print *format_print_new(struct tep_event *event);
/** format_print_free - NULL is ignored */
void format_print_free(struct format_print *f);
/**
 * format_print_record - @rec's text by its event's print fmt appended to @out; @rec must be
 * one print_guard_allows() allowed (every fixed field inside it)
 */
void format_print_record(const struct format_print *f, const struct tep_record *rec,
			 struct text_buf *out);

#endif
