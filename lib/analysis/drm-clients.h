/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DRM_CLIENTS_H
#define GT_DRM_CLIENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "decode/drm-fdinfo-line.h"

/*
 * DRM clients as record's fdinfo snapshots tell them (decode/drm-fdinfo-line.h):
 * which process holds each client id (the id 6.17+ scheduler and user-queue
 * events carry), its driver and PCI device, the engine time the driver
 * counted for it between the first and the last snapshot it appears in
 * (drm-engine-*, ns), and the memory resident at its last one. Bounded:
 * 4096 clients, 8 engines each. With an events_ns source (the jobs join's
 * hardware time of a client's finished jobs so far), each client also
 * keeps what the events say of the same interval: the two counts compare
 * like for like, however long the client lived before or after it.
 */
#define DRM_CLIENTS_MAX		4096
#define DRM_CLIENT_ENGINES	8

struct drm_engine_use {
	char name[24];			/* "gfx" of drm-engine-gfx */
	uint64_t first_ns, last_ns;	/* the counter at the first and last snapshot */
};

struct drm_client {
	uint64_t id;
	int pid;			/* the first process seen holding it */
	char driver[24], pdev[32];
	struct drm_engine_use engines[DRM_CLIENT_ENGINES];
	int nr_engines;
	int snapshots;			/* snapshots it appears in */
	int last_seq;
	uint64_t first_ts, last_ts;	/* its first and last snapshot */
	uint64_t events_first_ns, events_last_ns;	/* events_ns at those */
	uint64_t resident, resident_seq;	/* drm-resident-* summed, of the last snapshot */
	bool has_resident;
};

struct drm_clients {
	uint64_t lines;
	int snapshots;
	struct drm_client *list;
	int nr, cap;
	uint64_t dropped;		/* clients past the bound */
	/* the file whose lines are being read: the keys before drm-client-id */
	int cur_seq, cur_pid, cur_fd;
	char cur_driver[24], cur_pdev[32];
	int cur;			/* index of its client, -1 until known */
	/* the events' hardware time of client @id so far; NULL: none */
	uint64_t (*events_ns)(void *ctx, uint64_t id);
	void *events_ctx;
};

/** drm_clients_init - no clients yet */
void drm_clients_init(struct drm_clients *c);
/** drm_clients_line - one print line at @ts: true when it was a drm-fdinfo line (taken) */
bool drm_clients_line(struct drm_clients *c, uint64_t ts, const char *text);
/** drm_clients_find - the client with this id, NULL when no snapshot named it */
const struct drm_client *drm_clients_find(const struct drm_clients *c, uint64_t id);
/** drm_client_engine_ns - its engine time between its first and last snapshot, all engines */
uint64_t drm_client_engine_ns(const struct drm_client *cl);
/** drm_client_events_ns - the events' hardware time between its first and last snapshot */
uint64_t drm_client_events_ns(const struct drm_client *cl);
/** drm_clients_free - the clients */
void drm_clients_free(struct drm_clients *c);

struct analysis;
/**
 * drm_clients_of - the DRM fdinfo join's state in @a (analysis-joins.h): what it
 * found, for the outputs and the joins after it; NULL before analysis_init()
 */
struct drm_clients *drm_clients_of(const struct analysis *a);

#endif
