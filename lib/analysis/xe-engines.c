// SPDX-License-Identifier: GPL-2.0
/* The xe engine join (xe-engines.h): exec queues and their jobs per GT and engine class. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/timeline.h"
#include "analysis/xe-engines.h"
#include "decode/event-fields.h"
#include "util/keymap.h"

/* the fields read, by index, of queue events and of job events */
static const char *const queue_fields[] = { "dev", "class", "gt_id", "guc_id", NULL };
static const char *const job_fields[] = { "dev", "guc_id", "gt_id", NULL };
enum { F_DEV, F_CLASS, F_GT, F_GUC };		/* queue_fields */
enum { J_DEV, J_GUC, J_GT };			/* job_fields */

enum xe_event {
	XE_JOB_CREATE,		/* names the device before its ring's run event */
	XE_QUEUE_CREATE,
	XE_QUEUE_DESTROY,
	XE_QUEUE_RESET,
	XE_JOB_RUN,
	XE_JOB_ERROR,
	XE_JOB_BAN,
	XE_JOB_TIMEDOUT,
	XE_NR_EVENTS
};

static const char *const event_names[XE_NR_EVENTS] = {
	[XE_JOB_CREATE] = "xe_sched_job_create", [XE_QUEUE_CREATE] = "xe_exec_queue_create",
	[XE_QUEUE_DESTROY] = "xe_exec_queue_destroy",
	[XE_QUEUE_RESET] = "xe_exec_queue_reset", [XE_JOB_RUN] = "xe_sched_job_run",
	[XE_JOB_ERROR] = "xe_sched_job_set_error", [XE_JOB_BAN] = "xe_sched_job_ban",
	[XE_JOB_TIMEDOUT] = "xe_sched_job_timedout",
};

/*
 * The join's state. The maps' values are an engine's index + 1:
 *   queues: (device, GT, GuC id) -> the live queue's engine
 *   by_guc: (device, GuC id) -> the engine of the queue last given that id on any GT (the
 *           jobs of 6.12 and the rings name no GT)
 *   by_name: (device, class, GuC id) -> the engine of the queue last so named: its ring's
 *   by_ring: (device, GuC id) -> the class + 1 a scheduler ring's name gave it (a queue made
 *           before the file)
 */
struct xe_engines_state {
	struct xe_engines model;
	struct event_fields ev[XE_NR_EVENTS];
	struct keymap queues, by_guc, by_name, by_ring;
	char devs[8][GEV_STR_LEN];	/* the xe devices seen, for rings that name none */
	int nr_devs;
};

/* enum xe_engine_class, as xe_exec_queue_assign_name() spells each in the queue's name */
static const char *const class_names[] = { "rcs", "vcs", "vecs", "bcs", "gsccs", "ccs" };
#define NR_CLASSES (sizeof(class_names) / sizeof(class_names[0]))

const char *xe_engine_class_name(unsigned int klass)
{
	return klass < NR_CLASSES ? class_names[klass] : NULL;
}

/* "rcs5" -> class 0, GuC id 5; false for a name no xe queue has */
static bool parse_ring(const char *name, unsigned int *klass, unsigned long *guc)
{
	for (unsigned int c = 0; c < NR_CLASSES; c++) {
		size_t n = strlen(class_names[c]);
		char *end;

		if (strncmp(name, class_names[c], n) || name[n] < '0' || name[n] > '9')
			continue;
		*guc = strtoul(name + n, &end, 10);
		if (*end || *guc > 0xffff)
			return false;
		*klass = c;
		return true;
	}
	return false;
}

static uint64_t queue_key(const char *dev, int gt, uint64_t guc)
{
	return keymap_pair(keymap_pair(keymap_str(dev), (uint64_t)(gt + 2)), guc);
}

static uint64_t guc_key(const char *dev, uint64_t guc)
{
	return keymap_pair(keymap_pair(keymap_str(dev), 0), guc);
}

static uint64_t name_key(const char *dev, unsigned int klass, uint64_t guc)
{
	return keymap_pair(guc_key(dev, guc), klass + 1);
}

static int map_get(const struct keymap *m, uint64_t key)
{
	return (int)(uintptr_t)keymap_get(m, key) - 1;
}

static void map_put(struct keymap *m, uint64_t key, int value)
{
	keymap_put(m, key, (void *)(uintptr_t)(value + 1));	/* out of memory: not learnt */
}

static void note_dev(struct xe_engines_state *s, const char *dev)
{
	for (int i = 0; i < s->nr_devs; i++)
		if (!strcmp(s->devs[i], dev))
			return;
	if (s->nr_devs < 8)
		snprintf(s->devs[s->nr_devs++], sizeof(s->devs[0]), "%s", dev);
}

