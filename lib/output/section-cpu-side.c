// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU side of the report, in each format: per thread of the workload,
 * its GPU ioctls by name with their time split into on CPU, runnable (and
 * behind whom), sleeping and interrupts, and the time from an ioctl's enter
 * to each GPU job it queued, split the same way (cpu-side.h).
 */
#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/cpu-side.h"

static const char *const driver_names[] = {
	[GPU_IOCTL_DRIVER_UNKNOWN] = NULL,
	[GPU_IOCTL_DRIVER_AMDGPU] = "amdgpu",
	[GPU_IOCTL_DRIVER_I915] = "i915",
	[GPU_IOCTL_DRIVER_XE] = "xe",
	[GPU_IOCTL_DRIVER_VIRTIO] = "virtio_gpu",
};

static const char *row_name(const struct cpu_side *c, const struct cpu_ioctl_row *r, char *buf,
			    size_t len)
{
	if (r->other)
		return "(other ioctls)";
	return gpu_ioctl_name(r->cmd, c->driver, buf, len);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* ": on CPU 80.1%, runnable 15.2% (...), sleeping 3.0% (...), interrupts 1.7%" */
static void text_split(struct report *rep, const struct cpu_split *s, const struct cpu_ioctl_row *r)
{
	uint64_t all = cpu_split_total(s);
	int i;

	fprintf(rep->stream, ": on CPU %.1f%%, runnable %.1f%%", pct(s->on_cpu_ns, all),
		pct(s->runnable_ns, all));
	if (r && s->runnable_ns) {
		const char *sep = " (";

		for (i = 0; i < r->nr_behind; i++, sep = ", ")
			fprintf(rep->stream, "%sbehind %d %s %.1f%%", sep, r->behind[i].pid,
				r->behind[i].comm, pct(r->behind[i].ns, all));
		if (r->behind_other_ns)
			fprintf(rep->stream, "%sbehind others %.1f%%", sep, pct(r->behind_other_ns, all)), sep = ", ";
		if (r->waking_ns)
			fprintf(rep->stream, "%safter a wakeup %.1f%%", sep, pct(r->waking_ns, all)), sep = ", ";
		if (*sep == ',')
			fputc(')', rep->stream);
	}
	fprintf(rep->stream, ", sleeping %.1f%%", pct(s->sleeping_ns, all));
	if (s->blocked_ns)
		fprintf(rep->stream, " (uninterruptible %.1f%%)", pct(s->blocked_ns, all));
	fprintf(rep->stream, ", interrupts %.1f%%", pct(s->irq_ns, all));
}

/* the thread's ioctls still inside at the file's end, which no verdict counts */
static uint64_t thread_unended(const struct cpu_thread *t)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i <= t->nr_rows; i++) {
		const struct cpu_ioctl_row *r = i < t->nr_rows ? t->rows[i] : t->other;

		if (r)
			n += r->unended;
	}
	return n;
}

/* which side held its GPU work up, with the figures it rests on (cpu-side.h) */
static void text_verdict(struct report *rep, const struct cpu_side *c, struct cpu_thread *t)
{
	struct cpu_verdict v;
	char a[32], b[32], d[32];

	cpu_side_verdict(t, c->scheduling, &v);
	if (v.kind == CPU_VERDICT_NONE)
		return;
	fprintf(rep->stream, "    verdict: %s: %.1f%% of its %s us %s waiting on the GPU",
		cpu_verdict_name(v.kind), pct(v.gpu_wait_ns, v.active_ns),
		report_us(a, sizeof(a), true, v.active_ns),
		v.scheduling ? "active (on or waiting for a CPU, or waiting on the GPU, from its first GPU call to its last)" :
			       "from its first GPU call to its last (no sched_switch: idle not told apart)");
	if (v.jobs) {
		fprintf(rep->stream, "; its jobs reached the ring p50 %s us after their ioctl, %s us of %s us runnable",
			report_us(b, sizeof(b), true, v.to_queued_p50_ns),
			report_us(d, sizeof(d), true, v.runnable_ns),
			report_us(a, sizeof(a), true, v.to_queued_ns));
		if (v.behind.pid)
			fprintf(rep->stream, " (its ioctls' CPU taken longest by %d %s, %s us)",
				v.behind.pid, v.behind.comm,
				report_us(b, sizeof(b), true, v.behind.ns));
	}
	if (thread_unended(t))
		fputs("; not counting its ioctl still inside at the file's end", rep->stream);
	fputc('\n', rep->stream);
}

