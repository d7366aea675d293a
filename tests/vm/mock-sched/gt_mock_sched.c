// SPDX-License-Identifier: GPL-2.0
/*
 * gt_mock_sched: drives the kernel's real DRM GPU scheduler with mock
 * hardware, so gpu-trace's lab sees genuine gpu_scheduler and dma_fence
 * events without a GPU.
 *
 * Each mock ring executes one job at a time, in order, like a GPU ring: the
 * fence run_job returns is signalled by an hrtimer after the job's execution
 * time, and the next job starts then.  The scenario (a static table chosen by
 * the `scenario` parameter) has several entities (clients) on two rings,
 * dependencies across rings and on an external fence, and a burst larger
 * than the ring's credit limit so jobs wait in the scheduler.
 *
 * A scenario runs in the context of whoever starts it: the module's init
 * for `scenario=` at insmod, or any process that writes a scenario's name to
 * /sys/kernel/debug/gt_mock/run (it returns when the jobs are done), so that
 * `gpu-trace record -- sh -c 'echo mixed > .../run'` submits from the
 * recorded workload, as a real driver's ioctl would.  Several can run at
 * once on the shared rings (each with its own entities, as processes have):
 * /sys/kernel/debug/gt_mock/active lists the running ones.
 *
 * Where the kernel's DRM core prints fdinfo (drm_show_fdinfo, 6.5+), the
 * module is also a minimal DRM driver, "gt_mock": a render node whose one
 * ioctl (GT_MOCK_SUBMIT, a scenario's name) runs a scenario as that DRM
 * file's client, so the scheduler events carry the client id the DRM core
 * gave the file (6.17+), and whose fdinfo prints the engine time of the
 * file's jobs per ring (drm-engine-gt_ring0, counted when each job's
 * hardware fence signals, from its hardware start), as a real driver does.
 *
 * Each run logs the ground truth (one "gt_mock: job" line per job, with the
 * submitter's pid and the times it measured itself on CLOCK_MONOTONIC, the
 * clock gpu-trace records with) for the host to compare with what
 * gpu-trace report reconstructs; a DRM file logs its engine time when it
 * is closed ("gt_mock: client=").
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/hrtimer.h>
#include <linux/dma-fence.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <drm/gpu_scheduler.h>
#include "compat.h"
#ifdef GT_DRM_FDINFO
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>
#include <linux/interrupt.h>
#endif

#define NR_RINGS	2
#define NR_ENTITIES	3
#define MAX_JOBS	64
#define RING_CREDITS	2	/* jobs the "hardware" holds at once */

static char *scenario = "mixed";
module_param(scenario, charp, 0444);
MODULE_PARM_DESC(scenario, "run at load: mixed (default), client, burst, chain, rival, victim, steady, stress, slow, hang or none");

static unsigned int exec_scale = 100;
module_param(exec_scale, uint, 0644);
/* off while a batch measures a tracer's cost: a log line per job is kernel work no GPU does */
static bool log_jobs = true;
module_param(log_jobs, bool, 0644);
MODULE_PARM_DESC(log_jobs, "log each job's times when its scenario ends (default on; writable)");
MODULE_PARM_DESC(exec_scale, "percent applied to every execution time (default 100; writable: an experiment's cases)");

struct job_spec {
	int entity;		/* which entity (and so ring and client) submits it */
	unsigned int exec_us;	/* how long the mock hardware runs it */
	int dep;		/* index of a job it waits for, or -1 */
	bool external;		/* also waits for the external fence */
};

/* entity -> ring: 0 and 1 share ring 0, 2 is alone on ring 1 */
static const int entity_ring[NR_ENTITIES] = { 0, 0, 1 };

static const struct job_spec mixed_jobs[] = {
	{ 0, 8000, -1, false },	/* 0: long job on ring 0 */
	{ 2, 3000, 0, false },	/* 1: ring 1 waits for job 0 on ring 0 */
	{ 1, 4000, -1, true },	/* 2: waits for the external fence */
	{ 0, 2000, -1, false },	/* 3-8: burst, more than the ring's credits */
	{ 0, 2000, -1, false },
	{ 1, 2000, -1, false },
	{ 0, 2000, -1, false },
	{ 1, 2000, -1, false },
	{ 0, 2000, -1, false },
	{ 2, 5000, 5, false },	/* 9: ring 1 waits for a burst job */
	{ 2, 1000, -1, false },	/* 10: queued behind 9 on ring 1 */
};

/*
 * the render node's client (mock-client): mixed, then one 100 ms job on ring 1
 * queued behind the last (same entity: no dependency, which the scheduler would
 * skip as ordered anyway): its ioctl waits on the GPU far longer than it
 * submits, even when TCG stretches the submissions (tens of ms), so its
 * verdict is GPU-bound
 */
