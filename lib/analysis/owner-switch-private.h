/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_OWNER_SWITCH_PRIVATE_H
#define GT_OWNER_SWITCH_PRIVATE_H

/*
 * What owner-switch.c keeps while it reads, behind struct owner_switches' live
 * pointer: the outputs read the switches (owner-switch.h), never this. Included
 * by owner-switch.c and its unit tests alone (tests/check-layers.sh).
 */

#include <stddef.h>
#include <stdint.h>

#include "analysis/owner-switch.h"
#include "util/keymap.h"

struct owner_switches_live {
	/* each worker's last switch, until the next job it reports claims it */
	struct {
		int worker;
		uint64_t ts;
		size_t idx;		/* into the list; SIZE_MAX: not kept */
	} pending[OWNER_SWITCH_WORKERS];
	int nr_pending;
	struct keymap owner_pid;	/* owner -> its jobs' submitter + 1 */
};

#endif