/* "1 entered and not left by the file's end (inside 160.000 us by then)" and the line's end */
static void text_unended(struct report *rep, const struct cpu_ioctl_row *r)
{
	char a[32];

	fprintf(rep->stream, "%llu entered and not left by the file's end (inside %s us by then)\n",
		(unsigned long long)r->unended, report_us(a, sizeof(a), true, r->unended_ns));
}

/* a row, a wait or a queued job to show: a thread whose only ioctl lost its exit has none */
static bool thread_shown(const struct cpu_thread *t)
{
	int i;

	for (i = 0; i <= t->nr_rows; i++)
		if (cpu_ioctl_row_shown(i < t->nr_rows ? t->rows[i] : t->other))
			return true;
	return t->waits.count || t->waits.unended || t->to_queued;
}

static void text_thread(struct report *rep, const struct cpu_side *c, struct cpu_thread *t)
{
	char a[32], b[32], d[32], name[48];
	int i;

	if (!thread_shown(t))
		return;
	fprintf(rep->stream, "  pid %d (%s):\n", t->pid, analysis_comm(rep->analysis, t->pid));
	for (i = 0; i <= t->nr_rows; i++) {
		struct cpu_ioctl_row *r = i < t->nr_rows ? t->rows[i] : t->other;

		if (!cpu_ioctl_row_shown(r))
			continue;
		if (!r->dur.count) {
			fprintf(rep->stream, "    %s: ", row_name(c, r, name, sizeof(name)));
			text_unended(rep, r);
			continue;
		}
		fprintf(rep->stream, "    %s x%llu in %s us (p50 %s us, p99 %s us)",
			row_name(c, r, name, sizeof(name)), (unsigned long long)r->dur.count,
			report_us(a, sizeof(a), true, r->dur.sum),
			report_us(b, sizeof(b), true, latency_stats_percentile(&r->dur, 50)),
			report_us(d, sizeof(d), true, latency_stats_percentile(&r->dur, 99)));
		if (c->scheduling)
			text_split(rep, &r->split, r);
		if (r->unended) {
			fputs("; and ", rep->stream);
			text_unended(rep, r);
		} else {
			fputc('\n', rep->stream);
		}
	}
	if (t->waits.count) {
		fprintf(rep->stream, "    waited on the GPU: %llu fence wait%s, %s us in all, the longest %s us on %llu:%llu (%s)",
			(unsigned long long)t->waits.count, report_plural(t->waits.count),
			report_us(a, sizeof(a), true, t->waits.ns),
			report_us(b, sizeof(b), true, t->waits.longest_ns),
			(unsigned long long)t->waits.longest_ctx,
			(unsigned long long)t->waits.longest_seqno, t->waits.longest_timeline);
		if (t->waits.unended)
			fprintf(rep->stream, "; %llu with no end in the file", (unsigned long long)t->waits.unended);
		fputc('\n', rep->stream);
	} else if (t->waits.unended) {
		/* only waits with no end: still said, as beside ended ones */
		fprintf(rep->stream, "    waited on the GPU: %llu fence wait%s with no end in the file\n",
			(unsigned long long)t->waits.unended, report_plural(t->waits.unended));
	}
	if (t->to_queued) {
		fprintf(rep->stream, "    ioctl -> queued: %llu job%s, p50 %s us, p99 %s us, max %s us",
			(unsigned long long)t->to_queued->count, report_plural(t->to_queued->count),
			report_us(a, sizeof(a), true, latency_stats_percentile(t->to_queued, 50)),
			report_us(b, sizeof(b), true, latency_stats_percentile(t->to_queued, 99)),
			report_us(d, sizeof(d), true, t->to_queued->max));
		if (c->scheduling)
			text_split(rep, &t->queued_split, NULL);
		fputc('\n', rep->stream);
	}
	text_verdict(rep, c, t);
}

