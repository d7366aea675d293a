/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KALLSYMS_DEFER_H
#define GT_KALLSYMS_DEFER_H

/*
 * A .dat's kallsyms read when a function is first named, not when the file
 * is opened. libtracecmd parses the whole section in tracecmd_open(): 134,000
 * symbols of a 6 MB section took 100 ms before the first record could be
 * read, on every file, and most reports never name a function (only
 * function_graph records and %pS/%ps formats do).
 *
 * Between kallsyms_defer_begin() and kallsyms_defer_end() on one thread,
 * libtraceevent's tep_parse_kallsyms() (which this file interposes: the
 * executable's definition binds first) keeps a copy of the first tep's text
 * and sets a function resolver on it. The first lookup runs libtraceevent's
 * own parse on that text into a private tep and answers from it with
 * libtraceevent's own search: the same names, starts and offsets as an
 * eager parse. Outside the window, and for any other tep, the parse is
 * libtraceevent's, at once. The open prober's child opens in a window too
 * and exits without a lookup: it never parses. (libtracecmd gives a file's
 * kallsyms only inside tracecmd_open(); a text given to the deferred tep
 * after a lookup is refused, EBUSY, as libtraceevent's sorted map would not
 * see it either.)
 *
 * Like libtraceevent's own lazy function map, lookups of one tep belong to
 * one thread at a time (its resolver hands back one shared map).
 */
#include <stdbool.h>

struct kallsyms_deferred;

/**
 * kallsyms_defer_begin - defer the kallsyms parses this thread asks for next
 *
 * Until kallsyms_defer_end(), the first tep given kallsyms keeps its text for
 * a parse at its first lookup; any other tep is parsed at once.
 */
void kallsyms_defer_begin(void);

/**
 * kallsyms_defer_end - close the window kallsyms_defer_begin() opened
 * @opened: whether the open in the window succeeded
 *
 * Return: what the window kept, for kallsyms_deferred_free(); NULL when no
 * kallsyms came, or when !@opened (libtracecmd freed the tep: what was kept
 * is freed here).
 */
struct kallsyms_deferred *kallsyms_defer_end(bool opened);

/**
 * kallsyms_deferred_free - remove the tep's resolver and free the text
 * @d: what kallsyms_defer_end() returned, or NULL
 *
 * Call it while the tep lives (before tracecmd_close()): a lookup after it
 * finds no name rather than freed memory.
 */
void kallsyms_deferred_free(struct kallsyms_deferred *d);

/**
 * kallsyms_deferred_parsed - whether a lookup has parsed the text
 * @d: what kallsyms_defer_end() returned, or NULL
 */
bool kallsyms_deferred_parsed(const struct kallsyms_deferred *d);

#endif