/* the device a scheduler ring names, or the one xe device when it names none (6.16 and older) */
static const char *ring_dev(const struct xe_engines_state *s, const char *dev)
{
	return dev[0] ? dev : s->nr_devs == 1 ? s->devs[0] : NULL;
}

static bool xe_dev(const struct xe_engines_state *s, const char *dev)
{
	for (int i = 0; i < s->nr_devs; i++)
		if (!strcmp(s->devs[i], dev))
			return true;
	return false;
}

static int engine_of(struct xe_engines *m, const char *dev, int gt, const char *engine)
{
	int i;

	for (i = 0; i < m->nr_engines; i++)
		if (m->engines[i].gt == gt && !strcmp(m->engines[i].dev, dev) &&
		    !strcmp(m->engines[i].engine, engine))
			return i;
	if (m->nr_engines == XE_MAX_ENGINES) {
		struct xe_engine *more = &m->engines[XE_MAX_ENGINES];

		more->gt = -1;
		snprintf(more->engine, sizeof(more->engine), "(more engines)");
		return XE_MAX_ENGINES;
	}
	snprintf(m->engines[i].dev, sizeof(m->engines[i].dev), "%s", dev);
	snprintf(m->engines[i].engine, sizeof(m->engines[i].engine), "%s", engine);
	m->engines[i].gt = gt;
	return m->nr_engines++;
}

/* the live queue (device, GT, GuC id) is on engine eng; gt -1: its GT is not known */
static void learn(struct xe_engines_state *s, const char *dev, int gt, uint64_t guc, int eng)
{
	const char *name = s->model.engines[eng].engine;

	if (gt >= 0)
		map_put(&s->queues, queue_key(dev, gt, guc), eng);
	map_put(&s->by_guc, guc_key(dev, guc), eng);
	for (unsigned int c = 0; c < NR_CLASSES; c++)
		if (!strcmp(name, class_names[c]))
			map_put(&s->by_name, name_key(dev, c, guc), eng);
}

static int class_engine(struct xe_engines *m, const char *dev, int gt, unsigned long long klass)
{
	char name[16];
	const char *known = xe_engine_class_name((unsigned int)klass);

	if (!known && snprintf(name, sizeof(name), "class %llu", klass % 1000))
		known = name;
	return engine_of(m, dev, gt, known);
}

/* xe_exec_queue_create/destroy/reset */
static void queue_event(struct xe_engines_state *s, enum xe_event type,
			const struct tep_record *rec)
{
	const struct event_fields *e = &s->ev[type];
	unsigned long long klass = ~0ULL, gt = ~0ULL, guc = 0;
	char dev[GEV_STR_LEN];
	uint64_t key;
	int eng;

	event_field_str(e, F_DEV, rec, dev, sizeof(dev));
	event_field_num(e, F_CLASS, rec, &klass);
	event_field_num(e, F_GUC, rec, &guc);
	note_dev(s, dev);
	eng = class_engine(&s->model, dev,
			   event_field_num(e, F_GT, rec, &gt) ? (int)(gt & 0xff) : -1, klass);
	key = queue_key(dev, s->model.engines[eng].gt, guc);
	if (type == XE_QUEUE_CREATE) {
		s->model.engines[eng].created++;
		s->model.engines[eng].queues++;
		learn(s, dev, s->model.engines[eng].gt, guc, eng);
		return;
	}
	if (map_get(&s->queues, key) < 0) {	/* made before the file */
		s->model.engines[eng].queues++;
		learn(s, dev, s->model.engines[eng].gt, guc, eng);
	}
	if (type == XE_QUEUE_RESET) {
		s->model.engines[eng].resets++;
		return;
	}
	s->model.engines[eng].destroyed++;
	keymap_del(&s->queues, key);		/* its GuC id is free for the next */
}

/*
 * A job event's queue: the live one of its GT and GuC id, else (6.12: no GT) the
 * last given that id; one made before the file is learnt on its first job, its
 * class from the ring its scheduler named it by
 */
static int job_queue(struct xe_engines_state *s, const char *dev, int gt, uint64_t guc)
{
	int eng = gt >= 0 ? map_get(&s->queues, queue_key(dev, gt, guc)) :
			    map_get(&s->by_guc, guc_key(dev, guc));
	int klass;

	if (eng >= 0)
		return eng;
	klass = map_get(&s->by_ring, guc_key(dev, guc));
	eng = klass >= 0 ? class_engine(&s->model, dev, gt, (unsigned int)klass) :
			   engine_of(&s->model, dev, gt, "?");
	s->model.engines[eng].queues++;
	learn(s, dev, gt, guc, eng);
	return eng;
}

