/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_GPU_PLUGIN_H
#define GT_GPU_PLUGIN_H

#include <event-parse.h>

/**
 * gpu_plugin_register - registers our one-line printers for the GPU events of one system (or
 * of all, system NULL) with libtraceevent: used by the plugin_*.so files that trace-cmd and
 * KernelShark load, and by gpu-trace itself so it needs no installed plugin. Returns the
 * number of handlers registered.
 */
int gpu_plugin_register(struct tep_handle *tep, const char *system);
/**
 * gpu_plugin_unregister - the print handlers of gpu_plugin_register() removed, for @system or
 * every system (NULL)
 */
void gpu_plugin_unregister(struct tep_handle *tep, const char *system);

/**
 * gpu_plugin_register_graph - function_graph records printed one at a time (no look-ahead
 * through a libtracecmd handle): for records that did not come from one.
 */
int gpu_plugin_register_graph(struct tep_handle *tep);

#endif
