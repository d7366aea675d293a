/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_RECORDER_H
#define GT_RECORDER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "util/gt-error.h"
#include "tracefs/session.h"

struct recorder_cpu {
	int cpu;
	struct tracefs_cpu *tcpu;
	int fd;				/* unlinked temp file holding raw pages */
	pthread_t thread;
	bool running;
	atomic_int tid;			/* the reader's thread id, for cmdlines */
	atomic_ullong bytes;
	int error;			/* errno that stopped this CPU's reader */
};

struct recorder {
	int nr_cpus;
	int page_size;
	struct recorder_cpu *cpus;
	atomic_bool stopping;
};

/** recorder_open - opens trace_pipe_raw of every CPU and a temp file for each in tmp_dir. */
int recorder_open(struct recorder *r, struct trace_session *s,
		  const char *tmp_dir, struct gt_error *err);
/** recorder_start - one reader thread per CPU, splicing whole pages into its temp file. */
int recorder_start(struct recorder *r, struct gt_error *err);
/** recorder_stop - wakes the readers, drains the partial pages, pads each file to a page. */
int recorder_stop(struct recorder *r, struct gt_error *err);
/** recorder_close - the per-CPU readers and their files closed */
void recorder_close(struct recorder *r);


#endif
