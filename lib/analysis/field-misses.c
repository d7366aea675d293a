// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/field-misses.h"

void field_misses_add(struct field_misses *m, int type, uint64_t fields)
{
	int i;

	m->records++;
	for (i = 0; i < m->nr && m->events[i].type != type; i++)
		;
	if (i == m->nr) {
		if (m->nr == FIELD_MISSES_MAX) {
			m->other++;
			return;
		}
		m->events[m->nr++] = (struct field_miss){ .type = type };
	}
	m->events[i].fields |= fields;
	m->events[i].records++;
}

void field_miss_names(const struct analysis *a, const struct field_miss *e, char *event,
		      size_t event_len, char *fields, size_t fields_len)
{
	struct tep_handle *tep = analysis_tep(a);
	const struct tep_event *ev = tep ? tep_find_event(tep, e->type) : NULL;

	if (event_len)
		snprintf(event, event_len, "%s:%s", ev && ev->system ? ev->system : "?",
			 ev && ev->name ? ev->name : "?");
	if (fields_len)
		gpu_decoder_field_names(analysis_decoder(a), e->type, e->fields, fields,
					fields_len);
}
