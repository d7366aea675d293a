// SPDX-License-Identifier: GPL-2.0
/*
 * A Parquet file, the parts of the format a table needs: flat columns and
 * LISTs, of strings or of structs of INT64s (parquet-format's
 * parquet.thrift, Encodings.md and LogicalTypes.md):
 *   "PAR1", per row group per column one DATA_PAGE (v1): its PageHeader in
 *   Thrift compact, then zstd of [u32 length, RLE definition levels,
 *   PLAIN values]; the FileMetaData (Thrift compact), its u32 length, "PAR1".
 *   A string column's chunk whose values repeat (names) is dictionary
 *   encoded (parquet-dict.h): a DICTIONARY_PAGE of its distinct values,
 *   PLAIN, before the data page, whose values are then RLE_DICTIONARY ids.
 * Definition levels have bit width 1 (every column is OPTIONAL, one level;
 * a LIST's leaves have 2, and repetition levels of width 1 before them;
 * each field of a LIST of STRUCT is a leaf of its own, its levels the
 * list's, the same in every field):
 * written as RLE runs only (the hybrid's other half, bit-packed groups, is
 * for data that changes every value; a run costs two bytes and zstd takes
 * what repeats). Statistics use the types' own order (ColumnOrder
 * TYPE_ORDER): signed for INT64, unsigned bytes for strings.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "output/parquet-dict.h"
#include "output/parquet-writer.h"
#include "util/utf8.h"

#define PQ_ZSTD_LEVEL	3

/* parquet.thrift's enums, as numbered there */
enum { T_BOOLEAN = 0, T_INT64 = 2, T_DOUBLE = 5, T_BYTE_ARRAY = 6 };
enum { ENC_PLAIN = 0, ENC_RLE = 3, ENC_RLE_DICTIONARY = 8 };
enum { CODEC_ZSTD = 6 };
enum { PAGE_DATA = 0, PAGE_DICTIONARY = 2 };
enum { REP_REQUIRED = 0, REP_OPTIONAL = 1, REP_REPEATED = 2 };
enum { CONVERTED_UTF8 = 0, CONVERTED_LIST = 3 };

static const uint8_t magic[4] = { 'P', 'A', 'R', '1' };

static int physical(enum pq_kind k)
{
	switch (k) {
	case PQ_BOOL:
		return T_BOOLEAN;
	case PQ_DOUBLE:
		return T_DOUBLE;
	case PQ_STRING:
	case PQ_STRING_LIST:
		return T_BYTE_ARRAY;
	default:
		return T_INT64;
	}
}

/* a LIST's leaf: repetition levels, definition levels up to 2 */
static bool is_list(enum pq_kind k)
{
	return k == PQ_STRING_LIST || k == PQ_STRUCT_LIST_I64;
}

/* the LIST's name in a PQ_STRUCT_LIST_I64 column's "LIST.FIELD": its length */
static size_t list_name_len(const struct pq_column *c)
{
	const char *dot = strchr(c->name, '.');

	return dot ? (size_t)(dot - c->name) : strlen(c->name);
}

/* @a and @b fields of one LIST of STRUCT */
static bool same_list(const struct pq_column *a, const struct pq_column *b)
{
	size_t n = list_name_len(a);

	return a->kind == PQ_STRUCT_LIST_I64 && b->kind == PQ_STRUCT_LIST_I64 &&
	       n == list_name_len(b) && !memcmp(a->name, b->name, n);
}

/* @col is a LIST of STRUCT's first field: where its list's schema and levels are begun */
static bool struct_first(const struct pq_writer *w, int col)
{
	return w->cols[col].kind == PQ_STRUCT_LIST_I64 &&
	       !(col > 0 && same_list(&w->cols[col - 1], &w->cols[col]));
}

/* the fields of the LIST of STRUCT whose first is @col */
static int struct_fields(const struct pq_writer *w, int col)
{
	int n = 1;

	while (col + n < w->nr_cols && same_list(&w->cols[col], &w->cols[col + n]))
		n++;
	return n;
}

