// SPDX-License-Identifier: GPL-2.0
/* What gpu-trace top draws each interval: a screen, or a JSON line. */
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "capture/cmdlines.h"
#include "cmd.h"
#include "top.h"

void top_view_measure(struct top_view *v)
{
	struct winsize ws;

	v->rows = v->cols = 0;
	if (!v->json && !ioctl(fileno(v->out), TIOCGWINSZ, &ws) && ws.ws_col) {
		v->rows = ws.ws_row;
		v->cols = ws.ws_col;
	}
}

/* One line, cut to the terminal's width; nothing once the screen is full. */
static void line(struct top_view *v, int *row, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void line(struct top_view *v, int *row, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (v->rows && *row >= v->rows - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (v->cols && (int)strlen(text) > v->cols)
		text[v->cols] = '\0';
	/* comms and ring names are any process's to choose: escaped */
	term_safe_puts(v->out, text);
	/* a pipe gets plain frames, as top -b writes them: no cursor codes */
	fputs(v->rows ? "\033[K\n" : "\n", v->out);
	(*row)++;
}

/* A live trace has no saved_cmdlines: name a pid from /proc while it lives. */
static const char *comm_of(struct top_view *v, int pid)
{
	const char *comm = analysis_comm(v->analysis, pid);
	char now[64];

	if (strcmp(comm, "<...>") || cmdlines_proc_comm(pid, now, sizeof(now)))
		return comm;
	analysis_name_pid(v->analysis, pid, now);
	return analysis_comm(v->analysis, pid);
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static void groups(struct top_view *v, int *row, const char *title,
		   const struct live_group_row *g, int nr, bool processes)
{
	int i;

	if (!nr)
		return;
	line(v, row, "%s", "");
	line(v, row, "%-28s %10s %14s %12s", title, "JOBS/S", "AVG WAIT us", "JOBS");
	for (i = 0; i < nr; i++) {
		char who[64];

		if (processes)
			snprintf(who, sizeof(who), "%llu %s", (unsigned long long)g[i].key,
				 comm_of(v, (int)g[i].key));
		else
			snprintf(who, sizeof(who), "%llu", (unsigned long long)g[i].key);
		line(v, row, "%-28.28s %10.1f %14.1f %12llu", who, g[i].jobs_per_s,
		     us(g[i].avg_wait_ns), (unsigned long long)g[i].total_jobs);
	}
}

void top_view_text(struct top_view *v, const struct live_snapshot *s, enum live_sort sort)
{
	int row = 0, i;

	if (v->paused)
		return;
	/* home, not clear: no flicker; what is left below is cleared at the end */
	fputs(v->rows ? "\033[H" : "\n", v->out);
	line(v, &row, "gpu-trace top  %7.1f s  interval %.1f s  sort %s  lost %llu   q quit  s sort  p pause  r reset",
	     v->elapsed_s, s->interval_s, live_sort_name(sort), (unsigned long long)s->lost);
	line(v, &row, "%-16s %8s %6s %6s %5s %6s %21s %21s | %8s %17s",
	     "RING", "JOBS/S", "BUSY%", "QUEUED", "ON HW", "WAITED", "Q->RUN p50/p99 us",
	     "EXEC p50/p99 us", "JOBS", "SINCE Q->RUN p99");
	for (i = 0; i < s->nr_rings; i++) {
		const struct live_ring_row *r = &s->rings[i];

		line(v, &row, "%-16.16s %8.1f %6.1f %6lld %5lld %6llu %10.1f/%10.1f %10.1f/%10.1f | %8llu %17.1f",
		     r->name, r->jobs_per_s, r->busy_pct, (long long)r->in_flight,
		     (long long)r->on_hw, (unsigned long long)r->waited, us(r->queue_to_run_p50),
		     us(r->queue_to_run_p99), us(r->exec_p50), us(r->exec_p99),
		     (unsigned long long)r->total_jobs, us(r->total_queue_to_run_p99));
	}
	if (!s->nr_rings)
		line(v, &row, "(no GPU jobs yet)");
	if (s->last_hang && s->last_hang->is_xe && s->last_hang->xe_ring[0])
		line(v, &row, "HANGS %llu ring timeout%s, %llu GPU reset%s; last: xe %s (%s) timed out at %.6f (job seqno %u) with %zu job%s in flight",
		     (unsigned long long)s->timeouts, s->timeouts == 1 ? "" : "s",
		     (unsigned long long)s->resets, s->resets == 1 ? "" : "s", s->last_hang->ring,
		     s->last_hang->xe_ring, (double)s->last_hang->ts / 1e9, s->last_hang->xe.seqno,
		     s->last_hang->jobs_in_flight, s->last_hang->jobs_in_flight == 1 ? "" : "s");
	else if (s->last_hang && s->last_hang->is_xe)
		/* no scheduler ring named for its GuC queue: its jobs in flight are not known */
		line(v, &row, "HANGS %llu ring timeout%s, %llu GPU reset%s; last: xe %s timed out at %.6f (job seqno %u)",
		     (unsigned long long)s->timeouts, s->timeouts == 1 ? "" : "s",
		     (unsigned long long)s->resets, s->resets == 1 ? "" : "s", s->last_hang->ring,
		     (double)s->last_hang->ts / 1e9, s->last_hang->xe.seqno);
	else if (s->last_hang)
		line(v, &row, "HANGS %llu ring timeout%s, %llu GPU reset%s; last: %s timed out at %.6f with %zu job%s in flight%s",
		     (unsigned long long)s->timeouts, s->timeouts == 1 ? "" : "s",
		     (unsigned long long)s->resets, s->resets == 1 ? "" : "s", s->last_hang->ring,
		     (double)s->last_hang->ts / 1e9, s->last_hang->jobs_in_flight,
		     s->last_hang->jobs_in_flight == 1 ? "" : "s",
		     s->last_hang->soft_recovered ? " (soft-recovered)" : "");
	groups(v, &row, "PROCESS", s->procs, s->nr_procs, true);
	groups(v, &row, "DRM CLIENT ID", s->clients, s->nr_clients, false);
	if (v->rows)
		fputs("\033[J", v->out);
	fflush(v->out);
}

static void pair(FILE *f, const char *key, uint64_t p50, uint64_t p99)
{
	fprintf(f, ",\"%s\":{\"p50\":%llu,\"p99\":%llu}", key, (unsigned long long)p50,
		(unsigned long long)p99);
}

static void json_groups(struct top_view *v, const char *key, const struct live_group_row *g,
			int nr, bool processes)
{
	int i;

	fprintf(v->out, ",\"%s\":[", key);
	for (i = 0; i < nr; i++) {
		fprintf(v->out, "%s{\"%s\":%llu,", i ? "," : "", processes ? "pid" : "client_id",
			(unsigned long long)g[i].key);
		if (processes) {
			fputs("\"comm\":", v->out);
			json_str(v->out, comm_of(v, (int)g[i].key));
			fputc(',', v->out);
		}
		fprintf(v->out, "\"jobs_per_s\":%.3f,\"avg_wait_ns\":%llu,\"jobs\":%llu}",
			g[i].jobs_per_s, (unsigned long long)g[i].avg_wait_ns,
			(unsigned long long)g[i].total_jobs);
	}
	fputc(']', v->out);
}

void top_view_json(struct top_view *v, const struct live_snapshot *s)
{
	int i;

	fprintf(v->out, "{\"schema\":\"gpu-trace-top/2\",\"clock_ns\":%llu,\"elapsed_s\":%.3f,\"interval_s\":%.3f,\"lost\":%llu,\"rings\":[",
		(unsigned long long)v->clock_ns, v->elapsed_s, s->interval_s,
		(unsigned long long)s->lost);
	for (i = 0; i < s->nr_rings; i++) {
		const struct live_ring_row *r = &s->rings[i];

		fprintf(v->out, "%s{\"name\":", i ? "," : "");
		json_str(v->out, r->name);
		fprintf(v->out, ",\"jobs_per_s\":%.3f,\"busy_pct\":%.3f,\"queued\":%lld,\"on_hw\":%lld,\"waited\":%llu",
			r->jobs_per_s, r->busy_pct, (long long)r->in_flight, (long long)r->on_hw,
			(unsigned long long)r->waited);
		pair(v->out, "queue_to_run_ns", r->queue_to_run_p50, r->queue_to_run_p99);
		pair(v->out, "exec_ns", r->exec_p50, r->exec_p99);
		fprintf(v->out, ",\"since_start\":{\"jobs\":%llu", (unsigned long long)r->total_jobs);
		pair(v->out, "queue_to_run_ns", r->total_queue_to_run_p50, r->total_queue_to_run_p99);
		pair(v->out, "exec_ns", r->total_exec_p50, r->total_exec_p99);
		fputs("}}", v->out);
	}
	fputc(']', v->out);
	json_groups(v, "processes", s->procs, s->nr_procs, true);
	json_groups(v, "clients", s->clients, s->nr_clients, false);
	fprintf(v->out, ",\"timeouts\":%llu,\"resets\":%llu,\"last_timeout\":",
		(unsigned long long)s->timeouts, (unsigned long long)s->resets);
	if (s->last_hang) {
		fprintf(v->out, "{\"at_ns\":%llu,\"ring\":", (unsigned long long)s->last_hang->ts);
		json_str(v->out, s->last_hang->ring);
		fprintf(v->out, ",\"jobs_in_flight\":%zu,\"soft_recovered\":%s}", s->last_hang->jobs_in_flight,
			s->last_hang->soft_recovered ? "true" : "false");
	} else {
		fputs("null", v->out);
	}
	fputs("}\n", v->out);
	fflush(v->out);
}
