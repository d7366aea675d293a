// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dat/dat-masked.h"
#include "dat/dat-stream.h"
#include "dat/dat-windows.h"
#include "decode/event-fields.h"
#include "decode/gpu-plugin.h"
#include "decode/kfd-probe-print.h"
#include "decode/print-guard.h"
#include "analysis/analysis-joins.h"
#include "analysis/workload-tree.h"
#include "analysis/analysis-private.h"
#include "util/file-io.h"

static const char *comm_of(int pid, void *ctx)
{
	return analysis_comm(ctx, pid);
}

uint64_t analysis_first_ts(const struct analysis *a)
{
	return a->nr_handles ? tracecmd_get_first_ts(a->handles[0]) : 0;
}

bool analysis_has_gpu_data(const struct analysis *a)
{
	size_t j;

	for (j = 0; j < JOIN_NR; j++)
		if (a->states[j] && analysis_joins[j]->gpu_data &&
		    analysis_joins[j]->gpu_data(a->states[j], a))
			return true;
	return false;
}

bool analysis_file_has_system(const struct analysis *a, const char *system)
{
	int h, i, n;

	for (h = 0; h < a->nr_handles; h++) {
		struct tep_handle *tep = tracecmd_get_tep(a->handles[h]);

		n = tep ? tep_get_events_count(tep) : 0;
		for (i = 0; i < n; i++) {
			const struct tep_event *ev = tep_get_event(tep, i);

			if (ev && ev->system && !strcmp(ev->system, system))
				return true;
		}
	}
	return false;
}

const char *analysis_comm(struct analysis *a, int pid)
{
	/* libtraceevent's lookup is a search of every name the file has */
	if (!a->comm || a->comm_pid != pid) {
		a->comm = tep_data_comm_from_pid(a->tep, pid);
		a->comm_pid = pid;
	}
	return a->comm;
}

void analysis_name_pid(struct analysis *a, int pid, const char *comm)
{
	tep_register_comm(a->tep, comm, pid);
	a->comm = NULL;		/* the names may have moved */
}

static void attach_hooks(struct analysis *a, const struct analysis_hooks *hooks)
{
	uint64_t first = a->nr_handles ? tracecmd_get_first_ts(a->handles[0]) : 0;
	struct timeline *tl = timeline_of(a);

	if (hooks)
		a->hooks = *hooks;
	/* a file's first time near 2^64 (crafted) saturates: no window wraps to its start */
	if (a->hooks.from_relative)
		a->hooks.filter.from = a->hooks.filter.from > UINT64_MAX - first ? UINT64_MAX :
								      a->hooks.filter.from + first;
	if (a->hooks.to_relative)
		a->hooks.filter.to = a->hooks.filter.to > UINT64_MAX - first ? UINT64_MAX :
								  a->hooks.filter.to + first;
	tl->filter = a->hooks.filter;
	tl->on_job = a->hooks.on_job;
	tl->job_ctx = a->hooks.ctx;
	tl->no_groups = a->hooks.no_groups;
	tl->comm_of = comm_of;
	tl->comm_ctx = a;
	tl->workload = workload_tree_of(a);
}

static const char *const print_fields[] = { "buf", NULL };

