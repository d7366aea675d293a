/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_HIP_CAPTURE_H
#define GT_HIP_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "decode/hip-log.h"
#include "util/gt-error.h"
#include "capture/print-record.h"

/*
 * The HIP runtime's log of a recorded workload, kept with the recording:
 * the workload gets AMD_LOG_LEVEL and AMD_LOG_LEVEL_FILE=<private dir>/hip.log
 * (the runtime appends _<pid>, one file per process); afterwards every line
 * becomes an ftrace `print` record at the runtime's own time (its
 * CLOCK_MONOTONIC microseconds, the mono trace clock's axis) and with the
 * process's pid, written as ring-buffer pages for the .dat's "hip-log"
 * buffer. trace-cmd report, KernelShark and gpuvis then show the lines among
 * the kernel's events, as they show trace_marker writes.
 */
#define HIP_LOG_BUFFER	"hip-log"
/*
 * What root reads of what the workload wrote, bounded by size and by count
 * (a log of 16 MB of newlines was 16 million records; a 1 GB line without a
 * newline one allocation of 1 GB): the text kept in memory, the lines kept
 * (40 bytes each besides their text) and the bytes read at all (a sparse
 * file can claim terabytes). Past a cap lines are counted, not kept, and the
 * recording holds a line saying so.
 */
#define HIP_CAPTURE_MAX_TEXT	(128u << 20)
#define HIP_CAPTURE_MAX_LINES	(2u << 20)
#define HIP_CAPTURE_MAX_READ	(1ULL << 30)
/*
 * The writers whose time namespace record looked up while they ran, the
 * names a look reads and the new writers it looks up at the most: a workload
 * that makes a million files, or names deep process chains, costs a bounded
 * readdir and a bounded walk of /proc every turn.
 */
#define HIP_CAPTURE_MAX_WRITERS	4096
#define HIP_CAPTURE_WATCH_NAMES	8192
#define HIP_CAPTURE_WATCH_NEW	256

/*
 * A process that wrote a log file, as record found it while it ran: the
 * CLOCK_MONOTONIC it stamped its lines on is its time namespace's, which
 * may be one the workload made (unshare -T, a CRIU restore), not record's.
 */
struct hip_writer {
	int pid;			/* its file's name's */
	int host_pid;			/* as numbered here (its name's, or one in a pid namespace
					 * below); 0 when not the workload's */
	bool known;			/* false: not the workload's, or its namespace unknown */
	int64_t offset_us;		/* its namespace's monotonic offset */
};


struct hip_capture {
	char dir[64];			/* the private directory; "" for a container's */
	/*
	 * That directory, opened as mkdtemp made it: the workload owns it and
	 * can rename it and leave a symlink in its place, so root reads and
	 * empties it only through this fd, never by its name.
	 */
	int dir_fd;
	char file[96];			/* AMD_LOG_LEVEL_FILE */
	const char *base;		/* its name: the runtime appends _<pid> */
	bool container;			/* the file is in the container's /tmp */
	int level;
	uid_t uid;
	/* after collect */
	uint64_t lines;			/* stored */
	uint64_t continuations;		/* lines without a header, stored at the previous time */
	uint64_t malformed;		/* before any header: no time to place them at */
	uint64_t truncated;		/* longer than a ring-buffer page holds */
	uint64_t skipped_files;		/* not a regular file of the workload's user */
	size_t max_text;		/* text kept at the most (HIP_CAPTURE_MAX_TEXT) */
	uint64_t max_lines;		/* lines kept at the most (HIP_CAPTURE_MAX_LINES) */
	uint64_t max_read;		/* bytes read at the most (HIP_CAPTURE_MAX_READ) */
	uint64_t capped;		/* lines past the text or line cap, left out */
	uint64_t read;			/* bytes read */
	bool read_capped;		/* reading stopped at max_read */
	uid_t dir_uid;			/* container: the owner of the /tmp being read */
	uint64_t untranslated;		/* lines of a container pid never seen on the host */
	uint64_t fuse_roots;		/* container processes whose / or /tmp is FUSE: not read */
	int processes;
	uint64_t first_us, last_us;
	/* while the workload runs (hip_capture_watch), sorted by pid */
	struct hip_writer *writers;
	int nr_writers;
	int64_t own_offset_us;		/* record's own namespace's */
	bool root_moved;		/* the command made a time namespace for its children: */
	int64_t root_offset_us;		/* its offset at the last look (settled at its first fork) */
	uint64_t walked_at_ns;		/* the last walk for writers in pid namespaces below */
	/* after collect */
	uint64_t writers_moved;		/* files of writers seen in a time namespace not record's */
	uint64_t writers_assumed;	/* files of writers not seen, on the command's children's */
	uint64_t writers_unseen;	/* files of writers not seen, on record's namespace */
	uint64_t writers_renumbered;	/* files of writers in a pid namespace below, their pid here */
};

/**
 * hip_capture_prepare - a private directory (0700, owned by uid:gid, the user the workload
 * runs as) for the runtime's files; sets the variables in our environment, so that the
 * workload, forked next, inherits them. An AMD_LOG_MASK the user set is kept.
 */
int hip_capture_prepare(struct hip_capture *c, int level, uid_t uid, gid_t gid,
			struct gt_error *err);
/**
 * hip_capture_prepare_container - a workload in a container (record --cgroup/--container): the
 * runtime runs in the container's filesystem, so AMD_LOG_LEVEL_FILE names a file in its /tmp;
 * the command (docker exec -e AMD_LOG_LEVEL -e AMD_LOG_LEVEL_FILE -e AMD_LOG_MASK ...) passes
 * the variables on.
 */
int hip_capture_prepare_container(struct hip_capture *c, int level, struct gt_error *err);

/* A container's pid (its NSpid) as the host knows it; 0 if unknown. */
typedef pid_t (*hip_pid_map)(pid_t nspid, void *ctx);

/**
 * hip_capture_watch - looks, while the workload runs, at each new <dir>/hip.log_<pid>'s writer:
 * when @pid is @root or forked from it (as this pid namespace numbers it), its time namespace's
 * offset, to take back from its lines' times; and at the namespace @root made for its children
 * (unshare -T --fork), the clock of writers not seen. At most 20 ms a look. Not for a
 * container's (its roots' offsets are). 0, or -ENOMEM.
 */
int hip_capture_watch(struct hip_capture *c, pid_t root);

/**
 * hip_capture_collect - reads the runtime's files: <dir>/hip.log_<pid> (only regular files of
 * uid, never through a link), or for a container the <file>_<nspid> in the /tmp of each of
 * roots' /proc/PID/root (each filesystem once; pids translated with map), orders the lines by
 * time and writes them as print records into ring-buffer pages on out_fd. 0, or -1 with err
 * set.
 */
int hip_capture_collect(struct hip_capture *c, const struct print_record_format *fmt,
			const pid_t *roots, int nr_roots, hip_pid_map map, void *map_ctx,
			int out_fd, size_t page_size, struct gt_error *err);
/**
 * hip_capture_kernel_us - a line's time @ts_us, stamped on the writers' CLOCK_MONOTONIC (a time
 * namespace's, @offset_us ahead of the kernel's), on the kernel's, the records' clock: 0 for
 * a time before the kernel's 0, at most HIP_LOG_TS_US_MAX (what a record's ns hold) whatever
 * offset a namespace was given.
 */
uint64_t hip_capture_kernel_us(int64_t offset_us, uint64_t ts_us);
/** hip_capture_remove - removes the directory and what the runtime wrote into it. */
void hip_capture_remove(struct hip_capture *c);


#endif
