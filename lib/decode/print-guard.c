// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/print-guard.h"
#include "decode/record-field.h"

/*
 * Zeros after the copy libtraceevent prints: a string whose NUL the record
 * lacks ends in them, and the fixed reads of %pM, %pI6 and %pU (6 to 16
 * bytes from a field's start) stay in them.
 */
#define PAD 64
/* print fmt trees deeper than this are not walked (nor handed to libtraceevent's recursion) */
#define MAX_DEPTH 32
/* strings and arrays in print_guard_fields() */
#define MAX_STR 256
#define MAX_ARRAY 32

/* What was judged of one event once: the checks each record still needs. */
struct judged {
	const struct tep_event *event;
	int fixed_end;			/* where its last fixed field ends */
	bool dynamic;			/* it has __data_loc fields */
	bool walk;			/* its print fmt reads lengths, indices or divisors from records */
	uint32_t star_args;		/* args (bit per index) that are a '*' width or precision */
	bool unbounded;			/* nothing can bound its printing */
	bool damaged;			/* ... because its format is damaged */
	char why[112];
};

struct print_guard {
	struct judged *table;		/* open addressing by event address */
	size_t cap, used;
	unsigned char *copy;
	size_t copy_cap;
	size_t dirty;			/* bytes of copy not zero */
	struct tep_record rec;
};

struct print_guard *print_guard_new(void)
{
	return calloc(1, sizeof(struct print_guard));
}

void print_guard_free(struct print_guard *g)
{
	if (!g)
		return;
	free(g->table);
	free(g->copy);
	free(g);
}

static size_t slot_of(const struct print_guard *g, const struct tep_event *event)
{
	uintptr_t h = (uintptr_t)event;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 7) & (g->cap - 1);
}

static struct judged *find(struct print_guard *g, const struct tep_event *event)
{
	size_t i;

	if (!g->cap)
		return NULL;
	for (i = slot_of(g, event); g->table[i].event; i = (i + 1) & (g->cap - 1))
		if (g->table[i].event == event)
			return &g->table[i];
	return NULL;
}

static struct judged *insert(struct print_guard *g, const struct tep_event *event)
{
	size_t i;

	if (2 * (g->used + 1) > g->cap) {
		struct judged *old = g->table;
		size_t n = g->cap, cap = n ? 2 * n : 64, j;

		g->table = calloc(cap, sizeof(*g->table));
		if (!g->table) {
			g->table = old;
			return NULL;
		}
		g->cap = cap;
		for (j = 0; j < n; j++) {
			if (!old[j].event)
				continue;
			for (i = slot_of(g, old[j].event); g->table[i].event; i = (i + 1) & (cap - 1))
				;
			g->table[i] = old[j];
		}
		free(old);
	}
	for (i = slot_of(g, event); g->table[i].event; i = (i + 1) & (g->cap - 1))
		;
	g->used++;
	memset(&g->table[i], 0, sizeof(g->table[i]));
	g->table[i].event = event;
	return &g->table[i];
}

/* ---- the values libtraceevent 1.7.1 computes from a record ------------------ */

struct eval {
	const struct tep_event *event;
	const unsigned char *data;
	int size;
	char *why;
	size_t len;
	bool unbounded;			/* refused for what the format does, not for the record */
};

static int refuse(struct eval *e, const char *fmt, const char *what)
{
	snprintf(e->why, e->len, fmt, what);
	return -1;
}

/* refused whatever the record holds: a format no check can bound */
static int unbounded(struct eval *e, const char *what)
{
	e->unbounded = true;
	return refuse(e, "%s", what);
}

static struct tep_format_field *field_of(const struct tep_event *event, struct tep_format_field *f,
					 const char *name)
{
	return f ? f : name ? tep_find_any_field((struct tep_event *)event, name) : NULL;
}

