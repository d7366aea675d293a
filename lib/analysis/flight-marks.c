// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis-joins.h"
#include "analysis/flight-marks.h"
#include "analysis/timeline.h"
#include "util/kv-words.h"

#define TRIGGER_MARKER	"gpu-trace trigger: "
#define DUMP_MARKER	"gpu-trace flight dump: "

static void trigger_line(struct flight_marks *m, const char *text, uint64_t ts)
{
	struct flight_mark *k;
	uint64_t pid = 0;

	if (m->nr == FLIGHT_MARKS_MAX) {
		m->more++;
		return;
	}
	k = &m->marks[m->nr++];
	memset(k, 0, sizeof(*k));
	k->ts = ts;
	kv_word(text, "cause", k->cause, sizeof(k->cause));
	kv_word(text, "ring", k->ring, sizeof(k->ring));
	kv_word(text, "stage", k->stage, sizeof(k->stage));
	kv_word(text, "dev", k->dev, sizeof(k->dev));
	kv_u64(text, "xid", &k->xid);
	k->has_job = kv_u64(text, "ns", &k->ns) && kv_u64(text, "over_ns", &k->over_ns) &&
		     kv_u64(text, "done_ns", &k->done_ns);
	if (kv_u64(text, "pid", &pid) && pid < (1u << 30))
		k->pid = (int)pid;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct flight_marks *m = state;
	const char *t = r->print;

	(void)a;
	if (r->taken || !t || strncmp(t, "gpu-trace ", 10))
		return;
	if (!strncmp(t, TRIGGER_MARKER, strlen(TRIGGER_MARKER))) {
		trigger_line(m, t, r->ts);
	} else if (!strncmp(t, DUMP_MARKER, strlen(DUMP_MARKER))) {
		m->dump = true;
		kv_word(t, "cause", m->dump_cause, sizeof(m->dump_cause));
		if (!kv_u64(t, "window_from_ns", &m->window_from_ns))
			m->window_from_ns = 0;
	} else {
		return;
	}
	r->taken = true;
}

const struct flight_marks *flight_marks_of(const struct analysis *a)
{
	return analysis_state(a, JOIN_FLIGHT);
}

void flight_marks_known(struct analysis *a, const struct flight_marks *prev)
{
	for (int i = 0; i < prev->nr; i++)
		if (prev->marks[i].has_job)
			timeline_mark_trigger(timeline_of(a), prev->marks[i].ring,
					      prev->marks[i].done_ns);
}

static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)state;
	return analysis_print_kinds(a);
}

const struct analysis_join flight_marks_join = {
	.name = "flight recorder",
	.state_size = sizeof(struct flight_marks),
	.record = join_record,
	.kinds = join_kinds,
};
