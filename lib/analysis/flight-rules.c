// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flight-rules.h"

const char *flight_cause_name(enum flight_cause c)
{
	static const char *const names[FLIGHT_NR] = {
		"slow-job", "timeout", "reset", "xid", "job-error", "signal", "file", "periodic"
	};

	return c < FLIGHT_NR ? names[c] : "?";
}

static bool stage_of(const char *name, size_t len, enum job_latency *out)
{
	static const struct { const char *name; enum job_latency l; } shorts[] = {
		{ "queue", LAT_QUEUE_TO_RUN }, { "wait", LAT_DEP_WAIT },
		{ "hw", LAT_RUN_TO_HW }, { "submit", LAT_SUBMIT_TO_QUEUE },
	};
	size_t i;

	for (i = 0; i < LAT_NR; i++) {
		const char *k = job_latency_key((enum job_latency)i);

		if (strlen(k) == len && !strncmp(k, name, len)) {
			*out = (enum job_latency)i;
			return true;
		}
	}
	for (i = 0; i < sizeof(shorts) / sizeof(shorts[0]); i++) {
		if (strlen(shorts[i].name) == len && !strncmp(shorts[i].name, name, len)) {
			*out = shorts[i].l;
			return true;
		}
	}
	return false;
}

/* "50ms", "2.5s", "800us", "120000ns": the unit is required */
static bool duration_of(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v > 0) || v > 1e6)
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].unit)) {
			*ns = (uint64_t)(v * units[i].mult + 0.5);
			return *ns > 0;
		}
	}
	return false;
}

int flight_rule_parse(const char *spec, struct flight_rule *r, struct gt_error *err)
{
	const char *colon = strrchr(spec, ':'), *gt = strchr(spec, '>');

	memset(r, 0, sizeof(*r));
	if (!colon || !gt || gt < colon || colon == spec ||
	    (size_t)(colon - spec) >= sizeof(r->ring))
		goto bad;
	memcpy(r->ring, spec, (size_t)(colon - spec));
	if (!stage_of(colon + 1, (size_t)(gt - colon - 1), &r->stage))
		return gt_error_set(err, EINVAL, "bad --trigger '%s': unknown stage '%.*s'; use total, exec, queue, wait, hw or submit",
				    spec, (int)(gt - colon - 1), colon + 1);
	if (!duration_of(gt + 1, &r->over_ns))
		return gt_error_set(err, EINVAL, "bad --trigger '%s': '%s' is not a duration; give one with its unit, e.g. 50ms, 800us or 2s",
				    spec, gt + 1);
	return 0;
bad:
	return gt_error_set(err, EINVAL, "bad --trigger '%s': expected RING:STAGE>DURATION, e.g. 'gfx*:total>50ms'",
			    spec);
}

bool flight_rule_match(const struct flight_rule *r, const char *ring, const struct job *j)
{
	return j->has_lat[r->stage] && j->lat[r->stage] > r->over_ns &&
	       !fnmatch(r->ring, ring, 0);
}

enum flight_fire flight_plan_fire(struct flight_plan *p, enum flight_cause cause,
				  uint64_t now_ns, const char *detail)
{
	struct flight_pending *pd = &p->pending[cause];
	bool asked = cause == FLIGHT_PERIODIC || cause == FLIGHT_SIGNAL;

	if (pd->armed) {
		pd->folded++;
		return FLIGHT_FOLDED;
	}
	if (!asked && p->dumped[cause] && now_ns - p->last_at_ns[cause] < p->min_gap_ns) {
		p->suppressed[cause]++;
		return FLIGHT_SUPPRESSED;
	}
	*pd = (struct flight_pending){ .armed = true, .at_ns = now_ns,
				       .due_ns = now_ns + p->after_ns };
	snprintf(pd->detail, sizeof(pd->detail), "%s", detail ? detail : "");
	return FLIGHT_ARMED;
}

enum flight_cause flight_plan_next_due(const struct flight_plan *p, uint64_t now_ns)
{
	enum flight_cause best = FLIGHT_NR;

	for (int c = 0; c < FLIGHT_NR; c++)
		if (p->pending[c].armed && p->pending[c].due_ns <= now_ns &&
		    (best == FLIGHT_NR || p->pending[c].due_ns < p->pending[best].due_ns))
			best = (enum flight_cause)c;
	return best;
}

void flight_plan_done(struct flight_plan *p, enum flight_cause cause)
{
	p->dumped[cause] = true;
	p->last_at_ns[cause] = p->pending[cause].at_ns;
	p->suppressed[cause] = 0;
	p->pending[cause].armed = false;
}