/* a fixed field read as libtraceevent's tep_read_number() reads it (sizes 1, 2, 4, 8) */
static unsigned long long read_num(const unsigned char *p, int size)
{
	uint8_t v1;
	uint16_t v2;
	uint32_t v4;
	uint64_t v8;

	switch (size) {
	case 1:
		memcpy(&v1, p, 1);
		return v1;
	case 2:
		memcpy(&v2, p, 2);
		return v2;
	case 4:
		memcpy(&v4, p, 4);
		return v4;
	case 8:
		memcpy(&v8, p, 8);
		return v8;
	}
	return 0;
}

static bool inside(const struct eval *e, unsigned long long off, unsigned long long n)
{
	return off <= (unsigned long long)e->size && n <= (unsigned long long)e->size - off;
}

/* A __data_loc's offset and length, clamped as libtraceevent's dynamic_offset_field() does. */
static void dynamic_at(const struct eval *e, const struct tep_format_field *f, unsigned int *off,
		       unsigned int *len)
{
	unsigned long long v;
	unsigned int o, l;

	*off = *len = 0;
	if (!f || f->offset < 0 || f->size <= 0 || !inside(e, (unsigned)f->offset, (unsigned)f->size))
		return;
	v = read_num(e->data + f->offset, f->size);
	o = (unsigned int)(v & 0xffff);
	l = f->size == 2 ? (unsigned int)e->size - o : (unsigned int)((v >> 16) & 0xffff);
	*off = o > (unsigned int)e->size ? 0 : o;
	*len = o + l > (unsigned int)e->size ? 0 : l;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += (unsigned int)(f->offset + f->size);
}

/* libtraceevent's eval_type_str(): every cast it knows is a mask */
static unsigned long long cast(unsigned long long v, const char *type, bool pointer)
{
	size_t n = type ? strlen(type) : 0;
	char base[64];

	if (n < 2)
		return v;
	if (pointer) {
		if (type[n - 1] != '*' || n - 1 > sizeof(base))
			return v;
		snprintf(base, sizeof(base), "%.*s", (int)(n - 2), type);
		return cast(v, base, false);
	}
	if (type[n - 1] == '*' || !strncmp(type, "struct", 6))
		return v;
	if (!strcmp(type, "u8") || !strcmp(type, "s8"))
		return v & 0xff;
	if (!strcmp(type, "u16") || !strcmp(type, "s16"))
		return v & 0xffff;
	if (!strcmp(type, "u32") || !strcmp(type, "s32"))
		return v & 0xffffffff;
	if (!strncmp(type, "unsigned ", 9))
		type += 9;
	if (!strcmp(type, "char"))
		return v & 0xff;
	if (!strcmp(type, "short"))
		return v & 0xffff;
	if (!strcmp(type, "int"))
		return v & 0xffffffff;
	return v;
}

static int eval(struct eval *e, struct tep_print_arg *a, int depth, unsigned long long *v);

/* arr[index]: where libtraceevent reads, checked whole in 64 bits (it wraps at 32) */
static int eval_index(struct eval *e, struct tep_print_arg *a, int depth, unsigned long long *v)
{
	struct tep_print_arg *left = a->op.left, *type = NULL;
	struct tep_format_field *f;
	unsigned long long right, at, width;
	unsigned int off, len;

	if (eval(e, a->op.right, depth + 1, &right))
		return -1;
	while (left && left->type == TEP_PRINT_TYPE) {
		if (!type)
			type = left;
		left = left->typecast.item;
	}
	if (!left)
		return unbounded(e, "an index into nothing");
	if (left->type == TEP_PRINT_DYNAMIC_ARRAY) {
		f = left->dynarray.field;
		dynamic_at(e, f, &off, &len);
		width = f && f->elementsize ? (unsigned)f->elementsize : 8;
		at = (unsigned long long)off + right;
	} else if (left->type == TEP_PRINT_FIELD) {
		f = field_of(e->event, left->field.field, left->field.name);
		if (!f)
			return unbounded(e, "an index into a field the format lacks");
		width = (unsigned)f->elementsize;
		if (right && width > ULLONG_MAX / right)
			return refuse(e, "an index into %s past the record's end", f->name);
		at = (unsigned long long)(unsigned)f->offset + right * width;
	} else {
		unsigned long long l;

		/* libtraceevent falls back to the plain operator: left and right as numbers */
		if (eval(e, a->op.left, depth + 1, &l))
			return -1;
		*v = l;
		return 0;
	}
	if (at < right || !inside(e, at, width) || width > 8)
		return refuse(e, "%s", "an index that reaches past the record's end");
	*v = read_num(e->data + at, (int)width);
	if (type)
		*v = cast(*v, type->typecast.type, true);
	return 0;
}

