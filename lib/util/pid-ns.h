/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PID_NS_H
#define GT_PID_NS_H

#include <stddef.h>
#include <stdint.h>

/*
 * tracefs is the kernel's, one for every PID namespace, but a pid is only a
 * pid in its own: a recorder in a container (pid 42 there) and one on the
 * host (pid 42 here) would both name their instance gpu-trace-42, and each
 * would take the other's, alive, for a killed run's leftovers (its run lock
 * is not in the other's run directory) and remove it. Outside the initial
 * PID namespace the names carry the namespace (gpu-trace-42.ns4026532001,
 * gpu_trace_42_ns4026532001), and a run judges only what its own namespace
 * made.
 */

/**
 * pid_ns_id - this process's PID namespace, as its names carry it
 *
 * Return: 0 in the initial PID namespace (or where /proc does not say), else the
 * namespace's inode number
 */
uint64_t pid_ns_id(void);
/** pid_ns_instance_tag - "" in the initial namespace, else ".ns<id>": after the pid in an instance's name */
const char *pid_ns_instance_tag(void);
/** pid_ns_group_tag - "" in the initial namespace, else "_ns<id>": after the pid in a probe group's name */
const char *pid_ns_group_tag(void);
/**
 * pid_ns_of_tail - the namespace a name's tail after its pid names
 * @tail: what follows the pid ("", ".ns123.workload", "_ns123")
 * @sep:  '.' for instances, '_' for probe groups
 *
 * Return: 0 for none (the initial namespace's names), the id otherwise
 */
uint64_t pid_ns_of_tail(const char *tail, char sep);

#endif
