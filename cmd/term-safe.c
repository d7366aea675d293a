// SPDX-License-Identifier: GPL-2.0
/*
 * Text for a terminal from untrusted strings: a process's comm, a ring's or
 * a kernel's name in a file someone handed us can hold escape sequences
 * (retitle the window, move the cursor, rewrite what was printed). C0
 * controls other than newline and tab, DEL, and the C1 controls U+0080 to
 * U+009F (as UTF-8) are written as \xNN and \u00NN; so is every byte that
 * is not part of well-formed UTF-8 (a lone 0x9b is CSI to a terminal that
 * takes 8-bit controls).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "util/utf8.h"

struct safe_out {
	FILE *out;
	unsigned char seq[4];	/* a UTF-8 sequence begun, waiting for the rest */
	int n;
};

static void put_safe(struct safe_out *s, unsigned char c);

/* seq[0..n) is no sequence: its first byte escaped, the rest taken again one by one */
static void reject_first(struct safe_out *s)
{
	unsigned char rest[4];
	int n = s->n - 1, i;

	fprintf(s->out, "\\x%02x", s->seq[0]);
	memcpy(rest, s->seq + 1, (size_t)n);
	s->n = 0;
	for (i = 0; i < n; i++)
		put_safe(s, rest[i]);
}

static void put_seq(struct safe_out *s)
{
	int len = utf8_seq_len(s->seq, (size_t)s->n);

	if (len < 0)
		return;		/* more to come */
	if (!len) {
		reject_first(s);
		return;
	}
	if (len == 2 && s->seq[0] == 0xc2 && s->seq[1] <= 0x9f)
		fprintf(s->out, "\\u%04x", s->seq[1]);
	else
		fwrite(s->seq, 1, (size_t)len, s->out);
	s->n = 0;
}

static void put_safe(struct safe_out *s, unsigned char c)
{
	if (!s->n && c < 0x80) {
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			fprintf(s->out, "\\x%02x", c);
		else
			fputc(c, s->out);
		return;
	}
	s->seq[s->n++] = c;
	put_seq(s);
}

/* what is left of a sequence at the end: bytes that never became one */
static void flush_safe(struct safe_out *s)
{
	while (s->n)
		reject_first(s);
}

/* what passes as it is: printable ASCII, newline and tab */
static bool plain(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t';
}

#define ONES 0x0101010101010101ULL
#define HIGH 0x8080808080808080ULL

/*
 * How many bytes at @p pass as they are: eight at a time where none is
 * below 0x20, 0x7f or above (newline and tab then a byte at a time)
 */
static size_t plain_run(const unsigned char *p, size_t n)
{
	size_t i = 0, end;
	uint64_t w, del;

	while (i < n) {
		if (n - i >= 8) {
			memcpy(&w, p + i, 8);
			del = w ^ (0x7f * ONES);
			if (!((w | ((w - 0x20 * ONES) & ~w) | ((del - ONES) & ~del)) & HIGH)) {
				i += 8;
				continue;
			}
		}
		for (end = n - i > 8 ? i + 8 : n; i < end; i++)
			if (!plain(p[i]))
				return i;
	}
	return n;
}

/*
 * The text in runs: what passes as it is goes out in one fwrite() a run
 * (a report --events line is all of it), the rest a byte at a time.
 */
static ssize_t safe_write(void *cookie, const char *buf, size_t n)
{
	struct safe_out *s = cookie;
	const unsigned char *p = (const unsigned char *)buf, *end = p + n, *run;

	while (p < end) {
		if (s->n || !plain(*p)) {
			put_safe(s, *p++);
			continue;
		}
		run = p;
		p += plain_run(p, (size_t)(end - p));
		fwrite(run, 1, (size_t)(p - run), s->out);
	}
	return ferror(s->out) ? -1 : (ssize_t)n;
}

static int safe_close(void *cookie)
{
	struct safe_out *s = cookie;
	int ret;

	flush_safe(s);
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

/* emphasis on stderr where it is a terminal: what term_safe_puts lets through as ours */
const char *cmd_bold(void)
{
	return isatty(STDERR_FILENO) ? "\033[1m" : "";
}

const char *cmd_plain(void)
{
	return isatty(STDERR_FILENO) ? "\033[0m" : "";
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
	flush_safe(&s);
}
