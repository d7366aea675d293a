// SPDX-License-Identifier: GPL-2.0
/* libtraceevent plugin: one line per dma_fence event, from gpu-trace's decoders. */
#include <event-parse.h>

#include "decode/gpu-plugin.h"

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	gpu_plugin_register(tep, "dma_fence");
	return 0;
}

void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	gpu_plugin_unregister(tep, "dma_fence");
}
