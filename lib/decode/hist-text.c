// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "decode/hist-text.h"

/* @s .. @e without the spaces around it */
static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

static bool read_u64(const char *s, const char *e, uint64_t *v)
{
	char buf[24];
	char *end;
	size_t n = (size_t)(e - s);

	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)*s))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = strtoull(buf, &end, 10);
	return *end == '\0';
}

/* "field: value" between @s and @e */
static bool read_key(const char *s, const char *e, struct hist_key *k)
{
	const char *colon = memchr(s, ':', (size_t)(e - s)), *v;
	size_t n;

	if (!colon)
		return false;
	v = colon + 1;
	trim(&s, &colon);
	n = (size_t)(colon - s);
	if (!n || n >= sizeof(k->field))
		return false;
	memcpy(k->field, s, n);
	k->field[n] = '\0';
	trim(&v, &e);
	memset(&k->str, 0, sizeof(k->str));
	k->log2 = k->is_str = false;
	k->num = 0;
	if (e - v > 4 && !strncmp(v, "~ 2^", 4))
		return (k->log2 = read_u64(v + 4, e, &k->num)) && k->num < HIST_LOG2_MAX;
	if (read_u64(v, e, &k->num))
		return true;
	/* a string key: the kernel pads it with spaces, which trim() cut */
	n = (size_t)(e - v);
	if (n >= sizeof(k->str))
		n = sizeof(k->str) - 1;
	memcpy(k->str, v, n);
	k->is_str = true;
	return n > 0;
}

/*
 * The second key starts at the last ", <field>:" inside the braces: a ring's
 * name may hold commas of its own, the fields we key by never do.
 */
static const char *second_key(const char *s, const char *e)
{
	const char *p;

	for (p = e - 1; p > s; p--) {
		const char *f = p + 1;

		if (*p != ',')
			continue;
		while (f < e && *f == ' ')
			f++;
		while (f < e && (isalnum((unsigned char)*f) || *f == '_'))
			f++;
		if (f < e && *f == ':' && f > p + 1)
			return p;
	}
	return NULL;
}

bool hist_line_parse(const char *line, size_t len, struct hist_line *out)
{
	const char *e = line + len, *open, *close, *comma, *h;

	memset(out, 0, sizeof(*out));
	open = line;
	while (open < e && *open == ' ')
		open++;
	if (open == e || *open != '{')
		return false;
	close = memchr(open, '}', (size_t)(e - open));
	if (!close)
		return false;
	comma = second_key(open + 1, close);
	if (!read_key(open + 1, comma ? comma : close, &out->key[0]))
		return false;
	out->nr_keys = 1;
	if (comma) {
		if (!read_key(comma + 1, close, &out->key[1]))
			return false;
		out->nr_keys = 2;
	}
	h = close + 1;
	while (h < e && *h == ' ')
		h++;
	if ((size_t)(e - h) < strlen("hitcount:") || strncmp(h, "hitcount:", 9))
		return false;
	h += 9;
	while (h < e && *h == ' ')
		h++;
	comma = h;
	while (comma < e && isdigit((unsigned char)*comma))
		comma++;
	return read_u64(h, comma, &out->hitcount);
}

static bool total(const char *text, const char *name, uint64_t *v)
{
	const char *p = strstr(text, name), *e;

	if (!p)
		return false;
	p += strlen(name);
	while (*p == ' ')
		p++;
	for (e = p; isdigit((unsigned char)*e); e++)
		;
	return read_u64(p, e, v);
}

bool hist_totals_parse(const char *text, struct hist_totals *t)
{
	const char *totals = strstr(text, "\nTotals:");

	memset(t, 0, sizeof(*t));
	return totals && total(totals, "Hits:", &t->hits) &&
	       total(totals, "Entries:", &t->entries) && total(totals, "Dropped:", &t->dropped);
}

int hist_each_line(const char *text, size_t len,
		   int (*fn)(const struct hist_line *l, void *ctx), void *ctx)
{
	const char *p = text, *e = text + len;
	struct hist_line l;
	int ret;

	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *end = nl ? nl : e;

		if (hist_line_parse(p, (size_t)(end - p), &l) && (ret = fn(&l, ctx)))
			return ret;
		p = end + 1;
	}
	return 0;
}

uint64_t hist_log2_quantile(const uint64_t *count, int n, double q)
{
	uint64_t total = 0, seen = 0, want;
	int i;

	for (i = 0; i < n; i++)
		total += count[i];
	if (!total)
		return 0;
	/* the rank of the q quantile, at least the first */
	want = (uint64_t)(q * (double)total + 0.999999);
	if (!want)
		want = 1;
	for (i = 0; i < n; i++) {
		seen += count[i];
		if (seen >= want)
			return (uint64_t)1 << i;
	}
	return (uint64_t)1 << (n - 1);
}
