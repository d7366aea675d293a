/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A string column chunk's dictionary encoding (parquet-format's Encodings.md,
 * RLE_DICTIONARY): the distinct values once, PLAIN, in a dictionary page, and
 * each value as its entry's id in the data page. Names (rings, processes,
 * devices, hosts) repeat on every row: a chunk of them shrinks to its few
 * distinct strings and a run of ids, and engines filter on the ids.
 */
#ifndef GT_PARQUET_DICT_H
#define GT_PARQUET_DICT_H

#include <stdint.h>

#include "output/protobuf.h"

/* past either, the chunk stays PLAIN: a dictionary as large as the values gains nothing */
#define PQ_DICT_MAX_ENTRIES	65536
#define PQ_DICT_MAX_BYTES	(1u << 20)

/**
 * pq_dict_encode - a chunk's PLAIN BYTE_ARRAY values as a dictionary and ids
 * @plain:   the values, each a u32 little-endian length and its bytes
 * @dict:    filled with the distinct values, PLAIN, in order of first use
 * @ids:     filled with the data page's values: the ids' bit width in a byte, then the
 *           ids in the RLE/bit-packed hybrid
 * @entries: the dictionary's entries
 *
 * Return: 0 encoded; 1 not worth it (too many distinct values, or too many bytes of them:
 * @dict and @ids emptied, the chunk stays PLAIN); -ENOMEM.
 */
int pq_dict_encode(const struct pb_buf *plain, struct pb_buf *dict, struct pb_buf *ids,
		   uint32_t *entries);

#endif
