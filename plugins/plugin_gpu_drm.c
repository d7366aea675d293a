// SPDX-License-Identifier: GPL-2.0
/* libtraceevent plugin: drm vblank, i915 request, xe job, virtio-gpu command events. */
#include <event-parse.h>

#include "decode/gpu-plugin.h"

static const char *const systems[] = { "drm", "i915", "xe", "virtio_gpu" };

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < sizeof(systems) / sizeof(systems[0]); i++)
		gpu_plugin_register(tep, systems[i]);
	return 0;
}

void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	unsigned int i;

	for (i = 0; i < sizeof(systems) / sizeof(systems[0]); i++)
		gpu_plugin_unregister(tep, systems[i]);
}