/* Decoders, every join and the hooks over the file's (or a stream's) formats. */
static int init_pipeline(struct analysis *a, struct tep_handle *tep,
			 const struct analysis_hooks *hooks, struct gt_error *err)
{
	size_t i;
	int k;

	a->tep = tep;
	/*
	 * libtraceevent reads every record's type and pid where the first format puts
	 * them, whatever the record's size: a shorter record is damage that must not reach
	 * tep_data_type() and tep_data_pid()
	 */
	a->common_end = event_common_end(tep);
	a->dec = gpu_decoder_new(a->tep);
	if (!a->dec)
		return gt_error_set(err, ENOMEM, "out of memory reading the event formats");
	/* print lines (snapshots, --hip-log, trace_marker) are read once, for every join */
	event_fields_find(&a->print, a->tep, "ftrace", "print", print_fields);
	/* every state first: a join's init may keep another's (the jobs keep the pid tree) */
	for (i = 0; i < JOIN_NR; i++) {
		a->states[i] = calloc(1, analysis_joins[i]->state_size);
		if (!a->states[i])
			return gt_error_set(err, ENOMEM, "out of memory starting the %s join",
					    analysis_joins[i]->name);
	}
	for (i = 0; i < JOIN_NR; i++) {
		const struct analysis_join *j = analysis_joins[i];

		if (j->init && j->init(a->states[i], a))
			return gt_error_set(err, ENOMEM, "out of memory starting the %s join",
					    j->name);
		a->join_kinds[i] = j->kinds ? j->kinds(a->states[i], a) : ~0ULL;
	}
	for (k = 0; k < GEV_NR_KINDS; k++)
		for (i = 0; i < JOIN_NR; i++)
			if (a->join_kinds[i] & JOIN_KIND(k))
				a->joins_of_kind[k][a->nr_joins_of_kind[k]++] =
					(struct join_call){ analysis_joins[i]->record, a->states[i] };
	attach_hooks(a, hooks);
	a->read_kinds = 0;
	for (i = 0; i < JOIN_NR; i++)
		a->read_kinds |= a->join_kinds[i];
	if (a->hooks.on_record)
		a->read_kinds |= ~a->hooks.kinds_unread;
	return 0;
}

int analysis_init(struct analysis *a, struct tep_handle *tep,
		  const struct analysis_hooks *hooks, struct gt_error *err)
{
	memset(a, 0, sizeof(*a));
	a->masked_fd = a->file_fd = -1;
	a->no_pageout = true;	/* the caller's records, not our mapping */
	if (init_pipeline(a, tep, hooks, err)) {
		analysis_close(a);
		return -1;
	}
	return 0;
}

#define PROBE_SECONDS 60

static unsigned int probe_seconds = PROBE_SECONDS;

void analysis_set_probe_timeout(unsigned int seconds)
{
	probe_seconds = seconds ? seconds : PROBE_SECONDS;
}

unsigned int analysis_open_timeout(void)
{
	return probe_seconds;
}

static int open_guard_fd = -1;

void analysis_set_open_guard(int fd)
{
	open_guard_fd = fd;
}

/*
 * One message to the watching process: 'O' and the file's name before the
 * open, 'D' after it, each ended by a NUL. A watcher gone takes this
 * process with it (open_guard_start()): what a write fails on is moot.
 */
static void guard_say(char what, const char *name)
{
	if (open_guard_fd >= 0 && !write_all(open_guard_fd, &what, 1))
		write_all(open_guard_fd, name, strlen(name) + 1);
}

int analysis_open_failed(struct gt_error *err, const char *name, enum analysis_open_fault fault)
{
	return gt_error_set(err, EINVAL,
			    "libtracecmd %s %s (damaged, or written by an incompatible tool); check it with: trace-cmd dump -i %s",
			    fault == OPEN_FAULT_HUNG ? "does not finish opening" :
			    fault == OPEN_FAULT_CRASHED ? "crashes reading" : "cannot read", name, name);
}

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
#define NR_FATAL_SIGNALS (sizeof(fatal_signals) / sizeof(fatal_signals[0]))

/*
 * A crash in libtracecmd's open is libtracecmd's, and the probe's parent or
 * the guard's watcher answers it: no handler (a sanitizer's, a fuzzer's) may
 * take it for ours. @saved: what to put back, or NULL.
 */
static void fatal_signals_default(struct sigaction *saved)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	size_t i;

	sigemptyset(&dfl.sa_mask);
	for (i = 0; i < NR_FATAL_SIGNALS; i++)
		sigaction(fatal_signals[i], &dfl, saved ? &saved[i] : NULL);
}

