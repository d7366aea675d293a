// SPDX-License-Identifier: GPL-2.0
/*
 * --format parquet -o DIR: each input's tables (parquet-tables.h) as one
 * Parquet file per table, DIR/TABLE/host=HOST/RUN.parquet, the Hive layout
 * every engine reads as one table with a host column: a directory of many
 * runs of many hosts is one dataset. Each file is written under a private
 * name beside its place and renamed there once complete (outfile.h: mode
 * 0640, an existing file kept unless --force).
 *
 * The host is the file's own (record's host marker); the folder is chosen
 * when the first job of the input is written, by which time the markers,
 * record's first records, have been read: one input's tables all go into
 * one host folder.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"
#include "output/parquet-tables.h"
#include "output/report-formats.h"
#include "analysis/host-clock.h"

struct parquet_file {
	struct outfile of;
	FILE *f;
	struct pq_writer w;
	bool open;
};

struct parquet_out {
	char host[72];			/* this input's folder name: host=@host */
	char run[256];			/* this input's name without folder and .dat */
	struct parquet_file files[PQT_NR];
	char (*written)[72 + 256];	/* host/run of each input */
	int nr_written;
	uint64_t nr_files, rows[PQT_NR];
	struct gt_error err;		/* what a job's write met (job() returns nothing) */
	bool failed;
};

/* what a folder may be named: the host's name with anything else than [A-Za-z0-9._-] as '_' */
static void host_folder(char *out, size_t len, const struct host_clock *h)
{
	const char *name = h && h->known && h->name[0] ? h->name : "unknown";
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++) {
		char c = name[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '-' || c == '_' || (c == '.' && i);

		out[i] = ok ? c : '_';
	}
	out[i] = '\0';
}

/*
 * "runs/node07/step-12.dat" -> "step-12"; a leading '.' as '_': engines
 * take a dot file for a hidden one (and ours are the temporaries)
 */
static void run_name(char *out, size_t len, const char *file)
{
	const char *base = strrchr(file, '/');
	size_t n;

	base = base ? base + 1 : file;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".dat"))
		n -= 4;
	if (!n)
		base = "trace", n = 5;
	snprintf(out, len, "%.*s", (int)n, base);
	if (out[0] == '.')
		out[0] = '_';
}

static int make_dir(const char *path, struct gt_error *err)
{
	struct stat st;

	if (!mkdir(path, 0750) || errno == EEXIST) {
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			return 0;
		return gt_error_set(err, ENOTDIR, "%s is not a directory; --format parquet -o names the directory its tables go into",
				    path);
	}
	return gt_error_set(err, errno, "cannot make the directory %s: %s", path, strerror(errno));
}

static int parquet_open(struct report *rep, struct gt_error *err)
{
	struct parquet_out *p;

	if (!rep->opts.output)
		return gt_error_set(err, EINVAL, "--format parquet writes a directory of tables; give -o DIR");
	if (make_dir(rep->opts.output, err))
		return -1;
	p = calloc(1, sizeof(*p));
	if (p)
		p->written = calloc(REPORT_MAX_INPUTS, sizeof(*p->written));
	if (!p || !p->written) {
		free(p);
		return gt_error_set(err, ENOMEM, "out of memory");
	}
	rep->out = p;
	return 0;
}

static int parquet_begin(struct report *rep, struct gt_error *err)
{
	struct parquet_out *p = rep->out;

	run_name(p->run, sizeof(p->run), rep->opts.file);
	p->host[0] = '\0';
	(void)err;
	return 0;
}

/* the input's folder, once: two inputs of one host and one name would write one file */
static int choose_host(struct report *rep, struct gt_error *err)
{
	struct parquet_out *p = rep->out;
	char mine[sizeof(p->written[0])];
	int i;

	if (p->host[0])
		return 0;
	host_folder(p->host, sizeof(p->host), host_clock_of(rep->analysis));
	snprintf(mine, sizeof(mine), "%s/%s", p->host, p->run);
	for (i = 0; i < p->nr_written; i++)
		if (!strcmp(p->written[i], mine))
			return gt_error_set(err, EEXIST, "two inputs of host %s are named %s: their tables would be one file (%s/jobs/host=%s/%s.parquet); report them into different directories or rename one",
					    p->host, p->run, rep->opts.output, p->host, p->run);
	if (p->nr_written < REPORT_MAX_INPUTS)
		memcpy(p->written[p->nr_written++], mine, sizeof(mine));
	return 0;
}

/* the temporary file about to be made (""), open, or none (NULL): cmd/ removes it on a stop */
static void temp_file(struct report *rep, const char *path)
{
	if (rep->temp_file)
		rep->temp_file(path);
}

static void file_discard(struct report *rep, struct parquet_file *pf)
{
	outfile_discard(&pf->of);
	temp_file(rep, NULL);
}

static int file_open(struct report *rep, enum parquet_table_id t, struct gt_error *err)
{
	struct parquet_out *p = rep->out;
	struct parquet_file *pf = &p->files[t];
	char path[4096];
	int fd, ret;

	if (choose_host(rep, err))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", rep->opts.output, parquet_tables[t].name);
	if (make_dir(path, err))
		return -1;
	ret = snprintf(path, sizeof(path), "%s/%s/host=%s", rep->opts.output, parquet_tables[t].name,
		       p->host);
	if (ret < 0 || (size_t)ret >= sizeof(path) - sizeof(p->run) - 16)
		return gt_error_set(err, ENAMETOOLONG, "the output directory's name is too long: %s",
				    rep->opts.output);
	if (make_dir(path, err))
		return -1;
	snprintf(path + ret, sizeof(path) - (size_t)ret, "/%s.parquet", p->run);
	pf->of.fd = -1;
	temp_file(rep, "");
	if (outfile_create(&pf->of, path, rep->opts.force, NULL, err)) {
		temp_file(rep, NULL);
		return -1;
	}
	temp_file(rep, pf->of.tmp_path);
	fd = dup(pf->of.fd);
	pf->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!pf->f) {
		gt_error_set(err, errno, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		file_discard(rep, pf);
		return -1;
	}
	pf->open = true;
	ret = pq_open(&pf->w, pf->f, parquet_tables[t].cols, parquet_tables[t].nr_cols);
	if (ret)
		return gt_error_set(err, -ret, "cannot write %s: %s", path, strerror(-ret));
	return 0;
}