static void text_cpu_side(struct report *rep)
{
	struct cpu_side *c = cpu_side_of(rep->analysis);
	int i;

	if (!c || (!c->ioctls && !c->fence_waits))
		return;
	fprintf(rep->stream, "\nCPU side: %llu GPU ioctl%s and %llu fence wait%s of %d thread%s",
		(unsigned long long)c->ioctls, report_plural(c->ioctls),
		(unsigned long long)c->fence_waits, report_plural(c->fence_waits), c->nr_threads,
		report_plural((uint64_t)c->nr_threads));
	if (!c->scheduling)
		fprintf(rep->stream, " (no sched_switch in the file: their time is not split)");
	else if (!c->interrupts)
		fprintf(rep->stream, " (no irq events in the file: interrupts count as on CPU)");
	fputc('\n', rep->stream);
	for (i = 0; i < c->nr_threads; i++)
		text_thread(rep, c, c->threads[i]);
	if (c->untracked)
		fprintf(rep->stream, "  %llu ioctls of threads past the %d followed: not split\n",
			(unsigned long long)c->untracked, CPU_SIDE_MAX_THREADS);
	if (c->untracked_rows)
		fprintf(rep->stream, "  %llu ioctls or queued jobs past the %d distributions kept: in (other ioctls) or not kept\n",
			(unsigned long long)c->untracked_rows, CPU_SIDE_MAX_ROWS);
	if (c->jobs_untracked)
		fprintf(rep->stream, "  %llu jobs queued past the %u whose ioctl is kept: their rows name none\n",
			(unsigned long long)c->jobs_untracked, CPU_SIDE_MAX_JOBS);
}

static void json_split(FILE *f, const struct cpu_split *s)
{
	fprintf(f, ",\"on_cpu_ns\":%llu,\"runnable_ns\":%llu,\"sleeping_ns\":%llu,\"uninterruptible_ns\":%llu,\"irq_ns\":%llu",
		(unsigned long long)s->on_cpu_ns, (unsigned long long)s->runnable_ns,
		(unsigned long long)s->sleeping_ns, (unsigned long long)s->blocked_ns,
		(unsigned long long)s->irq_ns);
}

static void json_row(struct report *rep, const struct cpu_side *c, struct cpu_ioctl_row *r,
		     bool first)
{
	FILE *f = rep->stream;
	char name[48];
	int i;

	fprintf(f, "%s{\"cmd\":", first ? "" : ",");
	if (r->other)
		fputs("null", f);
	else
		fprintf(f, "\"0x%08llx\"", (unsigned long long)r->cmd);
	fputs(",\"name\":", f);
	json_str(f, row_name(c, r, name, sizeof(name)));
	fprintf(f, ",\"count\":%llu,\"total_ns\":%llu,\"unended\":%llu,\"unended_ns\":%llu",
		(unsigned long long)r->dur.count, (unsigned long long)r->dur.sum,
		(unsigned long long)r->unended, (unsigned long long)r->unended_ns);
	report_json_latency(f, "duration", &r->dur);
	json_split(f, &r->split);
	fprintf(f, ",\"after_wakeup_ns\":%llu,\"behind_others_ns\":%llu,\"behind\":[",
		(unsigned long long)r->waking_ns, (unsigned long long)r->behind_other_ns);
	for (i = 0; i < r->nr_behind; i++) {
		fprintf(f, "%s{\"pid\":%d,\"comm\":", i ? "," : "", r->behind[i].pid);
		json_str(f, r->behind[i].comm);
		fprintf(f, ",\"ns\":%llu}", (unsigned long long)r->behind[i].ns);
	}
	fputs("]}", f);
}

