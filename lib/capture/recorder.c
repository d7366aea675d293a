// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file-io.h"
#include "capture/recorder.h"

int recorder_open(struct recorder *r, struct trace_session *s,
		  const char *tmp_dir, struct gt_error *err)
{
	int i;

	memset(r, 0, sizeof(*r));
	r->nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	r->cpus = calloc((size_t)r->nr_cpus, sizeof(*r->cpus));
	if (!r->cpus)
		return gt_error_set(err, ENOMEM, "out of memory");
	for (i = 0; i < r->nr_cpus; i++)
		r->cpus[i].fd = -1;
	for (i = 0; i < r->nr_cpus; i++) {
		struct recorder_cpu *c = &r->cpus[i];

		c->cpu = i;
		c->tcpu = tracefs_cpu_open(s->inst, i, false);
		if (!c->tcpu)
			return gt_error_set(err, errno,
					    "cannot open per_cpu/cpu%d/trace_pipe_raw in %s: %s; is tracefs writable?",
					    i, s->dir, strerror(errno));
		c->fd = temp_file_in(tmp_dir);
		if (c->fd < 0)
			return gt_error_set(err, errno,
					    "cannot create a temp file in %s for CPU %d: %s; choose a writable output directory with -o",
					    tmp_dir, i, strerror(errno));
	}
	r->page_size = tracefs_cpu_read_size(r->cpus[0].tcpu);
	if (r->page_size <= 0)
		r->page_size = (int)sysconf(_SC_PAGESIZE);
	return 0;
}

struct reader_args {
	struct recorder *r;
	struct recorder_cpu *c;
};

static void *reader_main(void *arg)
{
	struct recorder_cpu *c = ((struct reader_args *)arg)->c;
	struct recorder *r = ((struct reader_args *)arg)->r;
	int ret;

	free(arg);
	atomic_store(&c->tid, (int)gettid());
	while (!atomic_load(&r->stopping)) {
		ret = tracefs_cpu_write(c->tcpu, c->fd, false);
		if (ret > 0) {
			atomic_fetch_add(&c->bytes, (unsigned long long)ret);
			continue;
		}
		if (ret < 0 && errno != EAGAIN && errno != EINTR && errno != 0) {
			c->error = errno;
			break;
		}
	}
	return NULL;
}

int recorder_start(struct recorder *r, struct gt_error *err)
{
	int i;

	for (i = 0; i < r->nr_cpus; i++) {
		struct reader_args *a = malloc(sizeof(*a));
		int ret;

		if (!a)
			return gt_error_set(err, ENOMEM, "out of memory");
		a->r = r;
		a->c = &r->cpus[i];
		ret = pthread_create(&r->cpus[i].thread, NULL, reader_main, a);
		if (ret) {
			free(a);
			return gt_error_set(err, ret, "cannot start the reader thread for CPU %d: %s",
					    i, strerror(ret));
		}
		r->cpus[i].running = true;
	}
	return 0;
}

/* Whole pages only: pad the last partial page, or drop a torn one after an error. */
static int whole_pages(struct recorder_cpu *c, int page_size, bool pad)
{
	off_t end = lseek(c->fd, 0, SEEK_END);
	off_t rem = end % page_size;

	if (end < 0)
		return -errno;
	if (rem && ftruncate(c->fd, pad ? end + (page_size - rem) : end - rem))
		return -errno;
	return 0;
}

int recorder_stop(struct recorder *r, struct gt_error *err)
{
	int i, ret = 0, failed = 0;

	atomic_store(&r->stopping, true);
	for (i = 0; i < r->nr_cpus; i++) {
		if (!r->cpus[i].running)
			continue;
		/* 1: this kernel cannot wake a blocked reader; a signal will */
		if (tracefs_cpu_stop(r->cpus[i].tcpu) == 1)
			pthread_kill(r->cpus[i].thread, SIGUSR2);
	}
	for (i = 0; i < r->nr_cpus; i++) {
		struct recorder_cpu *c = &r->cpus[i];

		if (c->running) {
			pthread_join(c->thread, NULL);
			c->running = false;
		}
		if (!c->tcpu || c->fd < 0)
			continue;
		while (!c->error && (ret = tracefs_cpu_flush_write(c->tcpu, c->fd)) > 0)
			atomic_fetch_add(&c->bytes, (unsigned long long)ret);
		if (!c->error && ret < 0 && errno != EAGAIN && errno != 0)
			c->error = errno;
		if (!c->error && (ret = whole_pages(c, r->page_size, true)))
			c->error = -ret;
		if (c->error)
			whole_pages(c, r->page_size, false);
		/* the instance cannot be removed while its pipes are open */
		tracefs_cpu_close(c->tcpu);
		c->tcpu = NULL;
		if (c->error && !failed++)
			gt_error_set(err, c->error, "writing CPU %d's trace data failed: %s",
				     i, strerror(c->error));
	}
	return failed ? -1 : 0;
}

void recorder_close(struct recorder *r)
{
	int i;

	for (i = 0; r->cpus && i < r->nr_cpus; i++) {
		if (r->cpus[i].tcpu)
			tracefs_cpu_close(r->cpus[i].tcpu);
		if (r->cpus[i].fd >= 0)
			close(r->cpus[i].fd);
	}
	free(r->cpus);
	memset(r, 0, sizeof(*r));
}
