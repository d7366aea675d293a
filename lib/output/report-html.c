// SPDX-License-Identifier: GPL-2.0
/*
 * --format html: one page that opens offline (lib/output/report-page.html, carried
 * in the binary) with the data embedded: per input file, every job as a
 * fixed-size binary row in base64 (lib/output/html-job-rows.c), the ioctls
 * jobs were queued from likewise, then, as JSON, the JSON report's summary
 * sections, the lost-event windows, the HIP runtime's lines and the ioctls' names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json-str.h"
#include "output/html-job-rows.h"
#include "output/report-formats.h"
#include "analysis/cpu-side.h"
#include "analysis/hip-runtime.h"

#define DATA_MARK "<!--GT-DATA-->"

#define MAX_HIP_MARKS	200000	/* per file: the page stays loadable */

struct report_html {
	FILE *page;			/* the report's stream */
	FILE *data;			/* the same, '<' written as \u003c */
	struct lost_window { int cpu; uint64_t from, to; } *lost;
	size_t nr_lost, cap_lost;
	struct html_job_rows rows;	/* the file's jobs */
	uint64_t all_rows, left_out;	/* every file's, for the note */
	/* the HIP runtime's lines: pid, time, kind, a kernel name for dispatches */
	struct hip_mark { int pid; uint64_t ts; enum hip_kind kind; int proc, kernel; } *hip;
	size_t nr_hip, cap_hip;
	uint64_t hip_dropped;
	/* the file's ioctl numbers that queued jobs, each row naming one by its place */
	uint64_t ioctl_cmds[HTML_IOCTL_NAMES];
	unsigned int nr_ioctl_cmds;
	int ioctl_errno;		/* the ioctls' temporary file could not be made */
};

static const char page[] =
#include "report-page.h"
	;

/*
 * Inside <script> a "</script" or "<!--" in a string (a comm, a file name)
 * would end or confuse the block; '<' only ever occurs inside JSON strings,
 * where \u003c means the same.
 */
static ssize_t data_write(void *cookie, const char *buf, size_t len)
{
	FILE *out = cookie;
	size_t i, from = 0;

	for (i = 0; i < len; i++) {
		if (buf[i] != '<')
			continue;
		if (fwrite(buf + from, 1, i - from, out) != i - from || fputs("\\u003c", out) < 0)
			return -1;
		from = i + 1;
	}
	if (fwrite(buf + from, 1, len - from, out) != len - from)
		return -1;
	return (ssize_t)len;
}

static int html_open(struct report *rep, struct gt_error *err)
{
	struct report_html *h = calloc(1, sizeof(*h));

	if (!h)
		return gt_error_set(err, ENOMEM, "out of memory");
	h->page = rep->stream;
	h->data = fopencookie(h->page, "w", (cookie_io_functions_t){ .write = data_write });
	if (!h->data) {
		free(h);
		return gt_error_set(err, ENOMEM, "out of memory");
	}
	rep->out = h;
	return 0;
}

/* before the page is closed: the filter may hold what it has not written (a failed report) */
static void html_close(struct report *rep)
{
	struct report_html *h = rep->out;

	if (!h)
		return;
	if (h->data)
		fclose(h->data);
	h->data = NULL;
	html_job_rows_free(&h->rows);
	rep->stream = h->page;
	free(h->lost);
	free(h->hip);
	h->lost = NULL;
	h->hip = NULL;
}

static int note_hip(struct report_html *h, struct analysis *a, struct tep_record *rec)
{
	const struct hip_runtime *hip = hip_runtime_of(a);
	struct hip_mark *m;

	if (h->nr_hip == MAX_HIP_MARKS) {
		h->hip_dropped++;
		return 0;
	}
	if (h->nr_hip == h->cap_hip) {
		size_t cap = h->cap_hip ? 2 * h->cap_hip : 256;

		m = realloc(h->hip, cap * sizeof(*m));
		if (!m)
			return -1;
		h->hip = m;
		h->cap_hip = cap;
	}
	h->hip[h->nr_hip++] = (struct hip_mark){ tep_data_pid(analysis_tep(a), rec), rec->ts,
						 analysis_hip_line(a)->kind, hip->last_proc,
						 hip->last_kernel ? hip->last_kernel_index : -1 };
	return 0;
}