static void fatal_signals_restore(const struct sigaction *saved)
{
	size_t i;

	for (i = 0; i < NR_FATAL_SIGNALS; i++)
		sigaction(fatal_signals[i], &saved[i], NULL);
}

/*
 * libtracecmd 3.1.6 crashes in tracecmd_close() when its open fails half
 * way on a damaged file (the CPUs after the one that failed are freed
 * uninitialised); dat-meta catches the damage fuzzing found, and a child
 * tries the open first for whatever else there is (unless a watching
 * process does: analysis_set_open_guard()). 0 opens, and as enum
 * analysis_open_fault: 1 refuses, -1 crashes, -2 does not finish in
 * probe_seconds.
 */
int analysis_probe_open_here(const char *path)
{
	int status, null;
	pid_t pid = fork();

	if (pid < 0)
		return 0;	/* cannot probe: open for real */
	if (!pid) {
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		tracecmd_set_loglevel(TEP_LOG_NONE);
		fatal_signals_default(NULL);
		/* an open that never ends is a damaged file too, not a hung report */
		alarm(probe_seconds);
		/* kallsyms kept, not parsed: the child looks nothing up (kallsyms-defer.h) */
		kallsyms_defer_begin();
		_exit(tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS) ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) != pid)
		if (errno != EINTR)
			return 0;
	if (WIFSIGNALED(status))
		return WTERMSIG(status) == SIGALRM ? -2 : -1;
	return WEXITSTATUS(status) ? 1 : 0;
}

/* this thread's prober (open-prober.h), or -1: fork here */
static _Thread_local int prober_fd = -1;

void analysis_set_prober(int fd)
{
	prober_fd = fd;
}

static int probe_open(const char *path)
{
	char theirs[PATH_MAX];
	int answer;
	ssize_t n;

	if (prober_fd < 0)
		return analysis_probe_open_here(path);
	/* the file as the prober reaches it: our /proc/self is not its own */
	if (!strncmp(path, "/proc/self/", 11))
		snprintf(theirs, sizeof(theirs), "/proc/%d/%s", (int)getpid(), path + 11);
	else
		snprintf(theirs, sizeof(theirs), "%s", path);
	/* one request, one answer (a SEQPACKET socket keeps them whole) */
	if (send(prober_fd, theirs, strlen(theirs) + 1, MSG_NOSIGNAL) < 0)
		return 0;	/* the prober is gone: open for real, as when no child can be made */
	do
		n = recv(prober_fd, &answer, sizeof(answer), 0);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(answer) ? answer : 0;
}

/*
 * libtraceevent loads plugins from the system's directory, then from
 * $TRACEEVENT_PLUGIN_DIR and $HOME/.local/lib/traceevent/plugins. As root
 * (sudo -E, env_keep+=HOME, or record's job check while the workload's user
 * can write to their HOME) the last two would run whoever set them's code as
 * root: there the open sees no TRACEEVENT_PLUGIN_DIR and root's own HOME.
 */
struct plugin_env {
	char *dir, *home;
	bool narrowed;
};

static void narrow_plugin_env(struct plugin_env *e)
{
	const struct passwd *pw;
	const char *v;

	memset(e, 0, sizeof(*e));
	if (geteuid() && geteuid() == getuid())
		return;
	e->narrowed = true;
	v = getenv("TRACEEVENT_PLUGIN_DIR");
	e->dir = v ? strdup(v) : NULL;
	v = getenv("HOME");
	e->home = v ? strdup(v) : NULL;
	unsetenv("TRACEEVENT_PLUGIN_DIR");
	pw = getpwuid(geteuid());
	if (pw && pw->pw_dir && pw->pw_dir[0] == '/')
		setenv("HOME", pw->pw_dir, 1);
	else
		unsetenv("HOME");
}

static void restore_plugin_env(struct plugin_env *e)
{
	if (!e->narrowed)
		return;
	if (e->dir)
		setenv("TRACEEVENT_PLUGIN_DIR", e->dir, 1);
	if (e->home)
		setenv("HOME", e->home, 1);
	else
		unsetenv("HOME");
	free(e->dir);
	free(e->home);
}

