/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_KV_WORDS_H
#define GT_KV_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * KEY=value words of gpu-trace's own marker lines ("gpu-trace host: name=N
 * machine_id=M", "gpu-trace trigger: cause=C ring=R ..."): words split by
 * spaces, a value "-" meaning record could not read it.
 */

/**
 * kv_word - KEY's value in @line, cut to @len - 1; "" when absent or "-"
 * @line: the marker's text
 * @key:  the key, without '='
 * @out:  the value
 * @len:  @out's size
 *
 * Return: whether the key was there.
 */
bool kv_word(const char *line, const char *key, char *out, size_t len);
/** kv_u64 - KEY's value as a decimal number; false when absent or not a whole number */
bool kv_u64(const char *line, const char *key, uint64_t *v);

#endif