static int html_record(struct analysis *a, struct tep_record *rec,
		       const struct gpu_event *ev, void *ctx)
{
	struct report_html *h = ((struct report *)ctx)->out;
	struct lost_window *w;

	(void)ev;
	if (analysis_hip_line(a) && note_hip(h, a, rec))
		return -1;
	if (analysis_record_missed(a)) {
		if (h->nr_lost == h->cap_lost) {
			size_t cap = h->cap_lost ? 2 * h->cap_lost : 16;

			w = realloc(h->lost, cap * sizeof(*w));
			if (!w)
				return -1;
			h->lost = w;
			h->cap_lost = cap;
		}
		h->lost[h->nr_lost++] = (struct lost_window){ rec->cpu, analysis_lost_from(a),
								rec->ts };
	}
	return 0;
}

static int html_begin(struct report *rep, struct gt_error *err)
{
	struct report_html *h = rep->out;
	const char *mark = strstr(page, DATA_MARK);

	if (!rep->input)
		fwrite(page, 1, (size_t)(mark - page), h->page);
	rep->stream = h->data;
	h->nr_lost = 0;
	h->nr_hip = 0;
	h->hip_dropped = 0;
	h->nr_ioctl_cmds = 0;
	h->ioctl_errno = 0;
	/* base64 has no '<': straight onto the page */
	fputs("<script type=\"text/plain\" class=\"gt-jobs\">", h->page);
	if (!html_job_rows_begin(&h->rows, h->page))
		return gt_error_set(err, errno, "cannot make a temporary file for the page's job keys in /tmp: %s; free space there or check its permissions",
				    strerror(errno));
	return 0;
}

/* the place of @cmd in the file's names, added if there is room */
static unsigned int ioctl_name(struct report_html *h, uint64_t cmd)
{
	unsigned int k;

	for (k = 0; k < h->nr_ioctl_cmds; k++)
		if (h->ioctl_cmds[k] == cmd)
			return k;
	if (k == HTML_IOCTL_NAMES)
		return HTML_IOCTL_OTHER;
	h->ioctl_cmds[h->nr_ioctl_cmds++] = cmd;
	return k;
}

static void html_job(struct report *rep, const struct job *j)
{
	struct report_html *h = rep->out;
	const struct cpu_job_ioctl *io;

	if (!html_job_rows_add(&h->rows, j))
		return;
	io = cpu_side_job_ioctl(rep->analysis, j);
	if (!io)
		return;
	/* no temporary file: the page's end says so, with its one line */
	if (!h->ioctl_errno && !html_job_rows_ioctl(&h->rows, &(struct html_ioctl){
			.enter = io->enter, .to_queued_ns = io->to_queued_ns,
			.on_cpu_ns = io->split.on_cpu_ns, .runnable_ns = io->split.runnable_ns,
			.sleeping_ns = io->split.sleeping_ns, .blocked_ns = io->split.blocked_ns,
			.irq_ns = io->split.irq_ns, .tid = io->pid, .name = ioctl_name(h, io->cmd) }))
		h->ioctl_errno = errno ? errno : EIO;
}

static void ioctl_names(struct report *rep)
{
	struct report_html *h = rep->out;
	enum gpu_ioctl_driver driver = cpu_side_of(rep->analysis)->driver;
	char name[64];
	unsigned int k;

	fputs(",\"ioctl_names\":[", rep->stream);
	for (k = 0; k < h->nr_ioctl_cmds; k++) {
		if (k)
			fputc(',', rep->stream);
		json_str(rep->stream, gpu_ioctl_name(h->ioctl_cmds[k], driver, name, sizeof(name)));
	}
	fputc(']', rep->stream);
}