/* the footer, the file closed and renamed into place */
static int file_close(struct report *rep, enum parquet_table_id t, struct gt_error *err)
{
	const struct host_clock *h = host_clock_of(rep->analysis);
	struct parquet_out *p = rep->out;
	struct parquet_file *pf = &p->files[t];
	char offset[32] = "";
	uint64_t unc;
	int64_t off;
	const char *const kv[][2] = {
		{ "gpu-trace.schema", PARQUET_SCHEMA },
		{ "gpu-trace.table", parquet_tables[t].name },
		{ "gpu-trace.file", rep->opts.file },
		{ "gpu-trace.host", h && h->known ? h->name : "" },
		{ "gpu-trace.clock", rep->meta->clock },
		/* "": no clock pairs, the *_utc columns are null */
		{ "gpu-trace.utc_offset_ns", offset },
	};
	int ret;

	if (host_clock_offset(h, &off, &unc))
		snprintf(offset, sizeof(offset), "%" PRId64, off);
	p->rows[t] += pf->w.total_rows + pf->w.rows;
	ret = pq_close(&pf->w, kv, (int)(sizeof(kv) / sizeof(kv[0])));
	pf->open = false;
	if (fclose(pf->f) && !ret)
		ret = -(errno ? errno : EIO);
	pf->f = NULL;
	if (ret) {
		file_discard(rep, pf);
		return gt_error_set(err, -ret, "writing %s failed: %s; check the disk it goes to",
				    pf->of.path, strerror(-ret));
	}
	if (outfile_commit(&pf->of, rep->opts.force, err)) {
		file_discard(rep, pf);
		return -1;
	}
	temp_file(rep, NULL);
	p->nr_files++;
	return 0;
}

static void parquet_job(struct report *rep, const struct job *j)
{
	struct parquet_out *p = rep->out;
	struct parquet_file *pf = &p->files[PQT_JOBS];
	int ret;

	if (p->failed)
		return;
	if (!pf->open && file_open(rep, PQT_JOBS, &p->err)) {
		p->failed = true;
		return;
	}
	parquet_job_row(rep, &pf->w, p->run, j);
	ret = pq_row_end(&pf->w);
	if (ret) {
		gt_error_set(&p->err, -ret, "writing %s failed: %s; check the disk it goes to",
			     pf->of.path, strerror(-ret));
		p->failed = true;
	}
}

/* a write of a job's that failed ends the pass (report_output.write_error) */
static int parquet_write_error(const struct report *rep)
{
	const struct parquet_out *p = rep->out;

	return p->failed ? (p->err.errnum ? p->err.errnum : EIO) : 0;
}

static int parquet_end(struct report *rep, struct gt_error *err)
{
	struct parquet_out *p = rep->out;
	int t;

	if (p->failed) {
		*err = p->err;
		return -1;
	}
	/* the jobs' file first: one temporary file open at a time */
	if ((!p->files[PQT_JOBS].open && file_open(rep, PQT_JOBS, err)) ||
	    file_close(rep, PQT_JOBS, err))
		return -1;
	for (t = 0; t < PQT_NR; t++) {
		if (!parquet_tables[t].rows)
			continue;
		if (file_open(rep, t, err))
			return -1;
		parquet_tables[t].rows(rep, &p->files[t].w, p->run);
		if (file_close(rep, t, err))
			return -1;
	}
	return 0;
}

static int parquet_note(const struct report *rep, char *buf, size_t len)
{
	const struct parquet_out *p = rep->out;

	if (!p || !p->nr_files)
		return 0;
	snprintf(buf, len, "wrote %" PRIu64 " Parquet files under %s (%" PRIu64 " job%s, %" PRIu64 " ring%s; schema %s): read them with DuckDB's read_parquet('%s/jobs/*/*.parquet', hive_partitioning = true)",
		 p->nr_files, rep->opts.output, p->rows[PQT_JOBS], report_plural(p->rows[PQT_JOBS]),
		 p->rows[PQT_RINGS], report_plural(p->rows[PQT_RINGS]), PARQUET_SCHEMA,
		 rep->opts.output);
	return 1;
}

static void parquet_done(struct report *rep)
{
	struct parquet_out *p = rep->out;
	int t;

	if (!p)
		return;
	for (t = 0; t < PQT_NR; t++) {
		if (!p->files[t].open)
			continue;
		pq_free(&p->files[t].w);
		fclose(p->files[t].f);
		file_discard(rep, &p->files[t]);
	}
	free(p->written);
	free(p);
	rep->out = NULL;
}

const struct report_output report_parquet = {
	.name = "parquet",
	.every_job = true,
	.directory = true,
	.utc_first = true,
	.open = parquet_open,
	.begin = parquet_begin,
	.job = parquet_job,
	.end = parquet_end,
	.write_error = parquet_write_error,
	.note = parquet_note,
	.done = parquet_done,
};