static int eval_op(struct eval *e, struct tep_print_arg *a, int depth, unsigned long long *v)
{
	const char *op = a->op.op;
	unsigned long long l = 0, r = 0;

	if (!op)
		return unbounded(e, "an operator without a name");
	if (!strcmp(op, "["))
		return eval_index(e, a, depth, v);
	if (!strcmp(op, "?")) {
		struct tep_print_arg *pick = a->op.right;

		if (!pick || pick->type != TEP_PRINT_OP || eval(e, a->op.left, depth + 1, &l))
			return unbounded(e, "a malformed ?: in the print format");
		return eval(e, l ? pick->op.left : pick->op.right, depth + 1, v);
	}
	if (eval(e, a->op.left, depth + 1, &l) || eval(e, a->op.right, depth + 1, &r))
		return -1;
	switch (op[0]) {
	case '!':
		*v = op[1] == '=' ? l != r : !r;
		return 0;
	case '~':
		*v = ~r;
		return 0;
	case '|':
		*v = op[1] ? (l || r) : (l | r);
		return 0;
	case '&':
		*v = op[1] ? (l && r) : (l & r);
		return 0;
	case '<':
		*v = op[1] == '<' ? l << (r & 63) : op[1] == '=' ? l <= r : l < r;
		return 0;
	case '>':
		*v = op[1] == '>' ? l >> (r & 63) : op[1] == '=' ? l >= r : l > r;
		return 0;
	case '=':
		*v = l == r;
		return 0;
	case '-':
		*v = l - r;
		return 0;
	case '+':
		*v = l + r;
		return 0;
	case '*':
		*v = l * r;
		return 0;
	case '/':
	case '%':
		/* libtraceevent divides as it finds: SIGFPE */
		if (!r)
			return unbounded(e, "a division by zero in the print format");
		*v = op[0] == '/' ? l / r : l % r;
		return 0;
	}
	*v = 0;		/* libtraceevent warns and takes 0 */
	return 0;
}

/* The value libtraceevent's eval_num_arg() computes, or -1 where it cannot be bounded. */
static int eval(struct eval *e, struct tep_print_arg *a, int depth, unsigned long long *v)
{
	struct tep_format_field *f;
	unsigned int off, len;
	char *end;

	*v = 0;
	if (!a)
		return 0;
	if (depth > MAX_DEPTH)
		return unbounded(e, "a print format nested too deep");
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (!a->atom.atom)
			return 0;
		*v = strtoull(a->atom.atom, &end, 0);
		/* 0 from a name: libtraceevent looks it up among the kernel's symbols */
		if (!*v && (end == a->atom.atom || *end))
			return unbounded(e, "a symbol as a number in the print format");
		return 0;
	case TEP_PRINT_FIELD:
		f = field_of(e->event, a->field.field, a->field.name);
		if (f && f->offset >= 0 && f->size > 0 && inside(e, (unsigned)f->offset, (unsigned)f->size))
			*v = read_num(e->data + f->offset, f->size);
		return 0;
	case TEP_PRINT_TYPE:
		if (eval(e, a->typecast.item, depth + 1, v))
			return -1;
		*v = cast(*v, a->typecast.type, false);
		return 0;
	case TEP_PRINT_OP:
		return eval_op(e, a, depth, v);
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		dynamic_at(e, a->dynarray.field, &off, &len);
		*v = len;
		return 0;
	case TEP_PRINT_DYNAMIC_ARRAY:
		return unbounded(e, "an address used as a number in the print format");
	case TEP_PRINT_FUNC:
		return unbounded(e, "a plugin's helper function in the print format");
	default:
		return 0;	/* flags, symbols, strings, arrays: 0 as a number */
	}
}

