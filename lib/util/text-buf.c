// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>

#include "util/text-buf.h"

bool text_buf_grow(struct text_buf *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 1 << 16;
	char *p;

	if (t->failed)
		return false;
	if (n > SIZE_MAX / 2 - t->len) {
		t->failed = true;
		return false;
	}
	while (cap - t->len < n)
		cap *= 2;
	p = realloc(t->buf, cap);
	if (!p) {
		t->failed = true;
		return false;
	}
	t->buf = p;
	t->cap = cap;
	return true;
}

void text_buf_free(struct text_buf *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

void text_buf_pad(struct text_buf *t, const char *s, size_t n, int width, bool left)
{
	size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
	char *p = text_buf_room(t, n + pad);

	if (!p)
		return;
	if (!left)
		memset(p, ' ', pad);
	memcpy(p + (left ? 0 : pad), s, n);
	if (left)
		memset(p + n, ' ', pad);
	t->len += n + pad;
}

/* @v's digits at the end of @end's buffer: where they start */
static char *digits(char *end, unsigned long long v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

void text_buf_num(struct text_buf *t, long long v, int width, bool left, bool zero)
{
	char num[24], *end = num + sizeof(num), *d;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	size_t nd, n, pad;
	char *p;

	d = digits(end, u);
	nd = (size_t)(end - d);
	n = nd + (v < 0);
	pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
	p = text_buf_room(t, n + pad);
	if (!p)
		return;
	t->len += n + pad;
	/* spaces before the sign, zeros after it (printf ignores 0 with -) */
	if (!left && !zero) {
		memset(p, ' ', pad);
		p += pad;
	}
	if (v < 0)
		*p++ = '-';
	if (!left && zero) {
		memset(p, '0', pad);
		p += pad;
	}
	memcpy(p, d, nd);
	if (left)
		memset(p + nd, ' ', pad);
}

void text_buf_unum(struct text_buf *t, unsigned long long v)
{
	char num[24], *end = num + sizeof(num), *d = digits(end, v);

	text_buf_add(t, d, (size_t)(end - d));
}
