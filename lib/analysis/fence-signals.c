// SPDX-License-Identifier: GPL-2.0
/*
 * Recent fence signals (fence-signals.h): a log written at each signal, a
 * table brought up to date from it when a fence is asked for.
 *
 * The table's rule, signal by signal: signal s stores its fence's time; from
 * signal kept on, it first drops signal s - kept, whose fence goes if the
 * table still holds that signal's time for it. Replaying the log in order
 * does exactly that. When more than kept signals wait, the table starts empty
 * from the log's oldest (2 * kept back): a signal older than that left the
 * window before any signal in it came, so whatever it dropped or kept was
 * stored again since, or is gone by now either way.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/fence-signals.h"

#define LOW32		0xffffffffull
#define FIRST_CAP	256	/* the log grows from here: small files stay small */

void fence_signals_init(struct fence_signals *s, size_t kept)
{
	memset(s, 0, sizeof(*s));
	s->kept = kept ? kept : 1;
}

void fence_signals_free(struct fence_signals *s)
{
	keymap_free(&s->map);
	free(s->log);
	s->log = NULL;
	s->cap = 0;
	s->puts = s->indexed = 0;
}

/* Until it wraps, the log holds every signal from the first, in place. */
static bool grow_log(struct fence_signals *s)
{
	size_t cap = s->cap ? 2 * s->cap : FIRST_CAP;
	uint64_t *n = realloc(s->log, 2 * cap * sizeof(*n));

	if (!n)
		return false;
	s->log = n;
	s->cap = cap;
	return true;
}

void fence_signals_put(struct fence_signals *s, uint64_t ctx, uint64_t seqno, uint64_t ts)
{
	size_t at;

	if (s->puts == s->cap && s->cap < 2 * s->kept && !grow_log(s))
		return;
	at = (size_t)(s->puts++ % s->cap);
	s->log[2 * at] = keymap_pair(ctx & LOW32, seqno & LOW32);
	s->log[2 * at + 1] = ts;
}

static void catch_up(struct fence_signals *s)
{
	uint64_t from = s->indexed, floor = 0, n;

	/* too far behind: the log's oldest on, its own drops only */
	if (s->puts - s->indexed > s->kept) {
		keymap_free(&s->map);
		from = floor = s->puts > s->cap ? s->puts - s->cap : 0;
	}
	for (n = from; n < s->puts; n++) {
		size_t at = (size_t)(n % s->cap);

		if (n >= s->kept && n - s->kept >= floor) {
			size_t old = (size_t)((n - s->kept) % s->cap);

			if ((uintptr_t)keymap_get(&s->map, s->log[2 * old]) == s->log[2 * old + 1] + 1)
				keymap_del(&s->map, s->log[2 * old]);
		}
		/* out of memory: not remembered, as before */
		keymap_put(&s->map, s->log[2 * at], (void *)(uintptr_t)(s->log[2 * at + 1] + 1));
	}
	s->indexed = s->puts;
}

bool fence_signals_get(struct fence_signals *s, uint64_t ctx, uint64_t seqno, uint64_t *ts)
{
	uintptr_t v;

	catch_up(s);
	v = (uintptr_t)keymap_get(&s->map, keymap_pair(ctx & LOW32, seqno & LOW32));
	if (!v)
		return false;
	*ts = (uint64_t)v - 1;
	return true;
}