static const struct job_spec client_jobs[] = {
	{ 0, 8000, -1, false }, { 2, 3000, 0, false }, { 1, 4000, -1, true },
	{ 0, 2000, -1, false }, { 0, 2000, -1, false }, { 1, 2000, -1, false },
	{ 0, 2000, -1, false }, { 1, 2000, -1, false }, { 0, 2000, -1, false },
	{ 2, 5000, 5, false }, { 2, 1000, -1, false }, { 2, 100000, -1, false },
};

static const struct job_spec burst_jobs[] = {
	{ 0, 1000, -1, false }, { 1, 1000, -1, false }, { 0, 1000, -1, false },
	{ 1, 1000, -1, false }, { 0, 1000, -1, false }, { 1, 1000, -1, false },
	{ 2, 1000, -1, false }, { 2, 1000, -1, false },
};

static const struct job_spec chain_jobs[] = {
	{ 0, 3000, -1, false }, { 2, 3000, 0, false }, { 1, 3000, 1, false },
	{ 2, 3000, 2, false },
};

/* another process flooding ring 0: eight 10 ms jobs, two entities */
static const struct job_spec rival_jobs[] = {
	{ 0, 10000, -1, false }, { 1, 10000, -1, false }, { 0, 10000, -1, false },
	{ 1, 10000, -1, false }, { 0, 10000, -1, false }, { 1, 10000, -1, false },
	{ 0, 10000, -1, false }, { 1, 10000, -1, false },
};

/* the recorded workload: short jobs on ring 0, behind the rival's, one on ring 1 */
static const struct job_spec victim_jobs[] = {
	{ 0, 2000, -1, false }, { 0, 2000, -1, false }, { 2, 2000, -1, false },
	{ 0, 2000, -1, false },
};

/* a steady stream for gpu-trace top: 1 ms jobs submitted every 10 ms on ring 0 */
#define STEADY_JOBS	60
static struct job_spec steady_jobs[STEADY_JOBS];

/*
 * The stress batch for overhead measurements: as many 50 us jobs as a run
 * holds, all at once, from every entity: the scheduler's event path, not
 * the mock hardware's timers, sets the pace.
 */
static struct job_spec stress_jobs[MAX_JOBS];

/* the flight recorder's planted trouble: one 80 ms job; one 200 ms job its ring times out on */
static const struct job_spec slow_jobs[] = { { 0, 80000, -1, false } };
static const struct job_spec hang_jobs[] = { { 0, 200000, -1, false } };

struct scenario_def {
	const char *name;
	const struct job_spec *spec;
	int n;
	unsigned int pace_us;	/* between submissions, 0: all at once */
	/*
	 * this long after the submissions, the kernel's log says the first job's
	 * ring timed out, in amdgpu's words (amdgpu_job_timedout): what gpu-trace
	 * reads as a ring timeout (printk:console); the mock does not reset
	 */
	unsigned int timeout_after_us;
};

static const struct scenario_def scenarios[] = {
	{ "mixed", mixed_jobs, ARRAY_SIZE(mixed_jobs), 0 },
	{ "client", client_jobs, ARRAY_SIZE(client_jobs), 0 },
	{ "burst", burst_jobs, ARRAY_SIZE(burst_jobs), 0 },
	{ "chain", chain_jobs, ARRAY_SIZE(chain_jobs), 0 },
	{ "rival", rival_jobs, ARRAY_SIZE(rival_jobs), 0 },
	{ "victim", victim_jobs, ARRAY_SIZE(victim_jobs), 0 },
	{ "steady", steady_jobs, STEADY_JOBS, 10000 },
	{ "stress", stress_jobs, MAX_JOBS, 0 },
	{ "slow", slow_jobs, ARRAY_SIZE(slow_jobs), 0 },
	{ "hang", hang_jobs, ARRAY_SIZE(hang_jobs), 0, 50000 },
};

#define EXTERNAL_SIGNAL_US	20000

struct mock_ring;

/* A DRM file of the render node: the engine time its jobs used, per ring */
struct mock_client {
	atomic64_t engine_ns[NR_RINGS];
};

struct mock_job {
	struct drm_sched_job base;
	struct mock_ring *ring;
	int index, entity;
	u64 client_id;
	struct mock_client *client;	/* the DRM file that submitted it, or NULL */
	unsigned int exec_us;
	struct dma_fence *finished;	/* our reference to the scheduler's fence */
	struct dma_fence *deps[2];
	int nr_deps;
	u64 t_queue, t_run, t_hw_start, t_done;
	/*
	 * A vCPU can stall between taking t_done and the signal's trace event
	 * (TCG runs both vCPUs on one host thread, in turns): the truth is the
	 * interval from the timestamp to just after the signal returned.
	 */
	u64 t_queue_by, t_hw_start_by, t_done_by;
	/*
	 * The scheduler's run event comes before run_job(), which takes t_run:
	 * the truth is the interval from when the scheduler popped the job (its
	 * last prepare_job/dependency call) to t_run.
	 */
	u64 t_run_from, t_hw_start_from;
	bool done_by_set;		/* the timer has written t_done_by */
	struct completion freed;	/* the scheduler is done with it */
};