static void json_verdict(FILE *f, const struct cpu_side *c, struct cpu_thread *t)
{
	struct cpu_verdict v;

	cpu_side_verdict(t, c->scheduling, &v);
	fputs(",\"verdict\":", f);
	if (v.kind == CPU_VERDICT_NONE) {
		fputs("null", f);
		return;
	}
	fputs("{\"kind\":", f);
	json_str(f, cpu_verdict_name(v.kind));
	fprintf(f, ",\"span_ns\":%llu,\"active_ns\":%llu,\"gpu_wait_ns\":%llu,\"jobs\":%llu,\"to_queued_p50_ns\":%llu,\"to_queued_ns\":%llu,\"runnable_ns\":%llu,\"behind\":",
		(unsigned long long)v.span_ns, (unsigned long long)v.active_ns,
		(unsigned long long)v.gpu_wait_ns,
		(unsigned long long)v.jobs, (unsigned long long)v.to_queued_p50_ns,
		(unsigned long long)v.to_queued_ns, (unsigned long long)v.runnable_ns);
	if (v.behind.pid) {
		fprintf(f, "{\"pid\":%d,\"comm\":", v.behind.pid);
		json_str(f, v.behind.comm);
		fprintf(f, ",\"ns\":%llu}}", (unsigned long long)v.behind.ns);
	} else {
		fputs("null}", f);
	}
}

static void json_cpu_side(struct report *rep)
{
	struct cpu_side *c = cpu_side_of(rep->analysis);
	FILE *f = rep->stream;
	int i, j;

	fprintf(f, ",\"cpu_side\":");
	if (!c || (!c->ioctls && !c->fence_waits)) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"records\":%llu,\"ioctls\":%llu,\"fence_waits\":%llu,\"jobs_queued\":%llu,\"scheduling\":%s,\"interrupts\":%s,\"driver\":",
		(unsigned long long)c->records, (unsigned long long)c->ioctls,
		(unsigned long long)c->fence_waits, (unsigned long long)c->jobs_queued, c->scheduling ? "true" : "false",
		c->interrupts ? "true" : "false");
	if (driver_names[c->driver])
		json_str(f, driver_names[c->driver]);
	else
		fputs("null", f);
	fprintf(f, ",\"untracked\":%llu,\"untracked_rows\":%llu,\"jobs_untracked\":%llu,\"threads\":[",
		(unsigned long long)c->untracked, (unsigned long long)c->untracked_rows,
		(unsigned long long)c->jobs_untracked);
	for (i = 0; i < c->nr_threads; i++) {
		struct cpu_thread *t = c->threads[i];
		bool first = true;

		fprintf(f, "%s{\"pid\":%d,\"comm\":", i ? "," : "", t->pid);
		json_str(f, analysis_comm(rep->analysis, t->pid));
		fputs(",\"ioctls\":[", f);
		for (j = 0; j <= t->nr_rows; j++) {
			struct cpu_ioctl_row *r = j < t->nr_rows ? t->rows[j] : t->other;

			if (!cpu_ioctl_row_shown(r))
				continue;
			json_row(rep, c, r, first);
			first = false;
		}
		fprintf(f, "],\"fence_waits\":{\"count\":%llu,\"total_ns\":%llu,\"unended\":%llu,\"longest\":",
			(unsigned long long)t->waits.count, (unsigned long long)t->waits.ns,
			(unsigned long long)t->waits.unended);
		if (t->waits.count) {
			fprintf(f, "{\"ns\":%llu,\"fence\":\"%llu:%llu\",\"timeline\":",
				(unsigned long long)t->waits.longest_ns,
				(unsigned long long)t->waits.longest_ctx,
				(unsigned long long)t->waits.longest_seqno);
			json_str(f, t->waits.longest_timeline);
			fputc('}', f);
		} else {
			fputs("null", f);
		}
		fputc('}', f);
		json_verdict(f, c, t);
		fputs(",\"to_queued\":", f);
		if (!t->to_queued) {
			fputs("null}", f);
			continue;
		}
		fprintf(f, "{\"jobs\":%llu,\"total_ns\":%llu", (unsigned long long)t->to_queued->count,
			(unsigned long long)t->to_queued->sum);
		report_json_latency(f, "latency", t->to_queued);
		json_split(f, &t->queued_split);
		fputs("}}", f);
	}
	fputs("]}", f);
}

