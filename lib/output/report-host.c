// SPDX-License-Identifier: GPL-2.0
/*
 * Which host a file is from, its GPUs, and where its trace clock lies on UTC
 * (host-clock.h): lines of the text header and members of the JSON object.
 */
#include <time.h>

#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/host-clock.h"

const char *report_utc_text(char *buf, size_t len, int64_t ns)
{
	time_t s = (time_t)(ns / 1000000000);
	struct tm tm;
	char day[64];

	if (ns < 0 || !gmtime_r(&s, &tm) || !strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm))
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%.20s.%09lldZ", day, (long long)(ns % 1000000000));
	return buf;
}

void report_host_text(struct report *rep)
{
	const struct host_clock *h = host_clock_of(rep->analysis);
	int64_t first = (int64_t)analysis_totals(rep->analysis)->first_ts;
	FILE *f = rep->stream;
	uint64_t unc;
	int64_t off;
	char a[40], u[32];
	int i;

	if (!h)
		return;
	if (h->known)
		fprintf(f, "host     %s (machine-id %s, boot %s)\n", h->name[0] ? h->name : "?",
			h->machine_id[0] ? h->machine_id : "?", h->boot_id[0] ? h->boot_id : "?");
	for (i = 0; i < h->nr_gpus; i++) {
		const struct host_gpu *g = &h->gpus[i];

		fprintf(f, "gpu      %s %s %s %s:%s", g->card[0] ? g->card : "?", g->pci[0] ? g->pci : "?",
			g->driver[0] ? g->driver : "(no driver)", g->vendor[0] ? g->vendor : "?",
			g->device[0] ? g->device : "?");
		if (g->version[0])
			fprintf(f, " version %s", g->version);
		if (g->uuid[0])
			fprintf(f, " uuid %s", g->uuid);
		fputc('\n', f);
	}
	if (h->more_gpus)
		fprintf(f, "gpu      %llu more\n", (unsigned long long)h->more_gpus);
	if (!host_clock_offset(h, &off, &unc))
		return;
	fprintf(f, "utc      the trace clock %c %lld.%09lld s, within %s us (%llu clock pair%s",
		off < 0 ? '-' : '+', (long long)((off < 0 ? -off : off) / 1000000000),
		(long long)((off < 0 ? -off : off) % 1000000000),
		report_us(u, sizeof(u), true, unc), (unsigned long long)h->pairs,
		report_plural(h->pairs));
	if (h->pairs > 1)
		fprintf(f, ", drift %.1f ppm", host_clock_drift_ppm(h));
	fprintf(f, "); the first record at %s\n",
		report_utc_text(a, sizeof(a), first + off));
}

void report_host_json(struct report *rep)
{
	const struct host_clock *h = host_clock_of(rep->analysis);
	int64_t first = (int64_t)analysis_totals(rep->analysis)->first_ts;
	FILE *f = rep->stream;
	uint64_t unc;
	int64_t off;
	int i;

	fputs(",\"host\":", f);
	if (!h || (!h->known && !h->nr_gpus && !h->pairs)) {
		fputs("null", f);
		return;
	}
	fputs("{\"name\":", f);
	json_str(f, h->name);
	fputs(",\"machine_id\":", f);
	json_str(f, h->machine_id);
	fputs(",\"boot_id\":", f);
	json_str(f, h->boot_id);
	fputs(",\"gpus\":[", f);
	for (i = 0; i < h->nr_gpus; i++) {
		const struct host_gpu *g = &h->gpus[i];
		const char *const kv[][2] = {
			{ "card", g->card }, { "pci", g->pci }, { "vendor", g->vendor },
			{ "device", g->device }, { "driver", g->driver }, { "version", g->version },
			{ "uuid", g->uuid },
		};
		size_t k;

		for (k = 0; k < sizeof(kv) / sizeof(kv[0]); k++) {
			fprintf(f, "%s\"%s\":", k ? "," : i ? ",{" : "{", kv[k][0]);
			json_str(f, kv[k][1]);
		}
		fputc('}', f);
	}
	fprintf(f, "],\"more_gpus\":%llu,\"clock\":", (unsigned long long)h->more_gpus);
	if (!host_clock_offset(h, &off, &unc)) {
		fputs("null}", f);
		return;
	}
	fprintf(f, "{\"pairs\":%llu,\"bad_pairs\":%llu,\"utc_offset_ns\":%lld,\"uncertainty_ns\":%llu,\"drift_ppm\":%.3f,\"first_record_utc_ns\":%lld}}",
		(unsigned long long)h->pairs, (unsigned long long)h->bad_pairs, (long long)off,
		(unsigned long long)unc, host_clock_drift_ppm(h),
		(long long)(first + off));
}
