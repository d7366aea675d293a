/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_NVIDIA_CALLS_H
#define GT_NVIDIA_CALLS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/latency-stats.h"
#include "decode/nvidia-names.h"

/*
 * What record --preset nvidia's probes saw (decode/nvidia-names.h): each process's calls into
 * nvidia.ko by escape and RM control command, their times, the slowest of them; open, close
 * and mmap; each interrupt line's ISRs, how long their bottom halves waited and ran;
 * nvidia-uvm's fault service passes; every Xid. A call is its entry and its return on one
 * thread (an ISR: on one CPU). Everything is bounded: a file with more processes, commands,
 * lines or Xids than the limits below counts the rest as "more".
 *
 * ioctls are kept per process, not per device: most of the driver's calls go through
 * /dev/nvidiactl, and the device behind a struct file is at offsets that change with every
 * kernel. Interrupt lines and Xids name the device.
 */
#define NV_MAX_CALL_ROWS	512
#define NV_MAX_PROCESSES	256
#define NV_MAX_IRQS		64
#define NV_MAX_UVM		16
#define NV_MAX_XIDS		256
#define NV_SLOWEST		10

/* the calls of one process with one escape and, for RM controls, one command */
struct nv_call_row {
	int pid;
	uint32_t escape;
	uint32_t ctl_cmd;
	bool has_cmd;			/* an RM control whose command was read */
	uint64_t failed;		/* the ioctl returned non-zero */
	uint64_t rm_errors;		/* RM's status non-zero (where read) */
	uint64_t statuses;		/* RM statuses read */
	struct latency_stats ns;
};

struct nv_slow_call {
	uint64_t ts, ns;
	int tid;			/* the caller: the file names threads */
	uint32_t escape, ctl_cmd;
	bool has_cmd, has_status;
	uint32_t status;
	int64_t ret;
};

struct nv_process {
	int pid;
	uint64_t ioctls, ioctl_ns;
	uint64_t opens, open_failed, closes;
	uint64_t mmaps, mmap_failed, mmap_bytes;
};

struct nv_irq {
	int irq;
	uint64_t isrs, msix, unhandled;	/* unhandled: the ISR said IRQ_NONE */
	uint64_t first, last;		/* the first and last ISR */
	uint64_t bhs;
	uint64_t waiting_since;		/* the oldest ISR no bottom half has begun after; 0 none */
	struct latency_stats isr_ns, to_bh_ns, bh_ns;
};

struct nv_uvm {
	bool replayable;
	uint64_t gpu;			/* the uvm_parent_gpu_t pointer: which GPU */
	struct latency_stats ns;
};

struct nv_xid {
	uint64_t ts;
	int pid;
	uint32_t code;
	char dev[32];
	char msg[160];
};

/*
 * What the latest record finished, for writers that draw each call (Perfetto): set by
 * nvidia_calls_record, NVD_NONE for any other record.
 */
enum nv_done_kind { NVD_NONE, NVD_IOCTL, NVD_OPEN, NVD_CLOSE, NVD_MMAP, NVD_ISR, NVD_BH, NVD_UVM,
		    NVD_XID };

struct nv_done {
	enum nv_done_kind kind;
	uint64_t from, to;		/* an Xid: from == to */
	int tid;			/* the caller (calls); -1 for ISRs */
	int irq;			/* ISR and bottom half */
	struct nv_slow_call call;	/* NVD_IOCTL */
	int64_t ret;
	uint64_t bytes;			/* mmap: the range asked for */
	bool replayable;
	uint64_t gpu;
	const struct nv_xid *xid;	/* NVD_XID: NULL past NV_MAX_XIDS */
};

/*
 * What the join found, for the outputs: its decode state (the probes' formats and
 * fields, the calls entered and not yet returned) is nvidia-calls.c's alone.
 */
struct nvidia_calls {
	int nr_formats;			/* the probes' and nvidia_dev_xid's in the file */
	bool probes;			/* the file has the probe group */
	bool statuses;			/* its ioctl return probe reads RM statuses */
	bool commands;			/* its ioctl probe reads RM control commands */
	uint64_t records;
	struct nv_call_row *rows;
	int nr_rows, cap_rows;
	uint64_t more_rows;		/* calls past NV_MAX_CALL_ROWS rows */
	struct nv_process *procs;	/* NV_MAX_PROCESSES, allocated at the first */
	int nr_procs;
	uint64_t more_procs;
	struct nv_slow_call slowest[NV_SLOWEST];	/* slowest first */
	int nr_slowest;
	struct nv_irq *irqs;
	int nr_irqs;
	uint64_t more_isrs;		/* ISRs of lines past NV_MAX_IRQS */
	struct nv_uvm *uvm;
	int nr_uvm;
	uint64_t more_uvm_passes;	/* fault service passes of buffers past NV_MAX_UVM */
	struct nv_xid *xids;		/* NV_MAX_XIDS, allocated at the first */
	int nr_xids;
	uint64_t more_xids;
	uint64_t unmatched;		/* a return without its entry (recording began inside) */
	struct nv_done done;
};

/**
 * nvidia_calls_any - whether the file holds NVIDIA records
 * @n: nvidia_calls_of()'s
 *
 * Return: true when the join read any record of its formats
 */
bool nvidia_calls_any(const struct nvidia_calls *n);

struct analysis;
/**
 * nvidia_calls_of - what the NVIDIA probe event join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its calls, lines, Xids and the latest record's done, owned by @a (valid until
 * analysis_close()); not const, as reading a percentile of its latency_stats computes it
 * in place; NULL before analysis_init()
 */
struct nvidia_calls *nvidia_calls_of(const struct analysis *a);

#endif
