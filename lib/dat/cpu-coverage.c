// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "dat/cpu-coverage.h"

#define MIN_GAP_NS 10000000ULL	/* 10 ms */
#define MIN_LARGEST (64ULL << 10)

void cpu_coverage_init(struct cpu_coverage *c)
{
	memset(c, 0, sizeof(*c));
	c->late_cpu = c->end_cpu = -1;
}

void cpu_coverage_add(struct cpu_coverage *c, int cpu, uint64_t first, uint64_t last,
		      uint64_t bytes, long long overrun)
{
	struct cpu_window *w;

	if (c->nr == COVERAGE_MAX_CPUS || last < first)
		return;
	w = &c->cpus[c->nr++];
	w->cpu = cpu;
	w->first = first;
	w->last = last;
	w->bytes = bytes;
	w->overrun = overrun;
}

/* Its data fills its ring buffer (the file's pages hold 4080 of 4096 bytes) */
static bool full(const struct cpu_window *w, uint64_t buffer_bytes)
{
	return w->bytes && buffer_bytes && w->bytes >= buffer_bytes / 10 * 9;
}

/*
 * What says @w's older data was overwritten: an overrun count in the file's
 * stats (0 says nothing: overwrite-mode extracts were seen with 0), else its
 * data against its buffer's size where recorded, else against the largest
 * CPU's data: every CPU's buffer is one size and a wrapped one is full, so
 * wrapped buffers hold alike; it takes @full_cpus (2 or more) holding as much
 * to call that a buffer's size, not one busy CPU's data, and below MIN_LARGEST
 * all data looks alike by the page. Nothing else is evidence.
 */
static enum cpu_overwrite_evidence overwritten(const struct cpu_window *w, uint64_t buffer_bytes,
					       uint64_t max_bytes, int full_cpus)
{
	if (w->overrun > 0)
		return OVERWRITE_OVERRUN;
	if (!w->bytes)
		return OVERWRITE_NONE;
	if (buffer_bytes)
		return w->bytes >= buffer_bytes / 10 * 9 ? OVERWRITE_FULL : OVERWRITE_NONE;
	return max_bytes >= MIN_LARGEST && full_cpus >= 2 && w->bytes >= max_bytes / 10 * 9 ?
	       OVERWRITE_LARGEST : OVERWRITE_NONE;
}

void cpu_coverage_judge(struct cpu_coverage *c, uint64_t buffer_bytes)
{
	enum cpu_overwrite_evidence ev;
	uint64_t start = UINT64_MAX, end = 0, from = 0, to = UINT64_MAX, max_bytes = 0, gap;
	int i, full_cpus = 0;

	c->skewed = false;
	c->from = c->to = 0;
	c->late_cpu = c->end_cpu = -1;
	c->late_evidence = OVERWRITE_NONE;
	for (i = 0; i < c->nr; i++) {
		if (c->cpus[i].first < start)
			start = c->cpus[i].first;
		if (c->cpus[i].last > end)
			end = c->cpus[i].last;
		if (c->cpus[i].bytes > max_bytes)
			max_bytes = c->cpus[i].bytes;
	}
	if (c->nr < 2 || end <= start)
		return;
	for (i = 0; i < c->nr; i++)
		if (max_bytes && c->cpus[i].bytes >= max_bytes / 10 * 9)
			full_cpus++;
	c->start = start;
	c->end = end;
	gap = (end - start) / 10 > MIN_GAP_NS ? (end - start) / 10 : MIN_GAP_NS;
	for (i = 0; i < c->nr; i++) {
		const struct cpu_window *w = &c->cpus[i];

		if (w->first - start > gap && w->first > from &&
		    (ev = overwritten(w, buffer_bytes, max_bytes, full_cpus))) {
			from = w->first;
			c->late_cpu = w->cpu;
			c->late_evidence = ev;
			c->evidence_bytes = buffer_bytes ? buffer_bytes : max_bytes;
		}
		if (end - w->last > gap && w->last < to && full(w, buffer_bytes)) {
			to = w->last;
			c->end_cpu = w->cpu;
		}
	}
	if (c->late_cpu < 0 && c->end_cpu < 0)
		return;
	c->skewed = true;
	c->from = c->late_cpu < 0 ? start : from;
	c->to = c->end_cpu < 0 ? end : to;
}
