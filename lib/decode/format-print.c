// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/format-print.h"
#include "decode/print-guard.h"
#include "decode/record-field.h"

/* one piece of the print fmt, as libtraceevent's parse_args() cuts it */
struct piece {
	enum { PIECE_TEXT, PIECE_NUMBER, PIECE_STRING } type;
	char *text;			/* the literal, or the conversion ("%03d") */
	int ls;				/* number: the length (hh -2 .. ll 2) */
	const struct tep_format_field *field;
	const char *cast;		/* number: a (type) before the field, or NULL */
};

struct format_print {
	struct piece *pieces;
	int nr;
};

void format_print_free(struct format_print *f)
{
	int i;

	if (!f)
		return;
	for (i = 0; i < f->nr; i++)
		free(f->pieces[i].text);
	free(f->pieces);
	free(f);
}

static struct piece *add_piece(struct format_print *f, const char *text, size_t len)
{
	struct piece *p = realloc(f->pieces, sizeof(*p) * (size_t)(f->nr + 1));

	if (!p)
		return NULL;
	f->pieces = p;
	p = &f->pieces[f->nr];
	memset(p, 0, sizeof(*p));
	p->text = strndup(text, len);
	if (!p->text)
		return NULL;
	f->nr++;
	return p;
}

/* a fixed field an argument names, where libtraceevent would read it as a number */
static const struct tep_format_field *number_field(struct tep_event *event, struct tep_print_arg *a)
{
	const struct tep_format_field *f;

	if (!a || a->type != TEP_PRINT_FIELD)
		return NULL;
	f = a->field.field ? a->field.field : tep_find_any_field(event, a->field.name);
	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return NULL;
	return f;
}

/*
 * libtraceevent's parse_arg_format() of the conversion at @fmt: how many
 * bytes it takes, the piece in @f; 0 where the conversion is not ours
 */
static int conversion(struct format_print *f, struct tep_event *event, const char *fmt,
		      struct tep_print_arg **arg)
{
	const char *start = fmt, *cast = NULL;
	const struct tep_format_field *fld;
	struct tep_print_arg *a = *arg;
	struct piece *p;
	int ls = 0;
	size_t len;

	for (fmt++; *fmt; fmt++) {
		switch (*fmt) {
		case '#': case '.': case '-':
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			continue;
		case 'h':
			ls--;
			continue;
		case 'l':
			ls++;
			continue;
		case 'L':
			ls = 2;
			continue;
		case 'z':
		case 'Z':
			ls = 1;
			continue;
		case 'd': case 'u': case 'i': case 'x': case 'X': case 'o':
		case 's':
			break;
		default:	/* '*', %p, %c ...: libtraceevent's own */
			return 0;
		}
		break;
	}
	len = (size_t)(fmt - start) + 1;
	/* what libtraceevent would warn of, or make into "%ll" (a 32-bit host) */
	if (!*fmt || !a || len > 30 || ls < -2 || ls > 2 ||
	    (event->tep && tep_get_long_size(event->tep) == 8 && ls == 1 && sizeof(long) != 8))
		return 0;
	if (*fmt == 's') {
		/* a char array (no %ls); a long-sized field libtraceevent prints as an address */
		if (a->type != TEP_PRINT_FIELD || ls)
			return 0;
		fld = a->field.field ? a->field.field : tep_find_any_field(event, a->field.name);
		if (!fld || !(fld->flags & TEP_FIELD_IS_ARRAY) || (fld->flags & TEP_FIELD_IS_DYNAMIC) ||
		    fld->size <= 0 || fld->size > 4096)
			return 0;
	} else {
		if (a->type == TEP_PRINT_TYPE) {
			cast = a->typecast.type;
			if (!cast || strlen(cast) < 2)
				return 0;
			a = a->typecast.item;
		}
		fld = number_field(event, a);
		if (!fld)
			return 0;
	}
	p = add_piece(f, start, len);
	if (!p)
		return 0;
	p->type = *fmt == 's' ? PIECE_STRING : PIECE_NUMBER;
	p->ls = ls;
	p->field = fld;
	p->cast = cast;
	*arg = (*arg)->next;
	return (int)len;
}