/* a writer's misuse (a value of the wrong kind, an element with no list): the row fails */
static void misuse(struct pq_writer *w)
{
	if (!w->error)
		w->error = EINVAL;
}

static void put(struct pq_writer *w, const void *p, size_t n)
{
	if (w->error || !n)
		return;
	if (fwrite(p, 1, n, w->f) != n)
		w->error = errno ? errno : EIO;
	else
		w->offset += (int64_t)n;
}

int pq_open(struct pq_writer *w, FILE *f, const struct pq_column *cols, int nr_cols)
{
	const char *dot;
	int i;

	memset(w, 0, sizeof(*w));
	/* a LIST of STRUCT's field is named "LIST.FIELD", neither empty */
	for (i = 0; i < nr_cols; i++) {
		dot = strchr(cols[i].name, '.');
		if (cols[i].kind == PQ_STRUCT_LIST_I64 &&
		    (!dot || dot == cols[i].name || !dot[1] || strchr(dot + 1, '.')))
			return -EINVAL;
	}
	w->f = f;
	w->cols = cols;
	w->nr_cols = nr_cols;
	w->group_rows = PQ_GROUP_ROWS;
	w->cur = calloc((size_t)nr_cols, sizeof(*w->cur));
	if (!w->cur)
		return -ENOMEM;
	put(w, magic, sizeof(magic));
	return -w->error;
}

void pq_free(struct pq_writer *w)
{
	int i;

	for (i = 0; w->cur && i < w->nr_cols; i++) {
		pb_free(&w->cur[i].values);
		pb_free(&w->cur[i].defs);
		pb_free(&w->cur[i].reps);
	}
	free(w->cur);
	free(w->meta);
	free(w->group_rows_of);
	w->cur = NULL;
	w->meta = NULL;
	w->group_rows_of = NULL;
}

/*
 * the column's slot of this row, its levels put in: @set a value (or a list,
 * empty so far), else null; NULL when the row has one already (a writer's
 * bug) or memory failed
 */
static struct pq_buffered *slot(struct pq_writer *w, int col, bool set)
{
	struct pq_buffered *b;
	uint8_t d = set, r = 0;

	if (w->error || col < 0 || col >= w->nr_cols)
		return NULL;
	b = &w->cur[col];
	if (b->defs.failed || b->values.failed || b->reps.failed) {
		w->error = ENOMEM;
		return NULL;
	}
	if (b->rows != w->rows) {
		w->error = EINVAL;
		return NULL;
	}
	b->rows++;
	pb_append(&b->defs, &d, 1);
	if (is_list(w->cols[col].kind))
		pb_append(&b->reps, &r, 1);
	if (!set)
		b->stats.nulls++;
	return b;
}

/* the slot of a flat column's value: a LIST's values go through pq_list_begin and its elements */
static struct pq_buffered *value_slot(struct pq_writer *w, int col)
{
	if (col >= 0 && col < w->nr_cols && is_list(w->cols[col].kind)) {
		misuse(w);
		return NULL;
	}
	return slot(w, col, true);
}

static void stat_bytes(struct pq_stats *s, const void *p, size_t n)
{
	if (n > PQ_STAT_MAX) {
		s->too_long = true;
		return;
	}
	/* unsigned bytes, a prefix before what it starts */
	if (!s->has_minmax || memcmp(p, s->min, n < s->min_len ? n : s->min_len) < 0 ||
	    (!memcmp(p, s->min, n < s->min_len ? n : s->min_len) && n < s->min_len)) {
		memcpy(s->min, p, n);
		s->min_len = (uint32_t)n;
	}
	if (!s->has_minmax || memcmp(p, s->max, n < s->max_len ? n : s->max_len) > 0 ||
	    (!memcmp(p, s->max, n < s->max_len ? n : s->max_len) && n > s->max_len)) {
		memcpy(s->max, p, n);
		s->max_len = (uint32_t)n;
	}
	s->has_minmax = true;
}

void pq_null(struct pq_writer *w, int col)
{
	slot(w, col, false);
}

