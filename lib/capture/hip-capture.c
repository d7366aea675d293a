// SPDX-License-Identifier: GPL-2.0
/* The HIP runtime's log files into print records (hip-capture.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "util/file-io.h"
#include "capture/hip-capture.h"
#include "decode/hip-log.h"
#include "dat/rb-pages.h"
#include "capture/print-record.h"
#include "capture/proc-tree.h"
#include "util/time-ns.h"

#define LOG_BASE	"hip.log"
#define LOG_MASK_ALL	"0x7FFFFFFF"	/* the runtime's default: every kind, with locations */

static int set_env(struct hip_capture *c, struct gt_error *err)
{
	char lv[16];

	snprintf(lv, sizeof(lv), "%d", c->level);
	if (setenv("AMD_LOG_LEVEL", lv, 1) || setenv("AMD_LOG_LEVEL_FILE", c->file, 1) ||
	    setenv("AMD_LOG_MASK", LOG_MASK_ALL, 0))
		return gt_error_set(err, errno, "--hip-log: %s", strerror(errno));
	return 0;
}

static void hip_capture_caps(struct hip_capture *c)
{
	c->max_text = HIP_CAPTURE_MAX_TEXT;
	c->max_lines = HIP_CAPTURE_MAX_LINES;
	c->max_read = HIP_CAPTURE_MAX_READ;
}

int hip_capture_prepare(struct hip_capture *c, int level, uid_t uid, gid_t gid,
			struct gt_error *err)
{
	memset(c, 0, sizeof(*c));
	c->dir_fd = -1;
	hip_capture_caps(c);
	snprintf(c->dir, sizeof(c->dir), "/tmp/gpu-trace-hip.XXXXXX");
	if (!mkdtemp(c->dir)) {
		c->dir[0] = '\0';
		return gt_error_set(err, errno, "--hip-log: cannot make a directory for the runtime's log in /tmp: %s",
				    strerror(errno));
	}
	/* still ours (0700, root's): nobody can have swapped it yet */
	c->dir_fd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (c->dir_fd < 0) {
		gt_error_set(err, errno, "--hip-log: cannot open %s: %s", c->dir, strerror(errno));
		rmdir(c->dir);
		c->dir[0] = '\0';
		return -1;
	}
	if (fchown(c->dir_fd, uid, gid)) {
		gt_error_set(err, errno, "--hip-log: cannot give %s to uid %d: %s", c->dir, (int)uid,
			     strerror(errno));
		hip_capture_remove(c);
		return -1;
	}
	c->level = level;
	c->uid = uid;
	c->own_offset_us = time_ns_monotonic_offset() / 1000;
	c->base = LOG_BASE;
	snprintf(c->file, sizeof(c->file), "%s/" LOG_BASE, c->dir);
	if (set_env(c, err)) {
		hip_capture_remove(c);
		return -1;
	}
	return 0;
}

int hip_capture_prepare_container(struct hip_capture *c, int level, struct gt_error *err)
{
	memset(c, 0, sizeof(*c));
	c->dir_fd = -1;
	hip_capture_caps(c);
	c->level = level;
	c->container = true;
	snprintf(c->file, sizeof(c->file), "/tmp/gpu-trace-hip-%d.log", (int)getpid());
	c->base = c->file + strlen("/tmp/");
	return set_env(c, err);
}

/*
 * Empties the directory through the fd it was made with (wherever the
 * workload moved it, its own files only; a subdirectory stays) and removes
 * the name only while that name is still that directory: a symlink or
 * another directory left in its place is the workload's, and stays.
 */
