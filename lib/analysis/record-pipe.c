// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis-joins.h"
#include "analysis/analysis.h"
#include "analysis/record-pipe.h"
#include "util/usable-cpus.h"

/*
 * Eight batches of up to 1024 records (about 600 KB of decoded events and
 * up to 256 KB of record bytes each): enough to keep both threads busy
 * through a slow stretch on either side (a zstd chunk, a burst of jobs),
 * small enough to keep memory flat. Each is decoded by the reading thread
 * or, when that one falls behind, by the joining one.
 */
#define PIPE_BATCHES 8
#define PIPE_SLOTS 1024
#define PIPE_BYTES (256u << 10)
#define PIPE_AHEAD 4

/*
 * What the reading thread writes (the records, their bytes) and what the
 * decoding writes (the joins' view of them) lie in arrays of their own: in
 * one slot, the two threads wrote the same cache lines in turn, and each
 * write waited for the line to come back from the other core (a third of
 * the reading thread's time went to its stores).
 */
struct pipe_read {
	struct tep_record rec;		/* its data in the batch's bytes */
	int buffer;
};

/* Each on lines of its own: the reading thread counts one's records as the joins read another's. */
struct pipe_batch {
	_Alignas(64) size_t n;
	bool decoded;			/* else the joining thread decodes it first */
	struct pipe_read *read;
	struct join_record *jr;
	unsigned char *bytes;
	size_t cap;
};

struct record_pipe {
	struct analysis *a;
	struct pipe_batch batch[PIPE_BATCHES];
	/* the reading thread's own, on a line after the batches' */
	struct tep_record *pending;	/* read, not yet in a batch: it did not fit */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned long filled, drained;	/* batches handed over, batches joined */
	bool eof;			/* the reader has handed over its last batch */
	bool stop;			/* the joins stopped early: read no more */
	struct gt_error err;		/* the stream's, when it ended on damage */
};

bool record_pipe_worth_it(void)
{
	return usable_cpus() > 1;
}

bool record_pipe_inflate_worth_it(void)
{
	return usable_cpus() > 2;
}

/*
 * A record that does not fit waits for the next batch (the stream keeps its
 * bytes until it is asked for another); one larger than a whole batch, which
 * no kernel writes but a file may claim (up to a page), gets a batch of its
 * size.
 */
static struct tep_record *next_fitting(struct record_pipe *p, struct pipe_batch *b, size_t used)
{
	struct tep_record *rec = p->pending ? p->pending :
				 dat_stream_next(analysis_stream(p->a), &p->err);
	size_t need = rec && rec->data && rec->size > 0 ? (size_t)rec->size : 0;
	unsigned char *grown;

	/* stored only when set: an unconditional store per record would dirty the line each time */
	if (p->pending)
		p->pending = NULL;
	if (!rec || need <= b->cap - used)
		return rec;
	if (used) {
		p->pending = rec;
		return NULL;
	}
	grown = realloc(b->bytes, need);
	if (!grown) {
		gt_error_set(&p->err, ENOMEM, "out of memory for a record of %zu bytes", need);
		return NULL;
	}
	b->bytes = grown;
	b->cap = need;
	return rec;
}

/* One batch read (not decoded); false at the stream's end. */
static bool fill(struct record_pipe *p, struct pipe_batch *b)
{
	const struct dat_stream *stream = analysis_stream(p->a);
	size_t used = 0, n = 0;

	while (n < PIPE_SLOTS) {
		struct tep_record *rec = next_fitting(p, b, used);
		struct pipe_read *s = &b->read[n];

		if (!rec) {
			b->n = n;
			return p->pending != NULL;
		}
		/*
		 * Field by field, as the stream wrote them: a struct copy's 16-byte
		 * loads each spanned two of its narrower stores, and waited for both
		 * to retire (a third of this thread's samples). The stream's records
		 * have no file offset (0).
		 */
		s->rec = (struct tep_record){ .ts = rec->ts,
					      .missed_events = rec->missed_events,
					      .record_size = rec->record_size, .size = rec->size,
					      .data = b->bytes + used, .cpu = rec->cpu };
		if (rec->size > 0 && rec->data)
			memcpy(s->rec.data, rec->data, (size_t)rec->size);
		else
			s->rec.size = 0;
		used += ((size_t)s->rec.size + 7) & ~(size_t)7;
		if (used > b->cap)
			used = b->cap;
		/* a pending record was the last the stream handed out: still its buffer */
		s->buffer = dat_stream_last_buffer(stream);
		n++;
	}
	b->n = n;
	return true;
}

/*
 * A join_record's lines asked for, to be written: the joining thread read
 * them a lap ago, and each first store to one waited for it to come back
 * (the decoding writes most of its ten lines). Asked for a few records
 * ahead, they are here when the decoding writes them.
 */
static inline void ask_to_write(const struct join_record *jr)
{
	size_t at;

	for (at = 0; at < sizeof(*jr); at += 64)
		__builtin_prefetch((const char *)jr + at, 1);
}

static void decode_batch(struct record_pipe *p, struct pipe_batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		if (i + PIPE_AHEAD < b->n)
			ask_to_write(&b->jr[i + PIPE_AHEAD]);
		b->jr[i].rec = &b->read[i].rec;
		b->jr[i].buffer = b->read[i].buffer;
		analysis_decode(p->a, &b->jr[i]);
	}
	b->decoded = true;
}