void pq_opt_i64(struct pq_writer *w, int col, bool has, int64_t v)
{
	if (has)
		pq_i64(w, col, v);
	else
		pq_null(w, col);
}

/* an INT64's or a BOOLEAN's min and max so far */
static void stat_int(struct pq_stats *s, int64_t v)
{
	if (!s->has_minmax || v < s->imin)
		s->imin = v;
	if (!s->has_minmax || v > s->imax)
		s->imax = v;
	s->has_minmax = true;
}

void pq_i64(struct pq_writer *w, int col, int64_t v)
{
	struct pq_buffered *b = value_slot(w, col);
	uint64_t le = htole64((uint64_t)v);

	if (!b)
		return;
	pb_append(&b->values, &le, sizeof(le));
	stat_int(&b->stats, v);
}

void pq_f64(struct pq_writer *w, int col, double v)
{
	struct pq_buffered *b = value_slot(w, col);
	uint64_t le;

	if (!b)
		return;
	memcpy(&le, &v, sizeof(le));
	le = htole64(le);
	pb_append(&b->values, &le, sizeof(le));
	if (v != v)		/* a NaN orders nowhere: no min/max for the chunk */
		b->stats.too_long = true;
	if (!b->stats.has_minmax || v < b->stats.dmin)
		b->stats.dmin = v;
	if (!b->stats.has_minmax || v > b->stats.dmax)
		b->stats.dmax = v;
	b->stats.has_minmax = true;
}

void pq_bool(struct pq_writer *w, int col, bool v)
{
	struct pq_buffered *b = value_slot(w, col);
	uint8_t zero = 0;

	if (!b)
		return;
	/* PLAIN booleans: bit-packed, the first value in the lowest bit */
	if (b->bits % 8 == 0)
		pb_append(&b->values, &zero, 1);
	if (v && b->values.data && !b->values.failed)
		b->values.data[b->values.len - 1] |= (uint8_t)(1u << (b->bits % 8));
	b->bits++;
	stat_int(&b->stats, v);
}

/* @s as a PLAIN byte array: its length, then it, what is not UTF-8 as U+FFFD */
static void put_str(struct pq_buffered *b, const char *s)
{
	static const uint8_t fffd[3] = { 0xef, 0xbf, 0xbd };
	const unsigned char *p = (const unsigned char *)s;
	size_t left, at, start;
	uint32_t le;
	int len;

	/* the length first, filled in once the replacements are known */
	at = b->values.len;
	le = 0;
	pb_append(&b->values, &le, sizeof(le));
	start = b->values.len;
	for (left = strlen(s); left; ) {
		len = utf8_seq_len(p, left);
		if (len > 0) {
			pb_append(&b->values, p, (size_t)len);
		} else {
			pb_append(&b->values, fffd, sizeof(fffd));
			len = (int)utf8_bad_len(p, left);
		}
		p += len;
		left -= (size_t)len;
	}
	if (b->values.failed)
		return;
	le = htole32((uint32_t)(b->values.len - start));
	memcpy(b->values.data + at, &le, sizeof(le));
	stat_bytes(&b->stats, b->values.data + start, b->values.len - start);
}

void pq_str(struct pq_writer *w, int col, const char *s)
{
	struct pq_buffered *b;

	/* a LIST's values go through pq_list_begin and pq_list_str: their levels differ */
	if (col >= 0 && col < w->nr_cols && is_list(w->cols[col].kind)) {
		misuse(w);
		return;
	}
	b = slot(w, col, s != NULL);

	if (b && s)
		put_str(b, s);
}

void pq_list_begin(struct pq_writer *w, int col)
{
	int k, n = 1;

	if (col < 0 || col >= w->nr_cols)
		return;
	/* a LIST of STRUCT's list is begun once, at its first field, for every field */
	if (!is_list(w->cols[col].kind) ||
	    (w->cols[col].kind == PQ_STRUCT_LIST_I64 && !struct_first(w, col))) {
		misuse(w);
		return;
	}
	if (w->cols[col].kind == PQ_STRUCT_LIST_I64)
		n = struct_fields(w, col);
	for (k = 0; k < n; k++)
		slot(w, col + k, true);
}

