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

/*
 * Pages read in one drain, all CPUs together: a drain ends, and top
 * redraws, even while the kernel writes faster than top reads. What a
 * CPU has not handed out stays for the next drain.
 */
#define DRAIN_PAGES 4096

struct live_cpu {
	struct tracefs_cpu *tcpu;
	int cpu;
	unsigned char *page;		/* the page being walked */
	struct rb_cursor cur;
	bool loaded;
	struct tep_record rec;
	bool have;			/* rec holds this CPU's next record */
};

struct live_pages {
	struct live_cpu *cpus;
	int nr_cpus;
	size_t page_size;
	live_page_fn on_page;
	void *page_ctx;
};

void live_pages_on_page(struct live_pages *lp, live_page_fn fn, void *ctx)
{
	lp->on_page = fn;
	lp->page_ctx = ctx;
}

size_t live_pages_page_size(const struct live_pages *lp)
{
	return lp->page_size;
}

int live_pages_nr_cpus(const struct live_pages *lp)
{
	return lp->nr_cpus;
}

void live_pages_close(struct live_pages *lp)
{
	int i;

	if (!lp)
		return;
	for (i = 0; i < lp->nr_cpus; i++) {
		if (lp->cpus[i].tcpu)
			tracefs_cpu_close(lp->cpus[i].tcpu);
		free(lp->cpus[i].page);
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
		c->page = malloc(lp->page_size);
		if (!c->page)
			goto fail;
	}
	return lp;
fail:
	live_pages_close(lp);
	return NULL;
}

/*
 * This CPU's next record into c->rec, reading its next page when the one
 * walked ends; c->have false when the kernel has nothing more for now.
 * false when the drain's pages are used up (the drain ends there, so no
 * CPU's later records go out before this one's earlier ones).
 */
static bool advance(struct live_pages *lp, struct live_cpu *c, size_t *pages)
{
	struct rb_entry e;
	int ret;

	c->have = false;
	while (!c->loaded || !rb_cursor_next(&c->cur, &e)) {
		c->loaded = false;
		if (*pages >= DRAIN_PAGES)
			return false;
		ret = tracefs_cpu_read(c->tcpu, c->page, true);
		if (ret <= 0)
			return true;
		(*pages)++;
		/* a short read leaves the page's tail as it was: zero it */
		if ((size_t)ret < lp->page_size)
			memset(c->page + ret, 0, lp->page_size - (size_t)ret);
		/* a page the kernel should not have written is skipped */
		if (!dat_page_fits(c->page, lp->page_size, 8))
			continue;
		if (lp->on_page)
			lp->on_page(c->cpu, c->page, lp->page_ctx);
		rb_cursor_load(&c->cur, c->page, lp->page_size);
		c->loaded = true;
	}
	rb_entry_record(&e, c->cpu, &c->rec);
	c->have = true;
	return true;
}

/*
 * Record by record, the earliest of the CPUs' next ones, a CPU's next page
 * read only when its last is used up: time order across CPUs over all the
 * kernel holds (reading a batch of pages per CPU first would hand out one
 * CPU's later records before another's earlier ones, and a done before its
 * job's queue).
 */
void live_pages_drain(struct live_pages *lp, uint64_t until, live_pages_fn fn, void *ctx)
{
	size_t pages = 0;
	int i;

	for (i = 0; i < lp->nr_cpus; i++)
		if (!lp->cpus[i].have && !advance(lp, &lp->cpus[i], &pages))
			return;
	for (;;) {
		struct live_cpu *best = NULL;

		for (i = 0; i < lp->nr_cpus; i++)
			if (lp->cpus[i].have && (!best || lp->cpus[i].rec.ts < best->rec.ts))
				best = &lp->cpus[i];
		/*
		 * Stays held, for the drain whose interval it falls in; unless it
		 * is stamped further ahead than a drain can run late (a clock other
		 * than the cut's): held, it would hold its CPU's records until then
		 */
		if (!best || (best->rec.ts > until && best->rec.ts - until <= LIVE_PAGES_HOLD_MAX_NS))
			break;
		/* handed out: the next drain must not hand it out again */
		best->have = false;
		if (fn(&best->rec, ctx) || !advance(lp, best, &pages))
			break;
	}
}
