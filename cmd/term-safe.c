// SPDX-License-Identifier: GPL-2.0
/*
 * Text for a terminal from untrusted strings: a process's comm, a ring's or
 * a kernel's name in a file someone handed us can hold escape sequences
 * (retitle the window, move the cursor, rewrite what was printed). C0
 * controls other than newline and tab, DEL, and the C1 controls U+0080 to
 * U+009F (as UTF-8) are written as \xNN and \u00NN.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

struct safe_out {
	FILE *out;
	bool c2;	/* a 0xC2 lead byte, waiting for the next */
};

static void put_safe(struct safe_out *s, unsigned char c)
{
	if (s->c2) {
		s->c2 = false;
		if (c >= 0x80 && c <= 0x9f) {
			fprintf(s->out, "\\u%04x", c);
			return;
		}
		fputc(0xc2, s->out);
	}
	if (c == 0xc2)
		s->c2 = true;
	else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
		fprintf(s->out, "\\x%02x", c);
	else
		fputc(c, s->out);
}

static ssize_t safe_write(void *cookie, const char *buf, size_t n)
{
	struct safe_out *s = cookie;
	size_t i;

	for (i = 0; i < n; i++)
		put_safe(s, (unsigned char)buf[i]);
	return ferror(s->out) ? -1 : (ssize_t)n;
}

static int safe_close(void *cookie)
{
	struct safe_out *s = cookie;
	int ret;

	if (s->c2)
		fputc(0xc2, s->out);
	ret = fflush(s->out) || ferror(s->out) ? -1 : 0;
	free(s);
	return ret;
}

FILE *term_safe_stream(FILE *out)
{
	struct safe_out *s = calloc(1, sizeof(*s));
	FILE *f;

	if (!s)
		return NULL;
	s->out = out;
	f = fopencookie(s, "w", (cookie_io_functions_t){ .write = safe_write,
							  .close = safe_close });
	if (!f)
		free(s);
	return f;
}

void term_safe_puts(FILE *out, const char *text)
{
	struct safe_out s = { .out = out };
	const char *bold = cmd_bold(), *plain = cmd_plain();

	while (*text) {
		/* our own emphasis, where cmd_bold() gives any, passes */
		if (*bold && !strncmp(text, bold, strlen(bold))) {
			fputs(bold, out);
			text += strlen(bold);
		} else if (*plain && !strncmp(text, plain, strlen(plain))) {
			fputs(plain, out);
			text += strlen(plain);
		} else {
			put_safe(&s, (unsigned char)*text++);
		}
	}
	if (s.c2)
		fputc(0xc2, out);
}