/*
 * one more element's levels in this row's list of @col, after its pq_list_begin:
 * the list's first turns its level 1 (empty) into 2 (an element, repetition 0, a
 * row's first); each next is level 2 with repetition 1 (the same row's list)
 */
static struct pq_buffered *element(struct pq_writer *w, int col)
{
	struct pq_buffered *b = &w->cur[col];
	uint8_t two = 2, one = 1;

	if (b->defs.failed || b->reps.failed) {
		w->error = ENOMEM;
		return NULL;
	}
	if (b->rows != w->rows + 1 || !b->defs.len || !b->defs.data[b->defs.len - 1]) {
		misuse(w);
		return NULL;
	}
	if (b->defs.data[b->defs.len - 1] == 1) {
		b->defs.data[b->defs.len - 1] = two;
	} else {
		pb_append(&b->defs, &two, 1);
		pb_append(&b->reps, &one, 1);
	}
	return b;
}

void pq_list_str(struct pq_writer *w, int col, const char *s)
{
	struct pq_buffered *b;

	if (w->error || col < 0 || col >= w->nr_cols || !s)
		return;
	if (w->cols[col].kind != PQ_STRING_LIST) {
		misuse(w);
		return;
	}
	b = element(w, col);
	if (b)
		put_str(b, s);
}

void pq_list_i64s(struct pq_writer *w, int col, const int64_t *v, int n)
{
	struct pq_buffered *b;
	uint64_t le;
	int k;

	if (w->error || col < 0 || col >= w->nr_cols)
		return;
	if (!struct_first(w, col) || n != struct_fields(w, col)) {
		misuse(w);
		return;
	}
	for (k = 0; k < n; k++) {
		b = element(w, col + k);
		if (!b)
			return;
		le = htole64((uint64_t)v[k]);
		pb_append(&b->values, &le, sizeof(le));
		stat_int(&b->stats, v[k]);
	}
}

/* levels (a byte each) as RLE runs: (count << 1) as a varint, then the level in a byte */
static void level_runs(struct pb_buf *out, const struct pb_buf *defs)
{
	size_t i = 0, run;
	uint8_t v[11];
	uint64_t h;
	int n;

	while (i < defs->len) {
		for (run = 1; i + run < defs->len && defs->data[i + run] == defs->data[i]; run++)
			;
		h = (uint64_t)run << 1;
		for (n = 0; h >= 0x80; h >>= 7)
			v[n++] = (uint8_t)(h | 0x80);
		v[n++] = (uint8_t)h;
		v[n++] = defs->data[i];
		pb_append(out, v, (size_t)n);
		i += run;
	}
}

/* a page's levels: their length as a u32, then the runs */
static void levels(struct pb_buf *out, const struct pb_buf *lv)
{
	uint32_t len = 0;
	size_t at = out->len;

	pb_append(out, &len, sizeof(len));
	level_runs(out, lv);
	if (out->failed)
		return;
	len = htole32((uint32_t)(out->len - at - sizeof(len)));
	memcpy(out->data + at, &len, sizeof(len));
}

static void stats_le(struct pq_stats *s, enum pq_kind kind)
{
	uint64_t le;
	uint8_t b;

	if (kind == PQ_STRING || kind == PQ_STRING_LIST || !s->has_minmax)
		return;
	if (kind == PQ_BOOL) {
		b = (uint8_t)s->imin;
		memcpy(s->min, &b, 1);
		b = (uint8_t)s->imax;
		memcpy(s->max, &b, 1);
		s->min_len = s->max_len = 1;
		return;
	}
	if (kind == PQ_DOUBLE) {
		memcpy(&le, &s->dmin, 8);
		le = htole64(le);
		memcpy(s->min, &le, 8);
		memcpy(&le, &s->dmax, 8);
		le = htole64(le);
		memcpy(s->max, &le, 8);
	} else {
		le = htole64((uint64_t)s->imin);
		memcpy(s->min, &le, 8);
		le = htole64((uint64_t)s->imax);
		memcpy(s->max, &le, 8);
	}
	s->min_len = s->max_len = 8;
}

