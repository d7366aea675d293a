// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture/flight-ring.h"

int flight_ring_init(struct flight_ring *r, size_t page_size, size_t bytes, int nr_cpus)
{
	size_t min = 2 * (size_t)(nr_cpus > 0 ? nr_cpus : 1);

	if (!page_size) {
		errno = EINVAL;
		return -1;
	}
	r->page_size = page_size;
	r->cap = bytes / page_size;
	if (r->cap < min)
		r->cap = min;
	r->pages = calloc(r->cap, sizeof(*r->pages));
	r->mem = malloc(r->cap * page_size);
	if (!r->pages || !r->mem) {
		flight_ring_free(r);
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < r->cap; i++)
		r->pages[i].data = r->mem + i * page_size;
	return 0;
}

void flight_ring_push(struct flight_ring *r, int cpu, const unsigned char *page,
		      uint64_t first_ts, uint64_t last_ts)
{
	struct flight_page *p;

	if (r->count == r->cap) {
		p = &r->pages[r->head];
		if (p->last_ts > r->window_start)
			r->window_start = p->last_ts;
		r->dropped_pages++;
		r->head = (r->head + 1) % r->cap;
		r->count--;
	}
	p = &r->pages[(r->head + r->count) % r->cap];
	p->cpu = cpu;
	p->first_ts = first_ts;
	p->last_ts = last_ts;
	memcpy(p->data, page, r->page_size);
	r->count++;
}

const struct flight_page *flight_ring_at(const struct flight_ring *r, size_t i)
{
	return &r->pages[(r->head + i) % r->cap];
}

void flight_ring_free(struct flight_ring *r)
{
	free(r->pages);
	free(r->mem);
	r->pages = NULL;
	r->mem = NULL;
	r->cap = r->count = r->head = 0;
}
