// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file-io.h"
#include "dat/rb-pages.h"

#define PAGE_HDR	16
#define MAX_DELTA	((1ULL << 27) - 1)
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)

int rb_pages_init(struct rb_pages *w, int fd, size_t page_size)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->page_size = page_size;
	w->page = calloc(1, page_size);
	return w->page ? 0 : -ENOMEM;
}

void rb_pages_free(struct rb_pages *w)
{
	free(w->page);
	w->page = NULL;
}

size_t rb_pages_max_payload(const struct rb_pages *w)
{
	/* header, a TIME_EXTEND, a long event's two words, the lost count */
	return (w->page_size - PAGE_HDR - 8 - 8 - 8) & ~(size_t)3;
}

static int flush_page(struct rb_pages *w)
{
	uint64_t commit = w->used;

	if (!w->page_open)
		return 0;
	if (w->page_missed) {
		uint64_t m = w->page_missed;

		memcpy(w->page + PAGE_HDR + w->used, &m, 8);
		commit |= RB_MISSED_EVENTS | RB_MISSED_STORED;
	}
	memcpy(w->page + 8, &commit, 8);
	w->page_open = false;
	return write_all(w->fd, w->page, w->page_size) ? -errno : 0;
}

static void open_page(struct rb_pages *w, uint64_t ts)
{
	memset(w->page, 0, w->page_size);
	memcpy(w->page, &ts, 8);
	w->used = 0;
	w->page_open = true;
	w->last_ts = ts;
	w->page_missed = w->pending_missed;
	w->pending_missed = 0;
}

static void put_word(struct rb_pages *w, uint32_t v)
{
	memcpy(w->page + PAGE_HDR + w->used, &v, 4);
	w->used += 4;
}

int rb_pages_add(struct rb_pages *w, uint64_t ts, const void *payload, size_t len)
{
	size_t padded = (len + 3) & ~(size_t)3;
	size_t need = (padded <= 112 ? 4 : 8) + padded + 8;	/* + a possible extend */
	uint64_t delta;
	int ret;

	if (len > rb_pages_max_payload(w))
		return -E2BIG;
	if (w->page_open && ts < w->last_ts)
		return -EINVAL;
	if (!w->page_open || PAGE_HDR + w->used + need > w->page_size - 8) {
		ret = flush_page(w);
		if (ret)
			return ret;
		open_page(w, ts);
	}
	delta = ts - w->last_ts;
	if (delta > MAX_DELTA) {
		/* TIME_EXTEND: type_len 30, low 27 bits in the header, the rest after */
		put_word(w, 30u | (uint32_t)((delta & MAX_DELTA) << 5));
		put_word(w, (uint32_t)(delta >> 27));
		delta = 0;
	}
	if (padded <= 112) {
		put_word(w, (uint32_t)(padded / 4) | (uint32_t)(delta << 5));
	} else {
		put_word(w, (uint32_t)(delta << 5));
		put_word(w, (uint32_t)(padded + 4));
	}
	memcpy(w->page + PAGE_HDR + w->used, payload, len);
	memset(w->page + PAGE_HDR + w->used + len, 0, padded - len);
	w->used += padded;
	w->last_ts = ts;
	w->events++;
	return 0;
}

int rb_pages_lost(struct rb_pages *w, unsigned long missed)
{
	w->pending_missed += missed;
	w->lost_total += missed;
	return flush_page(w);
}

int rb_pages_finish(struct rb_pages *w)
{
	if (w->pending_missed) {
		int ret = flush_page(w);

		if (ret)
			return ret;
		open_page(w, w->last_ts);
	}
	return flush_page(w);
}

long long rb_pages_close(struct rb_pages *w, int failed)
{
	int ret = failed ? -failed : rb_pages_finish(w);
	int fd = w->fd;
	off_t size;

	rb_pages_free(w);
	if (ret)
		return ret;
	size = lseek(fd, 0, SEEK_END);
	return size < 0 ? -errno : (long long)size;
}
