/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_EVENT_FIELDS_H
#define GT_EVENT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include <event-parse.h>

/*
 * One event's fields by name, for the joins: a join names the event and the fields it
 * reads in a table of its own and asks for them by their index in that table; only
 * lib/decode touches a format's fields, and every read goes through record-field.h's
 * bounded readers.
 */
#define EVENT_FIELDS_MAX	16

/**
 * struct event_fields - an event of the file and the fields a join reads of it
 * @id:    its id in the file; -1 when the file has no such event
 * @event: its format (NULL with @id -1)
 * @f:     each named field, by the index of its name; NULL where the format lacks it
 * @nr:    how many names were asked for
 */
struct event_fields {
	int id;
	int nr;
	struct tep_event *event;
	const struct tep_format_field *f[EVENT_FIELDS_MAX];
};

/**
 * event_fields_find - @system:@name's id and the fields @names (NULL-terminated, at most
 * EVENT_FIELDS_MAX; NULL: none) in @tep's formats; false when the file has no such event
 */
bool event_fields_find(struct event_fields *e, struct tep_handle *tep, const char *system,
		       const char *name, const char *const *names);
/**
 * event_fields_of - the same for an event the caller already has (@event may be NULL: then
 * none); the fields by name as in event_fields_find()
 */
bool event_fields_of(struct event_fields *e, struct tep_event *event, const char *const *names);
/**
 * event_fields_find_all - event_fields_find(), and the event counts as absent (id -1) unless
 * every field of @names is in its format: for a join that reads them all
 */
bool event_fields_find_all(struct event_fields *e, struct tep_handle *tep, const char *system,
			   const char *name, const char *const *names);
/**
 * event_system_present - whether @tep's formats hold an event of @system
 * @tep:    the file's formats
 * @system: an event system's name ("amdgpu")
 *
 * Return: true when at least one of its events is in the file.
 */
bool event_system_present(struct tep_handle *tep, const char *system);
/** event_field_has - whether field @i was found */
bool event_field_has(const struct event_fields *e, int i);
/** event_field_num - field @i of @rec, bounded; false when absent or outside the record */
bool event_field_num(const struct event_fields *e, int i, const struct tep_record *rec,
		     unsigned long long *v);
/** event_field_u64 - field @i of @rec as a number; 0 when absent or outside the record */
unsigned long long event_field_u64(const struct event_fields *e, int i,
				   const struct tep_record *rec);
/** event_field_str - field @i as a string cut to @len - 1 bytes ("" when absent) */
void event_field_str(const struct event_fields *e, int i, const struct tep_record *rec,
		     char *out, size_t len);
/**
 * event_field_tail - from field @i's offset to the record's end (ftrace print's buf); NULL
 * when absent or outside the record
 */
const char *event_field_tail(const struct event_fields *e, int i, const struct tep_record *rec,
			     int *len);
/**
 * event_field_named - a field of @rec's own format by name, read as a number: for probe
 * events whose fields a join looks up per record (@event: the record's format)
 */
bool event_field_named(struct tep_event *event, const char *name, const struct tep_record *rec,
		       unsigned long long *v);

/** event_function_name - the kernel function at @ip by the file's symbols; NULL if unknown */
const char *event_function_name(struct tep_handle *tep, unsigned long long ip);

/**
 * event_common_end - where the first format (by id) puts the end of common_type and
 * common_pid, which libtraceevent reads in every record: a record shorter is damage;
 * INT_MAX when those fields are placed impossibly, 0 when there is no format
 */
int event_common_end(struct tep_handle *tep);

#endif
