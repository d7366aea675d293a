// SPDX-License-Identifier: GPL-2.0
/* A join's fields of one event by index (event-fields.h), read through record-field.h. */
#include <limits.h>
#include <string.h>

#include "decode/event-fields.h"
#include "decode/record-field.h"

bool event_fields_of(struct event_fields *e, struct tep_event *event, const char *const *names)
{
	int i;

	memset(e, 0, sizeof(*e));
	e->id = -1;
	if (!event)
		return false;
	e->event = event;
	e->id = event->id;
	for (i = 0; names && names[i] && i < EVENT_FIELDS_MAX; i++)
		e->f[i] = tep_find_field(event, names[i]);
	e->nr = i;
	return true;
}

bool event_fields_find(struct event_fields *e, struct tep_handle *tep, const char *system,
		       const char *name, const char *const *names)
{
	return event_fields_of(e, tep ? tep_find_event_by_name(tep, system, name) : NULL, names);
}

bool event_fields_find_all(struct event_fields *e, struct tep_handle *tep, const char *system,
			   const char *name, const char *const *names)
{
	int i;

	if (!event_fields_find(e, tep, system, name, names))
		return false;
	for (i = 0; i < e->nr; i++)
		if (!e->f[i]) {
			e->id = -1;
			return false;
		}
	return true;
}

bool event_field_has(const struct event_fields *e, int i)
{
	return i >= 0 && i < EVENT_FIELDS_MAX && e->f[i];
}

bool event_field_num(const struct event_fields *e, int i, const struct tep_record *rec,
		     unsigned long long *v)
{
	*v = 0;
	return event_field_has(e, i) && record_field_num(e->f[i], rec, v);
}

unsigned long long event_field_u64(const struct event_fields *e, int i,
				   const struct tep_record *rec)
{
	unsigned long long v;

	return event_field_num(e, i, rec, &v) ? v : 0;
}

void event_field_str(const struct event_fields *e, int i, const struct tep_record *rec,
		     char *out, size_t len)
{
	if (!event_field_has(e, i)) {
		if (len)
			out[0] = '\0';
		return;
	}
	record_field_str(e->f[i], rec, out, len);
}

const char *event_field_tail(const struct event_fields *e, int i, const struct tep_record *rec,
			     int *len)
{
	return event_field_has(e, i) ? record_field_tail(e->f[i], rec, len) : NULL;
}

bool event_field_named(struct tep_event *event, const char *name, const struct tep_record *rec,
		       unsigned long long *v)
{
	const struct tep_format_field *f = event ? tep_find_field(event, name) : NULL;

	*v = 0;
	return f && record_field_num(f, rec, v);
}

const char *event_function_name(struct tep_handle *tep, unsigned long long ip)
{
	return tep ? tep_find_function(tep, ip) : NULL;
}

int event_common_end(struct tep_handle *tep)
{
	static const char *const names[] = { "common_type", "common_pid" };
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	int end = 0;
	size_t i;

	if (!events || !events[0])
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct tep_format_field *f = tep_find_common_field(events[0], names[i]);

		if (!f)
			continue;
		if (f->offset < 0 || f->size < 0 || f->offset > INT_MAX - f->size)
			return INT_MAX;
		if (f->offset + f->size > end)
			end = f->offset + f->size;
	}
	return end;
}

bool event_system_present(struct tep_handle *tep, const char *system)
{
	int i, n = tep ? tep_get_events_count(tep) : 0;

	for (i = 0; i < n; i++) {
		const struct tep_event *ev = tep_get_event(tep, i);

		if (ev && ev->system && !strcmp(ev->system, system))
			return true;
	}
	return false;
}
