// SPDX-License-Identifier: GPL-2.0
/*
 * The owner-switch section of the report, in each format: amdgpu's enforce
 * isolation as the job join saw it (owner-switch.h): every switch, the job
 * it was made for, how long that job waited for the previous owner's work
 * and whose work that was, and whether the cleaner shader ran first.
 */
#include <string.h>

#include "util/json-str.h"
#include "output/perfetto-export.h"
#include "output/report-formats.h"
#include "analysis/timeline.h"

static const char switch_note[] =
	"a job whose owner (DRM file) differs from the partition's last waits for all of the previous owner's work, on every gfx and compute ring of the partition, then the cleaner shader runs before it";

static const char *switch_job_key(char *buf, size_t len, const struct owner_switch *sw)
{
	if (sw->ring < 0)
		snprintf(buf, len, "-");
	else
		report_key(buf, len, sw->has_fence, sw->ctx, sw->seqno, sw->has_id, sw->id, sw->fence_ptr);
	return buf;
}

/* "kernel", "not isolated", "5000 llama" or the owner's address */
static const char *owner_text(struct report *rep, char *buf, size_t len, uint64_t owner)
{
	const struct owner_switches *s = &timeline_of(rep->analysis)->switches;
	int pid = owner_switches_owner_pid(s, owner);

	if (owner == OWNER_NONE)
		snprintf(buf, len, "kernel");
	else if (owner == OWNER_SHARED)
		snprintf(buf, len, "not isolated");
	else if (pid)
		snprintf(buf, len, "%d %s", pid, analysis_comm(rep->analysis, pid));
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)owner);
	return buf;
}

static bool has_wait(const struct owner_switch *sw)
{
	return sw->t_run && sw->t_run >= sw->ts;
}

static const char *waited_for(struct report *rep, char *buf, size_t len,
			      const struct owner_switch *sw)
{
	if (!sw->waited)
		snprintf(buf, len, "-");
	else if (!sw->wait_ctx && !sw->wait_seqno)
		snprintf(buf, len, "a fence");
	else if (sw->wait_ring < 0)
		snprintf(buf, len, "%llu:%llu", (unsigned long long)sw->wait_ctx,
			 (unsigned long long)sw->wait_seqno);
	else
		snprintf(buf, len, "%llu:%llu of %d %s on %s", (unsigned long long)sw->wait_ctx,
			 (unsigned long long)sw->wait_seqno, sw->wait_pid,
			 analysis_comm(rep->analysis, sw->wait_pid),
			 timeline_ring_name(timeline_of(rep->analysis), sw->wait_ring));
	return buf;
}

static bool present(const struct report *rep)
{
	const struct owner_switches *s = &timeline_of(rep->analysis)->switches;

	return s->seen || s->cleaner_runs;
}

static void text_switch(struct report *rep, const struct owner_switch *sw)
{
	char at[32], from[64], to[64], key[48], d[32], w[160];

	fprintf(rep->stream, "  %-17s %-14s %-20s %-22s %-14s %11s  %-7s %s\n",
		report_ts(at, sizeof(at), sw->ts),
		sw->ring < 0 ? "-" : timeline_ring_name(timeline_of(rep->analysis), sw->ring),
		owner_text(rep, from, sizeof(from), sw->prev),
		owner_text(rep, to, sizeof(to), sw->next), switch_job_key(key, sizeof(key), sw),
		report_us(d, sizeof(d), has_wait(sw), sw->t_run - sw->ts), sw->cleaner ? "yes" : "no",
		waited_for(rep, w, sizeof(w), sw));
}

static void text_switches(struct report *rep)
{
	const struct owner_switches *s = &timeline_of(rep->analysis)->switches;
	size_t i;

	if (!present(rep))
		return;
	fprintf(rep->stream, "\nOwner switches (enforce isolation): %llu, cleaner shader ran %llu time%s (%s)\n",
		(unsigned long long)s->seen, (unsigned long long)s->cleaner_runs,
		report_plural(s->cleaner_runs), switch_note);
	if (s->nr)
		fprintf(rep->stream, "  %-17s %-14s %-20s %-22s %-14s %11s  %-7s %s\n", "at", "ring",
			"from", "to", "job", "waited_us", "cleaner", "waited for");
	for (i = 0; i < s->nr; i++)
		text_switch(rep, &s->list[i]);
	if (s->dropped)
		fprintf(rep->stream, "  (%llu more past the %d kept)\n", (unsigned long long)s->dropped,
			OWNER_SWITCH_MAX);
	if (s->cleaner_alone)
		fprintf(rep->stream, "  %llu cleaner shader run%s after no owner switch in the file (run by hand through sysfs, or the switch was before the file)\n",
			(unsigned long long)s->cleaner_alone, report_plural(s->cleaner_alone));
}

static void json_owner(struct report *rep, const char *key, uint64_t owner)
{
	FILE *f = rep->stream;
	int pid = owner_switches_owner_pid(&timeline_of(rep->analysis)->switches, owner);

	fprintf(f, ",\"%s\":{\"owner\":\"0x%llx\",\"kind\":\"%s\",\"pid\":", key,
		(unsigned long long)owner,
		owner == OWNER_NONE ? "kernel" : owner == OWNER_SHARED ? "not_isolated" : "client");
	report_json_u64(f, pid, (uint64_t)pid);
	fprintf(f, ",\"comm\":");
	if (pid)
		json_str(f, analysis_comm(rep->analysis, pid));
	else
		fputs("null", f);
	fputc('}', f);
}

