/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_DRM_CLIENTS_H
#define GT_DRM_CLIENTS_H

#include <stdbool.h>
#include <stdint.h>

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

/*
 * What the join found, for the outputs: its decode state (the file whose lines
 * it is reading, where it asks the jobs' time) is drm-clients.c's alone.
 */
struct drm_clients {
	uint64_t lines;
	int snapshots;
	struct drm_client *list;
	int nr, cap;
	uint64_t dropped;		/* clients past the bound */
};

/**
 * drm_clients_find - the client with this id
 * @c:  drm_clients_of()'s clients
 * @id: a DRM client id, as the scheduler's events carry it
 *
 * Return: the client, owned by @c; NULL when no snapshot named it
 */
const struct drm_client *drm_clients_find(const struct drm_clients *c, uint64_t id);
/**
 * drm_client_engine_ns - the engine time the driver counted for @cl
 * @cl: a client of drm_clients_of()
 *
 * Return: ns between its first and last snapshot, all its engines summed
 */
uint64_t drm_client_engine_ns(const struct drm_client *cl);
/**
 * drm_client_events_ns - the events' hardware time of @cl's jobs
 * @cl: a client of drm_clients_of()
 *
 * Return: ns between its first and last snapshot, as the job join counted them
 */
uint64_t drm_client_events_ns(const struct drm_client *cl);

struct analysis;
/**
 * drm_clients_of - what the DRM fdinfo join (analysis-joins.h) found in @a
 * @a: the analysis, after analysis_init()
 *
 * Return: its clients and counts, owned by @a (valid until analysis_close()), to read
 * only; NULL before analysis_init()
 */
const struct drm_clients *drm_clients_of(const struct analysis *a);

#endif