/*
 * Every event format of every buffer against the file's page size: a record
 * lies within a page, so a field past the page's data is in no record. No
 * reader may trust such a format (libtraceevent's printers read where it
 * says: an offset of 2^31 crashed --events), and no kernel writes one.
 */
static int formats_fit(struct analysis *a, const char *name, const struct dat_meta *m,
		       struct gt_error *err)
{
	int page = (int)m->page_size, h, i;

	for (i = 0; i < m->nr_buffers; i++)
		if ((int)m->buffers[i].page_size > page)
			page = (int)m->buffers[i].page_size;
	for (h = 0; h < a->nr_handles; h++) {
		struct tep_handle *tep = tracecmd_get_tep(a->handles[h]);
		int n = tep ? tep_get_events_count(tep) : 0;

		for (i = 0; i < n; i++) {
			const struct tep_event *ev = tep_get_event(tep, i);
			const struct tep_format_field *f;

			if (!ev || page <= 0 || print_guard_format_fits(ev, page, &f))
				continue;
			return gt_error_set(err, EIO, "%s is damaged: the format of %s:%s places field %s at byte %d (%d bytes), outside any record of its %d-byte pages; record it again",
					    name, ev->system ? ev->system : "?", ev->name ? ev->name : "?",
					    f->name ? f->name : "?", f->offset, f->size, page);
		}
	}
	return 0;
}

/*
 * libtraceevent keeps the plugins' options in lists of its own, which every
 * open (plugins loaded) and close (unloaded) changes, and the open narrows
 * the process's environment: passes on several threads (the fleet summary)
 * open and close one at a time. The passes themselves run side by side.
 */
static pthread_mutex_t libtracecmd_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * libtracecmd 3.1.6 leaves parts of a file's CPU data mapped after
 * tracecmd_close() (strace of compare over 32 runs of one file: four
 * mmaps of it per open, none unmapped): a process that reads many files
 * (compare, fleet) grew by about 0.3 MB a file. Once no handle of a file is
 * open in this process nothing of libtracecmd's may use its mappings; they
 * are unmapped then. Files open now, counted under libtracecmd_lock: a file
 * opened twice at once keeps its mappings until its last close.
 */
#define OPEN_FILES_MAX 256
static struct open_file { dev_t dev; ino_t ino; int n; } open_files[OPEN_FILES_MAX];

/* caller holds libtracecmd_lock; false when not counted (the table is full) */
static bool open_file_count(const struct stat *st, int by)
{
	int i, free_slot = -1;

	for (i = 0; i < OPEN_FILES_MAX; i++) {
		struct open_file *o = &open_files[i];

		if (o->n && o->dev == st->st_dev && o->ino == st->st_ino) {
			o->n += by;
			return true;
		}
		if (!o->n && free_slot < 0)
			free_slot = i;
	}
	if (by < 0 || free_slot < 0)
		return false;
	open_files[free_slot] = (struct open_file){ st->st_dev, st->st_ino, 1 };
	return true;
}

static bool open_file_closed(const struct stat *st)
{
	int i;

	for (i = 0; i < OPEN_FILES_MAX; i++)
		if (open_files[i].n && open_files[i].dev == st->st_dev && open_files[i].ino == st->st_ino)
			return false;
	return true;
}

/* every mapping of the file left in this process, unmapped (caller holds libtracecmd_lock) */
static void unmap_leftovers(const struct stat *st)
{
	struct { unsigned long lo, hi; } runs[64];
	int n = 0, i;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "re");

	while (f && n < 64 && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, inode;
		unsigned int maj, mnr;

		if (sscanf(line, "%lx-%lx %*s %*s %x:%x %lu", &lo, &hi, &maj, &mnr, &inode) == 5 &&
		    inode == st->st_ino && makedev(maj, mnr) == st->st_dev)
			runs[n].lo = lo, runs[n++].hi = hi;
	}
	if (f)
		fclose(f);
	for (i = 0; i < n; i++)
		munmap((void *)runs[i].lo, runs[i].hi - runs[i].lo);
}

