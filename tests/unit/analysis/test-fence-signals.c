// SPDX-License-Identifier: GPL-2.0
/*
 * Recent fence signals against the table they replaced, which stored each
 * signal as it came and dropped the one kept signals older: random signals of
 * few fences at few times (a fence signalled again, at the same time or not)
 * and asks after every kind of gap (none, about kept, about twice kept, more),
 * for windows smaller and larger than the log's first size.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/analysis/fence-signals.h"
#include "../unit.h"

#define CTXS	8
#define SEQNOS	64

/* the replaced table: ref[ctx][seqno] = ts + 1, 0 for none */
struct reference {
	size_t kept, count, head;
	uint64_t (*fifo)[3];
	uint64_t ref[CTXS][SEQNOS];
};

static void reference_put(struct reference *r, uint64_t ctx, uint64_t seqno, uint64_t ts)
{
	size_t at;

	if (r->count == r->kept) {
		uint64_t *old = r->fifo[r->head];

		if (r->ref[old[0]][old[1]] == old[2] + 1)
			r->ref[old[0]][old[1]] = 0;
		r->head = (r->head + 1) % r->kept;
		r->count--;
	}
	at = (r->head + r->count++) % r->kept;
	r->fifo[at][0] = ctx;
	r->fifo[at][1] = seqno;
	r->fifo[at][2] = ts;
	r->ref[ctx][seqno] = ts + 1;
}

static size_t gap(unsigned int *seed, size_t kept)
{
	const size_t gaps[] = { 0, 1, kept - 1, kept, kept + 1, 2 * kept - 1, 2 * kept,
				2 * kept + 1, 3 * kept };

	if (rand_r(seed) % 4 == 0)
		return (size_t)rand_r(seed) % (4 * kept + 2);
	return gaps[(size_t)rand_r(seed) % (sizeof(gaps) / sizeof(gaps[0]))];
}

static int run_window(size_t kept, unsigned int seed, int rounds)
{
	struct reference *r = calloc(1, sizeof(*r));
	struct fence_signals s;
	int bad = 0, round, asks = 0, found = 0;

	r->kept = kept;
	r->fifo = calloc(kept, sizeof(*r->fifo));
	fence_signals_init(&s, kept);
	for (round = 0; round < rounds; round++) {
		size_t n = gap(&seed, kept), i;

		for (i = 0; i < n; i++) {
			/* high context bits as the kernel's 64-bit contexts have: only the low 32 count */
			uint64_t ctx = (uint64_t)rand_r(&seed) % CTXS, seqno = (uint64_t)rand_r(&seed) % SEQNOS;
			uint64_t ts = (uint64_t)rand_r(&seed) % 3;

			reference_put(r, ctx, seqno, ts);
			fence_signals_put(&s, ctx | (uint64_t)round << 40, seqno, ts);
		}
		for (i = 0; i < 8; i++) {
			uint64_t ctx = (uint64_t)rand_r(&seed) % CTXS, seqno = (uint64_t)rand_r(&seed) % SEQNOS;
			uint64_t ts = UINT64_MAX, want = r->ref[ctx][seqno];
			bool got = fence_signals_get(&s, ctx, seqno, &ts);

			asks++;
			found += got;
			bad += got != (want != 0) || (got && ts != want - 1);
		}
	}
	/* the rounds must have found fences and missed others, or they test little */
	bad += !found || found == asks;
	fence_signals_free(&s);
	free(r->fifo);
	free(r);
	return bad;
}

static void test_fence_signals_as_the_table(void)
{
	const size_t windows[] = { 1, 2, 3, 17, 64, 100, 300, 1000 };
	size_t i;

	for (i = 0; i < sizeof(windows) / sizeof(windows[0]); i++)
		CU_ASSERT_EQUAL(run_window(windows[i], 11 + (unsigned int)i,
					   windows[i] < 100 ? 3000 : (int)(300000 / windows[i])), 0);
}

static void test_fence_signals_empty(void)
{
	struct fence_signals s;
	uint64_t ts = 7;

	fence_signals_init(&s, 65536);
	CU_ASSERT_FALSE(fence_signals_get(&s, 1, 1, &ts));
	CU_ASSERT_EQUAL(ts, 7);
	fence_signals_put(&s, 1, 1, 0);
	CU_ASSERT_TRUE(fence_signals_get(&s, 1, 1, &ts));
	CU_ASSERT_EQUAL(ts, 0);
	/* dma_fence events carry 32 bits of each */
	CU_ASSERT_TRUE(fence_signals_get(&s, 1 | 1ull << 32, 1 | 1ull << 32, &ts));
	fence_signals_free(&s);
	CU_ASSERT_FALSE(fence_signals_get(&s, 1, 1, &ts));
}

void suite_fence_signals(void)
{
	CU_pSuite s = CU_add_suite("fence signals", NULL, NULL);

	CU_add_test(s, "asks answered as the table answered them", test_fence_signals_as_the_table);
	CU_add_test(s, "an empty set, a signal, 32-bit keys", test_fence_signals_empty);
}
