// SPDX-License-Identifier: GPL-2.0
/*
 * The sections table: a join the report shows is its own section file (its
 * text, JSON, CSV and, where it has tracks written at the end of a file,
 * Perfetto) and a row here; every format writes them through
 * report_sections_write() or report_sections_write_perfetto().
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

/*
 * The Perfetto writers run in an order of their own (perfetto_order), not the
 * table's: the order they write in numbers their tracks, and a trace of one
 * file must stay the same bytes.
 */
void report_sections_write_perfetto(struct perfetto_export *p)
{
	int order, last = 0, i;

	for (i = 0; report_sections[i]; i++)
		if (report_sections[i]->perfetto && report_sections[i]->perfetto_order > last)
			last = report_sections[i]->perfetto_order;
	for (order = 1; order <= last; order++)
		for (i = 0; report_sections[i]; i++)
			if (report_sections[i]->perfetto && report_sections[i]->perfetto_order == order)
				report_sections[i]->perfetto(p);
}
