/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_USABLE_CPUS_H
#define GT_USABLE_CPUS_H

/**
 * usable_cpus - the CPUs this process may run on (its affinity mask, which a
 * cgroup's cpuset or taskset narrows): what decides whether a thread of our
 * own beside the others can run at the same time. 1 when it cannot be read.
 */
int usable_cpus(void);

#endif
