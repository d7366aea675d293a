// SPDX-License-Identifier: GPL-2.0
/*
 * The DRM clients section of the report, in each format: record's fdinfo
 * snapshots (drm-clients.h) name each client id's process, driver and
 * device; the engine time the driver counted for it between its first and
 * last snapshot is set beside the hardware time its jobs joined from the
 * events took in the same interval, and a large difference is said (lost
 * or missing events, or work the events do not show).
 */
#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/drm-clients.h"
#include "analysis/timeline.h"

/* the kernel's count and the events' may differ by this before it is worth a word */
#define DIFF_PCT	10
#define DIFF_MIN_NS	1000000ULL

static const struct group_stats *joined(const struct report *rep, uint64_t id)
{
	const struct timeline *tl = timeline_of(rep->analysis);
	int i;

	for (i = 0; i < tl->nr_clients; i++)
		if (tl->clients[i]->key == id)
			return tl->clients[i];
	return NULL;
}

/* some job carries a client id (6.17+ scheduler events): the events can name clients */
static bool events_name_clients(const struct report *rep)
{
	const struct timeline *tl = timeline_of(rep->analysis);

	return tl->nr_client_hw || tl->nr_clients;
}

static bool differs(uint64_t kernel, uint64_t events)
{
	uint64_t d = kernel > events ? kernel - events : events - kernel;

	return d > DIFF_MIN_NS && d * 100 > (kernel > events ? kernel : events) * DIFF_PCT;
}

static void text_client(struct report *rep, const struct drm_client *cl)
{
	const struct group_stats *g = joined(rep, cl->id);
	uint64_t engine = drm_client_engine_ns(cl), events = drm_client_events_ns(cl);
	/* jobs with client ids: 6.17+ scheduler events */
	bool named = events_name_clients(rep);
	int e;

	fprintf(rep->stream, "  client %-6llu %7d %-15s %-8s %-14s", (unsigned long long)cl->id, cl->pid,
		analysis_comm(rep->analysis, cl->pid), cl->driver[0] ? cl->driver : "?",
		cl->pdev[0] ? cl->pdev : "-");
	if (!cl->nr_engines) {
		fprintf(rep->stream, " no engine time in its fdinfo");
	} else if (cl->snapshots < 2) {
		fprintf(rep->stream, " one snapshot: no interval to count engine time over");
	} else if (!named) {
		/* before 6.17 the scheduler's events name no client: nothing to join it to */
		fprintf(rep->stream, " engine %.3f ms over the %.3f s between its first and last snapshot; no job in the file carries a client id (6.17+ kernels' scheduler events do)",
			(double)engine / 1e6, (double)(cl->last_ts - cl->first_ts) / 1e9);
	} else {
		/* the same interval on both sides: what it did before or after is in neither */
		fprintf(rep->stream, " engine %.3f ms (", (double)engine / 1e6);
		for (e = 0; e < cl->nr_engines; e++)
			fprintf(rep->stream, "%s%s %.3f", e ? ", " : "", cl->engines[e].name,
				(double)(cl->engines[e].last_ns - cl->engines[e].first_ns) / 1e6);
		fprintf(rep->stream, ") vs %.3f ms of its jobs on the hardware, over the %.3f s between its first and last snapshot",
			(double)events / 1e6, (double)(cl->last_ts - cl->first_ts) / 1e9);
		if (differs(engine, events))
			fprintf(rep->stream, "; they differ by %.3f ms: %s", (double)(engine > events ? engine - events : events - engine) / 1e6,
				engine > events ? "the events miss work the driver counted (lost events, or queues without scheduler jobs)"
						: "the events count more than the driver (work in flight at a snapshot, or the driver counts differently)");
	}
	if (named)
		fprintf(rep->stream, "; %llu job%s in the file, %.3f ms on the hardware", (unsigned long long)(g ? g->jobs : 0),
			report_plural(g ? g->jobs : 0), (double)(g ? g->exec_ns : 0) / 1e6);
	if (cl->has_resident)
		fprintf(rep->stream, "; resident %.1f MiB", (double)cl->resident / (1024.0 * 1024.0));
	fputc('\n', rep->stream);
}