static void json_switch(struct report *rep, const struct owner_switch *sw)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	FILE *f = rep->stream;
	char key[48];

	fprintf(f, "{\"at_ns\":%llu,\"worker_pid\":%d", (unsigned long long)sw->ts, sw->worker);
	json_owner(rep, "from", sw->prev);
	json_owner(rep, "to", sw->next);
	fprintf(f, ",\"ring\":");
	if (sw->ring < 0)
		fputs("null", f);
	else
		json_str(f, timeline_ring_name(tl, sw->ring));
	fprintf(f, ",\"job\":");
	if (sw->ring < 0)
		fputs("null", f);
	else
		json_str(f, switch_job_key(key, sizeof(key), sw));
	fprintf(f, ",\"pid\":%d,\"workload\":%s,\"run_ns\":", sw->pid, sw->workload ? "true" : "false");
	report_json_u64(f, sw->t_run, sw->t_run);
	fprintf(f, ",\"wait_ns\":");
	report_json_u64(f, has_wait(sw), sw->t_run - sw->ts);
	fprintf(f, ",\"waited_for\":");
	if (!sw->waited) {
		fputs("null", f);
	} else {
		fprintf(f, "{\"fence\":\"%llu:%llu\",\"pid\":", (unsigned long long)sw->wait_ctx,
			(unsigned long long)sw->wait_seqno);
		report_json_u64(f, sw->wait_ring >= 0, (uint64_t)sw->wait_pid);
		fprintf(f, ",\"ring\":");
		if (sw->wait_ring < 0)
			fputs("null", f);
		else
			json_str(f, timeline_ring_name(tl, sw->wait_ring));
		fputc('}', f);
	}
	fprintf(f, ",\"cleaner_shader_ns\":");
	report_json_u64(f, sw->cleaner, sw->cleaner_ts);
	fputc('}', f);
}

static void json_switches(struct report *rep)
{
	const struct owner_switches *s = &timeline_of(rep->analysis)->switches;
	size_t i;

	fprintf(rep->stream, ",\"owner_switches\":");
	if (!present(rep)) {
		fputs("null", rep->stream);
		return;
	}
	fprintf(rep->stream, "{\"seen\":%llu,\"dropped\":%llu,\"cleaner_shaders\":%llu,\"cleaner_shaders_without_switch\":%llu,\"note\":",
		(unsigned long long)s->seen, (unsigned long long)s->dropped,
		(unsigned long long)s->cleaner_runs, (unsigned long long)s->cleaner_alone);
	json_str(rep->stream, switch_note);
	fprintf(rep->stream, ",\"switches\":[");
	for (i = 0; i < s->nr; i++) {
		if (i)
			fputc(',', rep->stream);
		json_switch(rep, &s->list[i]);
	}
	fprintf(rep->stream, "]}");
}

static void csv_switches(struct report *rep)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	const struct owner_switches *s = &tl->switches;
	FILE *f = rep->stream;
	size_t i;

	if (!present(rep))
		return;
	fprintf(f, "\n# owner switches\nat_ns,ring,from_owner,from_pid,to_owner,to_pid,job,pid,workload,run_ns,wait_ns,waited_for_fence,waited_for_pid,waited_for_ring,cleaner_shader_ns\n");
	for (i = 0; i < s->nr; i++) {
		const struct owner_switch *sw = &s->list[i];
		int from = owner_switches_owner_pid(s, sw->prev), to = owner_switches_owner_pid(s, sw->next);
		char key[48];

		fprintf(f, "%llu,", (unsigned long long)sw->ts);
		report_csv_text(f, sw->ring < 0 ? "" : timeline_ring_name(tl, sw->ring));
		fprintf(f, ",0x%llx", (unsigned long long)sw->prev);
		report_csv_u64(f, from, (uint64_t)from);
		fprintf(f, ",0x%llx", (unsigned long long)sw->next);
		report_csv_u64(f, to, (uint64_t)to);
		fprintf(f, ",%s,%d,%d", sw->ring < 0 ? "" : switch_job_key(key, sizeof(key), sw),
			sw->pid, sw->workload);
		report_csv_u64(f, sw->t_run, sw->t_run);
		report_csv_u64(f, has_wait(sw), sw->t_run - sw->ts);
		if (sw->waited)
			fprintf(f, ",%llu:%llu", (unsigned long long)sw->wait_ctx,
				(unsigned long long)sw->wait_seqno);
		else
			fputc(',', f);
		report_csv_u64(f, sw->wait_ring >= 0, (uint64_t)sw->wait_pid);
		fputc(',', f);
		report_csv_text(f, sw->wait_ring < 0 ? "" : timeline_ring_name(tl, sw->wait_ring));
		report_csv_u64(f, sw->cleaner, sw->cleaner_ts);
		fputc('\n', f);
	}
}

const struct report_section report_section_owner_switches = {
	.name = "owner switches",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_switches,
		[REPORT_SECTION_JSON] = json_switches,
		[REPORT_SECTION_CSV] = csv_switches,
	},
	.perfetto = perfetto_owner_switches,
	.perfetto_order = 3,
};
