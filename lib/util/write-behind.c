// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "util/usable-cpus.h"
#include "util/write-behind.h"

#define QUEUED_MAX	4	/* buffers waiting to be written */

struct wb_buf {
	uint8_t *data;
	size_t len, cap;
};

struct write_behind {
	FILE *out;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct wb_buf queued[QUEUED_MAX];	/* a ring: head is written next */
	int head, nr;
	/* written, for the producer to fill again: no buffer allocated (and faulted in) anew */
	struct wb_buf spare[QUEUED_MAX + 1];
	int nr_spare;
	bool ending;
	int error;
};

static void *writer(void *arg)
{
	struct write_behind *wb = arg;
	struct wb_buf b;
	bool failed;

	pthread_mutex_lock(&wb->lock);
	for (;;) {
		while (!wb->nr && !wb->ending)
			pthread_cond_wait(&wb->cond, &wb->lock);
		if (!wb->nr)
			break;
		b = wb->queued[wb->head];
		failed = wb->error != 0;
		pthread_mutex_unlock(&wb->lock);

		errno = 0;
		if (!failed && fwrite(b.data, 1, b.len, wb->out) != b.len)
			failed = true;

		pthread_mutex_lock(&wb->lock);
		if (failed && !wb->error)
			wb->error = errno ? errno : EIO;
		wb->head = (wb->head + 1) % QUEUED_MAX;
		wb->nr--;
		if (wb->nr_spare < QUEUED_MAX + 1) {
			b.len = 0;
			wb->spare[wb->nr_spare++] = b;
		} else {
			free(b.data);
		}
		pthread_cond_broadcast(&wb->cond);
	}
	pthread_mutex_unlock(&wb->lock);
	return NULL;
}

struct write_behind *write_behind_start(FILE *out)
{
	struct write_behind *wb;

	if (usable_cpus() < 2)
		return NULL;
	wb = calloc(1, sizeof(*wb));
	if (!wb)
		return NULL;
	wb->out = out;
	if (pthread_mutex_init(&wb->lock, NULL)) {
		free(wb);
		return NULL;
	}
	if (pthread_cond_init(&wb->cond, NULL)) {
		pthread_mutex_destroy(&wb->lock);
		free(wb);
		return NULL;
	}
	if (pthread_create(&wb->thread, NULL, writer, wb)) {
		pthread_cond_destroy(&wb->cond);
		pthread_mutex_destroy(&wb->lock);
		free(wb);
		return NULL;
	}
	return wb;
}

int write_behind_put(struct write_behind *wb, uint8_t **data, size_t len, size_t *cap)
{
	int error;

	if (!len)
		return 0;
	pthread_mutex_lock(&wb->lock);
	while (wb->nr == QUEUED_MAX && !wb->error)
		pthread_cond_wait(&wb->cond, &wb->lock);
	error = wb->error;
	if (!error) {
		wb->queued[(wb->head + wb->nr) % QUEUED_MAX] =
			(struct wb_buf){ .data = *data, .len = len, .cap = *cap };
		wb->nr++;
		if (wb->nr_spare) {
			wb->nr_spare--;
			*data = wb->spare[wb->nr_spare].data;
			*cap = wb->spare[wb->nr_spare].cap;
		} else {
			*data = NULL;
			*cap = 0;
		}
		pthread_cond_broadcast(&wb->cond);
	}
	pthread_mutex_unlock(&wb->lock);
	return error;
}

int write_behind_finish(struct write_behind *wb)
{
	int error, i;

	if (!wb)
		return 0;
	pthread_mutex_lock(&wb->lock);
	wb->ending = true;
	pthread_cond_broadcast(&wb->cond);
	pthread_mutex_unlock(&wb->lock);
	pthread_join(wb->thread, NULL);
	/* after a failed write the thread drops, not writes, what is left: freed here */
	for (i = 0; i < wb->nr; i++)
		free(wb->queued[(wb->head + i) % QUEUED_MAX].data);
	for (i = 0; i < wb->nr_spare; i++)
		free(wb->spare[i].data);
	error = wb->error;
	pthread_cond_destroy(&wb->cond);
	pthread_mutex_destroy(&wb->lock);
	free(wb);
	return error;
}