/*
 * One page: its PageHeader (a data page of @values rows with its values in
 * @encoding, or the dictionary page of @values entries), then @raw in zstd.
 * Adds its sizes to @m.
 */
static void write_page(struct pq_writer *w, const struct pb_buf *raw, bool dictionary,
		       uint32_t values, int encoding, struct pq_chunk_meta *m)
{
	struct tc_buf hdr = { 0 };
	size_t bound, packed;
	void *z = NULL;

	if (raw->failed || raw->len > INT32_MAX) {
		w->error = raw->failed ? ENOMEM : EFBIG;
		return;
	}
	bound = ZSTD_compressBound(raw->len);
	z = malloc(bound);
	if (!z) {
		w->error = ENOMEM;
		return;
	}
	packed = ZSTD_compress(z, bound, raw->data, raw->len, PQ_ZSTD_LEVEL);
	if (ZSTD_isError(packed)) {
		w->error = EIO;
		goto out;
	}
	tc_begin(&hdr);
	tc_i32(&hdr, 1, dictionary ? PAGE_DICTIONARY : PAGE_DATA);
	tc_i32(&hdr, 2, (int32_t)raw->len);
	tc_i32(&hdr, 3, (int32_t)packed);
	if (dictionary) {
		tc_struct_begin(&hdr, 7);	/* DictionaryPageHeader */
		tc_i32(&hdr, 1, (int32_t)values);
		tc_i32(&hdr, 2, ENC_PLAIN);
	} else {
		tc_struct_begin(&hdr, 5);	/* DataPageHeader */
		tc_i32(&hdr, 1, (int32_t)values);
		tc_i32(&hdr, 2, encoding);
		tc_i32(&hdr, 3, ENC_RLE);
		tc_i32(&hdr, 4, ENC_RLE);
	}
	tc_struct_end(&hdr);
	tc_end(&hdr);
	if (hdr.out.failed) {
		w->error = ENOMEM;
		goto out;
	}
	if (dictionary) {
		m->dict_offset = w->offset;
		m->has_dict = true;
	} else {
		m->offset = w->offset;
	}
	m->uncompressed += (int64_t)(hdr.out.len + raw->len);
	m->compressed += (int64_t)(hdr.out.len + packed);
	put(w, hdr.out.data, hdr.out.len);
	put(w, z, packed);
out:
	free(z);
	tc_free(&hdr);
}

/* one column's pages of the group: its dictionary where it pays, then its levels and values */
static void write_chunk(struct pq_writer *w, int col, struct pq_chunk_meta *m)
{
	struct pq_buffered *b = &w->cur[col];
	struct pb_buf raw = { 0 }, dict = { 0 }, ids = { 0 };
	uint32_t entries = 0;
	int encoded = 1;
	size_t i;

	memset(m, 0, sizeof(*m));
	if (b->values.failed || b->defs.failed || b->reps.failed) {
		w->error = ENOMEM;
		return;
	}
	if ((w->cols[col].kind == PQ_STRING || w->cols[col].kind == PQ_STRING_LIST) && b->values.len) {
		encoded = pq_dict_encode(&b->values, &dict, &ids, &entries);
		if (encoded < 0) {
			w->error = -encoded;
			goto out;
		}
	}
	if (is_list(w->cols[col].kind))
		levels(&raw, &b->reps);
	levels(&raw, &b->defs);
	if (!encoded) {
		write_page(w, &dict, true, entries, ENC_PLAIN, m);
		pb_append(&raw, ids.data, ids.len);
	} else {
		pb_append(&raw, b->values.data, b->values.len);
	}
	write_page(w, &raw, false, (uint32_t)b->defs.len, encoded ? ENC_PLAIN : ENC_RLE_DICTIONARY, m);
	m->values = b->defs.len;
	m->stats = b->stats;
	/*
	 * a list's leaf: every level under the maximum is a null, a null list's and an
	 * empty one's as well (what Arrow, parquet-mr and cuDF count: the levels minus
	 * the values, so that a reader sees that a chunk holds lists that are not full)
	 */
	if (is_list(w->cols[col].kind))
		for (i = 0, m->stats.nulls = 0; i < b->defs.len; i++)
			m->stats.nulls += b->defs.data[i] < 2;
	stats_le(&m->stats, w->cols[col].kind);
out:
	pb_free(&raw);
	pb_free(&dict);
	pb_free(&ids);
}