struct hw_fence {
	struct dma_fence base;
	struct list_head link;
	struct mock_job *job;		/* until its run frees it */
	/* its name: the fence outlives the job when a later job held it as a dependency */
	struct mock_ring *ring;
};

struct mock_ring {
	struct drm_gpu_scheduler sched;
	char name[16];
	spinlock_t fence_lock;		/* the hw fences' lock */
	spinlock_t lock;		/* pending list */
	struct list_head pending;	/* fences on the ring, head executing */
	struct hrtimer timer;
	bool timer_ready;
	u64 context, seqno;
};

struct external_fence {
	struct dma_fence base;
	spinlock_t lock;
	struct hrtimer timer;
	u64 t_signal;
	u64 t_signal_by;	/* after dma_fence_signal returned: its event is in between */
};

/* One scenario run: its own entities (clients), jobs and external fence. */
struct mock_run {
	const struct scenario_def *def;
	pid_t pid;			/* the submitting process */
	struct mock_client *client;	/* submitted through a DRM file, or NULL */
	u64 client_id;			/* that file's client id */
	struct drm_sched_entity entities[NR_ENTITIES];
	bool entity_ready[NR_ENTITIES];
	struct mock_job *jobs[MAX_JOBS];
	int nr_jobs;
	struct external_fence *external;
	struct list_head link;		/* on active_runs while it runs */
};

static struct platform_device *pdev;
static struct mock_ring rings[NR_RINGS];
static bool ring_ready[NR_RINGS];
static struct dentry *debug_dir;
static LIST_HEAD(active_runs);
static DEFINE_MUTEX(active_lock);
#ifdef GT_DRM_FDINFO
static struct drm_device *drm;		/* the render node, where DRM prints fdinfo */
#endif

static const char *fence_driver_name(struct dma_fence *f)
{
	return "gt_mock";
}

static const char *hw_timeline_name(struct dma_fence *f)
{
	return container_of(f, struct hw_fence, base)->ring->name;
}

static const char *external_timeline_name(struct dma_fence *f)
{
	return "external";
}

static const struct dma_fence_ops hw_fence_ops = {
	.get_driver_name = fence_driver_name,
	.get_timeline_name = hw_timeline_name,
};

static const struct dma_fence_ops external_fence_ops = {
	.get_driver_name = fence_driver_name,
	.get_timeline_name = external_timeline_name,
};

static void timer_setup_mode(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *))
{
#ifdef GT_HRTIMER_SETUP
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	t->function = fn;
#endif
}

static ktime_t exec_time(const struct mock_job *job)
{
	return ns_to_ktime((u64)job->exec_us * NSEC_PER_USEC);
}

/*
 * The head job is done: signal it, then start the next one.  The ring stays
 * busy (the done job at the head of its pending list) until the signal has
 * returned: the trace shows the done job's end only at that signal, and the
 * report infers a job's hardware start behind it from there.  Were the job
 * taken off first, a job whose run raced the signal (TCG stops a vCPU for
 * milliseconds at any instruction, here between taking the job off and
 * signalling it, while the other vCPU runs the scheduler's worker) would
 * find the ring idle and start at its run, before the trace can show the
 * ring free: its truth milliseconds before the report's (and its execution
 * eaten by the stall).  So the next job starts after the signal, whenever
 * it came to the ring, and its start is bracketed from the done job's end.
 */
static enum hrtimer_restart ring_timer(struct hrtimer *t)
{
	struct mock_ring *ring = container_of(t, struct mock_ring, timer);
	struct hw_fence *done, *next;
	struct mock_job *job = NULL, *next_job = NULL;
	unsigned long flags;
	u64 now = ktime_get_ns(), start;
	enum hrtimer_restart ret = HRTIMER_NORESTART;

	spin_lock_irqsave(&ring->lock, flags);
	done = list_first_entry_or_null(&ring->pending, struct hw_fence, link);
	spin_unlock_irqrestore(&ring->lock, flags);

	if (done) {
		job = done->job;	/* lives until its run logs it */
		job->t_done = now;
		/* the driver's count for fdinfo, before user space can see the fence */
		if (job->client)
			atomic64_add(now - job->t_hw_start,
				     &job->client->engine_ns[job->ring - rings]);
		dma_fence_signal(&done->base);
		job->t_done_by = ktime_get_ns();
	}

