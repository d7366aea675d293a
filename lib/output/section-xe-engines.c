// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel xe section of the report, in each format: per device, GT and
 * engine class, the exec queues seen, the jobs handed to the GuC, their
 * errors, bans and timeouts, the GuC's engine resets, and the finished jobs
 * and busy time of the queues' rings (xe-engines.h). The jobs themselves are
 * on the rings, one per queue ("rcs5": render, GuC id 5).
 */
#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/xe-engines.h"

static bool shown(const struct xe_engines *x, int i)
{
	return i < x->nr_engines || (i == XE_MAX_ENGINES && x->engines[i].queues);
}

static const char *gt_text(char *buf, size_t len, int gt)
{
	if (gt < 0)
		return "-";
	snprintf(buf, len, "%d", gt);
	return buf;
}

static void text_xe(struct report *rep)
{
	const struct xe_engines *x = xe_engines_of(rep->analysis);
	char gt[16], busy[32];

	if (!x->records)
		return;
	fprintf(rep->stream, "\nIntel xe engines (one ring per exec queue, named by class and GuC id: rcs5 is render queue 5)\n");
	fprintf(rep->stream, "  %-14s %3s %-8s %7s %8s %7s %7s %7s %5s %8s %6s %6s %14s\n", "device", "GT",
		"engine", "queues", "created", "resets", "ran", "errors", "bans", "timeouts", "rings",
		"jobs", "busy (us, sum)");
	for (int i = 0; i <= XE_MAX_ENGINES; i++) {
		const struct xe_engine *e = &x->engines[i];

		if (!shown(x, i))
			continue;
		fprintf(rep->stream, "  %-14s %3s %-8s %7llu %8llu %7llu %7llu %7llu %5llu %8llu %6d %6llu %14s\n",
			e->dev[0] ? e->dev : "-", gt_text(gt, sizeof(gt), e->gt), e->engine,
			(unsigned long long)e->queues, (unsigned long long)e->created,
			(unsigned long long)e->resets, (unsigned long long)e->ran,
			(unsigned long long)e->errors, (unsigned long long)e->bans,
			(unsigned long long)e->timeouts, e->rings, (unsigned long long)e->jobs,
			report_us(busy, sizeof(busy), e->rings, e->busy_ns));
	}
}

static void json_xe(struct report *rep)
{
	const struct xe_engines *x = xe_engines_of(rep->analysis);
	FILE *f = rep->stream;
	int n = 0;

	fprintf(f, ",\"xe_engines\":");
	if (!x->records) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"records\":%llu,\"engines\":[", (unsigned long long)x->records);
	for (int i = 0; i <= XE_MAX_ENGINES; i++) {
		const struct xe_engine *e = &x->engines[i];

		if (!shown(x, i))
			continue;
		fprintf(f, "%s{\"dev\":", n++ ? "," : "");
		json_str(f, e->dev);
		if (e->gt >= 0)
			fprintf(f, ",\"gt\":%d,\"engine\":", e->gt);
		else
			fputs(",\"gt\":null,\"engine\":", f);
		json_str(f, e->engine);
		fprintf(f, ",\"queues\":%llu,\"created\":%llu,\"destroyed\":%llu,\"resets\":%llu,\"ran\":%llu,\"errors\":%llu,\"bans\":%llu,\"timeouts\":%llu,\"rings\":%d,\"jobs\":%llu,\"busy_ns\":%llu}",
			(unsigned long long)e->queues, (unsigned long long)e->created,
			(unsigned long long)e->destroyed, (unsigned long long)e->resets,
			(unsigned long long)e->ran, (unsigned long long)e->errors,
			(unsigned long long)e->bans, (unsigned long long)e->timeouts, e->rings,
			(unsigned long long)e->jobs, (unsigned long long)e->busy_ns);
	}
	fputs("]}", f);
}

static void csv_xe(struct report *rep)
{
	const struct xe_engines *x = xe_engines_of(rep->analysis);

	if (!x->records)
		return;
	fprintf(rep->stream, "\n# xe engines\ndev,gt,engine,queues,created,destroyed,resets,ran,errors,bans,timeouts,rings,jobs,busy_ns\n");
	for (int i = 0; i <= XE_MAX_ENGINES; i++) {
		const struct xe_engine *e = &x->engines[i];

		if (!shown(x, i))
			continue;
		report_csv_text(rep->stream, e->dev);
		if (e->gt >= 0)
			fprintf(rep->stream, ",%d,", e->gt);
		else
			fputs(",,", rep->stream);
		report_csv_text(rep->stream, e->engine);
		fprintf(rep->stream, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%d,%llu,%llu\n",
			(unsigned long long)e->queues, (unsigned long long)e->created,
			(unsigned long long)e->destroyed, (unsigned long long)e->resets,
			(unsigned long long)e->ran, (unsigned long long)e->errors,
			(unsigned long long)e->bans, (unsigned long long)e->timeouts, e->rings,
			(unsigned long long)e->jobs, (unsigned long long)e->busy_ns);
	}
}

const struct report_section report_section_xe_engines = {
	.name = "xe engines",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_xe,
		[REPORT_SECTION_JSON] = json_xe,
		[REPORT_SECTION_CSV] = csv_xe,
	},
};
