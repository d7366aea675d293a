// SPDX-License-Identifier: GPL-2.0
/*
 * live-read N: the reader gpu-trace top uses (lib/capture/live-pages.c) on
 * real kernel pages. A private instance; two threads, each pinned to its
 * own CPU, write N markers in all to its trace_marker in rounds, the
 * reader draining between rounds; the last round is large and lopsided
 * (one CPU writes four times the other's, hundreds of pages), where a
 * reader that takes a batch of pages per CPU before merging hands out one
 * CPU's later records first. Every marker must come out exactly once,
 * each thread's in the order written, the records of a drain in time
 * order across CPUs. After each round a few more markers follow a cut
 * taken on the instance's clock (mono): the round's drain, up to the cut,
 * must hand out the round and hold those back; the next drain hands them
 * out. Then, where the kernel has x86-tsc (cycles: stamps far ahead of
 * CLOCK_MONOTONIC), markers on it must be handed out at once, not held
 * until the cut reaches them. Prints "read N of N markers ..." and exits
 * 0; 1 with what was wrong; 77 where it cannot run (not root, no tracefs).
 */
#include <errno.h>
#include <event-parse.h>
#include <pthread.h>
#include <stdbool.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include "capture/live-pages.h"
#include "util/time-ns.h"

#define ROUND 500
#define BIG 8000		/* the last round writes 5 x BIG */
#define AFTER 20		/* each writer's markers after a round's cut */

struct writer {
	struct tracefs_instance *inst;
	int cpu, id;
	long from, to;			/* marker numbers this round */
};

static void *write_markers(void *arg);

