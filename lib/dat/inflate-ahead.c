// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "dat/inflate-ahead.h"

struct ahead_slot {
	struct chunk_buf buf;
	const char *why;		/* the chunk could not be had */
};

/* one CPU: slots head .. head + ready - 1 are ready, the next one may be filling */
struct ahead_queue {
	struct zchunk_cursor at;
	struct ahead_slot slot[INFLATE_AHEAD_MAX_DEPTH];
	unsigned int head, ready;
	bool ended;			/* every chunk decompressed, or one could not be */
};

struct inflate_ahead {
	int fd;
	size_t page_size, chunk_max;
	unsigned int depth;		/* chunks a queue holds */
	struct ahead_queue *q;
	int n;
	int last;			/* filled last: the next fill starts after it */
	int waiting;			/* the reader waits for this CPU's chunk; -1 none */
	bool idle;			/* the thread waits for room in a queue */
	bool stop;
	struct zchunk_inflater z;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work, filled;
};

/*
 * The CPU to fill next: the one the reader waits for, else the one with the
 * fewest chunks ready (the reader is using those up fastest), round robin
 * among equals; -1 when every queue is full or ended.
 */
static int pick(struct inflate_ahead *ia)
{
	int best = -1, i, k;

	if (ia->waiting >= 0 && !ia->q[ia->waiting].ended &&
	    ia->q[ia->waiting].ready < ia->depth)
		return ia->waiting;
	for (k = 1; k <= ia->n; k++) {
		i = (ia->last + k) % ia->n;
		if (ia->q[i].ended || ia->q[i].ready == ia->depth)
			continue;
		if (best < 0 || ia->q[i].ready < ia->q[best].ready)
			best = i;
	}
	return best;
}

static void *inflater(void *arg)
{
	struct inflate_ahead *ia = arg;

	pthread_mutex_lock(&ia->lock);
	while (!ia->stop) {
		int i = pick(ia);
		struct ahead_queue *q;
		struct ahead_slot *s;

		if (i < 0) {
			ia->idle = true;
			pthread_cond_wait(&ia->work, &ia->lock);
			ia->idle = false;
			continue;
		}
		q = &ia->q[i];
		s = &q->slot[(q->head + q->ready) % ia->depth];
		/* the reader takes only ready slots: this one is the thread's alone meanwhile */
		pthread_mutex_unlock(&ia->lock);
		s->why = zchunk_next(&ia->z, ia->fd, &q->at, ia->page_size, ia->chunk_max, &s->buf);
		pthread_mutex_lock(&ia->lock);
		q->ready++;
		q->ended = s->why || !q->at.left;
		ia->last = i;
		if (ia->waiting == i)
			pthread_cond_signal(&ia->filled);
	}
	pthread_mutex_unlock(&ia->lock);
	return NULL;
}

struct inflate_ahead *inflate_ahead_start(int fd, const struct zchunk_cursor *at, int n,
					  size_t page_size, size_t chunk_max, unsigned int depth)
{
	struct inflate_ahead *ia;
	int i;

	if (depth > INFLATE_AHEAD_MAX_DEPTH)
		depth = INFLATE_AHEAD_MAX_DEPTH;
	if (depth < 2 || n <= 0)
		return NULL;
	ia = calloc(1, sizeof(*ia));
	if (!ia || !(ia->q = calloc((size_t)n, sizeof(*ia->q)))) {
		free(ia);
		return NULL;
	}
	ia->fd = fd;
	ia->page_size = page_size;
	ia->chunk_max = chunk_max;
	ia->depth = depth;
	ia->n = n;
	ia->last = n - 1;
	ia->waiting = -1;
	for (i = 0; i < n; i++) {
		ia->q[i].at = at[i];
		ia->q[i].ended = !at[i].left;
	}
	pthread_mutex_init(&ia->lock, NULL);
	pthread_cond_init(&ia->work, NULL);
	pthread_cond_init(&ia->filled, NULL);
	if (pthread_create(&ia->thread, NULL, inflater, ia)) {
		pthread_mutex_destroy(&ia->lock);
		pthread_cond_destroy(&ia->work);
		pthread_cond_destroy(&ia->filled);
		free(ia->q);
		free(ia);
		return NULL;
	}
	return ia;
}

const char *inflate_ahead_take(struct inflate_ahead *ia, int i, struct chunk_buf *out)
{
	struct ahead_queue *q = &ia->q[i];
	struct chunk_buf mine = *out;
	struct ahead_slot *s;
	const char *why;

	pthread_mutex_lock(&ia->lock);
	while (!q->ready && !q->ended) {
		ia->waiting = i;
		pthread_cond_signal(&ia->work);
		pthread_cond_wait(&ia->filled, &ia->lock);
	}
	ia->waiting = -1;
	if (!q->ready) {
		pthread_mutex_unlock(&ia->lock);
		return "data cannot be read (the file is shorter than it says)";
	}
	s = &q->slot[q->head];
	*out = s->buf;
	s->buf = mine;
	why = s->why;
	q->head = (q->head + 1) % ia->depth;
	q->ready--;
	/*
	 * woken when a queue is half used, not at every chunk taken: then it
	 * fills several for one wake-up (one a chunk cost a futex call and a
	 * context switch each, more than a tenth of the decompression)
	 */
	if (ia->idle && q->ready <= ia->depth / 2)
		pthread_cond_signal(&ia->work);
	pthread_mutex_unlock(&ia->lock);
	return why;
}

void inflate_ahead_stop(struct inflate_ahead *ia)
{
	int i, k;

	if (!ia)
		return;
	pthread_mutex_lock(&ia->lock);
	ia->stop = true;
	pthread_cond_signal(&ia->work);
	pthread_mutex_unlock(&ia->lock);
	pthread_join(ia->thread, NULL);
	for (i = 0; i < ia->n; i++)
		for (k = 0; k < INFLATE_AHEAD_MAX_DEPTH; k++)
			free(ia->q[i].slot[k].buf.data);
	zchunk_inflater_free(&ia->z);
	pthread_mutex_destroy(&ia->lock);
	pthread_cond_destroy(&ia->work);
	pthread_cond_destroy(&ia->filled);
	free(ia->q);
	free(ia);
}