void hip_capture_remove(struct hip_capture *c)
{
	struct stat ours, now;
	struct dirent *d;
	DIR *dir = NULL;
	int fd;

	free(c->writers);
	c->writers = NULL;
	c->nr_writers = 0;
	if (!c->dir[0])
		return;
	fd = fcntl(c->dir_fd, F_DUPFD_CLOEXEC, 0);
	if (fd >= 0 && !(dir = fdopendir(fd)))
		close(fd);
	/* a dup shares the offset the collection's readdir left at the end */
	if (dir)
		rewinddir(dir);
	while (dir && (d = readdir(dir)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
			unlinkat(dirfd(dir), d->d_name, 0);
	if (dir)
		closedir(dir);
	if (!fstat(c->dir_fd, &ours) && !lstat(c->dir, &now) && S_ISDIR(now.st_mode) &&
	    now.st_dev == ours.st_dev && now.st_ino == ours.st_ino)
		rmdir(c->dir);
	close(c->dir_fd);
	c->dir_fd = -1;
	c->dir[0] = '\0';
}

/* How far up a writer's parents are followed to the command, and how long one look may take */
#define WATCH_MAX_DEPTH		64
#define WATCH_BUDGET_NS		(20 * 1000000ULL)

/*
 * How many processes a walk visits for writers in pid namespaces below ours,
 * whose threads' children it reads, and how often one may start: a name no
 * process here has waits for the next walk (a workload that makes such
 * names every turn costs a walk each half second, no more)
 */
#define WATCH_MAX_NESTED	1024
#define WATCH_MAX_THREADS	4096
#define WATCH_WALK_GAP_NS	(500 * 1000000ULL)

/*
 * A process's parent and the pid it sees itself as (its innermost NSpid, the
 * one its getpid() gave its file's name), with how many pid namespaces deep.
 */
struct proc_ids {
	pid_t ppid, inner;
	int levels;
};

static int proc_ids(pid_t pid, struct proc_ids *ids)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	*ids = (struct proc_ids){ .inner = pid, .levels = 1 };
	/* PPid comes before NSpid; nothing after it is needed */
	while (getline(&line, &cap, f) > 0) {
		const char *last;
		int v;

		if (sscanf(line, "PPid: %d", &v) == 1) {
			ids->ppid = v;
			found = 1;
		} else if (!strncmp(line, "NSpid:", 6)) {
			last = strrchr(line, '\t');
			ids->inner = last ? atoi(last + 1) : 0;
			for (ids->levels = 0, last = line; (last = strchr(last, '\t')); last++)
				ids->levels++;
			break;
		}
	}
	free(line);
	fclose(f);
	return found ? 0 : -1;
}

/*
 * Whether the file's name names the process: pid, as numbered here, is the
 * workload's command or forked from it, and numbered so in its own pid
 * namespace (a writer in a pid namespace of its own named its file by a pid
 * that is another process here: nested_writers() finds it).
 */
static bool workload_writer(pid_t pid, pid_t root)
{
	struct proc_ids ids;
	pid_t p = pid;
	int depth;

	for (depth = 0; depth < WATCH_MAX_DEPTH; depth++) {
		if (proc_ids(p, &ids) || (p == pid && ids.inner != pid))
			return false;
		if (p == root)
			return true;
		if (ids.ppid <= 1)
			return false;
		p = ids.ppid;
	}
	return false;
}

/*
 * The workload's processes in pid namespaces below ours (unshare -p, bwrap,
 * a container runtime the command runs): each one's pid here, by the pid it
 * sees itself as. Walked down from the command (proc-tree.h), at most
 * WATCH_MAX_NESTED processes and WATCH_MAX_THREADS threads a walk.
 */
struct nested {
	pid_t inner, host;		/* host 0: two such processes see themselves as inner */
};

struct nested_walk {
	struct nested *found;
	int nr;
	bool walked;
};

static void nested_note(struct nested_walk *w, pid_t host, const struct proc_ids *ids)
{
	int i;

	if (ids->levels < 2)
		return;
	for (i = 0; i < w->nr; i++)
		if (w->found[i].inner == ids->inner) {
			w->found[i].host = 0;
			return;
		}
	w->found[w->nr++] = (struct nested){ ids->inner, host };
}

static void nested_writers(struct nested_walk *w, pid_t root)
{
	int *tree = malloc(WATCH_MAX_NESTED * sizeof(*tree));
	int i, nr, proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	w->walked = true;
	w->found = malloc(WATCH_MAX_NESTED * sizeof(*w->found));
	if (tree && w->found && proc >= 0) {
		nr = proc_tree_walk(proc, &root, 1, tree, WATCH_MAX_NESTED, WATCH_MAX_THREADS);
		for (i = 0; i < nr; i++) {
			struct proc_ids ids;

			if (!proc_ids(tree[i], &ids))
				nested_note(w, tree[i], &ids);
		}
	}
	if (proc >= 0)
		close(proc);
	free(tree);
}

/* The process here whose file is hip.log_<inner>, found in a pid namespace below: 0 if none or two */
static pid_t nested_writer(struct nested_walk *w, pid_t root, pid_t inner)
{
	int i;

	if (!w->walked)
		nested_writers(w, root);
	for (i = 0; w->found && i < w->nr; i++)
		if (w->found[i].inner == inner)
			return w->found[i].host;
	return 0;
}

static int writer_at(const struct hip_capture *c, int pid)
{
	int lo = 0, hi = c->nr_writers;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (c->writers[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct hip_writer *writer_of(const struct hip_capture *c, int pid)
{
	int i = writer_at(c, pid);

	return i < c->nr_writers && c->writers[i].pid == pid ? &c->writers[i] : NULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * A new file's writer, looked at once: its namespace while it runs, or never
 * known; one in a pid namespace below, which named its file by a pid of that
 * namespace, by its pid here. 1: left for a later look (a walk down the
 * command's tree was too recent).
 */
static int add_writer(struct hip_capture *c, int pid, pid_t root, struct nested_walk *nested)
{
	struct hip_writer w = { .pid = pid, .host_pid = pid };
	int64_t ns;
	int i = writer_at(c, pid);

	if (!c->writers) {
		c->writers = calloc(HIP_CAPTURE_MAX_WRITERS, sizeof(*c->writers));
		if (!c->writers)
			return -ENOMEM;
	}
	if (!workload_writer(pid, root)) {
		if (!nested->walked) {
			uint64_t now = now_ns();

			if (c->walked_at_ns && now - c->walked_at_ns < WATCH_WALK_GAP_NS)
				return 1;
			c->walked_at_ns = now;
		}
		w.host_pid = nested_writer(nested, root, pid);
	}
	if (w.host_pid && !time_ns_monotonic_offset_known(w.host_pid, &ns)) {
		w.known = true;
		w.offset_us = ns / 1000;
	}
	memmove(&c->writers[i + 1], &c->writers[i], (size_t)(c->nr_writers - i) * sizeof(w));
	c->writers[i] = w;
	c->nr_writers++;
	return 0;
}

/*
 * A log file's writer's pid from its name (digits, no leading zero: the
 * runtime's "%d"), 0 when the name is none of the runtime's.
 */
static long log_pid(const struct hip_capture *c, const char *name)
{
	size_t n = strlen(c->base);
	char *end;
	long pid;

	if (strncmp(name, c->base, n) || name[n] != '_' || name[n + 1] < '1' || name[n + 1] > '9')
		return 0;
	pid = strtol(name + n + 1, &end, 10);
	return *end || pid <= 0 || pid > INT_MAX ? 0 : pid;
}

int hip_capture_watch(struct hip_capture *c, pid_t root)
{
	uint64_t until = now_ns() + WATCH_BUDGET_NS;
	struct nested_walk nested = { 0 };
	struct dirent *d;
	int names = 0, added = 0, ret = 0, fd;
	int64_t ns;
	DIR *dir;

	if (c->container || !c->dir[0])
		return 0;
	/*
	 * The namespace the command made for its children (unshare -T --fork):
	 * the clock of a writer not seen itself (gone within a turn, or in a
	 * pid namespace of its own, whose file names a pid not ours). Read at
	 * every look: unshare makes the namespace first and sets its offset
	 * after, until its fork freezes it, so a look in between reads 0.
	 */
	if (!time_ns_children_offset(root, &ns)) {
		c->root_moved = true;
		c->root_offset_us = ns / 1000;
	}
	if (c->nr_writers >= HIP_CAPTURE_MAX_WRITERS)
		return 0;
	fd = fcntl(c->dir_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	rewinddir(dir);		/* a dup shares the last look's offset */
	while (!ret && names++ < HIP_CAPTURE_WATCH_NAMES && added < HIP_CAPTURE_WATCH_NEW &&
	       c->nr_writers < HIP_CAPTURE_MAX_WRITERS && (d = readdir(dir))) {
		long pid = log_pid(c, d->d_name);

		if (pid && !writer_of(c, (int)pid)) {
			/* 1: seen again at a later look, and counted as one here */
			ret = add_writer(c, (int)pid, root, &nested);
			if (ret == 1)
				ret = 0;
			/* a workload's deep process chains cost a bounded time a turn */
			if (++added % 16 == 0 && now_ns() > until)
				break;
		}
	}
	closedir(dir);
	free(nested.found);
	return ret;
}

/*
 * The offset a file's lines are taken back by: its writer's namespace's;
 * where the watch never knew it, the one the command made for its children,
 * else record's own (right unless the writer made a namespace itself).
 */
static int64_t file_offset_us(struct hip_capture *c, int pid)
{
	const struct hip_writer *w = writer_of(c, pid);

	if ((!w || !w->known) && c->root_moved) {
		c->writers_assumed++;
		return c->root_offset_us;
	}
	if (!w || !w->known) {
		c->writers_unseen++;
		return c->own_offset_us;
	}
	c->writers_moved += w->offset_us != c->own_offset_us;
	return w->offset_us;
}

/* The pid a file's lines carry: its writer's here (the name's is its own namespace's). */
static int file_pid(struct hip_capture *c, int pid)
{
	const struct hip_writer *w = writer_of(c, pid);

	if (!w || !w->host_pid || w->host_pid == pid)
		return pid;
	c->writers_renumbered++;
	return w->host_pid;
}

/* One line to store: where its text is, when and whose. */
struct hip_rec {
	uint64_t ts_us;
	uint64_t seq;			/* file order among equal times */
	size_t at, len;			/* into the text */
	int pid;
};

struct collect {
	char *text;
	size_t text_len, text_cap, text_max;
	bool noted;			/* the last record is note_caps()'s */
	struct hip_rec *recs;
	size_t nr, cap;
	/* the writers' time namespace's: their CLOCK_MONOTONIC less it is the kernel's */
	int64_t offset_us;
};

uint64_t hip_capture_kernel_us(int64_t offset_us, uint64_t ts_us)
{
	uint64_t us;

	if (offset_us > 0 && ts_us < (uint64_t)offset_us)
		return 0;
	us = ts_us - (uint64_t)offset_us;
	if (offset_us < 0 && (us < ts_us || us > HIP_LOG_TS_US_MAX))
		return HIP_LOG_TS_US_MAX;
	return us;
}

static int push(struct collect *k, const struct hip_rec *r, const char *line, size_t len)
{
	if (k->nr == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 1024;
		struct hip_rec *n = realloc(k->recs, cap * sizeof(*n));

		if (!n)
			return -1;
		k->recs = n;
		k->cap = cap;
	}
	if (k->text_len + len + 1 > k->text_cap) {
		size_t cap = k->text_cap ? 2 * k->text_cap : 1 << 16;
		char *n;

		while (cap < k->text_len + len + 1)
			cap *= 2;
		/* never twice the cap for the last few lines under it */
		if (cap > k->text_max && k->text_len + len + 1 <= k->text_max)
			cap = k->text_max;
		n = realloc(k->text, cap);
		if (!n)
			return -1;
		k->text = n;
		k->text_cap = cap;
	}
	memcpy(k->text + k->text_len, line, len);
	k->text[k->text_len + len] = '\0';
	k->recs[k->nr] = *r;
	k->recs[k->nr].at = k->text_len;
	k->recs[k->nr].len = len;
	k->recs[k->nr].seq = k->nr;
	k->nr++;
	k->text_len += len + 1;
	return 0;
}

/* A file the runtime wrote, or 0 when it is not one to read. */
#define FUSE_SUPER_MAGIC 0x65735546

static FILE *open_log(struct hip_capture *c, int dfd, const char *name)
{
	struct statfs fs;
	struct stat st;
	FILE *f;
	int fd;

	/*
	 * Only what the workload wrote itself: a regular file of its user (in a
	 * container, of the user its process runs as), never a link to a file
	 * it could not read, nothing mounted on the name and nothing on FUSE,
	 * whose server can hold an open or a read (and the recording's end)
	 * forever.
	 */
	fd = open_in_dir_no_mounts(dfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != (c->container ? c->dir_uid : c->uid) || st.st_nlink != 1 ||
	    fstatfs(fd, &fs) || fs.f_type == FUSE_SUPER_MAGIC ||
	    !(f = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	return f;
}

/*
 * The next line into buf (at most max bytes, its newline dropped): a longer
 * one is cut there and the rest of it read past. -1 at the end of the file
 * or of what may be read.
 */
static ssize_t next_line(struct hip_capture *c, FILE *f, char *buf, size_t max, bool *cut)
{
	size_t len = 0;
	int ch = EOF;

	*cut = false;
	while (c->read < c->max_read && (ch = getc_unlocked(f)) != EOF) {
		c->read++;
		if (ch == '\n')
			break;
		if (len < max)
			buf[len++] = (char)ch;
		else
			*cut = true;
	}
	if (ch == EOF && !len && !*cut)
		return -1;
	buf[len] = '\0';
	return (ssize_t)len;
}

static int read_log(struct hip_capture *c, struct collect *k, FILE *f, int pid, size_t max)
{
	struct hip_rec r = { .pid = pid };
	bool timed = false, cut;
	struct hip_line l;
	char *line = malloc(max + 1);
	ssize_t len;
	int ret = 0;

	if (!line)
		return -1;
	while ((len = next_line(c, f, line, max, &cut)) >= 0) {
		while (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (!len && !cut)
			continue;	/* an empty line holds nothing to keep */
		if (!hip_log_parse(line, &l)) {
			r.ts_us = hip_capture_kernel_us(k->offset_us, l.ts_us);
			timed = true;
		} else if (!timed) {
			c->malformed++;
			continue;
		} else {
			c->continuations++;
		}
		c->truncated += cut;
		if (k->text_len + (size_t)len >= c->max_text || k->nr >= c->max_lines) {
			c->capped++;
			continue;
		}
		if (push(k, &r, line, (size_t)len)) {
			ret = -1;
			break;
		}
	}
	/* the cap left something of this file unread (a file that ends at it did not) */
	if (c->read >= c->max_read && getc_unlocked(f) != EOF)
		c->read_capped = true;
	free(line);
	return ret;
}

/* When a cap was hit, one more line at the log's last time says so. */
static int note_caps(struct hip_capture *c, struct collect *k, char *text, size_t len)
{
	struct hip_rec r = { 0 };

	if (!c->capped && !c->truncated && !c->read_capped)
		return 0;
	k->noted = true;
	if (k->nr)
		r.ts_us = k->recs[k->nr - 1].ts_us;
	/* pid 0: no line of the workload's has it (a file's pid is its name's, never 0) */
	r.pid = 0;
	snprintf(text, len, HIP_LOG_CAPTURE_NOTE "%llu lines left out past the first %llu lines or %u MB of text, %llu cut to a page",
		 (unsigned long long)c->capped, (unsigned long long)c->max_lines,
		 (unsigned int)(c->max_text >> 20), (unsigned long long)c->truncated);
	if (c->read_capped)
		snprintf(text + strlen(text), len - strlen(text),
			 ", the files read no further than their first %llu MB",
			 (unsigned long long)(c->max_read >> 20));
	/* the note is not held against the caps it reports */
	k->text_max = (size_t)-1;
	return push(k, &r, text, strlen(text));
}

static int by_time(const void *a, const void *b)
{
	const struct hip_rec *x = a, *y = b;

	if (x->ts_us != y->ts_us)
		return x->ts_us < y->ts_us ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int write_records(struct hip_capture *c, struct collect *k,
			 const struct print_record_format *fmt, int out_fd, size_t page_size)
{
	struct rb_pages w;
	unsigned char *rec = malloc(page_size);
	size_t i;
	int ret;

	if (!rec || rb_pages_init(&w, out_fd, page_size)) {
		free(rec);
		return -ENOMEM;
	}
	for (i = 0, ret = 0; i < k->nr && !ret; i++) {
		const struct hip_rec *r = &k->recs[i];

		ret = rb_pages_add(&w, r->ts_us * 1000, rec,
				   print_record(fmt, r->pid, k->text + r->at, r->len, rec));
	}
	if (!ret)
		ret = rb_pages_finish(&w);
	if (!ret && k->nr) {
		c->first_us = k->recs[0].ts_us;
		c->last_us = k->recs[k->nr - 1].ts_us;
	}
	c->lines = ret ? 0 : k->nr - k->noted;
	rb_pages_free(&w);
	free(rec);
	return ret;
}

/* Every <base>_<pid> in one directory: its lines into k. */
static int read_dir(struct hip_capture *c, struct collect *k, int dfd, hip_pid_map map,
		    void *map_ctx, size_t max)
{
	size_t n = strlen(c->base);
	struct dirent *d;
	int ret = 0;
	DIR *dir;

	dir = fdopendir(dfd);
	if (!dir) {
		close(dfd);
		return -errno;
	}
	rewinddir(dir);		/* dfd may be a dup of a directory read before */
	while (!ret && (d = readdir(dir))) {
		long pid;
		FILE *f;

		if (strncmp(d->d_name, c->base, n) || d->d_name[n] != '_')
			continue;
		pid = log_pid(c, d->d_name);
		f = pid ? open_log(c, dirfd(dir), d->d_name) : NULL;
		if (!f) {
			c->skipped_files++;
			continue;
		}
		if (!c->container) {
			k->offset_us = file_offset_us(c, (int)pid);
			pid = file_pid(c, (int)pid);
		}
		if (map) {
			pid_t host = map((pid_t)pid, map_ctx);

			if (!host)
				c->untranslated++;
			pid = host;
		}
		c->processes++;
		if (read_log(c, k, f, (int)pid, max))
			ret = -ENOMEM;
		fclose(f);
	}
	closedir(dir);
	return ret;
}

/* Each root's /tmp once (the processes of one container share it). */
/* The real uid of a process, as this (the host's) pid namespace sees it */
static int proc_uid(pid_t pid, uid_t *uid)
{
	char path[64], line[256];
	int ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long v;

		if (sscanf(line, "Uid: %lu", &v) == 1) {
			*uid = (uid_t)v;
			ret = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	return ret;
}

/*
 * Whether the / or /tmp a process sees is FUSE, from its mountinfo (kernel
 * text, read without entering either): opening /proc/PID/root/tmp would
 * send requests to that server, which may never answer. The last mount on
 * a point is the one seen.
 */
static bool tmp_on_fuse(pid_t pid)
{
	bool root_fuse = false, tmp_fuse = false, tmp_seen = false;
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return true;	/* cannot tell: do not enter */
	while (getline(&line, &cap, f) > 0) {
		char point[16], type[16];
		const char *dash = strstr(line, " - ");

		/* id parent major:minor root point ... - type source options */
		if (!dash || sscanf(line, "%*s %*s %*s %*s %15s", point) != 1 ||
		    sscanf(dash + 3, "%15s", type) != 1)
			continue;
		if (!strcmp(point, "/"))
			root_fuse = !strncmp(type, "fuse", 4);
		else if (!strcmp(point, "/tmp")) {
			tmp_fuse = !strncmp(type, "fuse", 4);
			tmp_seen = true;
		}
	}
	free(line);
	fclose(f);
	/* a /tmp of its own is still looked up in / */
	return root_fuse || (tmp_seen && tmp_fuse);
}

/* The filesystem type of mount `id` as the process sees it; false when unknown. */
static bool mount_type(pid_t pid, unsigned long long id, char *type, size_t len)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	f = fopen(path, "re");
	while (f && !found && getline(&line, &cap, f) > 0) {
		const char *dash = strstr(line, " - ");
		unsigned long long mid;
		char t[16];

		if (dash && sscanf(line, "%llu", &mid) == 1 && mid == id &&
		    sscanf(dash + 3, "%15s", t) == 1) {
			snprintf(type, len, "%s", t);
			found = true;
		}
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

/*
 * /proc/PID/root/tmp opened for reading, never on FUSE: a handle that only
 * names it first (O_PATH: no open reaches the filesystem), the mount it
 * lies on looked up by id in the process's mountinfo (statx without a
 * sync: no request either), and only then the open. A FUSE mounted on /tmp
 * after tmp_on_fuse() looked cannot slip in: the handle holds the mount it
 * found. Kernels before 5.8 have no mount id: tmp_on_fuse() alone decides.
 */
static int open_tmp(pid_t pid)
{
	struct statx stx;
	char path[64], type[16];
	int pfd, dfd;

	snprintf(path, sizeof(path), "/proc/%d/root/tmp", (int)pid);
	pfd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -1;
	if (!statx(pfd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_MNT_ID, &stx) &&
	    (stx.stx_mask & STATX_MNT_ID) &&
	    (!mount_type(pid, stx.stx_mnt_id, type, sizeof(type)) || !strncmp(type, "fuse", 4))) {
		close(pfd);
		return -1;
	}
	dfd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(pfd);
	return dfd;
}

static int read_roots(struct hip_capture *c, struct collect *k, const pid_t *roots, int nr,
		      hip_pid_map map, void *map_ctx, size_t max)
{
	struct stat *done = calloc((size_t)nr + 1, sizeof(*done)), st;
	int i, j, nr_done = 0, ret = 0;

	if (!done)
		return -ENOMEM;
	for (i = 0; i < nr && !ret; i++) {
		int dfd;

		if (tmp_on_fuse(roots[i])) {
			c->fuse_roots++;
			continue;
		}
		/* /proc/PID/root is the container's root; a /tmp that is a link is not followed */
		dfd = open_tmp(roots[i]);
		if (dfd < 0)
			continue;
		if (fstat(dfd, &st)) {
			close(dfd);
			continue;
		}
		for (j = 0; j < nr_done; j++)
			if (done[j].st_dev == st.st_dev && done[j].st_ino == st.st_ino)
				break;
		if (j < nr_done) {
			close(dfd);
			continue;
		}
		done[nr_done++] = st;
		/* whose files: the user the container's process runs as */
		if (proc_uid(roots[i], &c->dir_uid)) {
			close(dfd);
			continue;
		}
		k->offset_us = time_ns_monotonic_offset_of(roots[i]) / 1000;
		ret = read_dir(c, k, dfd, map, map_ctx, max);
	}
	free(done);
	return ret;
}

int hip_capture_collect(struct hip_capture *c, const struct print_record_format *fmt,
			const pid_t *roots, int nr_roots, hip_pid_map map, void *map_ctx,
			int out_fd, size_t page_size, struct gt_error *err)
{
	struct collect k = { .text_max = c->max_text };
	struct rb_pages probe = { .page_size = page_size };
	char note[256];
	size_t max;
	int ret, dfd;

	if (fmt->event_id < 0 || (fmt->long_size != 4 && fmt->long_size != 8))
		return gt_error_set(err, EINVAL, "--hip-log: this kernel's ftrace print event has no usable format; the log stays in %s",
				    c->container ? c->file : c->dir);
	max = rb_pages_max_payload(&probe) - 8 - (size_t)fmt->long_size - 1;
	if (c->container) {
		ret = read_roots(c, &k, roots, nr_roots, map, map_ctx, max);
	} else {
		dfd = fcntl(c->dir_fd, F_DUPFD_CLOEXEC, 0);
		if (dfd < 0)
			return gt_error_set(err, errno, "--hip-log: cannot read %s: %s", c->dir,
					    strerror(errno));
		/* each file's writer's namespace, as the watch found it (read_dir) */
		ret = read_dir(c, &k, dfd, NULL, NULL, max);
	}
	if (ret) {
		gt_error_set(err, -ret, "--hip-log: reading the runtime's log failed: %s", strerror(-ret));
		goto out;
	}
	/* no line at all: no array (qsort's may not be NULL) */
	if (k.nr)
		qsort(k.recs, k.nr, sizeof(*k.recs), by_time);
	if (note_caps(c, &k, note, sizeof(note))) {
		gt_error_set(err, ENOMEM, "--hip-log: out of memory");
		ret = -1;
		goto out;
	}
	ret = write_records(c, &k, fmt, out_fd, page_size);
	if (ret)
		gt_error_set(err, -ret, "--hip-log: writing the log's records failed: %s", strerror(-ret));
out:
	free(k.recs);
	free(k.text);
	return ret ? -1 : 0;
}
