// SPDX-License-Identifier: GPL-2.0
#include <sched.h>

#include "util/usable-cpus.h"

int usable_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? 1 : CPU_COUNT(&set);
}
