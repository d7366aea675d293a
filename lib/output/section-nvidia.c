// SPDX-License-Identifier: GPL-2.0
/*
 * The NVIDIA section of the report, in each format (nvidia-calls.h): calls into nvidia.ko by
 * process, escape and RM control command with their times, the slowest calls, open/close/mmap,
 * interrupt lines with their ISRs and bottom halves, nvidia-uvm's fault service, Xids.
 */
#include <stdio.h>

#include "util/json-str.h"
#include "output/report-formats.h"
#include "analysis/nvidia-calls.h"

static bool present(const struct report *rep)
{
	return nvidia_calls_any(nvidia_calls_of(rep->analysis));
}

/* "RM_CONTROL", or "0x5a" for an escape the driver's headers do not name */
static const char *escape(char *buf, size_t len, uint32_t e)
{
	const char *name = nv_escape_name(e);

	if (name)
		return name;
	snprintf(buf, len, "0x%02x", e);
	return buf;
}

static const char *hex32(char *buf, size_t len, bool has, uint32_t v)
{
	if (!has)
		return "-";
	snprintf(buf, len, "0x%08x", v);
	return buf;
}

static const char *count(char *buf, size_t len, bool has, uint64_t v)
{
	if (!has)
		return "-";
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

static double rate_hz(const struct report *rep, uint64_t n)
{
	const struct analysis_totals *tot = analysis_totals(rep->analysis);
	uint64_t span = tot->last_ts > tot->first_ts ? tot->last_ts - tot->first_ts : 0;

	return span ? (double)n * 1e9 / (double)span : 0;
}

static const char *uvm_kind(const struct nv_uvm *u)
{
	return u->replayable ? "replayable" : "non-replayable";
}

/* p50, p99 and max of @s in microseconds, "-" when empty */
static void text_dist(struct report *rep, struct latency_stats *s)
{
	char a[32], b[32], c[32];

	fprintf(rep->stream, " %10s %10s %10s",
		report_us(a, sizeof(a), s->count, latency_stats_percentile(s, 50)),
		report_us(b, sizeof(b), s->count, latency_stats_percentile(s, 99)),
		report_us(c, sizeof(c), s->count, s->max));
}

static void text_ioctls(struct report *rep)
{
	struct nvidia_calls *n = nvidia_calls_of(rep->analysis);
	char e[16], c[16], r[24], t[32];
	int i;

	if (!n->nr_rows)
		return;
	fprintf(rep->stream, "  ioctls by process, escape and RM control command (us)%s%s:\n",
		n->commands ? "" : "; commands not read (no user-memory fetches on this kernel)",
		n->statuses ? "" : "; RM statuses not read (return probes read the caller's parameters from 6.10 on)");
	fprintf(rep->stream, "    %7s %-15s %-22s %-10s %6s %6s %6s %10s %10s %10s %12s\n", "pid", "comm",
		"escape", "command", "calls", "failed", "rm_err", "p50", "p99", "max", "total");
	for (i = 0; i < n->nr_rows; i++) {
		struct nv_call_row *row = &n->rows[i];

		fprintf(rep->stream, "    %7d %-15s %-22s %-10s %6llu %6llu %6s", row->pid,
			analysis_comm(rep->analysis, row->pid), escape(e, sizeof(e), row->escape),
			hex32(c, sizeof(c), row->has_cmd, row->ctl_cmd), (unsigned long long)row->ns.count,
			(unsigned long long)row->failed, count(r, sizeof(r), row->statuses, row->rm_errors));
		text_dist(rep, &row->ns);
		fprintf(rep->stream, " %12s\n", report_us(t, sizeof(t), true, row->ns.sum));
	}
	if (n->more_rows)
		fprintf(rep->stream, "    (%llu more calls past %d rows)\n", (unsigned long long)n->more_rows,
			NV_MAX_CALL_ROWS);
}

static void text_slowest(struct report *rep)
{
	const struct nvidia_calls *n = nvidia_calls_of(rep->analysis);
	char at[32], d[32], e[16], c[16], s[16];
	int i;

	if (!n->nr_slowest)
		return;
	fprintf(rep->stream, "  slowest ioctls:\n    %-16s %7s %-15s %-22s %-10s %10s %5s %s\n", "at", "tid",
		"comm", "escape", "command", "us", "ret", "rm status");
	for (i = 0; i < n->nr_slowest; i++) {
		const struct nv_slow_call *k = &n->slowest[i];

		fprintf(rep->stream, "    %-16s %7d %-15s %-22s %-10s %10s %5lld %s\n",
			report_ts(at, sizeof(at), k->ts), k->tid, analysis_comm(rep->analysis, k->tid),
			escape(e, sizeof(e), k->escape), hex32(c, sizeof(c), k->has_cmd, k->ctl_cmd),
			report_us(d, sizeof(d), true, k->ns), (long long)k->ret,
			hex32(s, sizeof(s), k->has_status, k->status));
	}
}

static void text_processes(struct report *rep)
{
	const struct nvidia_calls *n = nvidia_calls_of(rep->analysis);
	char t[32], m[32];
	int i;

	if (!n->nr_procs)
		return;
	fprintf(rep->stream, "  by process:\n    %7s %-15s %7s %12s %6s %6s %6s %6s %6s %10s\n", "pid", "comm",
		"ioctls", "ioctl us", "opens", "failed", "closes", "mmaps", "failed", "mapped");
	for (i = 0; i < n->nr_procs; i++) {
		const struct nv_process *p = &n->procs[i];

		fprintf(rep->stream, "    %7d %-15s %7llu %12s %6llu %6llu %6llu %6llu %6llu %10s\n", p->pid,
			analysis_comm(rep->analysis, p->pid), (unsigned long long)p->ioctls,
			report_us(t, sizeof(t), true, p->ioctl_ns), (unsigned long long)p->opens,
			(unsigned long long)p->open_failed, (unsigned long long)p->closes,
			(unsigned long long)p->mmaps, (unsigned long long)p->mmap_failed,
			report_size(m, sizeof(m), p->mmap_bytes));
	}
	if (n->more_procs)
		fprintf(rep->stream, "    (%llu more calls by processes past %d)\n",
			(unsigned long long)n->more_procs, NV_MAX_PROCESSES);
}

static void text_irqs(struct report *rep)
{
	struct nvidia_calls *n = nvidia_calls_of(rep->analysis);
	int i;

	if (!n->nr_irqs)
		return;
	fprintf(rep->stream, "  interrupts by line (us; to bottom half: from the first ISR it serves):\n");
	fprintf(rep->stream, "    %5s %7s %6s %9s %6s %7s %32s %32s %32s\n", "irq", "isrs", "msi-x", "rate/s",
		"none", "bhs", "ISR p50 / p99 / max", "to bottom half p50 / p99 / max",
		"bottom half p50 / p99 / max");
	for (i = 0; i < n->nr_irqs; i++) {
		struct nv_irq *l = &n->irqs[i];

		fprintf(rep->stream, "    %5d %7llu %6llu %9.1f %6llu %7llu", l->irq, (unsigned long long)l->isrs,
			(unsigned long long)l->msix, rate_hz(rep, l->isrs), (unsigned long long)l->unhandled,
			(unsigned long long)l->bhs);
		text_dist(rep, &l->isr_ns);
		text_dist(rep, &l->to_bh_ns);
		text_dist(rep, &l->bh_ns);
		fputc('\n', rep->stream);
	}
	if (n->more_isrs)
		fprintf(rep->stream, "    (%llu more ISRs on lines past %d)\n", (unsigned long long)n->more_isrs,
			NV_MAX_IRQS);
}

static void text_uvm(struct report *rep)
{
	struct nvidia_calls *n = nvidia_calls_of(rep->analysis);
	char t[32];
	int i;

	if (!n->nr_uvm)
		return;
	fprintf(rep->stream, "  UVM fault service (nvidia-uvm; a pass services the GPU's fault buffer, one or more batches; us):\n");
	fprintf(rep->stream, "    %-14s %-18s %7s %10s %10s %10s %12s\n", "buffer", "gpu", "passes", "p50",
		"p99", "max", "total");
	for (i = 0; i < n->nr_uvm; i++) {
		struct nv_uvm *u = &n->uvm[i];

		fprintf(rep->stream, "    %-14s 0x%016llx %7llu", uvm_kind(u), (unsigned long long)u->gpu,
			(unsigned long long)u->ns.count);
		text_dist(rep, &u->ns);
		fprintf(rep->stream, " %12s\n", report_us(t, sizeof(t), true, u->ns.sum));
	}
	if (n->more_uvm_passes)
		fprintf(rep->stream, "    (%llu more passes of fault buffers past %d)\n",
			(unsigned long long)n->more_uvm_passes, NV_MAX_UVM);
}

static void text_xids(struct report *rep)
{
	const struct nvidia_calls *n = nvidia_calls_of(rep->analysis);
	char at[32];
	int i;

	for (i = 0; i < n->nr_xids; i++) {
		const struct nv_xid *x = &n->xids[i];

		fprintf(rep->stream, "  Xid %u at %s on %s: %s\n", x->code, report_ts(at, sizeof(at), x->ts),
			x->dev[0] ? x->dev : "?", x->msg);
	}
	if (n->more_xids)
		fprintf(rep->stream, "  (%llu more Xids)\n", (unsigned long long)n->more_xids);
}

static void text_nvidia(struct report *rep)
{
	const struct nvidia_calls *n = nvidia_calls_of(rep->analysis);
	uint64_t ioctls = 0, isrs = 0, passes = 0;
	int i;

	if (!present(rep))
		return;
	for (i = 0; i < n->nr_procs; i++)
		ioctls += n->procs[i].ioctls;
	for (i = 0; i < n->nr_irqs; i++)
		isrs += n->irqs[i].isrs;
	for (i = 0; i < n->nr_uvm; i++)
		passes += n->uvm[i].ns.count;
	fprintf(rep->stream, "\nNVIDIA: %llu ioctl%s by %d process%s, %llu interrupt%s on %d line%s, %llu UVM fault service pass%s, %d Xid%s%s\n",
		(unsigned long long)ioctls, report_plural(ioctls), n->nr_procs, n->nr_procs == 1 ? "" : "es",
		(unsigned long long)isrs, report_plural(isrs), n->nr_irqs, report_plural((uint64_t)n->nr_irqs),
		(unsigned long long)passes, passes == 1 ? "" : "es", n->nr_xids,
		report_plural((uint64_t)n->nr_xids),
		n->probes ? "" : " (no nvidia.ko probes in the file: record --preset nvidia sets them)");
	text_ioctls(rep);
	text_slowest(rep);
	text_processes(rep);
	text_irqs(rep);
	text_uvm(rep);
	text_xids(rep);
	if (n->unmatched)
		fprintf(rep->stream, "  %llu return%s without its call (the recording began inside it)\n",
			(unsigned long long)n->unmatched, report_plural(n->unmatched));
}

/* ,"p50_ns":..,"p99_ns":..,"max_ns":..,"total_ns":.. with @prefix before each name */
static void json_dist(FILE *f, const char *prefix, struct latency_stats *s)
{
	fprintf(f, ",\"%sp50_ns\":", prefix);
	report_json_u64(f, s->count, latency_stats_percentile(s, 50));
	fprintf(f, ",\"%sp99_ns\":", prefix);
	report_json_u64(f, s->count, latency_stats_percentile(s, 99));
	fprintf(f, ",\"%smax_ns\":", prefix);
	report_json_u64(f, s->count, s->max);
	fprintf(f, ",\"%stotal_ns\":%llu", prefix, (unsigned long long)s->sum);
}

static void json_who(struct report *rep, int pid)
{
	fprintf(rep->stream, "\"pid\":%d,\"comm\":", pid);
	json_str(rep->stream, analysis_comm(rep->analysis, pid));
}

static void json_escape(FILE *f, uint32_t e, bool has_cmd, uint32_t cmd)
{
	const char *name = nv_escape_name(e);

	fprintf(f, ",\"escape\":%u,\"escape_name\":", e);
	if (name)
		json_str(f, name);
	else
		fputs("null", f);
	if (has_cmd)
		fprintf(f, ",\"command\":\"0x%08x\"", cmd);
	else
		fputs(",\"command\":null", f);
}

static void json_nvidia(struct report *rep)
{
	struct nvidia_calls *n = nvidia_calls_of(rep->analysis);
	FILE *f = rep->stream;
	int i;

	fprintf(f, ",\"nvidia\":");
	if (!present(rep)) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"probes\":%s,\"commands\":%s,\"statuses\":%s,\"records\":%llu,\"unmatched_returns\":%llu,\"ioctls\":[",
		n->probes ? "true" : "false", n->commands ? "true" : "false",
		n->statuses ? "true" : "false", (unsigned long long)n->records,
		(unsigned long long)n->unmatched);
	for (i = 0; i < n->nr_rows; i++) {
		struct nv_call_row *r = &n->rows[i];

		fputs(i ? ",{" : "{", f);
		json_who(rep, r->pid);
		json_escape(f, r->escape, r->has_cmd, r->ctl_cmd);
		fprintf(f, ",\"calls\":%llu,\"failed\":%llu,\"statuses\":%llu,\"rm_errors\":",
			(unsigned long long)r->ns.count, (unsigned long long)r->failed,
			(unsigned long long)r->statuses);
		report_json_u64(f, r->statuses, r->rm_errors);
		json_dist(f, "", &r->ns);
		fputc('}', f);
	}
	fprintf(f, "],\"more_ioctls\":%llu,\"slowest\":[", (unsigned long long)n->more_rows);
	for (i = 0; i < n->nr_slowest; i++) {
		const struct nv_slow_call *k = &n->slowest[i];

		fprintf(f, "%s{\"ts\":%llu,\"ns\":%llu,\"tid\":%d,\"comm\":", i ? "," : "",
			(unsigned long long)k->ts, (unsigned long long)k->ns, k->tid);
		json_str(f, analysis_comm(rep->analysis, k->tid));
		json_escape(f, k->escape, k->has_cmd, k->ctl_cmd);
		fprintf(f, ",\"ret\":%lld,\"status\":", (long long)k->ret);
		if (k->has_status)
			fprintf(f, "\"0x%08x\"}", k->status);
		else
			fputs("null}", f);
	}
	fputs("],\"processes\":[", f);
	for (i = 0; i < n->nr_procs; i++) {
		const struct nv_process *p = &n->procs[i];

		fputs(i ? ",{" : "{", f);
		json_who(rep, p->pid);
		fprintf(f, ",\"ioctls\":%llu,\"ioctl_ns\":%llu,\"opens\":%llu,\"open_failed\":%llu,\"closes\":%llu,\"mmaps\":%llu,\"mmap_failed\":%llu,\"mmap_bytes\":%llu}",
			(unsigned long long)p->ioctls, (unsigned long long)p->ioctl_ns,
			(unsigned long long)p->opens, (unsigned long long)p->open_failed,
			(unsigned long long)p->closes, (unsigned long long)p->mmaps,
			(unsigned long long)p->mmap_failed, (unsigned long long)p->mmap_bytes);
	}
	fprintf(f, "],\"more_processes\":%llu,\"interrupts\":[", (unsigned long long)n->more_procs);
	for (i = 0; i < n->nr_irqs; i++) {
		struct nv_irq *l = &n->irqs[i];

		fprintf(f, "%s{\"irq\":%d,\"isrs\":%llu,\"msix\":%llu,\"unhandled\":%llu,\"bottom_halves\":%llu,\"rate_hz\":%.3f",
			i ? "," : "", l->irq, (unsigned long long)l->isrs, (unsigned long long)l->msix,
			(unsigned long long)l->unhandled, (unsigned long long)l->bhs, rate_hz(rep, l->isrs));
		json_dist(f, "isr_", &l->isr_ns);
		json_dist(f, "to_bh_", &l->to_bh_ns);
		json_dist(f, "bh_", &l->bh_ns);
		fputc('}', f);
	}
	fprintf(f, "],\"more_isrs\":%llu,\"uvm\":[", (unsigned long long)n->more_isrs);
	for (i = 0; i < n->nr_uvm; i++) {
		struct nv_uvm *u = &n->uvm[i];

		fprintf(f, "%s{\"buffer\":\"%s\",\"gpu\":\"0x%llx\",\"passes\":%llu", i ? "," : "",
			uvm_kind(u), (unsigned long long)u->gpu, (unsigned long long)u->ns.count);
		json_dist(f, "", &u->ns);
		fputc('}', f);
	}
	fprintf(f, "],\"more_uvm_passes\":%llu,\"xids\":[", (unsigned long long)n->more_uvm_passes);
	for (i = 0; i < n->nr_xids; i++) {
		const struct nv_xid *x = &n->xids[i];

		fprintf(f, "%s{\"ts\":%llu,\"pid\":%d,\"code\":%u,\"dev\":", i ? "," : "",
			(unsigned long long)x->ts, x->pid, x->code);
		json_str(f, x->dev);
		fputs(",\"msg\":", f);
		json_str(f, x->msg);
		fputc('}', f);
	}
	fprintf(f, "],\"more_xids\":%llu}", (unsigned long long)n->more_xids);
}