/* path: what to open; name: what the messages call it; m: what dat-meta read of path, or NULL */
static int open_named(struct analysis *a, const char *path, const char *name,
		      const struct dat_meta *m, const struct analysis_hooks *hooks,
		      struct gt_error *err)
{
	struct sigaction saved[NR_FATAL_SIGNALS];
	struct plugin_env env;
	int i, n, probe;

	memset(a, 0, sizeof(*a));
	a->masked_fd = a->file_fd = -1;
	snprintf(a->path, sizeof(a->path), "%s", path);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	/* watched, the open is tried once: a crash or a hang there is the watcher's to say */
	probe = open_guard_fd >= 0 ? 0 : probe_open(path);
	if (probe)
		return analysis_open_failed(err, name, (enum analysis_open_fault)probe);
	if (open_guard_fd >= 0) {
		guard_say('O', name);
		fatal_signals_default(saved);
	}
	pthread_mutex_lock(&libtracecmd_lock);
	narrow_plugin_env(&env);
	kallsyms_defer_begin();
	a->handles[0] = tracecmd_open(path, 0);
	a->syms = kallsyms_defer_end(a->handles[0] != NULL);
	restore_plugin_env(&env);
	if (open_guard_fd >= 0) {
		fatal_signals_restore(saved);
		guard_say('D', "");
	}
	if (!a->handles[0]) {
		pthread_mutex_unlock(&libtracecmd_lock);
		return analysis_open_failed(err, name, OPEN_FAULT_REFUSED);
	}
	a->nr_handles = 1;
	a->counted = !stat(path, &a->file_st) && open_file_count(&a->file_st, 1);
	n = tracecmd_buffer_instances(a->handles[0]);
	for (i = 0; i < n && a->nr_handles < ANALYSIS_MAX_HANDLES; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(a->handles[0], i);

		if (h)
			a->handles[a->nr_handles++] = h;
	}
	pthread_mutex_unlock(&libtracecmd_lock);
	a->page_size = (size_t)sysconf(_SC_PAGESIZE);
	/* our printers, whether or not the plugins are installed */
	for (i = 0; i < a->nr_handles; i++)
		gpu_plugin_register(tracecmd_get_tep(a->handles[i]), NULL);
	if (init_pipeline(a, tracecmd_get_tep(a->handles[0]), hooks, err)) {
		analysis_close(a);
		return -1;
	}
	/* our block-at-a-time reader: faster than libtracecmd's, memory flat (dat-stream.h) */
	a->stream = dat_stream_open(path, m, &(struct gt_error){ 0 });
	if (a->stream) {
		a->no_pageout = true;	/* records live in the stream's own buffers */
		/* libtracecmd's graph printer would read ahead through its handle */
		gpu_plugin_register_graph(a->tep);
	}
	/* --events prints record --kfd-args's probes as the kfd_probes plugin does */
	kfd_probe_register(a->tep);
	return 0;
}

int analysis_open(struct analysis *a, const char *path,
		  const struct analysis_hooks *hooks, struct gt_error *err)
{
	return open_named(a, path, path, NULL, hooks, err);
}

static void read_coverage(struct analysis *a, const char *path, const struct dat_meta *m)
{
	cpu_coverage_init(&a->totals.cov);
	if (dat_meta_written_by_record(m) || m->ts_adjusted || dat_cpu_windows(path, m, &a->totals.cov))
		return;
	cpu_coverage_judge(&a->totals.cov, m->has_buffer_kb ? m->buffer_kb * 1024 : 0);
	if (a->totals.cov.skewed) {
		timeline_of(a)->cover_from = a->totals.cov.from;
		timeline_of(a)->cover_to = a->totals.cov.to;
	}
}