/* one round: writer i writes count[i] markers from next[i] on, at once */
static void write_round(struct tracefs_instance *inst, int cpus, long next[2], const long count[2])
{
	struct writer w[2];
	pthread_t t[2];
	int i;

	for (i = 0; i < 2; i++) {
		w[i] = (struct writer){ inst, i % cpus, i, next[i], next[i] + count[i] };
		pthread_create(&t[i], NULL, write_markers, &w[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	next[0] += count[0];
	next[1] += count[1];
}

struct seen {
	long next[2];			/* each writer's next marker */
	long read, bad, back_in_time;
	unsigned long long last_ts, min_ts, max_ts;
	char why[200];
};

static void *write_markers(void *arg)
{
	struct writer *w = arg;
	cpu_set_t set;
	long i;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = w->from; i < w->to; i++)
		tracefs_printf(w->inst, "live-read %d %ld\n", w->id, i);
	return NULL;
}

/* ftrace:print's buf follows the common fields and ip: find the marker in the record */
static int on_record(struct tep_record *rec, void *ctx)
{
	struct seen *s = ctx;
	const char *p = memmem(rec->data, (size_t)rec->size, "live-read ", 10);
	int id;
	long n;

	if (rec->ts < s->last_ts)
		s->back_in_time++;
	s->last_ts = rec->ts;
	if (rec->ts > s->max_ts)
		s->max_ts = rec->ts;
	if (rec->ts < s->min_ts)
		s->min_ts = rec->ts;
	if (!p || sscanf(p, "live-read %d %ld", &id, &n) != 2 || id < 0 || id > 1)
		return 0;	/* not ours */
	s->read++;
	if (n != s->next[id] && !s->bad++)
		snprintf(s->why, sizeof(s->why), "writer %d: marker %ld where %ld was next", id, n,
			 s->next[id]);
	s->next[id] = n + 1;
	return 0;
}

/* the kernel's CLOCK_MONOTONIC, as top takes it: under unshare -T too */
static uint64_t mono_ns(void)
{
	static int64_t offset;
	static bool known;

	if (!known) {
		offset = time_ns_monotonic_offset();
		known = true;
	}
	return time_ns_kernel_mono(offset);
}

/* a drain up to @until: @want of our markers, none stamped after @until */
static int drain_checked(struct live_pages *lp, uint64_t until, long want, struct seen *s,
			 const char *what)
{
	long before = s->read;

	s->last_ts = s->max_ts = 0;
	s->min_ts = ~0ull;
	live_pages_drain(lp, until, on_record, s);
	if (s->read - before == want && s->max_ts <= until)
		return 0;
	printf("live-read: the drain %s handed out %ld markers for %ld, the last stamped %llu, "
	       "the cut %llu\n", what, s->read - before, want, s->max_ts, (unsigned long long)until);
	return 1;
}

/*
 * Markers stamped on x86-tsc, drained up to CLOCK_MONOTONIC now: those over
 * LIVE_PAGES_HOLD_MAX_NS past it must all come out. 0 with @untested set
 * where the stamps did not land that far ahead (no x86-tsc, a guest's TSC
 * offset), 1 failed.
 */
static int far_clock(struct tracefs_instance *inst, struct live_pages *lp, int cpus,
		     long written[2], long *done, struct seen *s, const char **untested)
{
	const long after[2] = { AFTER, AFTER };
	char *clocks = tracefs_instance_file_read(inst, "trace_clock", NULL);
	bool has = clocks && strstr(clocks, "x86-tsc");
	long before = s->read, first;
	uint64_t cut;

	free(clocks);
	*untested = "no x86-tsc clock";
	/* the kernel empties the buffer as the clock changes: it was drained */
	if (!has || tracefs_instance_file_write(inst, "trace_clock", "x86-tsc") < 0)
		return 0;
	write_round(inst, cpus, written, after);
	*done += after[0] + after[1];
	cut = mono_ns();
	s->last_ts = 0;
	s->min_ts = ~0ull;
	live_pages_drain(lp, cut, on_record, s);
	first = s->read - before;
	/* what was held, if anything, for the stamps' range */
	s->last_ts = 0;
	live_pages_drain(lp, UINT64_MAX, on_record, s);
	if (s->min_ts <= cut || s->min_ts - cut <= LIVE_PAGES_HOLD_MAX_NS) {
		*untested = "x86-tsc stamps within 10 s of CLOCK_MONOTONIC";
		return 0;
	}
	*untested = NULL;
	if (first == after[0] + after[1])
		return 0;
	printf("live-read: stamps over 10 s past the cut were held: %ld markers of %ld handed out\n",
	       first, after[0] + after[1]);
	return 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000, done = 0, written[2] = { 0, 0 };
	struct seen s = { .next = { 0, 0 } };
	struct tracefs_instance *inst;
	struct live_pages *lp;
	const char *untested = NULL;
	char name[64];
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), ret = 0;

	if (geteuid() || !tracefs_tracing_dir()) {
		printf("live-read: needs root and tracefs\n");
		return 77;
	}
	snprintf(name, sizeof(name), "gpu-trace-live-read-%d", (int)getpid());
	inst = tracefs_instance_create(name);
	if (!inst) {
		printf("live-read: cannot create instance %s: %s\n", name, strerror(errno));
		return 1;
	}
	/* top's clock: the cuts are CLOCK_MONOTONIC */
	if (tracefs_instance_file_write(inst, "trace_clock", "mono") < 0) {
		printf("live-read: this kernel has no trace clock mono: %s\n", strerror(errno));
		ret = 77;
		goto out;
	}
	lp = live_pages_open(inst, 8);
	if (!lp) {
		printf("live-read: the reader does not open: %s\n", strerror(errno));
		ret = 1;
		goto out;
	}
	/* room for the lopsided round: no page may be lost before it is read */
	tracefs_instance_file_write(inst, "buffer_size_kb", "8192");
	while (done < n) {
		long count[2] = { ROUND, ROUND };
		const long after[2] = { AFTER, AFTER };
		uint64_t cut;

		if (n - done <= 5 * BIG) {
			/* the last round: large, one CPU writing four times the other */
			count[0] = (n - done) * 4 / 5;
			count[1] = n - done - count[0];
		}
		write_round(inst, cpus, written, count);
		/* apart from both sides by far more than the clocks' reads differ */
		usleep(1000);
		cut = mono_ns();
		usleep(1000);
		write_round(inst, cpus, written, after);
		done += count[0] + count[1] + after[0] + after[1];
		if (drain_checked(lp, cut, count[0] + count[1], &s, "up to the cut") ||
		    drain_checked(lp, UINT64_MAX, after[0] + after[1], &s, "after the cut")) {
			ret = 1;
			goto close;
		}
	}
	ret = far_clock(inst, lp, cpus, written, &done, &s, &untested);
close:
	live_pages_close(lp);
	if (ret)
		goto out;
	if (s.read != done || s.bad || s.back_in_time) {
		printf("live-read: read %ld of %ld markers, %ld out of order (%s), %ld back in time\n",
		       s.read, done, s.bad, s.bad ? s.why : "", s.back_in_time);
		ret = 1;
	} else {
		printf("read %ld of %ld markers, each writer's in order, each drain in time order, "
		       "none after its cut%s%s\n", s.read, done,
		       untested ? "; far-ahead stamps untested: " : "; far-ahead stamps handed out",
		       untested ? untested : "");
	}
out:
	/* tracefs_printf() keeps trace_marker open: the instance cannot go while it is */
	tracefs_print_close(inst);
	if (tracefs_instance_destroy(inst)) {
		printf("live-read: cannot remove instance %s: %s\n", name, strerror(errno));
		ret = 1;
	}
	tracefs_instance_free(inst);
	return ret;
}
