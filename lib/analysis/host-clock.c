// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis-joins.h"
#include "analysis/host-clock.h"
#include "util/kv-words.h"

#define HOST_MARKER	"gpu-trace host: "
#define GPU_MARKER	"gpu-trace gpu: "
#define CLOCK_MARKER	"gpu-trace clock: realtime_ns="
#define CLOCK_END	"gpu-trace clock end: realtime_ns="

struct host_clock_state {
	struct host_clock model;
	bool pending;			/* a clock marker waits for its end */
	uint64_t pending_ts, pending_utc;
};

/*
 * A card named again (the flight recorder marks the host before every dump, so a dump
 * may hold it twice) is the same card: kept once
 */
static void gpu_line(struct host_clock *h, const char *text)
{
	struct host_gpu g = { 0 };
	int i;

	kv_word(text, "card", g.card, sizeof(g.card));
	kv_word(text, "pci", g.pci, sizeof(g.pci));
	kv_word(text, "vendor", g.vendor, sizeof(g.vendor));
	kv_word(text, "device", g.device, sizeof(g.device));
	kv_word(text, "driver", g.driver, sizeof(g.driver));
	kv_word(text, "version", g.version, sizeof(g.version));
	kv_word(text, "uuid", g.uuid, sizeof(g.uuid));
	for (i = 0; i < h->nr_gpus; i++)
		if (!memcmp(&h->gpus[i], &g, sizeof(g)))
			return;
	if (h->nr_gpus == HOST_MAX_GPUS) {
		h->more_gpus++;
		return;
	}
	h->gpus[h->nr_gpus++] = g;
}

static bool read_ns(const char *p, uint64_t *v)
{
	char *end;
	unsigned long long n = strtoull(p, &end, 10);

	if (end == p || (*end && *end != '\n'))
		return false;
	*v = n;
	return true;
}

static void clock_end(struct host_clock_state *s, const char *p)
{
	struct host_clock *h = &s->model;
	struct host_clock_pair pr;
	uint64_t utc;

	if (!s->pending || !read_ns(p, &utc) || utc < s->pending_utc) {
		h->bad_pairs++;
		s->pending = false;
		return;
	}
	s->pending = false;
	pr = (struct host_clock_pair){ s->pending_ts, s->pending_utc, utc };
	if (!h->pairs++) {
		h->first = h->best = pr;
	} else if (pr.utc_to - pr.utc_from < h->best.utc_to - h->best.utc_from) {
		h->best = pr;
	}
	h->last = pr;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct host_clock_state *s = state;
	struct host_clock *h = &s->model;
	const char *t = r->print;

	(void)a;
	if (r->taken || !t || strncmp(t, "gpu-trace ", 10))
		return;
	if (!strncmp(t, HOST_MARKER, strlen(HOST_MARKER))) {
		h->known = true;
		kv_word(t, "name", h->name, sizeof(h->name));
		kv_word(t, "machine_id", h->machine_id, sizeof(h->machine_id));
		kv_word(t, "boot_id", h->boot_id, sizeof(h->boot_id));
	} else if (!strncmp(t, GPU_MARKER, strlen(GPU_MARKER))) {
		gpu_line(h, t);
	} else if (!strncmp(t, CLOCK_MARKER, strlen(CLOCK_MARKER))) {
		if (s->pending)
			h->bad_pairs++;
		s->pending = read_ns(t + strlen(CLOCK_MARKER), &s->pending_utc);
		s->pending_ts = r->ts;
		if (!s->pending)
			h->bad_pairs++;
	} else if (!strncmp(t, CLOCK_END, strlen(CLOCK_END))) {
		clock_end(s, t + strlen(CLOCK_END));
	} else {
		return;
	}
	r->taken = true;
}

static uint64_t mid(const struct host_clock_pair *p);

bool host_clock_offset(const struct host_clock *h, int64_t *offset, uint64_t *uncertainty)
{
	if (!h->pairs)
		return false;
	*offset = (int64_t)(mid(&h->best) - h->best.trace_ns);
	*uncertainty = (h->best.utc_to - h->best.utc_from + 1) / 2;
	return true;
}

/* the middle of a pair's interval: UTC then, in ns */
static uint64_t mid(const struct host_clock_pair *p)
{
	return p->utc_from + (p->utc_to - p->utc_from) / 2;
}

double host_clock_drift_ppm(const struct host_clock *h)
{
	int64_t span, moved;

	if (h->pairs < 2 || h->last.trace_ns <= h->first.trace_ns)
		return 0.0;
	/* differences first: a double holds UTC in ns only to 256 ns */
	span = (int64_t)(h->last.trace_ns - h->first.trace_ns);
	moved = (int64_t)(mid(&h->last) - mid(&h->first)) - span;
	return (double)moved / (double)span * 1e6;
}

const struct host_clock *host_clock_of(const struct analysis *a)
{
	const struct host_clock_state *s = analysis_state(a, JOIN_HOST);

	return s ? &s->model : NULL;
}

static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)state;
	return analysis_print_kinds(a);
}

const struct analysis_join host_clock_join = {
	.name = "host and clock",
	.state_size = sizeof(struct host_clock_state),
	.record = join_record,
	.kinds = join_kinds,
};