static void text_clients(struct report *rep)
{
	const struct drm_clients *c = drm_clients_of(rep->analysis);
	int i;

	if (!c->lines)
		return;
	fprintf(rep->stream, "\nDRM clients (record's /proc fdinfo snapshots, %d): %d client%s", c->snapshots,
		c->nr, c->nr == 1 ? "" : "s");
	if (c->dropped)
		fprintf(rep->stream, " (%llu past %d not kept)", (unsigned long long)c->dropped, DRM_CLIENTS_MAX);
	fputc('\n', rep->stream);
	for (i = 0; i < c->nr; i++)
		text_client(rep, &c->list[i]);
}

static void json_clients(struct report *rep)
{
	const struct drm_clients *c = drm_clients_of(rep->analysis);
	FILE *f = rep->stream;
	bool named = events_name_clients(rep);
	int i, e;

	fprintf(f, ",\"drm_clients\":");
	if (!c->lines) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"snapshots\":%d,\"dropped\":%llu,\"clients\":[", c->snapshots, (unsigned long long)c->dropped);
	for (i = 0; i < c->nr; i++) {
		const struct drm_client *cl = &c->list[i];
		const struct group_stats *g = joined(rep, cl->id);

		fprintf(f, "%s{\"client_id\":%llu,\"pid\":%d,\"comm\":", i ? "," : "",
			(unsigned long long)cl->id, cl->pid);
		json_str(f, analysis_comm(rep->analysis, cl->pid));
		fprintf(f, ",\"driver\":");
		json_str(f, cl->driver);
		fprintf(f, ",\"pdev\":");
		json_str(f, cl->pdev);
		fprintf(f, ",\"snapshots\":%d,\"engines\":[", cl->snapshots);
		for (e = 0; e < cl->nr_engines; e++) {
			fprintf(f, "%s{\"name\":", e ? "," : "");
			json_str(f, cl->engines[e].name);
			fprintf(f, ",\"ns\":%llu}", (unsigned long long)(cl->engines[e].last_ns - cl->engines[e].first_ns));
		}
		fprintf(f, "],\"engine_ns\":%llu,\"snapshots_ns\":%llu,\"snapshots_hardware_ns\":",
			(unsigned long long)drm_client_engine_ns(cl), (unsigned long long)(cl->last_ts - cl->first_ts));
		/* null: the events name no client, so nothing is known of its jobs */
		report_json_u64(f, named, drm_client_events_ns(cl));
		fprintf(f, ",\"jobs\":");
		report_json_u64(f, named, g ? g->jobs : 0);
		fprintf(f, ",\"jobs_hardware_ns\":");
		report_json_u64(f, named, g ? g->exec_ns : 0);
		fprintf(f, ",\"resident_bytes\":");
		report_json_u64(f, cl->has_resident, cl->resident);
		fputc('}', f);
	}
	fprintf(f, "]}");
}

static void csv_clients(struct report *rep)
{
	const struct drm_clients *c = drm_clients_of(rep->analysis);
	bool named = events_name_clients(rep);
	int i;

	if (!c->lines)
		return;
	fprintf(rep->stream, "\n# drm clients\nclient_id,pid,comm,driver,pdev,snapshots,engine_ns,snapshots_ns,snapshots_hardware_ns,jobs,jobs_hardware_ns,resident_bytes\n");
	for (i = 0; i < c->nr; i++) {
		const struct drm_client *cl = &c->list[i];
		const struct group_stats *g = joined(rep, cl->id);

		fprintf(rep->stream, "%llu,%d,", (unsigned long long)cl->id, cl->pid);
		report_csv_text(rep->stream, analysis_comm(rep->analysis, cl->pid));
		fputc(',', rep->stream);
		report_csv_text(rep->stream, cl->driver);
		fputc(',', rep->stream);
		report_csv_text(rep->stream, cl->pdev);
		fprintf(rep->stream, ",%d,%llu,%llu", cl->snapshots, (unsigned long long)drm_client_engine_ns(cl),
			(unsigned long long)(cl->last_ts - cl->first_ts));
		report_csv_u64(rep->stream, named, drm_client_events_ns(cl));
		report_csv_u64(rep->stream, named, g ? g->jobs : 0);
		report_csv_u64(rep->stream, named, g ? g->exec_ns : 0);
		report_csv_u64(rep->stream, cl->has_resident, cl->resident);
		fputc('\n', rep->stream);
	}
}

const struct report_section report_section_drm_clients = {
	.name = "DRM clients",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_clients,
		[REPORT_SECTION_JSON] = json_clients,
		[REPORT_SECTION_CSV] = csv_clients,
	},
};
