// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms parsed at the first lookup (kallsyms-defer.h says why). The
 * parse itself and the search stay libtraceevent's: this file only moves
 * when they run, so every name, start and offset is what an eager parse
 * gives, and a damaged section stops where libtraceevent stops.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "analysis/kallsyms-defer.h"

typedef int (parse_fn)(struct tep_handle *tep, const char *kallsyms);

struct kallsyms_deferred {
	struct tep_handle *tep;		/* the file's: its resolver points here */
	char **texts;			/* each parse asked of that tep, in order */
	int nr_texts;
	pthread_mutex_t lock;		/* over parsed and syms */
	bool parsed;
	struct tep_handle *syms;	/* libtraceevent's parse of the texts; NULL: none */
};

/*
 * The window is this thread's alone: no lock is taken outside it, so a
 * child forked while another thread opens a file (the open prober) never
 * waits on one.
 */
static _Thread_local bool deferring;
static _Thread_local struct kallsyms_deferred *window_kept;

static parse_fn *libtraceevent_parse;

/*
 * The definition after ours in the search order: libtraceevent's. Found
 * before main(), while one thread runs: neither a once-lock nor the
 * loader's lock can be held by another thread when a prober forks.
 */
__attribute__((constructor)) static void find_libtraceevent_parse(void)
{
	libtraceevent_parse = (parse_fn *)dlsym(RTLD_NEXT, "tep_parse_kallsyms");
}

/* under d->lock: libtraceevent's parse of every text, in order, and its sorted map */
static void parse_now(struct kallsyms_deferred *d)
{
	int i;

	d->syms = tep_alloc();
	if (!d->syms)
		return;		/* the next lookup tries again */
	d->parsed = true;
	for (i = 0; i < d->nr_texts; i++)
		libtraceevent_parse(d->syms, d->texts[i]);	/* its result unread, as libtracecmd leaves it */
	/* the map is sorted at the first search: here, under the lock, not in a racing reader */
	tep_find_function(d->syms, 0);
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct kallsyms_deferred *d = priv;
	struct tep_handle *syms;
	unsigned long long start;
	const char *name;

	(void)modp;	/* libtraceevent prints no module */
	pthread_mutex_lock(&d->lock);
	if (!d->parsed)
		parse_now(d);
	syms = d->syms;
	pthread_mutex_unlock(&d->lock);
	if (!syms || !tep_find_function_info(syms, *addrp, &name, &start, NULL))
		return NULL;
	*addrp = start;
	return (char *)name;
}

static void forget(struct kallsyms_deferred *d)
{
	int i;

	for (i = 0; i < d->nr_texts; i++)
		free(d->texts[i]);
	free(d->texts);
	tep_free(d->syms);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

/* @tep's deferred parse, its resolver set; NULL: parse at once */
static struct kallsyms_deferred *defer_new(struct tep_handle *tep)
{
	struct kallsyms_deferred *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	if (pthread_mutex_init(&d->lock, NULL)) {
		free(d);
		return NULL;
	}
	d->tep = tep;
	return d;
}

static int keep_text(struct kallsyms_deferred *d, const char *kallsyms)
{
	char **texts;
	char *copy;

	/*
	 * A lookup sorted the map already: libtraceevent itself would not see a
	 * later text either (its map is sorted once). libtracecmd gives its
	 * text before any lookup; this refuses rather than free names in use.
	 */
	if (kallsyms_deferred_parsed(d)) {
		errno = EBUSY;
		return -1;
	}
	copy = strdup(kallsyms);
	if (!copy)
		return -1;
	texts = realloc(d->texts, (d->nr_texts + 1) * sizeof(*texts));
	if (!texts) {
		free(copy);
		errno = ENOMEM;
		return -1;
	}
	d->texts = texts;
	d->texts[d->nr_texts++] = copy;
	return 0;
}

/*
 * libtraceevent's tep_parse_kallsyms(), interposed: libtracecmd's call binds
 * here. In a window, the first tep keeps its text (and any later one given
 * to it there); anything else is parsed at once by libtraceevent.
 */
int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	struct kallsyms_deferred *d = window_kept;

	if (!libtraceevent_parse) {
		errno = ENOSYS;
		return -1;
	}
	if (!deferring || !tep || !kallsyms || (d && d->tep != tep))
		return libtraceevent_parse(tep, kallsyms);
	if (d)
		return keep_text(d, kallsyms);
	d = defer_new(tep);
	if (!d)
		return libtraceevent_parse(tep, kallsyms);
	/* the resolver set only once the text is kept: a failure leaves the tep eager */
	if (keep_text(d, kallsyms) || tep_set_function_resolver(tep, resolve, d)) {
		forget(d);
		return libtraceevent_parse(tep, kallsyms);
	}
	window_kept = d;
	return 0;
}

void kallsyms_defer_begin(void)
{
	deferring = true;
	window_kept = NULL;
}

struct kallsyms_deferred *kallsyms_defer_end(bool opened)
{
	struct kallsyms_deferred *d = window_kept;

	deferring = false;
	window_kept = NULL;
	if (d && !opened) {
		forget(d);	/* the open failed: libtracecmd freed the tep and its resolver */
		return NULL;
	}
	return d;
}

void kallsyms_deferred_free(struct kallsyms_deferred *d)
{
	if (!d)
		return;
	/* a lookup after this finds no name rather than freed memory */
	tep_reset_function_resolver(d->tep);
	forget(d);
}

bool kallsyms_deferred_parsed(const struct kallsyms_deferred *d)
{
	bool parsed;

	if (!d)
		return false;
	pthread_mutex_lock((pthread_mutex_t *)&d->lock);
	parsed = d->parsed;
	pthread_mutex_unlock((pthread_mutex_t *)&d->lock);
	return parsed;
}
