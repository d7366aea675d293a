// SPDX-License-Identifier: GPL-2.0
/*
 * The display section of the report, in each format: per CRTC, the vblanks
 * the interrupt handled and the refresh rate they give, the vblanks not
 * seen, the events clients asked for and whether they came at the vblank
 * asked for, and how long after the vblank they were delivered; page flips
 * paired with their asks: those presented after the vblank due (vblanks.h).
 */
#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/vblanks.h"

static int nr_crtcs(const struct vblanks *v)
{
	return v->nr_crtcs + (v->crtcs[VBLANK_MAX_CRTCS].crtc == -1);
}

/* the CRTCs, past VBLANK_MAX_CRTCS the one that holds the rest */
static struct vblank_crtc *crtc_at(struct vblanks *v, int i)
{
	return i < v->nr_crtcs ? &v->crtcs[i] : &v->crtcs[VBLANK_MAX_CRTCS];
}

static void text_crtc(struct report *rep, struct vblank_crtc *c)
{
	char a[32], b[32], d[32], e[32];
	double hz = vblank_refresh_hz(c);

	if (c->crtc < 0)
		fprintf(rep->stream, "  more CRTCs: ");
	else if (c->display)
		fprintf(rep->stream, "  crtc %d, count %d (another device's CRTC %d, or its count reset): ",
			c->crtc, c->display + 1, c->crtc);
	else
		fprintf(rep->stream, "  crtc %d: ", c->crtc);
	fprintf(rep->stream, "%llu vblank%s", (unsigned long long)c->vblanks, report_plural(c->vblanks));
	if (hz > 0)
		fprintf(rep->stream, " at %.2f Hz (period p50 %s us, p99 %s us%s)", hz,
			report_us(a, sizeof(a), true, latency_stats_percentile(&c->period, 50)),
			report_us(b, sizeof(b), true, latency_stats_percentile(&c->period, 99)),
			c->high_prec ? "" : ", the driver's timestamps not the hardware's");
	if (c->gaps)
		fprintf(rep->stream, ", %llu not seen in %llu gap%s (the interrupt off while nobody waits, or lost)",
			(unsigned long long)c->unseen, (unsigned long long)c->gaps, report_plural(c->gaps));
	fprintf(rep->stream, "; events: %llu queued, %llu delivered", (unsigned long long)c->queued,
		(unsigned long long)c->delivered);
	if (c->late)
		fprintf(rep->stream, ", %llu after the vblank asked for (%llu vblank%s late in all)",
			(unsigned long long)c->late, (unsigned long long)c->late_vblanks,
			report_plural(c->late_vblanks));
	if (c->unmatched)
		fprintf(rep->stream, ", %llu with no queue event in the file", (unsigned long long)c->unmatched);
	if (c->core_events)
		fprintf(rep->stream, " (%llu of them the DRM core's own, for commits that asked for none)",
			(unsigned long long)c->core_events);
	if (c->backwards)
		fprintf(rep->stream, "; the vblank count went back %llu time%s past the %d counts told apart on CRTC %d: gaps and periods start over there",
			(unsigned long long)c->backwards, report_plural(c->backwards), VBLANK_MAX_DISPLAYS, c->crtc);
	if (c->deliver.count)
		fprintf(rep->stream, "; delivered after the vblank p50 %s us, p99 %s us, max %s us",
			report_us(d, sizeof(d), true, latency_stats_percentile(&c->deliver, 50)),
			report_us(e, sizeof(e), true, latency_stats_percentile(&c->deliver, 99)),
			report_us(a, sizeof(a), true, c->deliver.max));
	if (c->flip_present.count) {
		fprintf(rep->stream, "; page flips: %llu paired with their DRM_IOCTL_MODE_PAGE_FLIP, %llu presented after the vblank due (%llu vblank%s missed in all)",
			(unsigned long long)c->flip_present.count, (unsigned long long)c->flips_late,
			(unsigned long long)c->flips_late_vblanks, report_plural(c->flips_late_vblanks));
		fprintf(rep->stream, "; asked -> presented p50 %s us, p99 %s us, max %s us",
			report_us(d, sizeof(d), true, latency_stats_percentile(&c->flip_present, 50)),
			report_us(e, sizeof(e), true, latency_stats_percentile(&c->flip_present, 99)),
			report_us(a, sizeof(a), true, c->flip_present.max));
	}
	fputc('\n', rep->stream);
}

static void text_vblanks(struct report *rep)
{
	struct vblanks *v = vblanks_of(rep->analysis);
	int i;

	if (!v->records)
		return;
	fprintf(rep->stream, "\nDisplay (drm vblank events) on %d CRTC%s\n", nr_crtcs(v),
		report_plural((uint64_t)nr_crtcs(v)));
	for (i = 0; i < nr_crtcs(v); i++)
		text_crtc(rep, crtc_at(v, i));
	if (v->untracked)
		fprintf(rep->stream, "  %llu queued events past what is followed (%d clients and CRTCs, %d events each): not matched\n",
			(unsigned long long)v->untracked, VBLANK_MAX_WAITERS, VBLANK_WAITER_EVENTS);
	if (v->flip_asks_unpaired)
		fprintf(rep->stream, "  %llu of %llu page flip%s asked (DRM_IOCTL_MODE_PAGE_FLIP) with no flip's event in the file (or past %d pending): not paired\n",
			(unsigned long long)v->flip_asks_unpaired, (unsigned long long)v->flip_asks,
			report_plural(v->flip_asks), VBLANK_FLIP_ASKS);
}