int analysis_open_dat(struct analysis *a, const char *path, struct dat_meta *m,
		      const struct analysis_hooks *hooks, struct gt_error *err)
{
	char view[64];
	int fd, masked = -1;

	/*
	 * Opened once: every reader after this one (libtracecmd, the probe
	 * child, the stream, the coverage) opens /proc/self/fd/N, the same
	 * file, whatever is put at the path meanwhile.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gt_error_set(err, errno, "cannot open %s: %s", path, strerror(errno));
	if (dat_meta_read_fd(fd, path, m, err))
		goto fail;
	/* options another writer gave an upstream id: read a copy without them */
	if (m->nr_skipped) {
		masked = dat_masked_copy(fd, path, m, err);
		if (masked < 0)
			goto fail;
	}
	snprintf(view, sizeof(view), "/proc/self/fd/%d", masked >= 0 ? masked : fd);
	/* a masked copy is another file: the stream reads its own meta */
	if (open_named(a, view, path, masked >= 0 ? NULL : m, hooks, err))
		goto fail;
	if (formats_fit(a, path, m, err)) {
		analysis_close(a);
		goto fail;
	}
	/*
	 * a file libtracecmd iterates itself (not our stream): every page checked
	 * first, and what it keeps of a zstd file (every chunk) within the budget
	 */
	if (!a->stream && (dat_meta_inflates_too_much(m, path, err) ||
			   dat_meta_check_pages(fd, path, m, err))) {
		analysis_close(a);
		goto fail;
	}
	a->file_fd = fd;
	a->masked_fd = masked;
	a->meta = m;
	read_coverage(a, view, m);
	return 0;
fail:
	if (masked >= 0)
		close(masked);
	close(fd);
	return -1;
}

int analysis_check_dat(const char *path, struct gt_error *err)
{
	struct dat_meta *m = calloc(1, sizeof(*m));
	int ret;

	if (!m)
		return gt_error_set(err, ENOMEM, "out of memory");
	ret = dat_meta_read(path, m, err);
	free(m);
	return ret;
}

/*
 * libtracecmd keeps the file's data pages mapped, so a 500 MB trace would
 * stay resident to the end. Pages a CPU's reader has moved past are handed
 * back in runs of up to 1 MB. A run in a mapping of the file is unmapped
 * with MADV_DONTNEED: our RSS falls, the page cache keeps the file for the
 * next reader (trace-cmd report after us, a second report), and a page is
 * re-read from the cache if touched again. MADV_PAGEOUT would evict the file
 * from the cache too. Anonymous memory (decompressed v7 data) must keep its
 * contents: MADV_PAGEOUT there.
 */
#define RELEASE_RUN (1 << 20)

/* Is [start, start+len) inside a file mapping? Remembers the last mapping seen. */
static bool file_mapped(struct analysis *a, uintptr_t start, size_t len)
{
	char line[512];
	FILE *f;

	if (start >= a->map_lo && start + len <= a->map_hi)
		return a->map_file;
	a->map_lo = a->map_hi = 0;
	f = fopen("/proc/self/maps", "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, inode;

		if (sscanf(line, "%lx-%lx %*s %*s %*s %lu", &lo, &hi, &inode) != 3 ||
		    start < lo || start >= hi)
			continue;
		a->map_lo = lo;
		a->map_hi = hi;
		a->map_file = inode != 0;
		break;
	}
	if (f)
		fclose(f);
	return a->map_lo && start + len <= a->map_hi && a->map_file;
}

static void release_run(struct analysis *a, struct page_run *run)
{
	int advice;

	if (!run->len || a->no_pageout) {
		run->len = 0;
		return;
	}
	advice = file_mapped(a, run->start, run->len) ? MADV_DONTNEED : MADV_PAGEOUT;
	if (madvise((void *)run->start, run->len, advice) && errno == EINVAL &&
	    advice == MADV_PAGEOUT)
		a->no_pageout = true;	/* kernels before 5.4 */
	run->len = 0;
}

