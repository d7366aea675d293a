// SPDX-License-Identifier: GPL-2.0
/*
 * The shared-buffers section of the report, in each format: each dma-buf by
 * its inode, its exporter, the processes that imported it and the device
 * that attached to it (dma-bufs.h).
 */
#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/timeline.h"

#define TEXT_ROWS	100	/* the text lists this many buffers; JSON and CSV all kept */

static bool present(const struct report *rep)
{
	return timeline_of(rep->analysis)->dma_bufs.events != 0;
}

/* "llama [5000]", "-" when not known */
static const char *who(struct report *rep, char *buf, size_t len, int pid)
{
	if (pid < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s [%d]", analysis_comm(rep->analysis, pid), pid);
	return buf;
}

static void text_dma_bufs(struct report *rep)
{
	const struct dma_bufs *d = &timeline_of(rep->analysis)->dma_bufs;
	char a[32], b[48], c[48];
	int i;

	if (!present(rep))
		return;
	fprintf(rep->stream, "\nShared buffers (dma-buf): %d buffer%s, %llu exported here (%s), %llu imported by another process than its exporter; %llu event%s",
		d->nr, report_plural((uint64_t)d->nr), (unsigned long long)d->exports,
		report_size(a, sizeof(a), d->exported_bytes), (unsigned long long)d->shared,
		(unsigned long long)d->events, report_plural(d->events));
	if (d->untracked)
		fprintf(rep->stream, " (%llu of buffers past the %d kept)", (unsigned long long)d->untracked,
			DMA_BUFS_MAX);
	fprintf(rep->stream, "\n  %-10s %-12s %10s %-22s %4s %7s %-22s %8s %-14s %5s\n", "inode", "exporter",
		"size", "exported by", "fds", "imports", "imported by", "attached", "device", "mmaps");
	for (i = 0; i < d->nr && i < TEXT_ROWS; i++) {
		const struct dma_buf_use *u = &d->bufs[i];

		fprintf(rep->stream, "  %-10llu %-12s %10s %-22s %4llu %7llu %-22s%s %8llu %-14s%s %5llu\n",
			(unsigned long long)u->ino, u->exporter[0] ? u->exporter : "?",
			report_size(a, sizeof(a), u->size), who(rep, b, sizeof(b), u->export_pid),
			(unsigned long long)u->fds, (unsigned long long)u->gets,
			who(rep, c, sizeof(c), u->nr_importers ? u->importers[0] : -1),
			u->nr_importers > 1 || u->more_importers ? "+" : " ",
			(unsigned long long)u->attaches, u->device[0] ? u->device : "-",
			u->more_devices ? "+" : " ", (unsigned long long)u->mmaps);
	}
	if (d->nr > TEXT_ROWS)
		fprintf(rep->stream, "  ... %d more buffers (JSON and CSV list them)\n", d->nr - TEXT_ROWS);
}

static void json_dma_bufs(struct report *rep)
{
	const struct dma_bufs *d = &timeline_of(rep->analysis)->dma_bufs;
	FILE *f = rep->stream;
	int i, k;

	fprintf(f, ",\"dma_bufs\":");
	if (!present(rep)) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"events\":%llu,\"exported\":%llu,\"exported_bytes\":%llu,\"shared\":%llu,\"untracked_events\":%llu,\"buffers\":[",
		(unsigned long long)d->events, (unsigned long long)d->exports,
		(unsigned long long)d->exported_bytes, (unsigned long long)d->shared,
		(unsigned long long)d->untracked);
	for (i = 0; i < d->nr; i++) {
		const struct dma_buf_use *u = &d->bufs[i];

		fprintf(f, "%s{\"ino\":%llu,\"exporter\":", i ? "," : "", (unsigned long long)u->ino);
		json_str(f, u->exporter);
		fprintf(f, ",\"size\":%llu,\"export_ns\":", (unsigned long long)u->size);
		report_json_u64(f, u->export_pid >= 0, u->export_ts);
		fprintf(f, ",\"exported_by\":");
		if (u->export_pid < 0) {
			fputs("null", f);
		} else {
			fprintf(f, "{\"pid\":%d,\"comm\":", u->export_pid);
			json_str(f, analysis_comm(rep->analysis, u->export_pid));
			fputc('}', f);
		}
		fprintf(f, ",\"fds\":%llu,\"imports\":%llu,\"imported_by\":[", (unsigned long long)u->fds,
			(unsigned long long)u->gets);
		for (k = 0; k < u->nr_importers; k++) {
			fprintf(f, "%s{\"pid\":%d,\"comm\":", k ? "," : "", u->importers[k]);
			json_str(f, analysis_comm(rep->analysis, u->importers[k]));
			fputc('}', f);
		}
		fprintf(f, "],\"more_importers\":%s,\"attaches\":%llu,\"detaches\":%llu,\"device\":",
			u->more_importers ? "true" : "false", (unsigned long long)u->attaches,
			(unsigned long long)u->detaches);
		if (u->device[0])
			json_str(f, u->device);
		else
			fputs("null", f);
		fprintf(f, ",\"more_devices\":%s,\"mmaps\":%llu,\"puts\":%llu,\"first_ns\":%llu,\"last_ns\":%llu}",
			u->more_devices ? "true" : "false", (unsigned long long)u->mmaps,
			(unsigned long long)u->puts, (unsigned long long)u->first_ts,
			(unsigned long long)u->last_ts);
	}
	fprintf(f, "]}");
}

static void csv_dma_bufs(struct report *rep)
{
	const struct dma_bufs *d = &timeline_of(rep->analysis)->dma_bufs;
	int i;

	if (!present(rep))
		return;
	fprintf(rep->stream, "\n# dma-bufs\nino,exporter,size,export_ns,export_pid,fds,imports,importers,attaches,detaches,device,mmaps,puts\n");
	for (i = 0; i < d->nr; i++) {
		const struct dma_buf_use *u = &d->bufs[i];

		fprintf(rep->stream, "%llu,", (unsigned long long)u->ino);
		report_csv_text(rep->stream, u->exporter);
		fprintf(rep->stream, ",%llu", (unsigned long long)u->size);
		report_csv_u64(rep->stream, u->export_pid >= 0, u->export_ts);
		if (u->export_pid >= 0)
			fprintf(rep->stream, ",%d", u->export_pid);
		else
			fputc(',', rep->stream);
		fprintf(rep->stream, ",%llu,%llu,%d,%llu,%llu,", (unsigned long long)u->fds,
			(unsigned long long)u->gets, u->nr_importers, (unsigned long long)u->attaches,
			(unsigned long long)u->detaches);
		report_csv_text(rep->stream, u->device);
		fprintf(rep->stream, ",%llu,%llu\n", (unsigned long long)u->mmaps, (unsigned long long)u->puts);
	}
}

const struct report_section report_section_dma_bufs = {
	.name = "dma-bufs",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_dma_bufs,
		[REPORT_SECTION_JSON] = json_dma_bufs,
		[REPORT_SECTION_CSV] = csv_dma_bufs,
	},
};
