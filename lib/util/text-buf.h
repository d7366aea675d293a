/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_TEXT_BUF_H
#define GT_TEXT_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * Text built in one growing buffer and written out in large pieces: what
 * report --events assembles its lines in, a record at a time, instead of a
 * printf() into a stream per field. Out of memory, a buffer keeps what it
 * has and says so (failed); every later append is dropped.
 */
struct text_buf {
	char *buf;
	size_t len, cap;
	bool failed;
};

/** text_buf_grow - room for @n more bytes; false (and failed set) when out of memory */
bool text_buf_grow(struct text_buf *t, size_t n);
/** text_buf_free - the buffer freed, @t emptied */
void text_buf_free(struct text_buf *t);

/** text_buf_room - where @n more bytes go (text_buf_wrote() says how many went), or NULL */
static inline char *text_buf_room(struct text_buf *t, size_t n)
{
	if (n > t->cap - t->len && !text_buf_grow(t, n))
		return NULL;
	return t->buf + t->len;
}

/** text_buf_add - @n bytes of @s appended */
static inline void text_buf_add(struct text_buf *t, const char *s, size_t n)
{
	char *p = text_buf_room(t, n);

	if (!p)
		return;
	memcpy(p, s, n);
	t->len += n;
}

/** text_buf_putc - one byte appended */
static inline void text_buf_putc(struct text_buf *t, char c)
{
	char *p = text_buf_room(t, 1);

	if (p) {
		*p = c;
		t->len++;
	}
}

/** text_buf_pad - @s (@n bytes) in a field of @width, left-aligned or right as printf's %-*s / %*s */
void text_buf_pad(struct text_buf *t, const char *s, size_t n, int width, bool left);

/**
 * text_buf_num - @v in decimal as printf's "%*lld" / "%-*lld" (@left) / "%0*lld" (@zero) would
 * print it with @width
 */
void text_buf_num(struct text_buf *t, long long v, int width, bool left, bool zero);

/** text_buf_unum - @v in decimal as printf's "%llu" */
void text_buf_unum(struct text_buf *t, unsigned long long v);

#endif