static int write_group(struct pq_writer *w)
{
	struct pq_chunk_meta *meta;
	int64_t *rows;
	int i;

	if (w->error)
		return -w->error;
	if (!w->rows)
		return 0;
	if (w->nr_groups == w->cap_groups) {
		int cap = w->cap_groups ? 2 * w->cap_groups : 4;

		meta = realloc(w->meta, sizeof(*meta) * (size_t)cap * (size_t)w->nr_cols);
		if (meta)
			w->meta = meta;
		rows = realloc(w->group_rows_of, sizeof(*rows) * (size_t)cap);
		if (rows)
			w->group_rows_of = rows;
		if (!meta || !rows)
			return -(w->error = ENOMEM);
		w->cap_groups = cap;
	}
	for (i = 0; i < w->nr_cols; i++) {
		write_chunk(w, i, &w->meta[w->nr_groups * w->nr_cols + i]);
		w->cur[i].values.len = 0;
		w->cur[i].defs.len = 0;
		w->cur[i].reps.len = 0;
		w->cur[i].rows = 0;
		w->cur[i].bits = 0;
		memset(&w->cur[i].stats, 0, sizeof(w->cur[i].stats));
	}
	w->group_rows_of[w->nr_groups++] = w->rows;
	w->total_rows += w->rows;
	w->rows = 0;
	return -w->error;
}

int pq_row_end(struct pq_writer *w)
{
	int i;

	for (i = 0; i < w->nr_cols && !w->error; i++)
		if (w->cur[i].rows == w->rows)
			pq_null(w, i);
	if (w->error)
		return -w->error;
	/* long strings (a file's names) make a row group large before its rows are many */
	for (i = 0, w->bytes = 0; i < w->nr_cols; i++)
		w->bytes += w->cur[i].values.len;
	if (++w->rows >= w->group_rows || w->bytes >= PQ_GROUP_BYTES)
		return write_group(w);
	return 0;
}

/* a BYTE_ARRAY of UTF-8: ConvertedType UTF8 and LogicalType STRING */
static void utf8_types(struct tc_buf *t)
{
	tc_i32(t, 6, CONVERTED_UTF8);
	tc_struct_begin(t, 10);
	tc_empty(t, 1);			/* STRING */
	tc_struct_end(t);
}

/* a LIST's two groups (LogicalTypes.md's 3-level layout): the optional LIST, its repeated "list" */
static void list_groups(struct tc_buf *t, const char *name, size_t len)
{
	tc_list_struct_begin(t);
	tc_i32(t, 3, REP_OPTIONAL);
	tc_binary(t, 4, name, len);
	tc_i32(t, 5, 1);
	tc_i32(t, 6, CONVERTED_LIST);
	tc_struct_begin(t, 10);
	tc_empty(t, 3);			/* LIST */
	tc_struct_end(t);
	tc_struct_end(t);
	tc_list_struct_begin(t);
	tc_i32(t, 3, REP_REPEATED);
	tc_string(t, 4, "list");
	tc_i32(t, 5, 1);
	tc_struct_end(t);
}

/* a PQ_STRING_LIST's schema: its two groups, then the required STRING "element" */
static void list_schema(struct tc_buf *t, const char *name)
{
	list_groups(t, name, strlen(name));
	tc_list_struct_begin(t);
	tc_i32(t, 1, T_BYTE_ARRAY);
	tc_i32(t, 3, REP_REQUIRED);
	tc_string(t, 4, "element");
	utf8_types(t);
	tc_struct_end(t);
}

