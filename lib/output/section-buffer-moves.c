// SPDX-License-Identifier: GPL-2.0
/*
 * The buffer-moves section of the report, in each format: amdgpu's buffer
 * moves by direction, its evictions out of VRAM and its creations
 * (buffer-moves.h); each ring's line says how much moved while its jobs
 * waited.
 */
#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/timeline.h"

static bool present(const struct report *rep)
{
	const struct buffer_moves *m = &timeline_of(rep->analysis)->moves;

	return m->moves || m->creates;
}

/* "64.0 MiB" */
static const char *mib(char *buf, size_t len, uint64_t bytes)
{
	snprintf(buf, len, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
	return buf;
}

static const char *placement(unsigned int i)
{
	return i < BO_PLACEMENTS ? bo_placement_name(i) : "other";
}

static void text_moves(struct report *rep)
{
	const struct buffer_moves *m = &timeline_of(rep->analysis)->moves;
	char b[32], c[32], from[32], to[32];
	unsigned int i, k;

	if (!present(rep))
		return;
	fprintf(rep->stream, "\nBuffer moves (amdgpu): %llu move%s, %s", (unsigned long long)m->moves,
		report_plural(m->moves), mib(b, sizeof(b), m->bytes));
	if (m->moves)
		fprintf(rep->stream, " from %s to %s", report_ts(from, sizeof(from), m->first_ts),
			report_ts(to, sizeof(to), m->last_ts));
	fprintf(rep->stream, "; %llu out of VRAM (evictions, %s); %llu buffer%s created (%s)\n",
		(unsigned long long)m->evictions, mib(c, sizeof(c), m->evicted_bytes),
		(unsigned long long)m->creates, report_plural(m->creates), mib(b, sizeof(b), m->created_bytes));
	for (i = 0; i <= BO_PLACEMENTS; i++)
		for (k = 0; k <= BO_PLACEMENTS; k++) {
			char dir[48];

			if (!m->count[i][k])
				continue;
			snprintf(dir, sizeof(dir), "%s -> %s", placement(i), placement(k));
			fprintf(rep->stream, "  %-24s %8llu move%s %12s\n", dir,
				(unsigned long long)m->count[i][k], m->count[i][k] == 1 ? " " : "s",
				mib(b, sizeof(b), m->moved[i][k]));
		}
}

static void json_moves(struct report *rep)
{
	const struct buffer_moves *m = &timeline_of(rep->analysis)->moves;
	FILE *f = rep->stream;
	unsigned int i, k, n = 0;

	fprintf(f, ",\"buffer_moves\":");
	if (!present(rep)) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"moves\":%llu,\"bytes\":%llu,\"first_ns\":", (unsigned long long)m->moves,
		(unsigned long long)m->bytes);
	report_json_u64(f, m->moves, m->first_ts);
	fprintf(f, ",\"last_ns\":");
	report_json_u64(f, m->moves, m->last_ts);
	fprintf(f, ",\"evictions\":%llu,\"evicted_bytes\":%llu,\"created\":%llu,\"created_bytes\":%llu,\"by_direction\":[",
		(unsigned long long)m->evictions, (unsigned long long)m->evicted_bytes,
		(unsigned long long)m->creates, (unsigned long long)m->created_bytes);
	for (i = 0; i <= BO_PLACEMENTS; i++)
		for (k = 0; k <= BO_PLACEMENTS; k++) {
			if (!m->count[i][k])
				continue;
			fprintf(f, "%s{\"from\":\"%s\",\"to\":\"%s\",\"moves\":%llu,\"bytes\":%llu}",
				n++ ? "," : "", placement(i), placement(k),
				(unsigned long long)m->count[i][k], (unsigned long long)m->moved[i][k]);
		}
	fprintf(f, "]}");
}

static void csv_moves(struct report *rep)
{
	const struct buffer_moves *m = &timeline_of(rep->analysis)->moves;
	unsigned int i, k;

	if (!present(rep))
		return;
	fprintf(rep->stream, "\n# buffer moves\nfrom,to,moves,bytes\n");
	for (i = 0; i <= BO_PLACEMENTS; i++)
		for (k = 0; k <= BO_PLACEMENTS; k++)
			if (m->count[i][k])
				fprintf(rep->stream, "%s,%s,%llu,%llu\n", placement(i), placement(k),
					(unsigned long long)m->count[i][k], (unsigned long long)m->moved[i][k]);
}

const struct report_section report_section_buffer_moves = {
	.name = "buffer moves",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_moves,
		[REPORT_SECTION_JSON] = json_moves,
		[REPORT_SECTION_CSV] = csv_moves,
	},
};
