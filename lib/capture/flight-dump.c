// SPDX-License-Identifier: GPL-2.0
/* The flight recorder's dumps: the ring as a .dat, and the directory that keeps them. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "capture/cmdlines.h"
#include "capture/dat-writer.h"
#include "capture/flight-dump.h"
#include "dat/page-scan.h"
#include "dat/rb-read.h"
#include "tracefs/trace-file.h"
#include "util/outfile.h"

/* files a directory listing considers: a directory of more is not ours to sort */
#define FLIGHT_DIR_MAX	100000

/* A host name as a file name carries it: letters, digits, '.', '_' and '-' */
static void file_word(char *out, size_t len, const char *in)
{
	size_t n = 0;

	for (; *in && n + 1 < len; in++)
		out[n++] = (*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') ||
			   (*in >= '0' && *in <= '9') || *in == '.' || *in == '_' || *in == '-' ?
			   *in : '_';
	if (!n)
		out[n++] = '-';
	out[n] = '\0';
}

int flight_dir_open(struct flight_dir *d, const char *path, struct gt_error *err)
{
	struct utsname u;
	struct stat st;

	d->fd = -1;
	if (snprintf(d->path, sizeof(d->path), "%s", path) >= (int)sizeof(d->path))
		return gt_error_set(err, ENAMETOOLONG, "-o %.64s...: the path is too long", path);
	if (mkdir(path, 0750) && errno != EEXIST)
		return gt_error_set(err, errno, "cannot make the dump directory %s: %s; give -o DIR where root can write",
				    path, strerror(errno));
	d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0)
		return gt_error_set(err, errno, "cannot open the dump directory %s: %s; give -o DIR, a directory",
				    path, strerror(errno));
	/*
	 * The recorder runs as root for days: whoever else may write the
	 * directory could swap the dumps for their own or fill it, and pruning
	 * would delete what they planted under this host's names.
	 */
	if (fstat(d->fd, &st))
		return gt_error_set(err, errno, "cannot stat the dump directory %s: %s", path,
				    strerror(errno));
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return gt_error_set(err, EPERM, "the dump directory %s belongs to uid %u, who could replace the dumps; give -o DIR owned by root",
				    path, (unsigned int)st.st_uid);
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
		return gt_error_set(err, EPERM, "the dump directory %s is writable by everyone; give -o DIR only root can write",
				    path);
	file_word(d->host, sizeof(d->host), uname(&u) ? "-" : u.nodename);
	return 0;
}