/*
 * a PQ_STRUCT_LIST_I64 column's schema: at its list's first field the two groups and
 * the required "element" group of its fields, then (every field) a required INT64
 */
static void struct_list_schema(struct tc_buf *t, const struct pq_writer *w, int col)
{
	const struct pq_column *c = &w->cols[col];
	size_t n = list_name_len(c);

	if (struct_first(w, col)) {
		list_groups(t, c->name, n);
		tc_list_struct_begin(t);
		tc_i32(t, 3, REP_REQUIRED);
		tc_string(t, 4, "element");
		tc_i32(t, 5, struct_fields(w, col));
		tc_struct_end(t);
	}
	tc_list_struct_begin(t);
	tc_i32(t, 1, T_INT64);
	tc_i32(t, 3, REP_REQUIRED);
	tc_string(t, 4, c->name + n + 1);
	tc_struct_end(t);
}

static void schema(struct tc_buf *t, const struct pq_writer *w)
{
	uint32_t n = (uint32_t)w->nr_cols + 1;
	int i, top = 0;

	/* a leaf per column, a LIST's groups above its leaves; the root's fields the top ones */
	for (i = 0; i < w->nr_cols; i++) {
		n += w->cols[i].kind == PQ_STRING_LIST ? 2 : 0;
		n += struct_first(w, i) ? 3 : 0;
		top += w->cols[i].kind != PQ_STRUCT_LIST_I64 || struct_first(w, i);
	}
	tc_list_begin(t, 2, TC_STRUCT, n);
	tc_list_struct_begin(t);	/* the root: a group of every column */
	tc_string(t, 4, "schema");
	tc_i32(t, 5, top);
	tc_struct_end(t);
	for (i = 0; i < w->nr_cols; i++) {
		enum pq_kind k = w->cols[i].kind;

		if (k == PQ_STRING_LIST) {
			list_schema(t, w->cols[i].name);
			continue;
		}
		if (k == PQ_STRUCT_LIST_I64) {
			struct_list_schema(t, w, i);
			continue;
		}
		tc_list_struct_begin(t);
		tc_i32(t, 1, physical(k));
		tc_i32(t, 3, REP_OPTIONAL);
		tc_string(t, 4, w->cols[i].name);
		if (k == PQ_STRING) {
			utf8_types(t);
		} else if (k == PQ_TIMESTAMP) {
			/* nanoseconds have no ConvertedType: the logical type alone */
			tc_struct_begin(t, 10);
			tc_struct_begin(t, 8);		/* TIMESTAMP */
			tc_bool(t, 1, true);		/* isAdjustedToUTC */
			tc_struct_begin(t, 2);		/* unit */
			tc_empty(t, 3);			/* NANOS */
			tc_struct_end(t);
			tc_struct_end(t);
			tc_struct_end(t);
		}
		tc_struct_end(t);
	}
}

/* where a column chunk begins: its dictionary page, else its data page */
static int64_t pq_chunk_start(const struct pq_chunk_meta *m)
{
	return m->has_dict ? m->dict_offset : m->offset;
}

