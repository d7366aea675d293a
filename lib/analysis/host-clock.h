/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_HOST_CLOCK_H
#define GT_HOST_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Which host a file is from and where its trace clock lies on UTC, from the
 * markers record writes in the main buffer (lib/capture/record-identity.c):
 *   gpu-trace host: name=N machine_id=M boot_id=B
 *   gpu-trace gpu: card=C pci=P vendor=V device=D driver=R version=X uuid=U
 *   gpu-trace clock: realtime_ns=R0      (the trace clock stamps this one at T)
 *   gpu-trace clock end: realtime_ns=R1  (read after the first was written)
 * T lies between R0 and R1 on CLOCK_REALTIME: UTC = T + offset with offset
 * (R0 + R1) / 2 - T, within (R1 - R0) / 2. The pair with the smallest
 * interval gives the offset; the first and last give the drift between the
 * two clocks over the recording. A file is trusted as far as its markers go:
 * a forged marker forges the host, as it could forge anything else.
 */

#define HOST_MAX_GPUS	16

struct host_gpu {
	char card[16], pci[24], vendor[8], device[8];
	char driver[32], version[32], uuid[40];
};

/* One clock pair: a trace time and the UTC interval it lies in. */
struct host_clock_pair {
	uint64_t trace_ns;
	uint64_t utc_from, utc_to;	/* CLOCK_REALTIME before and after */
};

struct host_clock {
	bool known;			/* a host marker was read */
	char name[65], machine_id[40], boot_id[40];
	struct host_gpu gpus[HOST_MAX_GPUS];
	int nr_gpus;
	uint64_t more_gpus;		/* past HOST_MAX_GPUS */
	uint64_t pairs;			/* clock pairs read */
	uint64_t bad_pairs;		/* an end before its start, or none: not used */
	struct host_clock_pair best, first, last;
};

/**
 * host_clock_offset - where the trace clock lies on UTC
 * @h:           the join's model
 * @offset:      UTC ns minus trace ns, from the narrowest pair
 * @uncertainty: half that pair's interval, ns
 *
 * Return: false when the file has no clock pair.
 */
bool host_clock_offset(const struct host_clock *h, int64_t *offset, uint64_t *uncertainty);

/**
 * host_clock_drift_ppm - how far the two clocks moved apart from the first pair to the last,
 * in parts per million of the time between them; 0 with fewer than two pairs
 * @h: the join's model
 *
 * Return: the drift (UTC minus trace clock), ppm.
 */
double host_clock_drift_ppm(const struct host_clock *h);

struct analysis;
/**
 * host_clock_of - the host and clock join's model in @a (analysis-joins.h), for the outputs
 * @a: the session
 *
 * Return: the model, owned by the session; NULL before analysis_init().
 */
const struct host_clock *host_clock_of(const struct analysis *a);

#endif
