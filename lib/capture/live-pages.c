// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "capture/live-pages.h"
#include "dat/dat-format.h"
#include "dat/rb-read.h"

/* Pages read from one CPU per round: a round's records are merged in time order. */
#define ROUND_PAGES 64

struct live_cpu {
	struct tracefs_cpu *tcpu;
	int cpu;
	unsigned char *pages;		/* ROUND_PAGES of them */
	size_t nr, at;			/* pages read this round, the one being walked */
	struct rb_cursor cur;
	struct tep_record rec;
	bool have;			/* rec holds this CPU's next record */
};

struct live_pages {
	struct live_cpu *cpus;
	int nr_cpus;
	size_t page_size;
};

void live_pages_close(struct live_pages *lp)
{
	int i;

	if (!lp)
		return;
	for (i = 0; i < lp->nr_cpus; i++) {
		if (lp->cpus[i].tcpu)
			tracefs_cpu_close(lp->cpus[i].tcpu);
		free(lp->cpus[i].pages);
	}
	free(lp->cpus);
	free(lp);
}

struct live_pages *live_pages_open(struct tracefs_instance *inst, int long_size)
{
	struct live_pages *lp;
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int i, size;

	if (long_size != 8 || n <= 0) {
		errno = ENOTSUP;
		return NULL;
	}
	lp = calloc(1, sizeof(*lp));
	if (!lp || !(lp->cpus = calloc((size_t)n, sizeof(*lp->cpus)))) {
		free(lp);
		errno = ENOMEM;
		return NULL;
	}
	lp->nr_cpus = (int)n;
	for (i = 0; i < lp->nr_cpus; i++) {
		struct live_cpu *c = &lp->cpus[i];

		c->cpu = i;
		c->tcpu = tracefs_cpu_open(inst, i, true);
		if (!c->tcpu)
			goto fail;
		size = tracefs_cpu_read_size(c->tcpu);
		if (size <= 16 || (lp->page_size && (size_t)size != lp->page_size)) {
			errno = ENOTSUP;
			goto fail;
		}
		lp->page_size = (size_t)size;
		c->pages = malloc(ROUND_PAGES * lp->page_size);
		if (!c->pages)
			goto fail;
	}
	return lp;
fail:
	live_pages_close(lp);
	return NULL;
}

/* This CPU's next record of the round into c->rec. */
static void advance(struct live_pages *lp, struct live_cpu *c)
{
	struct rb_entry e;

	c->have = false;
	while (c->at < c->nr) {
		if (rb_cursor_next(&c->cur, &e)) {
			memset(&c->rec, 0, sizeof(c->rec));
			c->rec.ts = e.ts;
			c->rec.cpu = c->cpu;
			c->rec.data = (void *)e.data;
			c->rec.size = e.size;
			c->rec.record_size = e.record_size;
			c->rec.missed_events = e.missed;
			c->have = true;
			return;
		}
		/* the next page read; one the kernel should not have written is skipped */
		while (++c->at < c->nr &&
		       !dat_page_fits(c->pages + c->at * lp->page_size, lp->page_size, 8))
			;
		if (c->at < c->nr)
			rb_cursor_load(&c->cur, c->pages + c->at * lp->page_size, lp->page_size);
	}
}

/* Up to ROUND_PAGES pages of every CPU; true when some CPU may have more. */
static bool read_round(struct live_pages *lp, size_t *read)
{
	bool more = false;
	int i;

	*read = 0;
	for (i = 0; i < lp->nr_cpus; i++) {
		struct live_cpu *c = &lp->cpus[i];
		int ret;

		c->nr = 0;
		while (c->nr < ROUND_PAGES &&
		       (ret = tracefs_cpu_read(c->tcpu, c->pages + c->nr * lp->page_size, true)) > 0) {
			/* a short read leaves the page's tail as it was: zero it */
			if ((size_t)ret < lp->page_size)
				memset(c->pages + c->nr * lp->page_size + ret, 0,
				       lp->page_size - (size_t)ret);
			c->nr++;
		}
		more |= c->nr == ROUND_PAGES;
		*read += c->nr;
		c->at = 0;
		c->have = false;
		while (c->at < c->nr && !dat_page_fits(c->pages + c->at * lp->page_size, lp->page_size, 8))
			c->at++;
		if (c->at < c->nr) {
			rb_cursor_load(&c->cur, c->pages + c->at * lp->page_size, lp->page_size);
			advance(lp, c);
		}
	}
	return more;
}

unsigned long live_pages_drain(struct live_pages *lp, live_pages_fn fn, void *ctx)
{
	unsigned long records = 0;
	bool more = true;

	while (more) {
		size_t read;

		more = read_round(lp, &read);
		if (!read)
			break;
		for (;;) {
			struct live_cpu *best = NULL;
			int i;

			for (i = 0; i < lp->nr_cpus; i++)
				if (lp->cpus[i].have && (!best || lp->cpus[i].rec.ts < best->rec.ts))
					best = &lp->cpus[i];
			if (!best)
				break;
			records++;
			if (fn(&best->rec, ctx))
				return records;
			advance(lp, best);
		}
	}
	return records;
}