static void chunk_meta(struct tc_buf *t, const struct pq_column *c, const struct pq_chunk_meta *m)
{
	tc_list_struct_begin(t);		/* ColumnChunk */
	tc_i64(t, 2, pq_chunk_start(m));
	tc_struct_begin(t, 3);			/* ColumnMetaData */
	tc_i32(t, 1, physical(c->kind));
	tc_list_begin(t, 2, TC_I32, m->has_dict ? 3 : 2);
	tc_list_i32(t, ENC_PLAIN);
	tc_list_i32(t, ENC_RLE);
	if (m->has_dict)
		tc_list_i32(t, ENC_RLE_DICTIONARY);
	if (c->kind == PQ_STRING_LIST) {
		tc_list_begin(t, 3, TC_BINARY, 3);	/* NAME.list.element */
		tc_list_binary(t, c->name, strlen(c->name));
		tc_list_binary(t, "list", 4);
		tc_list_binary(t, "element", 7);
	} else if (c->kind == PQ_STRUCT_LIST_I64) {
		size_t n = list_name_len(c);

		tc_list_begin(t, 3, TC_BINARY, 4);	/* LIST.list.element.FIELD */
		tc_list_binary(t, c->name, n);
		tc_list_binary(t, "list", 4);
		tc_list_binary(t, "element", 7);
		tc_list_binary(t, c->name + n + 1, strlen(c->name + n + 1));
	} else {
		tc_list_begin(t, 3, TC_BINARY, 1);
		tc_list_binary(t, c->name, strlen(c->name));
	}
	tc_i32(t, 4, CODEC_ZSTD);
	tc_i64(t, 5, (int64_t)m->values);
	tc_i64(t, 6, m->uncompressed);
	tc_i64(t, 7, m->compressed);
	tc_i64(t, 9, m->offset);
	if (m->has_dict)
		tc_i64(t, 11, m->dict_offset);
	tc_struct_begin(t, 12);			/* Statistics */
	tc_i64(t, 3, (int64_t)m->stats.nulls);
	if (m->stats.has_minmax && !m->stats.too_long) {
		tc_binary(t, 5, m->stats.max, m->stats.max_len);
		tc_binary(t, 6, m->stats.min, m->stats.min_len);
	}
	tc_struct_end(t);
	tc_struct_end(t);
	tc_struct_end(t);
}

int pq_close(struct pq_writer *w, const char *const (*kv)[2], int nr_kv)
{
	struct tc_buf t = { 0 };
	uint32_t len;
	int g, i, ret;

	write_group(w);
	if (w->error)
		goto out;
	tc_begin(&t);
	tc_i32(&t, 1, 1);			/* version */
	schema(&t, w);
	tc_i64(&t, 3, (int64_t)w->total_rows);
	tc_list_begin(&t, 4, TC_STRUCT, (uint32_t)w->nr_groups);
	for (g = 0; g < w->nr_groups; g++) {
		const struct pq_chunk_meta *m = &w->meta[g * w->nr_cols];
		int64_t bytes = 0, packed = 0;

		tc_list_struct_begin(&t);	/* RowGroup */
		tc_list_begin(&t, 1, TC_STRUCT, (uint32_t)w->nr_cols);
		for (i = 0; i < w->nr_cols; i++) {
			chunk_meta(&t, &w->cols[i], &m[i]);
			bytes += m[i].uncompressed;
			packed += m[i].compressed;
		}
		tc_i64(&t, 2, bytes);
		tc_i64(&t, 3, w->group_rows_of[g]);
		tc_i64(&t, 5, pq_chunk_start(&m[0]));
		tc_i64(&t, 6, packed);
		tc_struct_end(&t);
	}
	tc_list_begin(&t, 5, TC_STRUCT, (uint32_t)nr_kv);
	for (i = 0; i < nr_kv; i++) {
		tc_list_struct_begin(&t);	/* KeyValue */
		tc_string(&t, 1, kv[i][0]);
		tc_string(&t, 2, kv[i][1]);
		tc_struct_end(&t);
	}
	tc_string(&t, 6, "gpu-trace version " GT_VERSION);
	tc_list_begin(&t, 7, TC_STRUCT, (uint32_t)w->nr_cols);
	for (i = 0; i < w->nr_cols; i++) {
		tc_list_struct_begin(&t);	/* ColumnOrder */
		tc_empty(&t, 1);		/* TYPE_ORDER */
		tc_struct_end(&t);
	}
	tc_end(&t);
	if (t.out.failed || t.out.len > UINT32_MAX) {
		w->error = ENOMEM;
		goto out;
	}
	put(w, t.out.data, t.out.len);
	len = htole32((uint32_t)t.out.len);
	put(w, &len, sizeof(len));
	put(w, magic, sizeof(magic));
out:
	ret = -w->error;
	tc_free(&t);
	pq_free(w);
	return ret;
}
