// SPDX-License-Identifier: GPL-2.0
/*
 * The page-tables section of the report, in each format: amdgpu's GPU VM
 * updates per process, its mappings, and per ring the VMIDs its jobs took
 * and the flushes it ran (vm-activity.h); each ring's line says how much
 * address space was updated while its jobs waited.
 */
#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/timeline.h"

static bool present(const struct report *rep)
{
	return vm_activity_events(&timeline_of(rep->analysis)->vm) != 0;
}

static void text_vm(struct report *rep)
{
	const struct vm_activity *v = &timeline_of(rep->analysis)->vm;
	char a[32], b[32], c[32], from[32], to[32];
	int i;

	if (!present(rep))
		return;
	fprintf(rep->stream, "\nPage tables (amdgpu VM): %llu update%s for %s of GPU address space, from %s to %s; %llu buffer mapping%s (%s), %llu unmapped (%s); %llu VMID%s taken, %llu needing a flush; %llu flush%s\n",
		(unsigned long long)v->updates, report_plural(v->updates), report_size(a, sizeof(a), v->updated_bytes),
		report_ts(from, sizeof(from), v->first_ts), report_ts(to, sizeof(to), v->last_ts),
		(unsigned long long)v->maps, report_plural(v->maps), report_size(b, sizeof(b), v->mapped_bytes),
		(unsigned long long)v->unmaps, report_size(c, sizeof(c), v->unmapped_bytes),
		(unsigned long long)v->grabs, report_plural(v->grabs), (unsigned long long)v->grabs_flushing,
		(unsigned long long)v->flushes, v->flushes == 1 ? "" : "es");
	if (v->updates)
		fprintf(rep->stream, "  %-24s %8s %14s\n", "updated for (pid)", "updates", "address space");
	for (i = 0; i < v->nr_pids; i++) {
		char who[48];

		snprintf(who, sizeof(who), "%s [%d]", analysis_comm(rep->analysis, v->pids[i].pid),
			 v->pids[i].pid);
		fprintf(rep->stream, "  %-24s %8llu %14s\n", who, (unsigned long long)v->pids[i].updates,
			report_size(a, sizeof(a), v->pids[i].bytes));
	}
	if (v->other_pid_updates)
		fprintf(rep->stream, "  %-24s %8llu %14s\n", "other processes", (unsigned long long)v->other_pid_updates,
			report_size(a, sizeof(a), v->other_pid_bytes));
	if (v->nr_rings)
		fprintf(rep->stream, "  %-24s %8s %14s %8s\n", "ring (all devices)", "VMIDs", "needing flush", "flushes");
	for (i = 0; i < v->nr_rings; i++)
		fprintf(rep->stream, "  %-24s %8llu %14llu %8llu\n", v->rings[i].ring,
			(unsigned long long)v->rings[i].grabs, (unsigned long long)v->rings[i].grabs_flushing,
			(unsigned long long)v->rings[i].flushes);
	if (v->other_ring_grabs || v->other_ring_flushes)
		fprintf(rep->stream, "  %-24s %8llu %14s %8llu\n", "other rings", (unsigned long long)v->other_ring_grabs,
			"-", (unsigned long long)v->other_ring_flushes);
}

static void json_vm(struct report *rep)
{
	const struct vm_activity *v = &timeline_of(rep->analysis)->vm;
	FILE *f = rep->stream;
	int i;

	fprintf(f, ",\"page_tables\":");
	if (!present(rep)) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"updates\":%llu,\"updated_bytes\":%llu,\"first_ns\":%llu,\"last_ns\":%llu,\"mappings\":%llu,\"mapped_bytes\":%llu,\"unmappings\":%llu,\"unmapped_bytes\":%llu,\"vmids\":%llu,\"vmids_needing_flush\":%llu,\"flushes\":%llu,\"by_process\":[",
		(unsigned long long)v->updates, (unsigned long long)v->updated_bytes,
		(unsigned long long)v->first_ts, (unsigned long long)v->last_ts,
		(unsigned long long)v->maps, (unsigned long long)v->mapped_bytes,
		(unsigned long long)v->unmaps, (unsigned long long)v->unmapped_bytes,
		(unsigned long long)v->grabs, (unsigned long long)v->grabs_flushing,
		(unsigned long long)v->flushes);
	for (i = 0; i < v->nr_pids; i++) {
		fprintf(f, "%s{\"pid\":%d,\"comm\":", i ? "," : "", v->pids[i].pid);
		json_str(f, analysis_comm(rep->analysis, v->pids[i].pid));
		fprintf(f, ",\"updates\":%llu,\"bytes\":%llu}", (unsigned long long)v->pids[i].updates,
			(unsigned long long)v->pids[i].bytes);
	}
	fprintf(f, "],\"other_processes\":{\"updates\":%llu,\"bytes\":%llu},\"by_ring\":[",
		(unsigned long long)v->other_pid_updates, (unsigned long long)v->other_pid_bytes);
	for (i = 0; i < v->nr_rings; i++) {
		fprintf(f, "%s{\"ring\":", i ? "," : "");
		json_str(f, v->rings[i].ring);
		fprintf(f, ",\"vmids\":%llu,\"vmids_needing_flush\":%llu,\"flushes\":%llu}",
			(unsigned long long)v->rings[i].grabs, (unsigned long long)v->rings[i].grabs_flushing,
			(unsigned long long)v->rings[i].flushes);
	}
	fprintf(f, "],\"other_rings\":{\"vmids\":%llu,\"flushes\":%llu}}",
		(unsigned long long)v->other_ring_grabs, (unsigned long long)v->other_ring_flushes);
}

static void csv_vm(struct report *rep)
{
	const struct vm_activity *v = &timeline_of(rep->analysis)->vm;
	int i;

	if (!present(rep))
		return;
	fprintf(rep->stream, "\n# page table updates\npid,comm,updates,bytes\n");
	for (i = 0; i < v->nr_pids; i++) {
		fprintf(rep->stream, "%d,", v->pids[i].pid);
		report_csv_text(rep->stream, analysis_comm(rep->analysis, v->pids[i].pid));
		fprintf(rep->stream, ",%llu,%llu\n", (unsigned long long)v->pids[i].updates,
			(unsigned long long)v->pids[i].bytes);
	}
	fprintf(rep->stream, "\n# vm flushes\nring,vmids,vmids_needing_flush,flushes\n");
	for (i = 0; i < v->nr_rings; i++) {
		report_csv_text(rep->stream, v->rings[i].ring);
		fprintf(rep->stream, ",%llu,%llu,%llu\n", (unsigned long long)v->rings[i].grabs,
			(unsigned long long)v->rings[i].grabs_flushing, (unsigned long long)v->rings[i].flushes);
	}
}

const struct report_section report_section_vm = {
	.name = "page tables",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_vm,
		[REPORT_SECTION_JSON] = json_vm,
		[REPORT_SECTION_CSV] = csv_vm,
	},
};