static void release_page(struct analysis *a, const struct tep_record *rec)
{
	uintptr_t page = (uintptr_t)rec->data & ~(uintptr_t)(a->page_size - 1);
	struct page_run *run;

	if (rec->cpu < 0 || rec->cpu >= ANALYSIS_MAX_CPUS || a->no_pageout)
		return;
	run = &a->runs[rec->cpu];
	if (page == run->current)
		return;
	/* the page just left joins the run behind the reader */
	if (run->current) {
		if (run->len && run->start + run->len != run->current)
			release_run(a, run);
		if (!run->len)
			run->start = run->current;
		run->len += a->page_size;
		if (run->len >= RELEASE_RUN)
			release_run(a, run);
	}
	run->current = page;
}

void analysis_decode(const struct analysis *a, struct join_record *r)
{
	r->ts = r->rec->ts;
	r->cpu = r->rec->cpu;
	r->missed = r->rec->missed_events;
	r->too_short = r->rec->size < a->common_end;
	r->taken = false;
	r->kind = GEV_NONE;
	if (r->too_short)
		return;
	gpu_decoder_common(a->dec, r->rec, &r->type, &r->pid);
	r->print = NULL;
	r->kind = gpu_decoder_kind(a->dec, r->type);
	/*
	 * A GPU event no join reads, nor the record hook more than its kind: its kind and
	 * misses are all the counts want. After lost events every join reads every record:
	 * decoded then.
	 */
	if (r->kind != GEV_NONE && !(a->read_kinds & JOIN_KIND(r->kind)) && !r->missed) {
		r->ev.kind = r->kind;
		r->ev.missing = gpu_decoder_missing(a->dec, r->rec, r->type);
		return;
	}
	r->kind = gpu_decoder_decode_as(a->dec, r->rec, r->type, r->pid, &r->ev);
	if (r->kind == GEV_NONE && r->type == a->print.id && event_field_has(&a->print, 0)) {
		int len;
		const char *text = event_field_tail(&a->print, 0, r->rec, &len);

		/* the text must end inside the record */
		if (text && memchr(text, '\0', (size_t)len))
			r->print = text;
	}
}

bool analysis_hooks_records(const struct analysis *a)
{
	return a->hooks.on_record != NULL;
}

int analysis_take(struct analysis *a, struct join_record *r)
{
	size_t i;

	if (!a->no_pageout)
		release_page(a, r->rec);
	if (r->too_short) {
		a->totals.short_records++;
		return 0;
	}
	a->totals.records++;
	if (!a->totals.first_ts)
		a->totals.first_ts = r->ts;
	a->totals.last_ts = r->ts;
	if (r->missed) {
		a->lost_from = r->cpu >= 0 && r->cpu < ANALYSIS_MAX_CPUS &&
			a->runs[r->cpu].last_ts ? a->runs[r->cpu].last_ts : a->totals.first_ts;
		if (r->missed > 0)
			a->totals.missed += (uint64_t)r->missed;
		else
			a->totals.missed_unknown = true;
	}
	a->hip_current = NULL;
	a->record_buffer = r->buffer;
	a->record_missed = r->missed;
	/*
	 * A GPU event with a field outside its record: counted, and handed on as a record of
	 * no GPU event, so that no join takes the 0 it reads for a value (an i915 out's
	 * completed? for a preemption, a missing fence for a job's key); --events still
	 * prints it, field by field
	 */
	if (r->kind != GEV_NONE && r->ev.missing) {
		field_misses_add(&a->totals.field_misses, r->type, r->ev.missing);
		r->kind = GEV_NONE;
	}
	/* the totals' GPU and function events: what the jobs and the KFD joins read */
	if (r->kind == GEV_FUNC || r->kind == GEV_FUNC_ENTRY || r->kind == GEV_FUNC_EXIT)
		a->totals.func_events++;
	else if (r->kind != GEV_NONE)
		a->totals.gpu_events++;
	/* each join only the kinds it reads; after lost events, every join */
	if (r->missed) {
		for (i = 0; i < JOIN_NR; i++)
			if (a->join_kinds[i])
				analysis_joins[i]->record(a->states[i], a, r);
	} else {
		const struct join_call *call = a->joins_of_kind[r->kind];

		for (i = 0; i < a->nr_joins_of_kind[r->kind]; i++)
			call[i].record(call[i].state, a, r);
	}
	/* 3.1.6 only stops on a negative return */
	if (a->hooks.on_record &&
	    a->hooks.on_record(a, r->rec, r->kind == GEV_NONE ? NULL : &r->ev, a->hooks.ctx) < 0) {
		a->stopped = true;
		return -1;
	}
	if (r->cpu >= 0 && r->cpu < ANALYSIS_MAX_CPUS)
		a->runs[r->cpu].last_ts = r->ts;
	return 0;
}