static void job_event(struct xe_engines_state *s, enum xe_event type, const struct tep_record *rec)
{
	const struct event_fields *e = &s->ev[type];
	unsigned long long guc = 0, gt;
	char dev[GEV_STR_LEN];
	struct xe_engine *x;

	event_field_str(e, J_DEV, rec, dev, sizeof(dev));
	event_field_num(e, J_GUC, rec, &guc);
	note_dev(s, dev);
	if (type == XE_JOB_CREATE)
		return;
	x = &s->model.engines[job_queue(s, dev,
					event_field_num(e, J_GT, rec, &gt) ? (int)(gt & 0xff) : -1,
					guc)];
	if (type == XE_JOB_RUN)
		x->ran++;
	else if (type == XE_JOB_ERROR)
		x->errors++;
	else if (type == XE_JOB_BAN)
		x->bans++;
	else
		x->timeouts++;
}

/* the scheduler's run event names the queue's ring: its class, for a queue made before the file */
static void ring_seen(struct xe_engines_state *s, const struct gpu_event *ev)
{
	const char *dev = ring_dev(s, ev->dev);
	unsigned long guc;
	unsigned int klass;

	if (dev && parse_ring(ev->ring, &klass, &guc))
		map_put(&s->by_ring, guc_key(dev, guc), (int)klass);
}

const struct xe_engines *xe_engines_of(const struct analysis *a)
{
	const struct xe_engines_state *s = analysis_state(a, JOIN_XE);

	return s ? &s->model : NULL;
}

static int join_init(void *state, struct analysis *a)
{
	struct xe_engines_state *s = state;

	for (int i = 0; i < XE_NR_EVENTS; i++) {
		bool queue = i >= XE_QUEUE_CREATE && i <= XE_QUEUE_RESET;

		event_fields_find(&s->ev[i], analysis_tep(a), "xe", event_names[i],
				  queue ? queue_fields : job_fields);
	}
	return 0;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	struct xe_engines_state *s = state;

	(void)a;
	if (r->kind == GEV_RUN) {
		ring_seen(s, &r->ev);
		return;
	}
	for (int i = 0; i < XE_NR_EVENTS; i++) {
		if (s->ev[i].id < 0 || r->type != s->ev[i].id)
			continue;
		s->model.records++;
		if (i >= XE_QUEUE_CREATE && i <= XE_QUEUE_RESET)
			queue_event(s, i, r->rec);
		else
			job_event(s, i, r->rec);
		return;
	}
}

/* every queue's ring (timeline.h) into its engine: its finished jobs and busy time */
static void join_finish(void *state, struct analysis *a)
{
	struct xe_engines_state *s = state;
	const struct timeline *t = timeline_of(a);

	if (!s->model.records)
		return;
	for (int i = 0; i < t->nr_rings; i++) {
		const struct ring_stats *r = t->rings[i];
		const char *dev = ring_dev(s, r->dev);
		unsigned long guc;
		unsigned int klass;
		struct xe_engine *x;
		int eng;

		if (!dev || !xe_dev(s, dev) || !parse_ring(r->name, &klass, &guc))
			continue;
		eng = map_get(&s->by_name, name_key(dev, klass, guc));
		if (eng < 0)	/* no xe event of its queue: its GT unknown */
			eng = class_engine(&s->model, dev, -1, klass);
		x = &s->model.engines[eng];
		x->rings++;
		x->jobs += r->jobs;
		x->busy_ns += r->busy_ns;
	}
}

static void join_free(void *state)
{
	struct xe_engines_state *s = state;

	keymap_free(&s->queues);
	keymap_free(&s->by_guc);
	keymap_free(&s->by_name);
	keymap_free(&s->by_ring);
}

static bool join_gpu_data(const void *state, const struct analysis *a)
{
	const struct xe_engines_state *s = state;

	(void)a;
	return s->model.records;
}

/* xe's queue events decode as no GPU kind, its job events as GEV_XE_JOB; rings from GEV_RUN */
static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	const struct xe_engines_state *s = state;

	(void)a;
	for (int i = 0; i < XE_NR_EVENTS; i++)
		if (s->ev[i].id >= 0)
			return JOIN_KIND(GEV_NONE) | JOIN_KIND(GEV_XE_JOB) | JOIN_KIND(GEV_RUN);
	return 0;
}

const struct analysis_join xe_engines_join = {
	.name = "Intel xe engines",
	.state_size = sizeof(struct xe_engines_state),
	.init = join_init,
	.record = join_record,
	.finish = join_finish,
	.free = join_free,
	.gpu_data = join_gpu_data,
	.kinds = join_kinds,
};
