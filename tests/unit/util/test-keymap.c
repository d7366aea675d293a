// SPDX-License-Identifier: GPL-2.0
/*
 * The joins' hash map against a plain array: random puts, gets and deletes
 * over few keys (long probe runs, deletions shifting entries back across
 * the table's end) and through its growth.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../../../lib/util/keymap.h"
#include "../unit.h"

#define KEYS 2000

static void test_keymap_as_an_array(void)
{
	static void *ref[KEYS];
	struct keymap m = { 0 };
	unsigned int seed = 7;
	size_t used = 0, seen = 0, i;
	uint64_t key;
	void *val;
	int op, bad = 0;

	for (op = 0; op < 200000; op++) {
		/* keys that differ in high bits only, and 0: the hash must spread them */
		uint64_t k = (uint64_t)(rand_r(&seed) % KEYS);
		void *v = (void *)(uintptr_t)(op + 1);

		switch (rand_r(&seed) % 3) {
		case 0:
			CU_ASSERT_EQUAL(keymap_put(&m, k << 40, v), 0);
			used += !ref[k];
			ref[k] = v;
			break;
		case 1:
			keymap_del(&m, k << 40);
			used -= !!ref[k];
			ref[k] = NULL;
			break;
		default:
			bad += keymap_get(&m, k << 40) != ref[k];
			break;
		}
		bad += m.used != used;
	}
	CU_ASSERT_EQUAL(bad, 0);
	for (i = 0; keymap_next(&m, &i, &key, &val); seen++)
		CU_ASSERT(key >> 40 < KEYS && ref[key >> 40] == val);
	CU_ASSERT_EQUAL(seen, used);
	keymap_free(&m);
	CU_ASSERT_PTR_NULL(keymap_get(&m, 0));
}

void suite_keymap(void)
{
	CU_pSuite s = CU_add_suite("keymap", NULL, NULL);

	CU_add_test(s, "puts, gets and deletes as a plain array's", test_keymap_as_an_array);
}