/* libtraceevent's parse_arg_string(): the text up to the next conversion, escapes undone */
static int literal(struct format_print *f, const char *fmt)
{
	size_t cap = strlen(fmt) + 1, n = 0;
	char *buf = malloc(cap);
	int used = 0;
	struct piece *p;

	if (!buf)
		return 0;
	for (; *fmt; fmt++) {
		if (*fmt == '\\') {
			fmt++;
			used++;
			switch (*fmt) {
			case 'n': buf[n++] = '\n'; break;
			case 't': buf[n++] = '\t'; break;
			case 'r': buf[n++] = '\r'; break;
			case '\\': buf[n++] = '\\'; break;
			default: buf[n++] = *fmt; break;
			}
			/* a '\' at the end: libtraceevent reads on past the NUL */
			if (!*fmt) {
				free(buf);
				return 0;
			}
		} else if (*fmt == '%') {
			if (fmt[1] != '%')
				break;
			buf[n++] = '%';
			fmt++;
			used++;
		} else {
			buf[n++] = *fmt;
		}
		used++;
	}
	/* trace_seq_putc() of a NUL, then strdup(): the piece ends there */
	p = add_piece(f, buf, strnlen(buf, n));
	free(buf);
	return p ? used : 0;
}

struct format_print *format_print_new(struct tep_event *event)
{
	struct format_print *f;
	struct tep_print_arg *arg;
	const char *fmt = event->print_fmt.format;
	int len, ret;

	if (!fmt || event->handler ||
	    (event->flags & (TEP_EVENT_FL_ISFTRACE | TEP_EVENT_FL_ISPRINT | TEP_EVENT_FL_ISBPRINT |
			     TEP_EVENT_FL_PRINTRAW | TEP_EVENT_FL_FAILED)))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	arg = event->print_fmt.args;
	/* libtraceevent's parse_args(), its count of what is left included */
	len = (int)strlen(fmt);
	while (*fmt) {
		if (*fmt == '%' && fmt[1] != '%')
			ret = conversion(f, event, fmt, &arg);
		else
			ret = literal(f, fmt);
		if (!ret) {
			format_print_free(f);
			return NULL;
		}
		len -= ret;
		if (len > 0)
			fmt += ret;
		else
			break;
	}
	return f;
}

/* a number as libtraceevent's print_arg_number() hands it to printf */
static void number(const struct piece *p, const struct tep_record *rec, struct text_buf *out)
{
	uint64_t v = 0;
	char *at = text_buf_room(out, 64);
	int n;

	if (!at)
		return;
	record_field_read(p->field, rec, &v);
	if (p->cast)
		v = print_guard_cast(v, p->cast);
	for (;;) {
		size_t room = out->cap - out->len;

		switch (p->ls) {
		case -2: n = snprintf(at, room, p->text, (char)v); break;
		case -1: n = snprintf(at, room, p->text, (short)v); break;
		case 0: n = snprintf(at, room, p->text, (int)v); break;
		case 1: n = snprintf(at, room, p->text, (long)v); break;
		default: n = snprintf(at, room, p->text, (long long)v); break;
		}
		if (n < 0)
			return;
		if ((size_t)n < room)
			break;
		at = text_buf_room(out, (size_t)n + 1);
		if (!at)
			return;
	}
	out->len += (size_t)n;
}

/* a char array as print_str_arg() copies it, printed, up to its first NUL as trace_seq_puts() */
static void string(const struct piece *p, const struct tep_record *rec, struct text_buf *out)
{
	const struct tep_format_field *fld = p->field;
	char str[4097], *at;
	size_t room;
	int n;

	if (!record_field_fits(fld, rec))
		return;
	memcpy(str, (const char *)rec->data + fld->offset, (size_t)fld->size);
	str[fld->size] = '\0';
	at = text_buf_room(out, (size_t)fld->size + 64);
	for (room = at ? out->cap - out->len : 0; at;) {
		n = snprintf(at, room, p->text, str);
		if (n < 0)
			return;
		if ((size_t)n < room) {
			out->len += strnlen(at, (size_t)n);
			return;
		}
		at = text_buf_room(out, (size_t)n + 1);
		room = out->cap - out->len;
	}
}

void format_print_record(const struct format_print *f, const struct tep_record *rec,
			 struct text_buf *out)
{
	int i;

	for (i = 0; i < f->nr; i++) {
		const struct piece *p = &f->pieces[i];

		if (p->type == PIECE_NUMBER)
			number(p, rec, out);
		else if (p->type == PIECE_STRING)
			string(p, rec, out);
		else
			text_buf_add(out, p->text, strlen(p->text));
	}
}
