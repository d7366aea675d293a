// SPDX-License-Identifier: GPL-2.0
/*
 * The lines a record run says, through the caller's hook: the engine and every capture
 * source speak through here, and nothing here calls back into either.
 */
#include <stdarg.h>
#include <stdio.h>

#include "capture/record-engine.h"

static void note(const struct record_run *run, enum record_note_kind kind, const char *fmt,
		 va_list ap)
{
	char line[8192];

	vsnprintf(line, sizeof(line), fmt, ap);
	if (run->hooks.note)
		run->hooks.note(kind, line, run->hooks.ctx);
}

void record_say(const struct record_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note(run, RECORD_SAY, fmt, ap);
	va_end(ap);
}

void record_warn(const struct record_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	note(run, RECORD_WARN, fmt, ap);
	va_end(ap);
}

