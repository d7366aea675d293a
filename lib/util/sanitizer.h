/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_SANITIZER_H
#define GT_SANITIZER_H

/*
 * GT_ASAN: defined in AddressSanitizer builds, where code that would hide
 * what ASan reports (memory reused at once, a probe child left out) differs.
 * gcc says __SANITIZE_ADDRESS__; clang (the fuzzers' compiler) __has_feature.
 */
#if defined(__SANITIZE_ADDRESS__)
#define GT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GT_ASAN 1
#endif
#endif

#endif