static void json_vblanks(struct report *rep)
{
	struct vblanks *v = vblanks_of(rep->analysis);
	FILE *f = rep->stream;
	int i;

	fprintf(f, ",\"vblanks\":");
	if (!v->records) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"records\":%llu,\"untracked_events\":%llu,\"flip_asks\":%llu,\"flip_asks_unpaired\":%llu,\"crtcs\":[",
		(unsigned long long)v->records, (unsigned long long)v->untracked,
		(unsigned long long)v->flip_asks, (unsigned long long)v->flip_asks_unpaired);
	for (i = 0; i < nr_crtcs(v); i++) {
		struct vblank_crtc *c = crtc_at(v, i);

		if (c->crtc < 0)
			fprintf(f, "%s{\"crtc\":null", i ? "," : "");
		else
			fprintf(f, "%s{\"crtc\":%d", i ? "," : "", c->crtc);
		fprintf(f, ",\"display\":%d,\"vblanks\":%llu,\"first_seq\":%llu,\"last_seq\":%llu,\"refresh_hz\":%.3f,\"high_prec\":%s",
			c->display, (unsigned long long)c->vblanks, (unsigned long long)c->first_seq,
			(unsigned long long)c->last_seq, vblank_refresh_hz(c), c->high_prec ? "true" : "false");
		report_json_latency(f, "period", &c->period);
		fprintf(f, ",\"backwards\":%llu,\"gaps\":%llu,\"unseen\":%llu,\"queued\":%llu,\"delivered\":%llu,\"late\":%llu,\"late_vblanks\":%llu,\"unmatched\":%llu",
			(unsigned long long)c->backwards, (unsigned long long)c->gaps,
			(unsigned long long)c->unseen, (unsigned long long)c->queued,
			(unsigned long long)c->delivered,
			(unsigned long long)c->late, (unsigned long long)c->late_vblanks,
			(unsigned long long)c->unmatched);
		report_json_latency(f, "delivery", &c->deliver);
		fprintf(f, ",\"core_events\":%llu,\"flips_asked\":%llu,\"flips_late\":%llu,\"flips_late_vblanks\":%llu",
			(unsigned long long)c->core_events, (unsigned long long)c->flip_present.count,
			(unsigned long long)c->flips_late, (unsigned long long)c->flips_late_vblanks);
		report_json_latency(f, "flip_present", &c->flip_present);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void csv_vblanks(struct report *rep)
{
	struct vblanks *v = vblanks_of(rep->analysis);
	int i;

	if (!v->records)
		return;
	fprintf(rep->stream, "\n# vblanks\ncrtc,display,vblanks,refresh_hz,period_p50_ns,gaps,unseen,queued,delivered,late,late_vblanks,unmatched,delivery_p50_ns,delivery_p99_ns,delivery_max_ns,core_events,flips_asked,flips_late,flips_late_vblanks,flip_present_p50_ns,flip_present_p99_ns,flip_present_max_ns\n");
	for (i = 0; i < nr_crtcs(v); i++) {
		struct vblank_crtc *c = crtc_at(v, i);

		if (c->crtc >= 0)
			fprintf(rep->stream, "%d", c->crtc);
		fprintf(rep->stream, ",%d,%llu,%.3f", c->display, (unsigned long long)c->vblanks,
			vblank_refresh_hz(c));
		report_csv_u64(rep->stream, c->period.count, latency_stats_percentile(&c->period, 50));
		fprintf(rep->stream, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu", (unsigned long long)c->gaps,
			(unsigned long long)c->unseen, (unsigned long long)c->queued,
			(unsigned long long)c->delivered, (unsigned long long)c->late,
			(unsigned long long)c->late_vblanks, (unsigned long long)c->unmatched);
		report_csv_u64(rep->stream, c->deliver.count, latency_stats_percentile(&c->deliver, 50));
		report_csv_u64(rep->stream, c->deliver.count, latency_stats_percentile(&c->deliver, 99));
		report_csv_u64(rep->stream, c->deliver.count, c->deliver.max);
		fprintf(rep->stream, ",%llu,%llu,%llu,%llu", (unsigned long long)c->core_events,
			(unsigned long long)c->flip_present.count, (unsigned long long)c->flips_late,
			(unsigned long long)c->flips_late_vblanks);
		report_csv_u64(rep->stream, c->flip_present.count,
			       latency_stats_percentile(&c->flip_present, 50));
		report_csv_u64(rep->stream, c->flip_present.count,
			       latency_stats_percentile(&c->flip_present, 99));
		report_csv_u64(rep->stream, c->flip_present.count, c->flip_present.max);
		fputc('\n', rep->stream);
	}
}

const struct report_section report_section_vblanks = {
	.name = "display vblanks",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_vblanks,
		[REPORT_SECTION_JSON] = json_vblanks,
		[REPORT_SECTION_CSV] = csv_vblanks,
	},
};