	spin_lock_irqsave(&ring->lock, flags);
	if (done)
		list_del(&done->link);
	next = list_first_entry_or_null(&ring->pending, struct hw_fence, link);
	if (next) {
		next_job = next->job;
		start = ktime_get_ns();
		next_job->t_hw_start = next_job->t_hw_start_by = start;
		/* what the trace can show: the done job's end, or this job's run if later */
		next_job->t_hw_start_from = max(done ? now : start, next_job->t_run_from);
		/*
		 * its whole execution from its start: hrtimer_forward_now() would add it to
		 * the done job's expiry, and a callback late by the signal (or a TCG stall)
		 * would cut the next job short by as much (a 100 ms job ran 96.65 ms)
		 */
		hrtimer_set_expires(t, ktime_add(ns_to_ktime(start), exec_time(next_job)));
		ret = HRTIMER_RESTART;
	}
	spin_unlock_irqrestore(&ring->lock, flags);

	if (done) {
		dma_fence_put(&done->base);
		smp_wmb();
		WRITE_ONCE(job->done_by_set, true);
	}
	return ret;
}

static struct dma_fence *mock_run_job(struct drm_sched_job *sched_job)
{
	struct mock_job *job = container_of(sched_job, struct mock_job, base);
	struct mock_ring *ring = job->ring;
	struct hw_fence *f = kzalloc(sizeof(*f), GFP_KERNEL);
	unsigned long flags;
	bool idle;

	job->t_run = ktime_get_ns();
	if (!f)
		return ERR_PTR(-ENOMEM);
	f->job = job;
	f->ring = ring;
	dma_fence_init(&f->base, &hw_fence_ops, &ring->fence_lock, ring->context, ++ring->seqno);

	spin_lock_irqsave(&ring->lock, flags);
	idle = list_empty(&ring->pending);
	list_add_tail(&f->link, &ring->pending);
	dma_fence_get(&f->base);		/* the ring's reference */
	if (idle) {
		job->t_hw_start = job->t_hw_start_by = job->t_run;
		job->t_hw_start_from = job->t_run_from;
		hrtimer_start(&ring->timer, exec_time(job), HRTIMER_MODE_REL);
	}
	spin_unlock_irqrestore(&ring->lock, flags);
	return &f->base;			/* the scheduler's reference */
}

static enum drm_gpu_sched_stat mock_timedout_job(struct drm_sched_job *sched_job)
{
#ifdef GT_SCHED_STAT_RESET
	return DRM_GPU_SCHED_STAT_RESET;
#else
	return DRM_GPU_SCHED_STAT_NOMINAL;
#endif
}

static void mock_free_job(struct drm_sched_job *sched_job)
{
	drm_sched_job_cleanup(sched_job);
	complete(&container_of(sched_job, struct mock_job, base)->freed);
}

/*
 * Called as the scheduler pops the job, its dependencies all signalled,
 * before its run event (any kernel the module builds for): the earliest the
 * event can be.  No fence of its own to wait for.
 */
static struct dma_fence *mock_prepare_job(struct drm_sched_job *sched_job,
					  struct drm_sched_entity *entity)
{
	container_of(sched_job, struct mock_job, base)->t_run_from = ktime_get_ns();
	return NULL;
}

static const struct drm_sched_backend_ops mock_ops = {
#ifdef GT_SCHED_PREPARE_JOB
	.prepare_job = mock_prepare_job,
#else
	.dependency = mock_prepare_job,
#endif
	.run_job = mock_run_job,
	.timedout_job = mock_timedout_job,
	.free_job = mock_free_job,
};

static int ring_init(struct mock_ring *ring, int i)
{
	snprintf(ring->name, sizeof(ring->name), "gt_ring%d", i);
	spin_lock_init(&ring->fence_lock);
	spin_lock_init(&ring->lock);
	INIT_LIST_HEAD(&ring->pending);
	timer_setup_mode(&ring->timer, ring_timer);
	ring->timer_ready = true;
	ring->context = dma_fence_context_alloc(1);
#ifdef GT_SCHED_INIT_ARGS
	{
		struct drm_sched_init_args args = {
			.ops = &mock_ops,
#ifdef GT_SCHED_INIT_ARGS_SUBMIT_WQ
			.num_rqs = DRM_SCHED_PRIORITY_COUNT,
#endif
			.credit_limit = RING_CREDITS,
			.timeout = MAX_SCHEDULE_TIMEOUT,
			.name = ring->name,
			.dev = &pdev->dev,
		};
		return drm_sched_init(&ring->sched, &args);
	}
#elif defined(GT_SCHED_INIT_SUBMIT_WQ)
	return drm_sched_init(&ring->sched, &mock_ops, NULL, DRM_SCHED_PRIORITY_COUNT,
			      RING_CREDITS, 0, MAX_SCHEDULE_TIMEOUT, NULL, NULL,
			      ring->name, &pdev->dev);
#else
	return drm_sched_init(&ring->sched, &mock_ops, RING_CREDITS, 0,
			      MAX_SCHEDULE_TIMEOUT, NULL, NULL, ring->name, &pdev->dev);
#endif
}