/* Where a __print_hex() or __print_array() starts reading: a field, or a __data_loc's data. */
static int array_start(struct eval *e, struct tep_print_arg *a, unsigned long long *at)
{
	struct tep_format_field *f;
	unsigned int off, len;

	if (a && a->type == TEP_PRINT_DYNAMIC_ARRAY) {
		dynamic_at(e, a->dynarray.field, &off, &len);
		*at = off;
		return 0;
	}
	f = a && a->type == TEP_PRINT_FIELD ? field_of(e->event, a->field.field, a->field.name) : NULL;
	if (!f || f->offset < 0)
		return unbounded(e, "an array the print format cannot locate");
	*at = (unsigned)f->offset;
	return 0;
}

/* Every read the print fmt's tree makes from the record stays inside it. */
static int walk(struct eval *e, struct tep_print_arg *a, int depth)
{
	unsigned long long at, n, el, v;

	if (!a)
		return 0;
	if (depth > MAX_DEPTH)
		return unbounded(e, "a print format nested too deep");
	switch (a->type) {
	case TEP_PRINT_NULL:
	case TEP_PRINT_ATOM:
	case TEP_PRINT_FIELD:
	case TEP_PRINT_STRING:
	case TEP_PRINT_BSTRING:
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK:
	case TEP_PRINT_DYNAMIC_ARRAY:
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		return 0;
	case TEP_PRINT_FLAGS:
		return walk(e, a->flags.field, depth + 1);
	case TEP_PRINT_SYMBOL:
		return walk(e, a->symbol.field, depth + 1);
	case TEP_PRINT_TYPE:
		return walk(e, a->typecast.item, depth + 1);
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		if (walk(e, a->hex.size, depth + 1) || array_start(e, a->hex.field, &at) ||
		    eval(e, a->hex.size, depth + 1, &n))
			return -1;
		/* libtraceevent keeps the length in an unsigned int */
		if (!inside(e, at, n & 0xffffffff))
			return refuse(e, "%s", "a __print_hex() length past the record's end");
		return 0;
	case TEP_PRINT_INT_ARRAY:
		if (walk(e, a->int_array.count, depth + 1) || walk(e, a->int_array.el_size, depth + 1) ||
		    array_start(e, a->int_array.field, &at) ||
		    eval(e, a->int_array.count, depth + 1, &n) ||
		    eval(e, a->int_array.el_size, depth + 1, &el))
			return -1;
		n &= 0xffffffff;
		el = (int)el == 1 || (int)el == 2 || (int)el == 4 || (int)el == 8 ? (unsigned)(int)el : 1;
		if (!inside(e, at, n * el))
			return refuse(e, "%s", "a __print_array() count past the record's end");
		return 0;
	case TEP_PRINT_OP:
		if (walk(e, a->op.left, depth + 1) || walk(e, a->op.right, depth + 1))
			return -1;
		/* operators are computed where they are printed: the same checks */
		if (a->op.op && (!strcmp(a->op.op, "[") || !strcmp(a->op.op, "/") ||
				 !strcmp(a->op.op, "%")))
			return eval(e, a, depth, &v);
		return 0;
	case TEP_PRINT_FUNC:
		return unbounded(e, "a plugin's helper function in the print format");
	}
	return unbounded(e, "a print format argument gpu-trace does not know");
}

/* ---- what is judged once per event ------------------------------------------ */

bool print_guard_format_fits(const struct tep_event *event, int max,
			     const struct tep_format_field **bad)
{
	const struct tep_format_field *lists[2] = { event->format.common_fields,
						    event->format.fields };
	const struct tep_format_field *f;
	int i;

	for (i = 0; i < 2; i++)
		for (f = lists[i]; f; f = f->next)
			if (f->offset < 0 || f->size < 0 || f->offset > max || f->size > max - f->offset) {
				*bad = f;
				return false;
			}
	return true;
}

