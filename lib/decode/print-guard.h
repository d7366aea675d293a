/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PRINT_GUARD_H
#define GT_PRINT_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#include <event-parse.h>
#include <trace-seq.h>

/*
 * What stands between a file's records and libtraceevent's printers.
 * libtraceevent 1.7.1 prints a record by its format's print fmt (or a
 * plugin's handler) and trusts the file: a field's offset, a __data_loc's
 * string without a NUL, the length of a __print_hex() or the count of a
 * __print_array() read from the record, an index into an array. A crafted
 * format (an offset of 2^31) crashed `report --events`; one of 300000
 * printed bytes read 300 KB past every record.
 *
 * Before libtraceevent sees a record, every field of its event must lie
 * inside it, every __data_loc must point inside it, and every length,
 * count and index its print fmt reads from the record must keep the read
 * inside it; libtraceevent then prints a copy followed by zeros (a string
 * without its NUL ends there). A record that fails, and any event whose
 * printing nothing can bound (helper functions of plugins, which read
 * what their arguments point at; handlers known to read past their
 * fields), is printed field by field by print_guard_fields() instead.
 */
struct print_guard;

/** print_guard_new - a guard with no event judged yet; NULL when out of memory. */
struct print_guard *print_guard_new(void);
/** print_guard_free - the guard and its copies freed; NULL is ignored. */
void print_guard_free(struct print_guard *g);

/**
 * print_guard_check - may libtraceevent print @rec by @event?
 * @g:     the guard (it keeps what it judged of each event)
 * @event: the record's event (its format from the file)
 * @rec:   the record
 * @why:   where to say why not (a field past the record's end, a length that
 *         reaches past it, a format no check can bound)
 * @len:   @why's size
 * @damaged: set when the record or its format holds what no kernel writes (a
 *         field past the record's end, a negative offset), cleared when the
 *         format is one nothing can bound or the record may be printed
 *
 * Return: the record to hand libtraceevent (a copy whose data is followed by
 * zeros; valid until the next call), or NULL with @why set.
 */
struct tep_record *print_guard_check(struct print_guard *g, struct tep_event *event,
				     const struct tep_record *rec, char *why, size_t len,
				     bool *damaged);

/**
 * print_guard_allows - print_guard_check() without the copy: true where @rec may be printed by
 * @event (a printer bounded by the record reads it as it is), else false with @why and
 * @damaged set as print_guard_check() sets them
 */
bool print_guard_allows(struct print_guard *g, struct tep_event *event,
			const struct tep_record *rec, char *why, size_t len, bool *damaged);
/**
 * print_guard_copy - the copy of @rec print_guard_check() hands libtraceevent (its data
 * followed by zeros; valid until the next call), or NULL with @why set when out of memory
 */
struct tep_record *print_guard_copy(struct print_guard *g, const struct tep_record *rec,
				    char *why, size_t len);

/**
 * print_guard_fields - every field of @rec as "name=value", each read only where it lies inside
 * the record (a field that does not is "name=<past the record's end>"); strings cut at 256 bytes,
 * other arrays shown as their first 32 bytes.
 */
void print_guard_fields(struct trace_seq *s, struct tep_event *event, const struct tep_record *rec);

/**
 * print_guard_format_fits - every field of @event (common ones too) lies within @max bytes: an
 * offset and size that are not negative and end within a record of a page's data (@max). False
 * with @bad naming the first that does not.
 */
bool print_guard_format_fits(const struct tep_event *event, int max,
			     const struct tep_format_field **bad);

/**
 * print_guard_cast - @v cast to @type as libtraceevent 1.7.1's eval_type_str() casts a number
 * (every cast it knows is a mask; "unsigned long", pointers and structs leave it as it is)
 */
unsigned long long print_guard_cast(unsigned long long v, const char *type);

#endif
