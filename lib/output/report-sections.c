// SPDX-License-Identifier: GPL-2.0
/*
 * The sections table: a join the report shows is its own section file (its
 * text, JSON and CSV) and a row here; every format writes them through
 * report_sections_write().
 */
#include <stdbool.h>
#include <stddef.h>

#include "output/report-formats.h"

const struct report_section *const report_sections[] = {
	&report_section_drm_clients,
	&report_section_gpu_hangs,
	&report_section_i915_requests,
	&report_section_xe_engines,
	&report_section_owner_switches,
	&report_section_buffer_moves,
	&report_section_vm,
	&report_section_dma_bufs,
	&report_section_kfd,
	&report_section_user_queues,
	&report_section_hip,
	&report_section_nvidia,
	&report_section_vblanks,
	&report_section_cpu_side,
	NULL,
};

static void write_sections(struct report *rep, enum report_section_format format, bool all)
{
	int i;

	for (i = 0; report_sections[i]; i++)
		if (all || rep->summary || (rep->opts.queues && report_sections[i]->with_queues))
			report_sections[i]->write[format](rep);
}

void report_sections_write(struct report *rep, enum report_section_format format)
{
	write_sections(rep, format, false);
}

void report_sections_write_all(struct report *rep, enum report_section_format format)
{
	write_sections(rep, format, true);
}
