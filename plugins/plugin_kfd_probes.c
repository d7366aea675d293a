// SPDX-License-Identifier: GPL-2.0
/*
 * libtraceevent plugin: record --kfd-args's probe events as one readable line
 * each (decode/kfd-probe-print.c, which report --events prints with too).
 */
#include <event-parse.h>

#include "decode/kfd-probe-print.h"

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	kfd_probe_register(tep);
	return 0;
}

void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	kfd_probe_unregister(tep);
}