static void csv_dist(FILE *f, struct latency_stats *s)
{
	report_csv_u64(f, s->count, latency_stats_percentile(s, 50));
	report_csv_u64(f, s->count, latency_stats_percentile(s, 99));
	report_csv_u64(f, s->count, s->max);
	fprintf(f, ",%llu", (unsigned long long)s->sum);
}

static void csv_escape(FILE *f, uint32_t e, bool has_cmd, uint32_t cmd)
{
	const char *name = nv_escape_name(e);

	fprintf(f, ",%u,%s,", e, name ? name : "");
	if (has_cmd)
		fprintf(f, "0x%08x", cmd);
}

static void csv_nvidia(struct report *rep)
{
	struct nvidia_calls *n = nvidia_calls_of(rep->analysis);
	FILE *f = rep->stream;
	int i;

	if (!present(rep))
		return;
	fputs("\n# nvidia ioctls\npid,comm,escape,escape_name,command,calls,failed,statuses,rm_errors,p50_ns,p99_ns,max_ns,total_ns\n", f);
	for (i = 0; i < n->nr_rows; i++) {
		struct nv_call_row *r = &n->rows[i];

		fprintf(f, "%d,", r->pid);
		report_csv_text(f, analysis_comm(rep->analysis, r->pid));
		csv_escape(f, r->escape, r->has_cmd, r->ctl_cmd);
		fprintf(f, ",%llu,%llu,%llu", (unsigned long long)r->ns.count,
			(unsigned long long)r->failed, (unsigned long long)r->statuses);
		report_csv_u64(f, r->statuses, r->rm_errors);
		csv_dist(f, &r->ns);
		fputc('\n', f);
	}
	fputs("\n# nvidia slowest ioctls\nts,ns,tid,comm,escape,escape_name,command,ret,status\n", f);
	for (i = 0; i < n->nr_slowest; i++) {
		const struct nv_slow_call *k = &n->slowest[i];

		fprintf(f, "%llu,%llu,%d,", (unsigned long long)k->ts, (unsigned long long)k->ns, k->tid);
		report_csv_text(f, analysis_comm(rep->analysis, k->tid));
		csv_escape(f, k->escape, k->has_cmd, k->ctl_cmd);
		fprintf(f, ",%lld,", (long long)k->ret);
		if (k->has_status)
			fprintf(f, "0x%08x", k->status);
		fputc('\n', f);
	}
	fputs("\n# nvidia processes\npid,comm,ioctls,ioctl_ns,opens,open_failed,closes,mmaps,mmap_failed,mmap_bytes\n", f);
	for (i = 0; i < n->nr_procs; i++) {
		const struct nv_process *p = &n->procs[i];

		fprintf(f, "%d,", p->pid);
		report_csv_text(f, analysis_comm(rep->analysis, p->pid));
		fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)p->ioctls,
			(unsigned long long)p->ioctl_ns, (unsigned long long)p->opens,
			(unsigned long long)p->open_failed, (unsigned long long)p->closes,
			(unsigned long long)p->mmaps, (unsigned long long)p->mmap_failed,
			(unsigned long long)p->mmap_bytes);
	}
	fputs("\n# nvidia interrupts\nirq,isrs,msix,unhandled,bottom_halves,rate_hz,isr_p50_ns,isr_p99_ns,isr_max_ns,isr_total_ns,to_bh_p50_ns,to_bh_p99_ns,to_bh_max_ns,to_bh_total_ns,bh_p50_ns,bh_p99_ns,bh_max_ns,bh_total_ns\n", f);
	for (i = 0; i < n->nr_irqs; i++) {
		struct nv_irq *l = &n->irqs[i];

		fprintf(f, "%d,%llu,%llu,%llu,%llu,%.3f", l->irq, (unsigned long long)l->isrs,
			(unsigned long long)l->msix, (unsigned long long)l->unhandled,
			(unsigned long long)l->bhs, rate_hz(rep, l->isrs));
		csv_dist(f, &l->isr_ns);
		csv_dist(f, &l->to_bh_ns);
		csv_dist(f, &l->bh_ns);
		fputc('\n', f);
	}
	fputs("\n# nvidia uvm\nbuffer,gpu,passes,p50_ns,p99_ns,max_ns,total_ns\n", f);
	for (i = 0; i < n->nr_uvm; i++) {
		struct nv_uvm *u = &n->uvm[i];

		fprintf(f, "%s,0x%llx,%llu", uvm_kind(u), (unsigned long long)u->gpu,
			(unsigned long long)u->ns.count);
		csv_dist(f, &u->ns);
		fputc('\n', f);
	}
	fputs("\n# nvidia xids\nts,pid,code,dev,msg\n", f);
	for (i = 0; i < n->nr_xids; i++) {
		const struct nv_xid *x = &n->xids[i];

		fprintf(f, "%llu,%d,%u,", (unsigned long long)x->ts, x->pid, x->code);
		report_csv_text(f, x->dev);
		fputc(',', f);
		report_csv_text(f, x->msg);
		fputc('\n', f);
	}
}

const struct report_section report_section_nvidia = {
	.name = "nvidia",
	.with_queues = false,
	.write = {
		[REPORT_SECTION_TEXT] = text_nvidia,
		[REPORT_SECTION_JSON] = json_nvidia,
		[REPORT_SECTION_CSV] = csv_nvidia,
	},
};
