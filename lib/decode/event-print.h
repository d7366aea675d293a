/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_EVENT_PRINT_H
#define GT_EVENT_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include <event-parse.h>

#include "util/text-buf.h"

struct gpu_decoder;
struct gpu_event;

/*
 * A record's own text, as `trace-cmd report` with our plugins prints it
 * after the common header, appended to a text buffer: what report --events
 * writes for every record. Which printer an event gets is judged once per
 * format: our GPU events' one-line printer straight (no libtraceevent
 * print per record), else libtraceevent's print of the format. Either
 * reads the record only where print_guard_check() lets it; a record it
 * refuses is printed field by field, bounded by the record.
 */
struct event_print;

/**
 * event_print_new - printers for the records of @tep's formats; @dec (may be NULL) decodes
 * the GPU events. NULL when out of memory.
 */
struct event_print *event_print_new(struct tep_handle *tep, const struct gpu_decoder *dec);
/** event_print_free - the printers freed; NULL is ignored */
void event_print_free(struct event_print *p);

/**
 * event_print_info - @rec's text (@event's format) appended to @out
 * @gev: what the GPU decoder made of @rec already, or NULL (it is decoded again where needed)
 * @why: where to say why a record was printed field by field
 * @len: @why's size
 *
 * Return: true when the record or its format is damaged (it holds what no kernel writes):
 * then "[damaged: WHY] " and its fields were appended, and @why says what.
 */
bool event_print_info(struct event_print *p, struct tep_event *event, struct tep_record *rec,
		      const struct gpu_event *gev, struct text_buf *out, char *why, size_t len);

/**
 * event_print_tep_calls - how many records went to libtraceevent's printers so far: a
 * plugin's handler may name pids there (sched_switch's registers the comms it prints), so
 * a name looked up before may have changed since the count did
 */
unsigned long event_print_tep_calls(const struct event_print *p);

#endif