void flight_dir_close(struct flight_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

void flight_page_times(const unsigned char *page, size_t page_size, uint64_t *first,
		       uint64_t *last)
{
	struct rb_cursor c;
	struct rb_entry e;

	*first = *last = 0;
	rb_cursor_load(&c, page, page_size);
	while (rb_cursor_next(&c, &e)) {
		if (!*first)
			*first = e.ts;
		*last = e.ts;
	}
}

struct dump_cpus {
	int nr;
	int *fds;
	off_t *sizes;
	char **stats;
};

static void cpus_free(struct dump_cpus *c)
{
	for (int i = 0; c->fds && i < c->nr; i++)
		if (c->fds[i] >= 0)
			close(c->fds[i]);
	free(c->fds);
	free(c->sizes);
	free(c->stats);
}

/* Each CPU's pages of the window, oldest first, in a memory file of its own. */
static int cpus_fill(struct dump_cpus *c, const struct flight_ring *ring,
		     struct flight_dump_info *info, struct gt_error *err)
{
	/* the file's own statistics: the window's losses are the pages' in-band counts */
	static char zero[] = "entries: 0\noverrun: 0\ncommit overrun: 0\nbytes: 0\ndropped events: 0\n";

	c->fds = malloc(sizeof(*c->fds) * (size_t)c->nr);
	c->sizes = calloc((size_t)c->nr, sizeof(*c->sizes));
	c->stats = calloc((size_t)c->nr, sizeof(*c->stats));
	if (!c->fds || !c->sizes || !c->stats)
		return gt_error_set(err, ENOMEM, "out of memory for a dump");
	for (int i = 0; i < c->nr; i++) {
		c->stats[i] = zero;
		c->fds[i] = memfd_create("gpu-trace-flight", MFD_CLOEXEC);
		if (c->fds[i] < 0) {
			while (++i < c->nr)
				c->fds[i] = -1;
			return gt_error_set(err, errno, "cannot make a memory file for a dump: %s",
					    strerror(errno));
		}
	}
	info->from_ts = ring->window_start;
	for (size_t i = 0; i < ring->count; i++) {
		const struct flight_page *p = flight_ring_at(ring, i);

		if (!p->last_ts || p->last_ts <= ring->window_start || p->cpu < 0 || p->cpu >= c->nr)
			continue;
		if (write(c->fds[p->cpu], p->data, ring->page_size) != (ssize_t)ring->page_size)
			return gt_error_set(err, errno ? errno : EIO, "cannot keep a page for a dump: %s",
					    strerror(errno ? errno : EIO));
		c->sizes[p->cpu] += (off_t)ring->page_size;
		info->pages++;
		if (p->last_ts > info->to_ts)
			info->to_ts = p->last_ts;
		/* nothing given up yet: the window starts at the oldest record */
		if (!ring->window_start && p->first_ts &&
		    (!info->from_ts || p->first_ts < info->from_ts))
			info->from_ts = p->first_ts;
	}
	return 0;
}

/* "pid comm" lines for every pid in the pages, the kernel's cache first */
static char *dump_cmdlines(const char *tracing_dir, const struct dump_cpus *c, int page_size,
			   const char *header_page, const char *print_fmt)
{
	char *saved = trace_file_read(tracing_dir, "saved_cmdlines");
	struct page_scan scan = { 0 };
	char *out;

	for (int i = 0; i < c->nr; i++)
		if (c->sizes[i])
			page_scan_fd(c->fds[i], page_size, page_scan_long_size(header_page),
				     page_scan_pid_offset(print_fmt), &scan);
	out = cmdlines_merge(saved, scan.pids, scan.nr_pids, NULL, 0);
	page_scan_free(&scan);
	free(saved);
	return out;
}

/* gpu-trace-HOST-20261129T081502.123Z-CAUSE.dat */
static void dump_name(const struct flight_dir *d, const char *cause, char *out, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char c[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	file_word(c, sizeof(c), cause);
	/* a too long result fails outfile_create_at */
	if (snprintf(out, len, "gpu-trace-%s-%04d%02d%02dT%02d%02d%02d.%03ldZ-%s.dat", d->host,
		     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		     tm.tm_sec, ts.tv_nsec / 1000000, c) >= (int)len)
		out[0] = '\0';
}

int flight_dump_write(const struct live_capture *lc, const struct event_selection *sel,
		      const struct flight_ring *ring, struct flight_dir *d, const char *cause,
		      struct flight_dump_info *info, struct gt_error *err)
{
	char *header_page = trace_file_read(lc->tracing_dir, "events/header_page");
	char *header_event = trace_file_read(lc->tracing_dir, "events/header_event");
	char *print_fmt = tracefs_event_file_read(NULL, "ftrace", "print", "format", NULL);
	char *printk = trace_file_read(lc->tracing_dir, "printk_formats");
	char *clock = trace_file_read(lc->session.dir, "trace_clock");
	struct dat_event_system ftrace = { 0 };
	struct dat_event_system *systems = calloc((size_t)sel->nr_systems + 1, sizeof(*systems));
	struct dump_cpus cpus = { .nr = live_pages_nr_cpus(lc->pages) };
	struct outfile out = { .fd = -1 };
	char uname_s[512], version[64], name[256], *cmdlines = NULL;
	struct utsname u;
	int ret = -1;

	memset(info, 0, sizeof(*info));
	if (!header_page || !header_event || !systems) {
		gt_error_set(err, errno ? errno : ENOMEM, "cannot read events/header_page of %s for a dump: %s",
			     lc->tracing_dir, strerror(errno ? errno : ENOMEM));
		goto out;
	}
	if (cpus_fill(&cpus, ring, info, err))
		goto out;
	cmdlines = dump_cmdlines(lc->tracing_dir, &cpus, (int)ring->page_size, header_page,
				 print_fmt);
	dat_event_system_load(&ftrace, "ftrace");
	for (int i = 0; i < sel->nr_systems; i++)
		dat_event_system_load(&systems[i], sel->systems[i]);
	uname(&u);
	snprintf(uname_s, sizeof(uname_s), "%s %s %s %s", u.sysname, u.nodename, u.release,
		 u.machine);
	/* report reads the triggers of such a file first, to flag the job that fired (cmd/report-prepass.c) */
	snprintf(version, sizeof(version), "gpu-trace %s (flight recorder)", GT_VERSION);
	dump_name(d, cause, name, sizeof(name));
	/* in the directory opened once, never by its path again: see flight_dir_open */
	if (outfile_create_at(&out, d->fd, d->path, name, false, err))
		goto out;
	ret = dat_write_v6(out.fd, &(struct dat_input){
		.header_page = header_page, .header_event = header_event, .ftrace = &ftrace,
		.systems = systems, .nr_systems = sel->nr_systems, .printk_formats = printk,
		.cmdlines = cmdlines, .trace_clock = clock, .uname = uname_s, .version = version,
		.cpu_stats = cpus.stats, .nr_cpus = cpus.nr, .page_size = (int)ring->page_size,
		.cpu_fds = cpus.fds, .cpu_sizes = cpus.sizes,
	}, err);
	if (!ret) {
		info->bytes = (uint64_t)lseek(out.fd, 0, SEEK_END);
		ret = outfile_commit(&out, false, err);
		snprintf(info->path, sizeof(info->path), "%s", out.path);
	}
out:
	outfile_discard(&out);
	cpus_free(&cpus);
	free(header_page);
	free(header_event);
	free(print_fmt);
	free(printk);
	free(clock);
	free(cmdlines);
	dat_event_system_free(&ftrace);
	for (int i = 0; systems && i < sel->nr_systems; i++)
		dat_event_system_free(&systems[i]);
	free(systems);
	return ret;
}

struct dump_file {
	char name[256];
	struct timespec mtime;
	unsigned long long size;
};

static int older_first(const void *a, const void *b)
{
	const struct dump_file *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* This host's dumps in the directory, regular files only; NULL when none or out of memory */
static struct dump_file *list_dumps(struct flight_dir *d, size_t *nr)
{
	char prefix[96];
	int fd = dup(d->fd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dump_file *files = NULL;
	size_t cap = 0;
	struct dirent *e;

	*nr = 0;
	snprintf(prefix, sizeof(prefix), "gpu-trace-%s-", d->host);
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	rewinddir(dir);
	while ((e = readdir(dir)) && *nr < FLIGHT_DIR_MAX) {
		size_t n = strlen(e->d_name);
		struct stat st;

		if (strncmp(e->d_name, prefix, strlen(prefix)) || n < 4 || n >= sizeof(files->name) ||
		    strcmp(e->d_name + n - 4, ".dat") ||
		    fstatat(d->fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
			continue;
		if (*nr == cap) {
			struct dump_file *g = realloc(files, sizeof(*g) * (cap = cap ? cap * 2 : 64));

			if (!g)
				break;
			files = g;
		}
		memcpy(files[*nr].name, e->d_name, n + 1);
		files[*nr].mtime = st.st_mtim;
		files[(*nr)++].size = (unsigned long long)st.st_size;
	}
	closedir(dir);
	if (files)
		qsort(files, *nr, sizeof(*files), older_first);
	return files;
}

void flight_dir_prune(struct flight_dir *d, const char *keep, unsigned int *removed)
{
	const char *keep_base = keep ? strrchr(keep, '/') : NULL;
	unsigned long long bytes = 0;
	size_t nr, left, i;
	struct dump_file *files;

	*removed = 0;
	if (!d->keep_files && !d->keep_bytes)
		return;
	keep_base = keep_base ? keep_base + 1 : keep;
	files = list_dumps(d, &nr);
	for (i = 0; i < nr; i++)
		bytes += files[i].size;
	left = nr;
	for (i = 0; i < nr; i++) {
		if ((!d->keep_files || left <= d->keep_files) && (!d->keep_bytes || bytes <= d->keep_bytes))
			break;
		if (keep_base && !strcmp(files[i].name, keep_base))
			continue;
		if (!unlinkat(d->fd, files[i].name, 0)) {
			(*removed)++;
			left--;
			bytes -= files[i].size;
		}
	}
	free(files);
}