static int html_end(struct report *rep, struct gt_error *err)
{
	struct report_html *h = rep->out;
	size_t i;

	if (h->ioctl_errno)
		return gt_error_set(err, h->ioctl_errno, "cannot make a temporary file for the page's job ioctls in /tmp: %s; free space there or check its permissions",
				    strerror(h->ioctl_errno));
	html_job_rows_end(&h->rows);
	fputs("</script>\n<script type=\"text/plain\" class=\"gt-keys\">", h->page);
	if (!html_job_rows_keys(&h->rows))
		return gt_error_set(err, errno ? errno : EIO, "writing the page's job keys failed: %s; check the disk it goes to",
				    strerror(errno ? errno : EIO));
	fputs("</script>\n<script type=\"text/plain\" class=\"gt-ioctls\">", h->page);
	if (!html_job_rows_ioctls(&h->rows))
		return gt_error_set(err, errno ? errno : EIO, "writing the page's job ioctls failed: %s; check the disk /tmp is on and the one the page goes to",
				    strerror(errno ? errno : EIO));
	fputs("</script>\n<script type=\"application/json\" class=\"gt-source\">", h->page);
	fprintf(rep->stream, "{\"schema\":\"gpu-trace-html/3\",\"offset_ns\":%lld,\"rows\":%llu",
		(long long)rep->opts.inputs[rep->input].offset, (unsigned long long)h->rows.rows);
	report_json_summary(rep);
	fputs(",\"lost_windows\":[", rep->stream);
	for (i = 0; i < h->nr_lost; i++)
		fprintf(rep->stream, "%s[%d,%llu,%llu]", i ? "," : "", h->lost[i].cpu,
			(unsigned long long)h->lost[i].from, (unsigned long long)h->lost[i].to);
	fprintf(rep->stream, "],\"hip_dropped\":%llu,\"hip_marks\":[", (unsigned long long)h->hip_dropped);
	for (i = 0; i < h->nr_hip; i++) {
		const struct hip_mark *m = &h->hip[i];

		fprintf(rep->stream, "%s[%d,%llu,\"%s\",", i ? "," : "", m->pid,
			(unsigned long long)m->ts, hip_kind_name(m->kind));
		json_str(rep->stream, m->kernel >= 0 ?
			 hip_runtime_of(rep->analysis)->procs[m->proc].kernels[m->kernel].name : "");
		fputc(']', rep->stream);
	}
	fputc(']', rep->stream);
	ioctl_names(rep);
	fputc('}', rep->stream);
	/* what the filter holds goes out before the page's own closing tag */
	fflush(rep->stream);
	fputs("</script>\n", h->page);
	h->all_rows += h->rows.rows;
	h->left_out += h->rows.left_out;
	return 0;
}

static void html_finish(struct report *rep)
{
	struct report_html *h = rep->out;
	const char *mark = strstr(page, DATA_MARK) + strlen(DATA_MARK);

	/* a write that failed below left its error on the page's stream */
	fclose(h->data);
	h->data = NULL;
	rep->stream = h->page;
	fputs(mark, h->page);
}

/* once the page is complete: where it is, and what it holds */
static int html_note(const struct report *rep, char *buf, size_t len)
{
	const struct report_html *h = rep->out;

	if (!h || !rep->opts.output)
		return 0;
	snprintf(buf, len, "wrote %s: %llu job%s of %d file%s%s; open it in a browser (it needs no network)",
		 rep->opts.output, (unsigned long long)h->all_rows, report_plural(h->all_rows),
		 rep->opts.nr_inputs, rep->opts.nr_inputs == 1 ? "" : "s",
		 h->left_out ? " (jobs of rings past the 65,535th left out)" : "");
	return 1;
}

static void html_done(struct report *rep)
{
	free(rep->out);
	rep->out = NULL;
}

const struct report_output report_html = {
	.name = "html",
	.every_job = true,
	.timeline = true,
	.not_to_terminal = "--format html writes a page; give -o FILE.html and open it in a browser",
	.open = html_open,
	.begin = html_begin,
	.on_record = html_record,
	.kinds_unread = ~0ULL,			/* it reads the record and HIP lines, no event */
	.job = html_job,
	.end = html_end,
	.finish = html_finish,
	.close = html_close,
	.note = html_note,
	.done = html_done,
};
