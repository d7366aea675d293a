/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_GPU_PLUGIN_H
#define GT_GPU_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>

#include <event-parse.h>

/**
 * gpu_plugin_register - registers our one-line printers for the GPU events of one system (or
 * of all, system NULL) with libtraceevent: used by the plugin_*.so files that trace-cmd and
 * KernelShark load, and by gpu-trace itself so it needs no installed plugin. Returns the
 * number of handlers registered.
 */
int gpu_plugin_register(struct tep_handle *tep, const char *system);
/* what our printer's line is cut to */
#define GPU_PLUGIN_LINE 512

struct gpu_decoder;

/**
 * gpu_plugin_prints - libtraceevent would hand @event's records to our one-line printer
 * (gpu_plugin_register()): its handler is ours and neither switched off nor raw
 */
bool gpu_plugin_prints(const struct tep_event *event);
/**
 * gpu_plugin_line - what our printer writes for @rec of @event, into @line (cut as it cuts
 * it), its length in @n; through @dec's prepared decoder where it holds @event (may be NULL).
 * False where the printer writes nothing and libtraceevent prints the kernel's format.
 */
bool gpu_plugin_line(const struct gpu_decoder *dec, struct tep_event *event,
		     struct tep_record *rec, char line[GPU_PLUGIN_LINE], size_t *n);

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
