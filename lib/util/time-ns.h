/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_TIME_NS_H
#define GT_TIME_NS_H

#include <stdint.h>

/*
 * The kernel stamps trace records (trace clock mono) and takes its own times
 * on its CLOCK_MONOTONIC. In a time namespace (a container that CRIU
 * restored, unshare -T) this process's CLOCK_MONOTONIC is the kernel's moved
 * by the namespace's offset: a time of ours set against a record's stamp is
 * off by it, unless taken back.
 */

/**
 * time_ns_parse_monotonic - the monotonic offset in /proc/PID/timens_offsets' text
 * @text: the file's text: lines of a clock (its name, or its id as kernels 5.6 printed it),
 *        seconds and nanoseconds
 * @ns:   the offset in ns
 *
 * Return: 0, or -1 where @text has no well-formed monotonic line (@ns is then 0).
 */
int time_ns_parse_monotonic(const char *text, int64_t *ns);

/**
 * time_ns_monotonic_offset_of - a process's time namespace's CLOCK_MONOTONIC offset in ns:
 * 0 outside one, where the kernel has none (before 5.6) or /proc does not say, and where
 * the process unshared one it has not moved into (/proc shows that one's offsets, not
 * its own)
 * @pid: the process (its /proc/PID), 0 for this one
 */
int64_t time_ns_monotonic_offset_of(int pid);

/**
 * time_ns_monotonic_offset_known - another process's time namespace's CLOCK_MONOTONIC offset,
 * where /proc can tell it
 * @pid: the process, as this pid namespace numbers it
 * @ns:  the offset in ns (0 where unknown)
 *
 * Return: 0 where the process is in this process's time namespace or in the one its own
 * children get (whose offsets its timens_offsets shows), or the kernel has no time namespaces
 * (@ns 0); -1 where it is gone or it unshared one it has not moved into
 */
int time_ns_monotonic_offset_known(int pid, int64_t *ns);

/**
 * time_ns_children_offset - the CLOCK_MONOTONIC offset of the time namespace a process's children
 * get, where it is not this process's (it unshared one: unshare -T)
 * @pid: the process, as this pid namespace numbers it
 * @ns:  the offset in ns (0 where none)
 *
 * Return: 0 with @ns set; -1 where its children get this process's namespace, it is gone or
 * the kernel has no time namespaces
 */
int time_ns_children_offset(int pid, int64_t *ns);

/** time_ns_monotonic_offset - time_ns_monotonic_offset_of() this process */
int64_t time_ns_monotonic_offset(void);

/**
 * time_ns_kernel_mono - now on the kernel's CLOCK_MONOTONIC, the trace clock mono's:
 * this process's CLOCK_MONOTONIC less @offset
 * @offset: time_ns_monotonic_offset(), read once
 */
uint64_t time_ns_kernel_mono(int64_t offset);

#endif
