// SPDX-License-Identifier: GPL-2.0
/* libtraceevent plugin: one line per gpu_scheduler event, from gpu-trace's decoders. */
#include <event-parse.h>

#include "decode/gpu-plugin.h"

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	gpu_plugin_register(tep, "gpu_scheduler");
	return 0;
}

void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	gpu_plugin_unregister(tep, "gpu_scheduler");
}