int analysis_record_of(struct analysis *a, struct tep_record *rec, int buffer)
{
	/*
	 * Not zeroed: 640 bytes a record, 7% of a report on one CPU. What the joins read
	 * analysis_decode() sets (the event itself only where it has a kind, and that all).
	 */
	struct join_record r;

	r.rec = rec;
	r.buffer = buffer;
	analysis_decode(a, &r);
	return analysis_take(a, &r);
}

int analysis_record(struct analysis *a, struct tep_record *rec)
{
	return analysis_record_of(a, rec, 0);
}

int analysis_record_buffer(const struct analysis *a)
{
	return a->record_buffer;
}

long long analysis_record_missed(const struct analysis *a)
{
	return a->record_missed;
}

unsigned long long analysis_record_ts(const struct analysis *a)
{
	return a->totals.last_ts;	/* the record's, set before its hook */
}

void analysis_finish(struct analysis *a)
{
	size_t j;
	int i;

	for (j = 0; j < JOIN_NR; j++)
		if (a->states[j] && analysis_joins[j]->finish)
			analysis_joins[j]->finish(a->states[j], a);
	for (i = 0; i < ANALYSIS_MAX_CPUS; i++)
		release_run(a, &a->runs[i]);
	if (a->stream)
		a->totals.damage = *dat_stream_damage(a->stream);
}

void analysis_close(struct analysis *a)
{
	size_t j;
	int i;

	dat_stream_close(a->stream);
	free(a->order);
	pthread_mutex_lock(&libtracecmd_lock);
	kallsyms_deferred_free(a->syms);	/* while its tep lives */
	for (i = a->nr_handles - 1; i >= 0; i--)
		tracecmd_close(a->handles[i]);
	if (a->counted && open_file_count(&a->file_st, -1) && open_file_closed(&a->file_st))
		unmap_leftovers(&a->file_st);
	pthread_mutex_unlock(&libtracecmd_lock);
	if (a->dec)
		gpu_decoder_free(a->dec);
	for (j = 0; j < JOIN_NR; j++) {
		if (a->states[j] && analysis_joins[j]->free)
			analysis_joins[j]->free(a->states[j]);
		free(a->states[j]);
	}
	if (a->masked_fd >= 0)
		close(a->masked_fd);
	if (a->file_fd >= 0)
		close(a->file_fd);
	memset(a, 0, sizeof(*a));
	a->masked_fd = a->file_fd = -1;
}

struct analysis *analysis_new(void)
{
	/* aligned: what the reading thread reads keeps to lines of its own */
	struct analysis *a = aligned_alloc(_Alignof(struct analysis), sizeof(*a));

	if (!a)
		return NULL;
	memset(a, 0, sizeof(*a));
	a->masked_fd = a->file_fd = -1;	/* analysis_free() closes none */
	return a;
}

void analysis_free(struct analysis *a)
{
	if (!a)
		return;
	analysis_close(a);
	free(a);
}