static enum hrtimer_restart external_timer(struct hrtimer *t)
{
	struct external_fence *e = container_of(t, struct external_fence, timer);

	e->t_signal = ktime_get_ns();
	dma_fence_signal(&e->base);
	e->t_signal_by = ktime_get_ns();
	return HRTIMER_NORESTART;
}

static int external_create(struct mock_run *run)
{
	struct external_fence *external = kzalloc(sizeof(*external), GFP_KERNEL);

	if (!external)
		return -ENOMEM;
	spin_lock_init(&external->lock);
	dma_fence_init(&external->base, &external_fence_ops, &external->lock,
		       dma_fence_context_alloc(1), 1);
	timer_setup_mode(&external->timer, external_timer);
	run->external = external;
	return 0;
}

static int job_submit(struct mock_run *run, const struct job_spec *spec, int index)
{
	struct drm_sched_entity *entities = run->entities;
	struct mock_job *job = kzalloc(sizeof(*job), GFP_KERNEL);
	int ret;

	if (!job)
		return -ENOMEM;
	init_completion(&job->freed);
	job->index = index;
	job->entity = spec->entity;
	job->ring = &rings[entity_ring[spec->entity]];
	job->exec_us = spec->exec_us * exec_scale / 100;
	/* a DRM file is one client; debugfs runs name one per entity */
	job->client = run->client;
	job->client_id = run->client ? run->client_id : (u64)spec->entity + 1;
#if defined(GT_JOB_INIT_CLIENT_ID)
	ret = drm_sched_job_init(&job->base, &entities[spec->entity], 1, job,
				 job->client_id);
#elif defined(GT_JOB_INIT_CREDITS)
	ret = drm_sched_job_init(&job->base, &entities[spec->entity], 1, job);
#else
	ret = drm_sched_job_init(&job->base, &entities[spec->entity], job);
#endif
	if (ret) {
		kfree(job);
		return ret;
	}
	if (spec->dep >= 0)
		job->deps[job->nr_deps++] = dma_fence_get(run->jobs[spec->dep]->finished);
	if (spec->external)
		job->deps[job->nr_deps++] = dma_fence_get(&run->external->base);
	for (ret = 0; ret < job->nr_deps; ret++) {
		/* add_dependency consumes a reference; keep ours for the log */
		int err = drm_sched_job_add_dependency(&job->base, dma_fence_get(job->deps[ret]));

		if (err)
			return err;
	}
	drm_sched_job_arm(&job->base);
	job->finished = dma_fence_get(&job->base.s_fence->finished);
	run->jobs[index] = job;
	run->nr_jobs = index + 1;
	job->t_queue = ktime_get_ns();
	drm_sched_entity_push_job(&job->base);
	job->t_queue_by = ktime_get_ns();	/* the queue event is in between */
	return 0;
}

/* 6.17 dropped the job id: jobs are named by their finished fence alone */
static u64 job_id(const struct mock_job *job)
{
#ifdef GT_JOB_HAS_ID
	return job->base.id;
#else
	return 0;
#endif
}

/*
 * The ring's timer writes a job after its signal returned (done_by, done_by_set), while
 * the signal has already let its run go on (the finished fence, free_job) on another
 * CPU: a job that reached the ring is neither logged nor freed before that. TCG stops
 * a vCPU for milliseconds at any instruction, here between the signal and those
 * writes: a run that freed the job first had the timer write into freed memory (a
 * lab guest's slab corrupted, a double fault in the next run's allocation).
 */
static void wait_timer_done(const struct mock_job *job)
{
	u64 until = ktime_get_ns() + 5 * NSEC_PER_SEC;

	while (!READ_ONCE(job->done_by_set) && ktime_get_ns() < until)
		usleep_range(20, 50);
	smp_rmb();
}