static void *reader(void *arg)
{
	struct record_pipe *p = arg;
	bool more = true, starved;

	while (more) {
		struct pipe_batch *b;

		pthread_mutex_lock(&p->lock);
		while (p->filled - p->drained == PIPE_BATCHES && !p->stop)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		b = &p->batch[p->filled % PIPE_BATCHES];
		pthread_mutex_unlock(&p->lock);
		more = fill(p, b);
		/*
		 * Decoding goes to whichever thread has the time: here while the
		 * joins have half the ring or more to work through, there when
		 * they are running dry (reading is then the slower half, as with
		 * zstd chunks). Handing over a batch only when the joins had none
		 * left idled them for a wake-up every batch: 12% slower.
		 */
		pthread_mutex_lock(&p->lock);
		starved = p->filled - p->drained < PIPE_BATCHES / 2;
		pthread_mutex_unlock(&p->lock);
		b->decoded = false;
		if (!starved)
			decode_batch(p, b);
		pthread_mutex_lock(&p->lock);
		p->filled++;
		p->eof = !more;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	return NULL;
}

static inline void ask_near(const struct join_record *jr, const struct pipe_read *read,
			    bool hooked)
{
	if (jr->kind != GEV_NONE && !gpu_event_is_fence(jr->kind))
		__builtin_prefetch(jr->ev.ring);
	else if (jr->kind == GEV_FENCE_WAIT_START)
		__builtin_prefetch(jr->ev.timeline);	/* what the waiting thread waited on */
	if (!hooked && jr->kind == GEV_NONE)
		__builtin_prefetch(&read->rec);
}

/* The batches in order through the joins; false when a hook stopped the pass. */
static bool join_all(struct record_pipe *p)
{
	struct analysis *a = p->a;
	bool hooked = analysis_hooks_records(a);

	for (;;) {
		struct join_record *jr;
		struct pipe_read *read;
		struct pipe_batch *b;
		size_t i, n;

		pthread_mutex_lock(&p->lock);
		while (p->filled == p->drained && !p->eof)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->filled == p->drained) {
			pthread_mutex_unlock(&p->lock);
			return true;
		}
		b = &p->batch[p->drained % PIPE_BATCHES];
		pthread_mutex_unlock(&p->lock);
		if (!b->decoded)
			decode_batch(p, b);
		/* the batch's own, held here: no line of the pipe's read per record */
		n = b->n;
		jr = b->jr;
		read = b->read;
		for (i = 0; i < n; i++) {
			/*
			 * The decoded records were written on the other core: each
			 * first touch waited for its line to come over (13% of the
			 * joining thread). Asked for well ahead: what every take
			 * reads, and the record itself where a hook reads every
			 * record (--events). Then nearer, by what its kind is (here
			 * by then): the ring's name, which a fence's events leave
			 * unread (a wait names its timeline); the record itself
			 * where it is no GPU event, whose fields the joins read (the
			 * others' time, CPU and losses are the join_record's).
			 */
			if (i + 2 * PIPE_AHEAD < n) {
				__builtin_prefetch(&jr[i + 2 * PIPE_AHEAD]);
				__builtin_prefetch(&jr[i + 2 * PIPE_AHEAD].ev.missing);
				if (hooked)
					__builtin_prefetch(&read[i + 2 * PIPE_AHEAD].rec);
			}
			if (i + PIPE_AHEAD < n)
				ask_near(&jr[i + PIPE_AHEAD], &read[i + PIPE_AHEAD], hooked);
			if (analysis_take(a, &jr[i]) < 0)
				return false;
		}
		pthread_mutex_lock(&p->lock);
		p->drained++;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
}

static void free_batches(struct record_pipe *p)
{
	int i;

	for (i = 0; i < PIPE_BATCHES; i++) {
		free(p->batch[i].read);
		free(p->batch[i].jr);
		free(p->batch[i].bytes);
	}
}

static int alloc_batches(struct record_pipe *p, size_t batch_bytes)
{
	int i;

	for (i = 0; i < PIPE_BATCHES; i++) {
		struct pipe_batch *b = &p->batch[i];

		b->cap = batch_bytes;
		b->read = aligned_alloc(64, PIPE_SLOTS * sizeof(*b->read));
		/* a join_record is a whole number of cache lines, aligned to one */
		b->jr = aligned_alloc(_Alignof(struct join_record), PIPE_SLOTS * sizeof(*b->jr));
		b->bytes = malloc(b->cap);
		if (!b->read || !b->jr || !b->bytes)
			return -1;
	}
	return 0;
}

int record_pipe_run(struct analysis *a, struct gt_error *err)
{
	return record_pipe_run_batched(a, PIPE_BYTES, err);
}

int record_pipe_run_batched(struct analysis *a, size_t batch_bytes, struct gt_error *err)
{
	/* aligned: each batch's counts on lines of their own */
	struct record_pipe *p = aligned_alloc(_Alignof(struct record_pipe), sizeof(*p));
	pthread_t thread;
	bool whole;

	if (!p)
		return gt_error_set(err, EAGAIN, "out of memory");
	memset(p, 0, sizeof(*p));
	p->a = a;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	if (alloc_batches(p, batch_bytes) || pthread_create(&thread, NULL, reader, p)) {
		free_batches(p);
		free(p);
		return gt_error_set(err, EAGAIN, "cannot start the reading thread");
	}
	whole = join_all(p);
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(thread, NULL);
	if (whole)
		analysis_finish(a);
	if (whole && p->err.errnum)
		gt_error_set(err, EIO, "reading the records failed after %llu records: %s; the file may be damaged",
			     (unsigned long long)analysis_totals(a)->records, p->err.msg);
	whole = whole && !p->err.errnum;
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	free_batches(p);
	free(p);
	return whole || analysis_stopped(a) ? 0 : -1;
}
