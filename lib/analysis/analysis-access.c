// SPDX-License-Identifier: GPL-2.0
/*
 * The session's accessors (analysis.h): what the outputs read of a pass (its totals,
 * formats, decoder) and what the joins ask of it or tell it (their state, the counts
 * they keep for it). In a file of their own, apart from analysis.c, which calls the
 * joins: they call these, and nothing here calls back, so no call goes round.
 */
#include "decode/event-fields.h"
#include "analysis/analysis-private.h"

const struct analysis_totals *analysis_totals(const struct analysis *a)
{
	return &a->totals;
}

struct tep_handle *analysis_tep(const struct analysis *a)
{
	return a->tep;
}

struct gpu_decoder *analysis_decoder(const struct analysis *a)
{
	return a->dec;
}

const struct dat_meta *analysis_meta(const struct analysis *a)
{
	return a->meta;
}

uint64_t analysis_lost_from(const struct analysis *a)
{
	return a->lost_from;
}

bool analysis_stopped(const struct analysis *a)
{
	return a->stopped;
}

struct dat_stream *analysis_stream(const struct analysis *a)
{
	return a->stream;
}

void *analysis_state(const struct analysis *a, enum analysis_join_id id)
{
	return a->states[id];
}

uint64_t analysis_print_kinds(const struct analysis *a)
{
	return event_field_has(&a->print, 0) ? JOIN_KIND(GEV_NONE) : 0;
}

void analysis_set_hip_line(struct analysis *a, const struct hip_line *line)
{
	a->hip_current = line;
}

const struct hip_line *analysis_hip_line(const struct analysis *a)
{
	return a->hip_current;
}