static void log_job(const struct mock_run *run, const struct mock_job *job)
{
	char deps[64] = "-";
	int i, off = 0;

	for (i = 0; i < job->nr_deps; i++)
		off += scnprintf(deps + off, sizeof(deps) - off, "%s%llu:%llu", i ? "," : "",
				 job->deps[i]->context, job->deps[i]->seqno);
	wait_timer_done(job);
	pr_info("gt_mock: job=%d scenario=%s pid=%d ring=%s client=%llu id=%llu fence=%llu:%llu exec_us=%u deps=%s queue=%llu run=%llu hw_start=%llu done=%llu queue_by=%llu hw_start_by=%llu done_by=%llu run_from=%llu hw_start_from=%llu\n",
		job->index, run->def->name, run->pid, job->ring->name, job->client_id, job_id(job),
		job->finished->context, job->finished->seqno, job->exec_us, deps,
		job->t_queue, job->t_run, job->t_hw_start, job->t_done, job->t_queue_by,
		job->t_hw_start_by, job->t_done_by, job->t_run_from, job->t_hw_start_from);
}

static void run_free(struct mock_run *run)
{
	int i;

	for (i = 0; i < NR_ENTITIES; i++)
		if (run->entity_ready[i])
			drm_sched_entity_destroy(&run->entities[i]);
	for (i = 0; i < run->nr_jobs; i++) {
		if (!run->jobs[i])
			continue;
		/* a job of a failed run may still be on its ring: wait it out */
		dma_fence_wait_timeout(run->jobs[i]->finished, false, 30 * HZ);
		wait_for_completion_timeout(&run->jobs[i]->freed, 30 * HZ);
		if (READ_ONCE(run->jobs[i]->t_hw_start))
			wait_timer_done(run->jobs[i]);
		while (run->jobs[i]->nr_deps)
			dma_fence_put(run->jobs[i]->deps[--run->jobs[i]->nr_deps]);
		dma_fence_put(run->jobs[i]->finished);
		kfree(run->jobs[i]);
	}
	if (run->external) {
		hrtimer_cancel(&run->external->timer);
		dma_fence_signal(&run->external->base);
		dma_fence_put(&run->external->base);
	}
	kfree(run);
}

static void teardown(void)
{
	int i;

	debugfs_remove_recursive(debug_dir);
	debug_dir = NULL;
#ifdef GT_DRM_FDINFO
	/* no file is open: each holds a reference on the module */
	if (drm) {
		drm_dev_unregister(drm);
		drm_dev_put(drm);
		drm = NULL;
	}
#endif
	for (i = 0; i < NR_RINGS; i++) {
		if (ring_ready[i])
			drm_sched_fini(&rings[i].sched);
		/* after a failed scenario a job may still be "executing" */
		if (rings[i].timer_ready)
			hrtimer_cancel(&rings[i].timer);
	}
	if (pdev)
		platform_device_unregister(pdev);
	pdev = NULL;
}

/*
 * Runs one scenario in the caller's context, as @client (a DRM file) when
 * not NULL; returns when its jobs are done.
 */
static int run_scenario(const struct scenario_def *def, struct mock_client *client, u64 client_id)
{
	struct mock_run *run = kzalloc(sizeof(*run), GFP_KERNEL);
	struct external_fence *external;
	long left;
	int i, ret;

	if (!run)
		return -ENOMEM;
	run->def = def;
	run->pid = current->tgid;
	run->client = client;
	run->client_id = client_id;
	ret = external_create(run);
	for (i = 0; !ret && i < NR_ENTITIES; i++) {
		struct drm_gpu_scheduler *list[1] = { &rings[entity_ring[i]].sched };

		ret = drm_sched_entity_init(&run->entities[i], DRM_SCHED_PRIORITY_NORMAL, list, 1, NULL);
		run->entity_ready[i] = !ret;
	}
	if (ret)
		goto out;
	external = run->external;
	pr_info("gt_mock: scenario=%s pid=%d jobs=%d rings=%d entities=%d credits=%d device=%s external=%llu:%llu\n",
		def->name, run->pid, def->n, NR_RINGS, NR_ENTITIES, RING_CREDITS, dev_name(&pdev->dev),
		external->base.context, external->base.seqno);
	hrtimer_start(&external->timer, ns_to_ktime((u64)EXTERNAL_SIGNAL_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL);
	for (i = 0; i < def->n; i++) {
		if (def->pace_us && i)
			usleep_range(def->pace_us, def->pace_us + 100);
		ret = job_submit(run, &def->spec[i], i);
		if (ret) {
			pr_err("gt_mock: %s job %d: submit failed: %d\n", def->name, i, ret);
			goto out;
		}
	}
	mutex_lock(&active_lock);
	list_add_tail(&run->link, &active_runs);
	mutex_unlock(&active_lock);
	if (def->timeout_after_us) {
		struct mock_ring *ring = run->jobs[0]->ring;

		usleep_range(def->timeout_after_us, def->timeout_after_us + 100);
		pr_err("[drm:amdgpu_job_timedout [gt_mock_sched]] *ERROR* ring %s timeout, signaled seq=%llu, emitted seq=%llu\n",
		       ring->name, ring->seqno - 1, ring->seqno);
	}
	for (i = 0; i < def->n; i++) {
		left = dma_fence_wait_timeout(run->jobs[i]->finished, false, 30 * HZ);
		if (left <= 0) {
			pr_err("gt_mock: %s job %d did not finish\n", def->name, i);
			ret = -ETIMEDOUT;
			break;
		}
	}
	mutex_lock(&active_lock);
	list_del(&run->link);
	mutex_unlock(&active_lock);
	if (ret)
		goto out;
	for (i = 0; log_jobs && i < def->n; i++)
		log_job(run, run->jobs[i]);
	pr_info("gt_mock: scenario=%s external signal=%llu signal_by=%llu\n", def->name,
		external->t_signal, external->t_signal_by);
	pr_info("gt_mock: scenario=%s done\n", def->name);
out:
	run_free(run);
	return ret;
}

static const struct scenario_def *find_scenario(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scenarios); i++)
		if (strlen(scenarios[i].name) == len && !strncmp(scenarios[i].name, name, len))
			return &scenarios[i];
	return NULL;
}