static void csv_verdicts(struct report *rep, struct cpu_side *c)
{
	FILE *f = rep->stream;
	struct cpu_verdict v;
	int i;

	fprintf(f, "\n# cpu verdicts\npid,comm,verdict,span_ns,active_ns,gpu_wait_ns,jobs,to_queued_p50_ns,to_queued_ns,runnable_ns,behind_pid,behind_ns\n");
	for (i = 0; i < c->nr_threads; i++) {
		cpu_side_verdict(c->threads[i], c->scheduling, &v);
		if (v.kind == CPU_VERDICT_NONE)
			continue;
		fprintf(f, "%d,", c->threads[i]->pid);
		report_csv_text(f, analysis_comm(rep->analysis, c->threads[i]->pid));
		fprintf(f, ",%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,", cpu_verdict_name(v.kind),
			(unsigned long long)v.span_ns, (unsigned long long)v.active_ns,
			(unsigned long long)v.gpu_wait_ns,
			(unsigned long long)v.jobs, (unsigned long long)v.to_queued_p50_ns,
			(unsigned long long)v.to_queued_ns, (unsigned long long)v.runnable_ns);
		if (v.behind.pid)
			fprintf(f, "%d,%llu\n", v.behind.pid, (unsigned long long)v.behind.ns);
		else
			fputs(",\n", f);
	}
}

static void csv_cpu_side(struct report *rep)
{
	struct cpu_side *c = cpu_side_of(rep->analysis);
	FILE *f = rep->stream;
	char name[48];
	int i, j;

	if (!c || (!c->ioctls && !c->fence_waits))
		return;
	fprintf(f, "\n# cpu side\npid,comm,ioctl,count,total_ns,p50_ns,p99_ns,on_cpu_ns,runnable_ns,sleeping_ns,uninterruptible_ns,irq_ns,behind_pid,behind_ns,unended,unended_ns\n");
	for (i = 0; i < c->nr_threads; i++) {
		struct cpu_thread *t = c->threads[i];

		for (j = 0; j <= t->nr_rows; j++) {
			struct cpu_ioctl_row *r = j < t->nr_rows ? t->rows[j] : t->other;

			if (!cpu_ioctl_row_shown(r))
				continue;
			fprintf(f, "%d,", t->pid);
			report_csv_text(f, analysis_comm(rep->analysis, t->pid));
			fputc(',', f);
			report_csv_text(f, row_name(c, r, name, sizeof(name)));
			fprintf(f, ",%llu,%llu,", (unsigned long long)r->dur.count,
				(unsigned long long)r->dur.sum);
			/* none ended: no percentiles (empty, as the JSON's null) */
			if (r->dur.count)
				fprintf(f, "%llu,%llu,",
					(unsigned long long)latency_stats_percentile(&r->dur, 50),
					(unsigned long long)latency_stats_percentile(&r->dur, 99));
			else
				fputs(",,", f);
			fprintf(f, "%llu,%llu,%llu,%llu,%llu,",
				(unsigned long long)r->split.on_cpu_ns,
				(unsigned long long)r->split.runnable_ns,
				(unsigned long long)r->split.sleeping_ns,
				(unsigned long long)r->split.blocked_ns,
				(unsigned long long)r->split.irq_ns);
			/* the thread that held the CPU longest */
			if (r->nr_behind) {
				int k, most = 0;

				for (k = 1; k < r->nr_behind; k++)
					if (r->behind[k].ns > r->behind[most].ns)
						most = k;
				fprintf(f, "%d,%llu", r->behind[most].pid,
					(unsigned long long)r->behind[most].ns);
			} else {
				fputc(',', f);
			}
			fprintf(f, ",%llu,%llu\n", (unsigned long long)r->unended,
				(unsigned long long)r->unended_ns);
		}
	}
	csv_verdicts(rep, c);
}

const struct report_section report_section_cpu_side = {
	.name = "cpu side",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_cpu_side,
		[REPORT_SECTION_JSON] = json_cpu_side,
		[REPORT_SECTION_CSV] = csv_cpu_side,
	},
};