/* does the tree hold what must be computed per record? */
static bool needs_walk(const struct tep_print_arg *a, int depth)
{
	for (; a; a = depth ? NULL : a->next) {
		if (depth > MAX_DEPTH)
			return true;
		switch (a->type) {
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
		case TEP_PRINT_INT_ARRAY:
		case TEP_PRINT_FUNC:
			return true;
		case TEP_PRINT_OP:
			if (!a->op.op || strchr("[/%", a->op.op[0]) ||
			    needs_walk(a->op.left, depth + 1) || needs_walk(a->op.right, depth + 1))
				return true;
			break;
		case TEP_PRINT_FLAGS:
			if (needs_walk(a->flags.field, depth + 1))
				return true;
			break;
		case TEP_PRINT_SYMBOL:
			if (needs_walk(a->symbol.field, depth + 1))
				return true;
			break;
		case TEP_PRINT_TYPE:
			if (needs_walk(a->typecast.item, depth + 1))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/*
 * Plugins whose handlers read what their fields do not bound: kvm's
 * kvm_emulate_insn disassembles as many bytes of insn as its len says.
 */
static bool handler_unbounded(const struct tep_event *event)
{
	return event->handler && event->system &&
	       (!strcmp(event->system, "kvm") || !strcmp(event->system, "kvmmmu"));
}

/*
 * The print fmt's arguments that a '*' makes a field width or precision
 * ("%*d", "%.*s"): libtraceevent pads to what the record says, 4 KB of
 * output at a time (a width of 2^22 took 6 s a record). A bit per argument,
 * the first 32; -1 (all) where the text cannot be followed.
 */
static uint32_t star_args(const char *fmt)
{
	uint32_t mask = 0;
	int arg = 0;

	for (; fmt && *fmt; fmt++) {
		if (*fmt != '%')
			continue;
		if (*++fmt == '%')
			continue;
		while (*fmt && strchr("-+ #0", *fmt))
			fmt++;
		if (*fmt == '*') {
			mask |= arg < 32 ? 1u << arg : 0;
			arg++;
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			fmt++;
		if (*fmt == '.' && *++fmt == '*') {
			mask |= arg < 32 ? 1u << arg : 0;
			arg++;
			fmt++;
		}
		while (*fmt && ((*fmt >= '0' && *fmt <= '9') || strchr("hlLqjzt", *fmt)))
			fmt++;
		if (!*fmt)
			break;
		/* %pS, %pM, ...: their letters are the conversion's */
		if (*fmt == 'p')
			while (fmt[1] && ((fmt[1] >= 'a' && fmt[1] <= 'z') || (fmt[1] >= 'A' && fmt[1] <= 'Z')))
				fmt++;
		arg++;
	}
	return arg > 32 && mask ? ~0u : mask;
}

/* every '*' width or precision the record gives within bounds, and every one the format gives */
#define MAX_STAR 4096

/*
 * A width or precision written in the print fmt past MAX_STAR ("%100000000d"):
 * libtraceevent pads every record to it, 100 MB of output a record
 */
static bool wide_conversion(const char *fmt)
{
	long n;

	for (; fmt && (fmt = strchr(fmt, '%')); ) {
		if (*++fmt == '%') {
			fmt++;
			continue;
		}
		while (*fmt && strchr("-+ #0", *fmt))
			fmt++;
		for (n = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
			if ((n = n * 10 + (*fmt - '0')) > MAX_STAR)
				return true;
		if (*fmt == '.')
			for (n = 0, fmt++; *fmt >= '0' && *fmt <= '9'; fmt++)
				if ((n = n * 10 + (*fmt - '0')) > MAX_STAR)
					return true;
	}
	return false;
}

static bool stars_bounded(const struct judged *j, struct eval *e)
{
	struct tep_print_arg *a;
	unsigned long long v;
	int i;

	for (i = 0, a = j->event->print_fmt.args; a; a = a->next, i++) {
		if (i >= 32 || !(j->star_args & (1u << i)))
			continue;
		if (eval(e, a, 0, &v))
			return false;
		if ((int)v > MAX_STAR || (int)v < -MAX_STAR) {
			e->unbounded = true;
			return refuse(e, "%s", "a field width or precision past 4096 read from the record"), false;
		}
	}
	return true;
}

static void judge(struct judged *j, const struct tep_event *event)
{
	const struct tep_format_field *lists[2] = { event->format.common_fields,
						    event->format.fields };
	const struct tep_format_field *f;
	int i;

	for (i = 0; i < 2; i++)
		for (f = lists[i]; f; f = f->next) {
			if (f->offset < 0 || f->size < 0 || f->offset > INT_MAX - f->size) {
				j->unbounded = j->damaged = true;
				snprintf(j->why, sizeof(j->why), "field %s at %d of %d bytes", f->name,
					 f->offset, f->size);
				return;
			}
			if (f->flags & TEP_FIELD_IS_DYNAMIC)
				j->dynamic = true;
			if (f->offset + f->size > j->fixed_end)
				j->fixed_end = f->offset + f->size;
		}
	if (handler_unbounded(event)) {
		j->unbounded = true;
		snprintf(j->why, sizeof(j->why), "a %s plugin handler that reads past its fields",
			 event->system);
		return;
	}
	if (wide_conversion(event->print_fmt.format)) {
		j->unbounded = true;
		snprintf(j->why, sizeof(j->why), "a field width or precision past %d in the print format",
			 MAX_STAR);
		return;
	}
	j->walk = needs_walk(event->print_fmt.args, 0);
	j->star_args = event->print_fmt.format ? star_args(event->print_fmt.format) : 0;
}

/* ---- each record --------------------------------------------------------------- */

/* a __data_loc or __rel_loc field's data lies in the record */
static bool dynamic_inside(struct eval *e, const struct tep_format_field *f)
{
	unsigned long long loc;
	unsigned int off, len;

	if (!(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size <= 0)
		return true;
	loc = read_num(e->data + f->offset, f->size);
	off = (unsigned int)(loc & 0xffff);
	len = f->size == 2 ? 0 : (unsigned int)((loc >> 16) & 0xffff);
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (unsigned int)(f->offset + f->size);
	if (inside(e, off, len))
		return true;
	return refuse(e, "field %s's data past the record's end", f->name), false;
}

static bool fields_inside(const struct judged *j, const struct tep_record *rec, struct eval *e)
{
	const struct tep_format_field *f;

	if (rec->size < j->fixed_end) {
		const struct tep_format_field *lists[2] = { j->event->format.common_fields,
							    j->event->format.fields };
		int i;

		for (i = 0; i < 2; i++)
			for (f = lists[i]; f; f = f->next)
				if (f->offset + f->size > rec->size)
					return refuse(e, "field %s past the record's end", f->name), false;
	}
	if (!j->dynamic)
		return true;
	/* the common fields too: a format may make one a __rel_loc that __get_str() reads */
	for (f = j->event->format.common_fields; f; f = f->next)
		if (!dynamic_inside(e, f))
			return false;
	for (f = j->event->format.fields; f; f = f->next)
		if (!dynamic_inside(e, f))
			return false;
	return true;
}

static struct tep_record *padded_copy(struct print_guard *g, const struct tep_record *rec)
{
	size_t need = (size_t)rec->size + PAD;

	if (need > g->copy_cap) {
		unsigned char *p = realloc(g->copy, need);

		if (!p)
			return NULL;
		memset(p + g->copy_cap, 0, need - g->copy_cap);
		g->copy = p;
		g->copy_cap = need;
	}
	memcpy(g->copy, rec->data, (size_t)rec->size);
	if (g->dirty > (size_t)rec->size)
		memset(g->copy + rec->size, 0, g->dirty - (size_t)rec->size);
	g->dirty = (size_t)rec->size;
	g->rec = *rec;
	g->rec.data = g->copy;
	return &g->rec;
}

bool print_guard_allows(struct print_guard *g, struct tep_event *event,
			const struct tep_record *rec, char *why, size_t len, bool *damaged)
{
	struct eval e = { event, rec ? rec->data : NULL, rec ? rec->size : 0, why, len, false };
	struct judged *j;

	/* what a record holds that no kernel writes; the rest is a format nothing can bound */
	*damaged = true;
	if (!event || !rec || !rec->data || rec->size < 0)
		return refuse(&e, "%s", "no format for the record"), false;
	j = find(g, event);
	if (!j) {
		j = insert(g, event);
		if (!j)
			return refuse(&e, "%s", "out of memory"), false;
		judge(j, event);
	}
	if (j->unbounded) {
		*damaged = j->damaged;
		snprintf(why, len, "%s", j->why);
		return false;
	}
	if (!fields_inside(j, rec, &e))
		return false;
	if (j->star_args && !stars_bounded(j, &e)) {
		*damaged = !e.unbounded;
		return false;
	}
	if (j->walk) {
		struct tep_print_arg *a;

		for (a = event->print_fmt.args; a; a = a->next)
			if (walk(&e, a, 0)) {
				*damaged = !e.unbounded;
				return false;
			}
	}
	*damaged = false;
	return true;
}

struct tep_record *print_guard_copy(struct print_guard *g, const struct tep_record *rec,
				    char *why, size_t len)
{
	struct tep_record *copy = padded_copy(g, rec);

	if (!copy)
		snprintf(why, len, "out of memory");
	return copy;
}

struct tep_record *print_guard_check(struct print_guard *g, struct tep_event *event,
				     const struct tep_record *rec, char *why, size_t len,
				     bool *damaged)
{
	if (!print_guard_allows(g, event, rec, why, len, damaged))
		return NULL;
	return print_guard_copy(g, rec, why, len);
}

/* ---- field by field --------------------------------------------------------------- */

static void print_value(struct trace_seq *s, const struct tep_format_field *f,
			const struct tep_record *rec)
{
	unsigned long long v;
	char str[MAX_STR + 1];
	int i, n;

	if (!record_field_fits(f, rec) && !(f->size == 0 && f->offset <= rec->size)) {
		trace_seq_puts(s, "<past the record's end>");
		return;
	}
	if ((f->flags & TEP_FIELD_IS_STRING) && !f->size) {
		/* char buf[]: the rest of the record (ftrace's print) */
		const char *tail = record_field_tail(f, rec, &n);

		trace_seq_printf(s, "%.*s", tail ? (int)strnlen(tail, n < MAX_STR ? n : MAX_STR) : 0,
				 tail ? tail : "");
		return;
	}
	if ((f->flags & TEP_FIELD_IS_STRING) || (f->flags & TEP_FIELD_IS_DYNAMIC)) {
		record_field_str(f, rec, str, sizeof(str));
		trace_seq_puts(s, str);
		return;
	}
	if (f->flags & TEP_FIELD_IS_ARRAY || f->size > 8 || f->size == 0) {
		n = f->size ? f->size : rec->size - f->offset;
		trace_seq_puts(s, "ARRAY[");
		for (i = 0; i < n && i < MAX_ARRAY; i++)
			trace_seq_printf(s, "%s%02x", i ? ", " : "",
					 ((const unsigned char *)rec->data)[f->offset + i]);
		trace_seq_puts(s, i < n ? ", ...]" : "]");
		return;
	}
	record_field_num(f, rec, &v);
	if (f->flags & (TEP_FIELD_IS_POINTER | TEP_FIELD_IS_LONG))
		trace_seq_printf(s, "0x%llx", v);
	else if (f->flags & TEP_FIELD_IS_SIGNED)
		trace_seq_printf(s, "%lld", f->size == 8 ? (long long)v : f->size == 4 ? (long long)(int32_t)v :
				 f->size == 2 ? (long long)(int16_t)v : (long long)(int8_t)v);
	else
		trace_seq_printf(s, "%llu", v);
}

void print_guard_fields(struct trace_seq *s, struct tep_event *event, const struct tep_record *rec)
{
	const struct tep_format_field *f;

	for (f = event->format.fields; f; f = f->next) {
		trace_seq_printf(s, "%s%s=", f == event->format.fields ? "" : " ", f->name);
		print_value(s, f, rec);
	}
}

unsigned long long print_guard_cast(unsigned long long v, const char *type)
{
	return cast(v, type, false);
}