static ssize_t run_write(struct file *file, const char __user *ubuf, size_t count, loff_t *ppos)
{
	const struct scenario_def *def;
	char name[32];
	size_t len = min(count, sizeof(name) - 1);
	int ret;

	if (copy_from_user(name, ubuf, len))
		return -EFAULT;
	name[len] = '\0';
	len = strcspn(name, "\n");
	def = find_scenario(name, len);
	if (!def)
		return -EINVAL;
	ret = run_scenario(def, NULL, 0);
	return ret ? ret : count;
}

static int active_show(struct seq_file *m, void *unused)
{
	struct mock_run *run;

	mutex_lock(&active_lock);
	list_for_each_entry(run, &active_runs, link)
		seq_printf(m, "%s %d\n", run->def->name, run->pid);
	mutex_unlock(&active_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(active);

static const struct file_operations run_fops = {
	.owner = THIS_MODULE,
	.write = run_write,
};

#ifdef GT_DRM_FDINFO
/* The render node's one ioctl: run a scenario as this file's client */
struct gt_mock_submit {
	char scenario[32];
};

#define DRM_GT_MOCK_SUBMIT		0x00
#define DRM_IOCTL_GT_MOCK_SUBMIT	DRM_IOW(DRM_COMMAND_BASE + DRM_GT_MOCK_SUBMIT, struct gt_mock_submit)

/*
 * Interrupt noise for the lab's mock-noise step: with noise_us set, a submit
 * first works NOISE_BUSY_MS on its CPU while a timer pinned there fires every
 * NOISE_PERIOD_US and its softirq (a tasklet, run as the timer's interrupt
 * returns, on the thread's time) takes noise_us: interrupt time inside the
 * ioctl that the report's CPU side must find, as the softirq events say.
 */
#define NOISE_BUSY_MS		20
#define NOISE_PERIOD_US		1000

static unsigned int noise_us;
module_param(noise_us, uint, 0644);
MODULE_PARM_DESC(noise_us, "softirq time per ms while a submit ioctl works 20 ms first (default 0: none; writable)");

static struct hrtimer noise_timer;
static struct tasklet_struct noise_tasklet;
static atomic_t noise_hits;

static void noise_softirq(struct tasklet_struct *t)
{
	udelay(READ_ONCE(noise_us));
	atomic_inc(&noise_hits);
}

static enum hrtimer_restart noise_fire(struct hrtimer *t)
{
	tasklet_schedule(&noise_tasklet);
	hrtimer_forward_now(t, ns_to_ktime((u64)NOISE_PERIOD_US * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void noisy_work(void)
{
	u64 until = ktime_get_ns() + (u64)NOISE_BUSY_MS * NSEC_PER_MSEC;

	atomic_set(&noise_hits, 0);
	hrtimer_start(&noise_timer, ns_to_ktime((u64)NOISE_PERIOD_US * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED_HARD);
	while (ktime_get_ns() < until)
		cpu_relax();
	hrtimer_cancel(&noise_timer);
	tasklet_kill(&noise_tasklet);
	pr_info("gt_mock: noise pid=%d cpu=%d softirqs=%d us=%u\n", current->pid,
		raw_smp_processor_id(), atomic_read(&noise_hits), noise_us);
}

static int mock_submit_ioctl(struct drm_device *dev, void *data, struct drm_file *file)
{
	const struct gt_mock_submit *args = data;
	const struct scenario_def *def;

	def = find_scenario(args->scenario, strnlen(args->scenario, sizeof(args->scenario)));
	if (!def)
		return -EINVAL;
	if (READ_ONCE(noise_us))
		noisy_work();
	return run_scenario(def, file->driver_priv, file->client_id);
}

static int mock_open(struct drm_device *dev, struct drm_file *file)
{
	file->driver_priv = kzalloc(sizeof(struct mock_client), GFP_KERNEL);
	return file->driver_priv ? 0 : -ENOMEM;
}

static void mock_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct mock_client *client = file->driver_priv;

	pr_info("gt_mock: client=%llu pid=%d engine %s=%lld %s=%lld\n", file->client_id,
		current->tgid, rings[0].name, (long long)atomic64_read(&client->engine_ns[0]),
		rings[1].name, (long long)atomic64_read(&client->engine_ns[1]));
	kfree(client);
}

/* What the DRM core's drm_show_fdinfo adds to its drm-driver and drm-client-id */
static void mock_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct mock_client *client = file->driver_priv;
	int i;

	for (i = 0; i < NR_RINGS; i++)
		drm_printf(p, "drm-engine-%s:\t%lld ns\n", rings[i].name,
			   (long long)atomic64_read(&client->engine_ns[i]));
}

static const struct drm_ioctl_desc mock_ioctls[] = {
	DRM_IOCTL_DEF_DRV(GT_MOCK_SUBMIT, mock_submit_ioctl, DRM_RENDER_ALLOW),
};

static const struct file_operations mock_drm_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.show_fdinfo = drm_show_fdinfo,
#ifdef FOP_UNSIGNED_OFFSET
	/* 6.12+ drm_open refuses (EINVAL) a file whose fops lack it */
	.fop_flags = FOP_UNSIGNED_OFFSET,
#endif
};

static const struct drm_driver mock_drm_driver = {
	.driver_features = DRIVER_RENDER,
	.open = mock_open,
	.postclose = mock_postclose,
	.show_fdinfo = mock_show_fdinfo,
	.ioctls = mock_ioctls,
	.num_ioctls = ARRAY_SIZE(mock_ioctls),
	.fops = &mock_drm_fops,
	.name = "gt_mock",
	.desc = "gpu-trace lab mock GPU",
#ifdef GT_DRM_DRIVER_DATE
	.date = "20261124",
#endif
	.major = 1,
};

static int drm_node_init(void)
{
	struct drm_device *dev = drm_dev_alloc(&mock_drm_driver, &pdev->dev);
	int ret;

#ifdef GT_HRTIMER_SETUP
	hrtimer_setup(&noise_timer, noise_fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
#else
	hrtimer_init(&noise_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	noise_timer.function = noise_fire;
#endif
	tasklet_setup(&noise_tasklet, noise_softirq);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	ret = drm_dev_register(dev, 0);
	if (ret) {
		drm_dev_put(dev);
		return ret;
	}
	drm = dev;
	pr_info("gt_mock: DRM render node renderD%d\n", dev->render->index);
	return 0;
}
#else
static int drm_node_init(void)
{
	return 0;
}
#endif

static int __init gt_mock_init(void)
{
	const struct scenario_def *def = NULL;
	int i, ret;

	for (i = 0; i < STEADY_JOBS; i++)
		steady_jobs[i] = (struct job_spec){ 0, 1000, -1, false };
	for (i = 0; i < MAX_JOBS; i++)
		stress_jobs[i] = (struct job_spec){ i % NR_ENTITIES, 50, -1, false };
	if (strcmp(scenario, "none")) {
		def = find_scenario(scenario, strlen(scenario));
		if (!def) {
			pr_err("gt_mock: unknown scenario '%s': use mixed, client, burst, chain, rival, victim, steady, stress, slow, hang or none\n",
			       scenario);
			return -EINVAL;
		}
	}
	/* 7.x scheduler events print the device's name: there must be one */
	pdev = platform_device_register_simple("gt_mock_gpu", -1, NULL, 0);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		pdev = NULL;
		return ret;
	}
	ret = 0;
	for (i = 0; !ret && i < NR_RINGS; i++) {
		ret = ring_init(&rings[i], i);
		ring_ready[i] = !ret;
	}
	if (!ret) {
		debug_dir = debugfs_create_dir("gt_mock", NULL);
		debugfs_create_file("run", 0200, debug_dir, NULL, &run_fops);
		debugfs_create_file("active", 0444, debug_dir, NULL, &active_fops);
		ret = drm_node_init();
	}
	if (!ret && def)
		ret = run_scenario(def, NULL, 0);
	if (ret)
		teardown();
	return ret;
}

static void __exit gt_mock_exit(void)
{
	teardown();
}

module_init(gt_mock_init);
module_exit(gt_mock_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("gpu-trace lab: the DRM GPU scheduler on mock hardware rings");
