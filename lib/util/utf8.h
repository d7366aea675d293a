/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_UTF8_H
#define GT_UTF8_H

#include <stddef.h>

/*
 * Strings from a file (a comm, a kernel's name in a HIP log) are bytes, not
 * text: what is not well-formed UTF-8 must never reach a strict JSON parser
 * or a terminal that reads a lone 0x9b as CSI.
 */

/**
 * utf8_seq_len - the length (1 to 4) of the well-formed UTF-8 sequence at @s, of which @n bytes
 * are there; 0 when they are not one (a stray continuation byte, a bad lead, an overlong form,
 * a surrogate, past U+10FFFF); -1 when @n bytes are too few to tell.
 */
int utf8_seq_len(const unsigned char *s, size_t n);

/**
 * utf8_bad_len - how many bytes at @s (@n there) one U+FFFD stands for where they are not
 * UTF-8: Unicode's maximal subpart (a lead byte and the continuations it allowed), as Python,
 * browsers and Perfetto's readers replace them; at least 1
 */
size_t utf8_bad_len(const unsigned char *s, size_t n);

#endif
