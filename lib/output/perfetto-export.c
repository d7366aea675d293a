// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/perfetto-export.h"
#include "output/perfetto-gpu.h"
#include "output/perfetto-gpu-counters.h"
#include "output/perfetto-nvidia.h"
#include "output/perfetto-packet.h"
#include "analysis/gpu-hangs.h"
#include "analysis/hip-runtime.h"
#include "analysis/kfd-queues.h"
#include "analysis/nvidia-calls.h"
#include "analysis/timeline.h"
#include "analysis/user-queues.h"
#include "analysis/vblanks.h"
#include "analysis/cpu-side.h"
#include "util/write-behind.h"


/* Interned event names (iid = index + 1). */
enum { N_QUEUED, N_DEPS, N_RING, N_TO_HW, N_SUBMIT, N_SIGNAL, N_LOST, N_VBLANK, N_HIP_QUEUE,
       N_HIP_ENQUEUED, N_HIP_COMPLETE, N_HIP_COPY, N_HIP_LOG, N_NR };
static const char *const event_names[N_NR] = {
	"queued", "waiting for dependencies", "waiting for the ring",
	"sent to the hardware queue", "submit", "fence signaled", "events lost", "vblank",
	"HIP queue created", "HIP command enqueued", "HIP command complete", "HIP copy", "HIP log",
};

/* Interned debug annotation names. */
enum { A_JOB, A_RING, A_FENCE, A_CLIENT, A_FLAGS, A_QUEUE_TO_RUN, A_DEP_WAIT,
       A_EXEC, A_TOTAL, A_BEHIND, A_COUNT, A_CPU, A_SEQ, A_FUNCTION, A_LINE, A_WAITED_FOR,
       A_IN_FLIGHT, A_BLAMED, A_RESULT, A_INODE, A_EXPORTER, A_PROCESS, A_DEVICE, A_ON_CPU,
       A_RUNNABLE, A_SLEEPING, A_UNINTERRUPTIBLE, A_IRQ, A_PREEMPTED_BY, A_NR };
static const char *const arg_names[A_NR] = {
	"job", "ring", "fence", "client id", "flags", "queue to run (us)",
	"dependency wait (us)", "exec (us)", "total (us)", "behind other processes (us)",
	"count", "cpu", "seq", "function", "line", "waited for", "jobs in flight",
	"process the kernel names", "result", "dma-buf inode", "exporter", "process", "device",
	"on CPU (us)", "runnable (us)", "sleeping (us)", "of which uninterruptible (us)",
	"interrupts (us)", "preempted longest by",
};

/* A ring's lanes in the order a reader looks for them; queued N by N after them. */
enum { RANK_HW = 1, RANK_IN_FLIGHT, RANK_TIMEOUTS, RANK_SWITCHES, RANK_QUEUED };

static bool grow_rings(struct perfetto_export *p, int nr)
{
	struct pf_ring_counters *g;
	struct pf_ring_tracks *t;
	struct pf_lanes *l;
	int64_t *c;
	int i;

	if (nr <= p->nr_rings)
		return true;
	l = realloc(p->ring_lanes, sizeof(*l) * (size_t)nr);
	if (l)
		p->ring_lanes = l;
	c = realloc(p->ring_in_flight, sizeof(*c) * (size_t)nr);
	if (c)
		p->ring_in_flight = c;
	g = realloc(p->ring_counters, sizeof(*g) * (size_t)nr);
	if (g)
		p->ring_counters = g;
	t = realloc(p->ring_tracks, sizeof(*t) * (size_t)nr);
	if (t)
		p->ring_tracks = t;
	if (!l || !c || !g || !t) {
		perfetto_fail(p, ENOMEM);
		return false;
	}
	for (i = p->nr_rings; i < nr; i++) {
		l[i] = (struct pf_lanes){ 0 };
		c[i] = -1;
		g[i] = (struct pf_ring_counters){ 0 };
		t[i] = (struct pf_ring_tracks){ 0 };
	}
	p->nr_rings = nr;
	return true;
}

static uint64_t gpu_root(struct perfetto_export *p)
{
	return perfetto_named_track(p, T_GPU, 0, 0, "GPU");
}

/*
 * A ring's group track. One known so far by a stand-in name (a ring's
 * address, timeline_ring_stand_in()) may be named by a later event: its
 * group is written without a name, and again with the name at the end.
 */
static uint64_t ring_group(struct perfetto_export *p, int ring, bool again)
{
	bool late = timeline_ring_stand_in(p->tl, ring);

	if (late)
		p->ring_tracks[ring].named_late = true;
	return perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_RING, (uint64_t)ring, 0),
						.parent = gpu_root(p), .ordered = true, .again = again,
						.name = late && !again ? NULL : timeline_ring_name(p->tl, ring) });
}

/* The groups of rings first written without a name, with the name they have now */
static void rings_named_late(struct perfetto_export *p)
{
	int r;

	for (r = 0; r < p->nr_rings; r++)
		if (p->ring_tracks[r].named_late)
			ring_group(p, r, true);
}

static uint64_t ring_track_write(struct perfetto_export *p, int ring, enum track_kind kind,
				 int lane)
{
	uint64_t parent = ring_group(p, ring, false);
	struct pf_track t = { .uuid = perfetto_track_uuid(p, kind, (uint64_t)ring, 0), .parent = parent };
	char label[64];

	switch (kind) {
	case T_HW:
		t.name = "hardware";
		t.rank = RANK_HW;
		break;
	case T_COUNTER:
		t.name = "in flight";
		t.rank = RANK_IN_FLIGHT;
		t.counter = true;
		break;
	case T_SWITCHES:
		t.name = "owner switches";
		t.rank = RANK_SWITCHES;
		break;
	case T_TIMEOUTS:
		t.name = "timeouts";
		t.rank = RANK_TIMEOUTS;
		break;
	default:
		snprintf(label, sizeof(label), "queued %d", lane);
		t.uuid = perfetto_track_uuid(p, T_LANE, (uint64_t)ring, (uint64_t)lane);
		t.name = label;
		t.rank = RANK_QUEUED + lane;
		break;
	}
	return perfetto_track(p, &t);
}

/* The ring's track of @kind (its lane @lane of T_LANE), written the first time. */
static uint64_t ring_track(struct perfetto_export *p, int ring, enum track_kind kind, int lane)
{
	int slot;
	uint64_t *id;

	switch (kind) {
	case T_HW:
		slot = 0;
		break;
	case T_COUNTER:
		slot = 1;
		break;
	case T_SWITCHES:
		slot = 2;
		break;
	case T_TIMEOUTS:
		slot = 3;
		break;
	default:
		slot = 4 + lane;
		break;
	}
	if (slot >= PF_RING_TRACK_IDS)
		return ring_track_write(p, ring, kind, lane);
	id = &p->ring_tracks[ring].id[slot];
	if (!*id)
		*id = ring_track_write(p, ring, kind, lane);
	return *id;
}

/*
 * Per-job strings without snprintf (a fifth of the writer's time went to
 * parsing its formats): each appends to @buf of @len at @at, truncating as
 * snprintf would, and returns the new end.
 */
static size_t put_str(char *buf, size_t len, size_t at, const char *s)
{
	while (*s && at + 1 < len)
		buf[at++] = *s++;
	if (at < len)
		buf[at] = '\0';
	return at;
}

static size_t put_u64(char *buf, size_t len, size_t at, uint64_t v)
{
	char digits[21];
	size_t n = sizeof(digits) - 1;

	digits[n] = '\0';
	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return put_str(buf, len, at, digits + n);
}

/* "ctx:seqno"; its length */
static size_t put_fence(char *buf, size_t len, uint64_t ctx, uint64_t seqno)
{
	size_t at = put_u64(buf, len, 0, ctx);

	return put_u64(buf, len, put_str(buf, len, at, ":"), seqno);
}

/* "comm pid"; its length */
static size_t put_comm_pid(char *buf, size_t len, const char *comm, int pid)
{
	size_t at = put_str(buf, len, put_str(buf, len, 0, comm), " ");

	if (pid < 0)
		at = put_str(buf, len, at, "-");
	return put_u64(buf, len, at, pid < 0 ? -(uint64_t)pid : (uint64_t)pid);
}

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

static bool all_ascii(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] >= 0x80)
			return false;
	return true;
}

/* A job's ring's name argument: the file's text, measured once a ring. */
static struct pf_arg ring_arg(struct perfetto_export *p, int ring)
{
	const char *name = timeline_ring_name(p->tl, ring);
	struct pf_ring_tracks *t = &p->ring_tracks[ring];

	if (t->name != name) {
		t->name = name;
		t->name_len = strlen(name);
		t->name_ascii = all_ascii(name, t->name_len);
	}
	return (struct pf_arg){ .name = A_RING, .type = ARG_STR, .s = name, .s_len = t->name_len,
				.s_ascii = t->name_ascii };
}

/* The job's arguments (its key's length in *@key_n); the strings made here are ASCII. */
static int job_args(struct perfetto_export *p, const struct job *j, struct pf_arg *args,
		    char *key, size_t key_len, size_t *key_n, char *fence, size_t fence_len,
		    char *flags)
{
	static const struct { int name; enum job_latency lat; } lat_args[] = {
		{ A_QUEUE_TO_RUN, LAT_QUEUE_TO_RUN }, { A_DEP_WAIT, LAT_DEP_WAIT },
		{ A_EXEC, LAT_EXEC }, { A_TOTAL, LAT_TOTAL },
	};
	size_t i;
	int n = 0;

	if (j->has_id)
		*key_n = put_u64(key, key_len, 0, j->id);
	else if (j->has_fence)
		*key_n = put_fence(key, key_len, j->ctx, j->seqno);
	else
		*key_n = put_str(key, key_len, 0, "?");
	args[n++] = (struct pf_arg){ .name = A_JOB, .type = ARG_STR, .s = key, .s_len = *key_n,
				     .s_ascii = true };
	args[n++] = ring_arg(p, j->ring);
	if (j->has_fence)
		args[n++] = (struct pf_arg){ .name = A_FENCE, .type = ARG_STR, .s = fence,
					     .s_len = put_fence(fence, fence_len, j->ctx, j->seqno),
					     .s_ascii = true };
	if (j->has_client_id)
		args[n++] = (struct pf_arg){ .name = A_CLIENT, .type = ARG_UINT, .u = j->client_id };
	if (*flags)
		args[n++] = (struct pf_arg){ .name = A_FLAGS, .type = ARG_STR, .s = flags };
	for (i = 0; i < sizeof(lat_args) / sizeof(lat_args[0]); i++)
		if (j->has_lat[lat_args[i].lat])
			args[n++] = (struct pf_arg){ .name = lat_args[i].name, .type = ARG_DOUBLE,
						     .d = us(j->lat[lat_args[i].lat]) };
	if (j->behind.ns)
		args[n++] = (struct pf_arg){ .name = A_BEHIND, .type = ARG_DOUBLE,
					     .d = us(j->behind.ns) };
	return n;
}

/*
 * The dependencies' signals on "fence signals", each a flow into the job.
 * Perfetto orders a flow by time, so it ends on a slice that starts after
 * the signal: the job's hardware slice (a job runs once its dependencies
 * signalled), or for a job that never ran its queued slice when the signal
 * came first. Returns how many, their ids in ids.
 */
static int dep_flows(struct perfetto_export *p, const struct job *j, uint64_t end_at,
		     uint64_t *ids)
{
	uint64_t signals = 0, ts;
	char fence[48];
	unsigned int i;
	int n = 0;

	for (i = 0; i < j->nr_dep_fences; i++) {
		struct pf_arg arg = { .name = A_FENCE, .type = ARG_STR, .s = fence };
		struct pf_event e = { .type = PF_INSTANT, .name = N_SIGNAL, .args = &arg,
				      .nr_args = 1, .nr_flows = 1 };

		if (!timeline_fence_signal(p->tl, j->dep_fences[i].ctx, j->dep_fences[i].seqno,
					   &ts) || ts > end_at)
			continue;
		if (!signals)
			signals = perfetto_named_track(p, T_SIGNALS, 0, gpu_root(p), "fence signals");
		put_fence(fence, sizeof(fence), j->dep_fences[i].ctx, j->dep_fences[i].seqno);
		ids[n] = perfetto_new_flow(p);
		e.ts = ts;
		e.track = signals;
		e.flows = &ids[n++];
		perfetto_event(p, &e);
	}
	return n;
}

/* The submitting thread's "submit" instant, a flow into the job. */
static int submit_flow(struct perfetto_export *p, const struct job *j, uint64_t *id,
		       const struct pf_arg *args, int nr_args)
{
	uint64_t ts = j->t_submit ? j->t_submit : j->t_queue;
	struct pf_event e = { .ts = ts, .type = PF_INSTANT, .name = N_SUBMIT, .args = args,
			      .nr_args = nr_args, .flows = id, .nr_flows = 1 };

	if (j->pid <= 0 || !ts)
		return 0;
	*id = perfetto_new_flow(p);
	/* a process submits many jobs in a row: its track looked up once for them */
	if (j->pid != p->submit_pid) {
		p->submit_track = perfetto_track(p, &(struct pf_track){
			.uuid = perfetto_track_uuid(p, T_THREAD, (uint64_t)j->pid, 0),
			.name = analysis_comm(p->a, j->pid), .thread_pid = j->pid });
		p->submit_pid = j->pid;
	}
	e.track = p->submit_track;
	perfetto_event(p, &e);
	return 1;
}

/* Inside the queued slice: what it waited for, in order. */
static void wait_parts(struct perfetto_export *p, const struct job *j, uint64_t lane,
		       uint64_t hw)
{
	uint64_t ready = j->t_queue ? j->t_queue : j->t_run;
	struct pf_event e = { .track = lane, .name_str = NULL };

	if (j->t_queue && j->has_lat[LAT_DEP_WAIT] && j->lat[LAT_DEP_WAIT]) {
		ready = j->t_queue + j->lat[LAT_DEP_WAIT];
		e.ts = j->t_queue;
		e.name = N_DEPS;
		perfetto_slice(p, &e, ready);
	}
	if (j->t_run && j->t_run > ready) {
		e.ts = ready;
		e.name = N_RING;
		perfetto_slice(p, &e, j->t_run);
	}
	if (j->t_run && hw > j->t_run && hw > ready) {
		e.ts = j->t_run > ready ? j->t_run : ready;	/* inside the queued slice */
		e.name = N_TO_HW;
		perfetto_slice(p, &e, hw);
	}
}

/*
 * A preempted job (its driver's stints on the engine): a hardware slice, a GPU
 * slice and busy time per stint, so that the jobs that ran between stay apart;
 * the flows and the arguments on the first
 */
static void hw_stints(struct perfetto_export *p, const struct job *j, struct pf_event *first,
		      const char *name, size_t name_n, const char *key, size_t key_n)
{
	unsigned int k;

	for (k = 0; k < j->nr_hw_stints; k++) {
		struct pf_event e = *first;
		uint64_t from = j->hw_stints[k][0], to = j->hw_stints[k][1];

		if (k)
			e.nr_ends_flows = 0;
		e.ts = from;
		perfetto_slice(p, &e, to);
		perfetto_gpu_job(p, j, name, name_n, key, key_n, from, to);
		perfetto_gpu_busy(p, j->ring, from, to, true);
	}
}

void perfetto_export_job(const struct job *j, void *ctx)
{
	struct perfetto_export *p = ctx;
	uint64_t end = j->t_done ? j->t_done : analysis_totals(p->a)->last_ts, hw = j->t_hw_start;
	/* a job that never finished stays off "hardware": only finished jobs
	 * are known not to overlap there */
	uint64_t waiting = j->t_queue ? j->t_queue : hw ? 0 : j->t_run;
	uint64_t deps[9], submit = 0, queued_ends[9];
	struct pf_arg args[16];
	char key[48], fence[48], flags[8], name[48];
	int nr_args, nr_deps, lane, nr_queued_ends = 0;
	size_t key_n, name_n;
	bool has_submit;

	if (!grow_rings(p, j->ring + 1))
		return;
	if (end < hw)
		end = hw;
	job_flag_letters(flags, sizeof(flags), j->flags);
	nr_args = job_args(p, j, args, key, sizeof(key), &key_n, fence, sizeof(fence), flags);
	name_n = put_comm_pid(name, sizeof(name), analysis_comm(p->a, j->pid), j->pid);
	has_submit = submit_flow(p, j, &submit, args, 2);
	nr_deps = dep_flows(p, j, hw ? hw : waiting, deps);
	if (waiting) {
		uint64_t until = hw ? hw : end;
		/* the job's arguments once: on the hardware slice when it has one */
		struct pf_event e = { .ts = waiting, .name = -1, .name_str = name, .name_len = name_n,
				      .args = args, .nr_args = hw ? 2 : nr_args,
				      .ends_flows = queued_ends };

		if (until < waiting)
			until = waiting;
		lane = perfetto_lane_take(&p->ring_lanes[j->ring], waiting, until);
		if (lane < 0) {
			p->dropped++;
		} else {
			e.track = ring_track(p, j->ring, T_LANE, lane);
			if (has_submit) {
				queued_ends[nr_queued_ends++] = submit;
				has_submit = false;
			}
			if (!hw) {
				memcpy(queued_ends + nr_queued_ends, deps, sizeof(*deps) * (size_t)nr_deps);
				nr_queued_ends += nr_deps;
			}
			e.nr_ends_flows = nr_queued_ends;
			e.type = PF_SLICE_BEGIN;
			perfetto_event(p, &e);
			wait_parts(p, j, e.track, until);
			perfetto_event(p, &(struct pf_event){ .ts = until, .track = e.track,
							   .type = PF_SLICE_END, .name = -1 });
			p->slices++;
		}
	}
	if (hw) {
		struct pf_event e = { .ts = hw, .name = -1, .name_str = name, .name_len = name_n,
				      .args = args, .nr_args = nr_args, .ends_flows = deps,
				      .nr_ends_flows = nr_deps };

		if (has_submit)
			deps[e.nr_ends_flows++] = submit;
		e.track = ring_track(p, j->ring, T_HW, 0);
		if (j->nr_hw_stints && j->t_done)
			hw_stints(p, j, &e, name, name_n, key, key_n);
		else
			perfetto_slice(p, &e, end);
		if (j->t_done && !j->nr_hw_stints) {
			perfetto_gpu_job(p, j, name, name_n, key, key_n, hw, end);
			perfetto_gpu_busy(p, j->ring, hw, end, false);
		}
	}
}

static void ring_counters(struct perfetto_export *p, uint64_t ts)
{
	const struct timeline *tl = p->tl;
	int i;

	/*
	 * Called for every record; a ring's count moves about twice a job, and
	 * a new ring's first record starts its track
	 */
	if ((tl->in_flight_changes == p->in_flight_seen && tl->nr_rings == p->in_flight_rings) ||
	    !grow_rings(p, tl->nr_rings))
		return;
	p->in_flight_seen = tl->in_flight_changes;
	p->in_flight_rings = tl->nr_rings;
	for (i = 0; i < tl->nr_rings; i++) {
		if (tl->rings[i]->in_flight == p->ring_in_flight[i])
			continue;
		perfetto_gpu_in_flight(p, i, ts, p->ring_in_flight[i]);
		p->ring_in_flight[i] = tl->rings[i]->in_flight;
		perfetto_event(p, &(struct pf_event){ .ts = ts, .type = PF_COUNTER, .name = -1,
						   .track = ring_track(p, i, T_COUNTER, 0),
						   .counter = tl->rings[i]->in_flight });
	}
}

static void lost_window(struct perfetto_export *p, const struct tep_record *rec)
{
	uint64_t from = analysis_lost_from(p->a);
	struct pf_arg args[2] = {
		{ .name = A_CPU, .type = ARG_INT, .i = rec->cpu },
		{ .name = A_COUNT, .type = ARG_INT, .i = rec->missed_events },
	};
	uint64_t root = perfetto_named_track(p, T_LOST_ROOT, 0, 0, "lost events");
	char name[32];
	/* a count the kernel did not keep (-1: a page of zeros, or older ring buffers) is left out */
	struct pf_event e = { .ts = from, .name = N_LOST, .args = args,
			      .nr_args = rec->missed_events > 0 ? 2 : 1 };

	snprintf(name, sizeof(name), "cpu %d", rec->cpu);
	e.track = perfetto_named_track(p, T_LOST, (uint64_t)rec->cpu, root, name);
	perfetto_slice(p, &e, rec->ts);
}

static void vblank(struct perfetto_export *p, const struct gpu_event *ev)
{
	uint64_t root = perfetto_named_track(p, T_DISPLAY, 0, 0, "display");
	struct pf_arg arg = { .name = A_SEQ, .type = ARG_INT, .i = ev->vblank_seq };
	int display = vblanks_of(p->a)->last_display;	/* the join read this record first */
	char name[48];

	if (display)
		snprintf(name, sizeof(name), "vblank crtc %lld count %d", ev->crtc, display + 1);
	else
		snprintf(name, sizeof(name), "vblank crtc %lld", ev->crtc);
	perfetto_event(p, &(struct pf_event){
		.ts = ev->ts, .type = PF_INSTANT, .name = N_VBLANK, .args = &arg, .nr_args = 1,
		.track = perfetto_named_track(p, T_VBLANK, (uint64_t)ev->crtc | (uint64_t)display << 32,
					      root, name) });
}

/*
 * A client's vblank event, asked for (queued) or sent (delivered): an instant
 * on the CRTC's "events" track; a delivery says whether it came at the vblank
 * asked for (vblanks.h matched it on this record)
 */
static void vblank_event(struct perfetto_export *p, const struct gpu_event *ev)
{
	const struct vblanks *v = vblanks_of(p->a);
	uint64_t root = perfetto_named_track(p, T_DISPLAY, 0, 0, "display");
	struct pf_arg arg = { .name = A_SEQ, .type = ARG_INT, .i = ev->vblank_seq };
	char name[80], track[48];

	if (ev->kind == GEV_VBLANK_QUEUED)
		snprintf(name, sizeof(name), "vblank event asked for");
	else if (!v->last_matched && !ev->vblank_file)
		snprintf(name, sizeof(name), "vblank event delivered (the DRM core's own: no client)");
	else if (!v->last_matched && v->last_flip_late)
		snprintf(name, sizeof(name), "page flip presented %llu vblank%s after the one due",
			 (unsigned long long)v->last_flip_late, v->last_flip_late == 1 ? "" : "s");
	else if (!v->last_matched && v->last_flip_asked)
		snprintf(name, sizeof(name), "page flip presented at the vblank due");
	else if (!v->last_matched)
		snprintf(name, sizeof(name), "vblank event delivered (none asked: a page flip's)");
	else if (v->last_late)
		snprintf(name, sizeof(name), "vblank event delivered %llu vblank%s late",
			 (unsigned long long)v->last_late, v->last_late == 1 ? "" : "s");
	else
		snprintf(name, sizeof(name), "vblank event delivered");
	if (v->last_display)
		snprintf(track, sizeof(track), "vblank events crtc %lld count %d", ev->crtc,
			 v->last_display + 1);
	else
		snprintf(track, sizeof(track), "vblank events crtc %lld", ev->crtc);
	perfetto_event(p, &(struct pf_event){
		.ts = ev->ts, .type = PF_INSTANT, .name = -1, .name_str = name, .args = &arg, .nr_args = 1,
		.track = perfetto_named_track(p, T_VBLANK_EVENTS,
					      (uint64_t)ev->crtc | (uint64_t)v->last_display << 32,
					      root, track) });
}

/*
 * A HIP runtime log line: an instant on the process's "HIP" track, a
 * dispatch named after its kernel, the runtime's own line as an argument.
 */
static void hip_line(struct perfetto_export *p, const struct tep_record *rec,
		     const struct hip_line *l)
{
	static const int names[HIP_NR_KINDS] = {
		[HIP_OTHER] = N_HIP_LOG, [HIP_QUEUE_CREATE] = N_HIP_QUEUE,
		[HIP_QUEUE_ACQUIRE] = N_HIP_LOG, [HIP_DISPATCH] = -1, [HIP_SHADER_NAME] = N_HIP_LOG,
		[HIP_CMD_ENQUEUED] = N_HIP_ENQUEUED, [HIP_CMD_COMPLETE] = N_HIP_COMPLETE,
		[HIP_COPY] = N_HIP_COPY,
	};
	int pid = tep_data_pid(analysis_tep(p->a), (struct tep_record *)rec);
	uint64_t root = perfetto_named_track(p, T_HIP_ROOT, 0, 0, "HIP runtime log");
	struct pf_arg arg = { .name = A_LINE, .type = ARG_STR, .s = l->msg };
	struct pf_event e = { .ts = rec->ts, .type = PF_INSTANT, .name = names[l->kind],
			      .args = &arg, .nr_args = 1 };
	const char *kernel = hip_runtime_of(p->a)->last_kernel;
	char name[80];

	if (e.name < 0)
		e.name_str = kernel ? kernel : "dispatch";
	snprintf(name, sizeof(name), "%s %d", analysis_comm(p->a, pid), pid);
	e.track = perfetto_named_track(p, T_HIP, (uint64_t)pid, root, name);
	perfetto_event(p, &e);
}

/* A buffer move as an instant, and the bytes moved so far as a counter (MiB). */
static void buffer_move(struct perfetto_export *p, const struct gpu_event *ev)
{
	struct pf_arg arg = { .name = A_COUNT, .type = ARG_UINT, .u = ev->bo_bytes };
	char name[64];

	snprintf(name, sizeof(name), "%s -> %s %.1f MiB", bo_placement_name(ev->placement_from),
		 bo_placement_name(ev->placement_to), (double)ev->bo_bytes / (1024.0 * 1024.0));
	perfetto_event(p, &(struct pf_event){
		.ts = ev->ts, .type = PF_INSTANT, .name = -1, .name_str = name, .args = &arg,
		.nr_args = 1,
		.track = perfetto_named_track(p, T_MOVES, 0, gpu_root(p), "buffer moves") });
	perfetto_event(p, &(struct pf_event){
		.ts = ev->ts, .type = PF_COUNTER, .name = -1,
		.counter = (int64_t)(p->tl->moves.bytes >> 20),
		.track = perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_MOVED, 0, 0),
						      .parent = gpu_root(p),
						      .name = "buffers moved (MiB, running)",
						      .counter = true }) });
}

/*
 * Page tables: the address space updated so far as a counter (KiB), and each
 * VMID flush as an instant naming its ring
 */
static void page_tables(struct perfetto_export *p, const struct gpu_event *ev)
{
	char name[GEV_STR_LEN + 32];

	if (ev->kind == GEV_VM_UPDATE_PTES) {
		perfetto_event(p, &(struct pf_event){
			.ts = ev->ts, .type = PF_COUNTER, .name = -1,
			.counter = (int64_t)(p->tl->vm.updated_bytes >> 10),
			.track = perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_VM_UPDATED, 0, 0),
							      .parent = gpu_root(p),
							      .name = "page tables updated (KiB, running)",
							      .counter = true }) });
		return;
	}
	snprintf(name, sizeof(name), "flush VMID %u on %s", ev->vmid, ev->ring);
	perfetto_event(p, &(struct pf_event){
		.ts = ev->ts, .type = PF_INSTANT, .name = -1, .name_str = name,
		.track = perfetto_named_track(p, T_VM_FLUSHES, 0, gpu_root(p), "VM flushes") });
}

/* A dma-buf's export, import, attach...: an instant, the buffer and who in its arguments */
static void dma_buf(struct perfetto_export *p, const struct gpu_event *ev)
{
	char name[48], who[GEV_STR_LEN + 16];
	struct pf_arg args[4] = {
		{ .name = A_INODE, .type = ARG_UINT, .u = ev->ino },
		{ .name = A_EXPORTER, .type = ARG_STR, .s = ev->driver },
		{ .name = A_PROCESS, .type = ARG_STR, .s = who },
		{ .name = A_DEVICE, .type = ARG_STR, .s = ev->dev },
	};

	snprintf(name, sizeof(name), "dma-buf %s", ev->name + strlen("dma_buf_"));
	snprintf(who, sizeof(who), "%s %d", analysis_comm(p->a, ev->pid), ev->pid);
	perfetto_event(p, &(struct pf_event){
		.ts = ev->ts, .type = PF_INSTANT, .name = -1, .name_str = name, .args = args,
		.nr_args = ev->dev[0] ? 4 : 3,
		.track = perfetto_named_track(p, T_DMA_BUF, 0, gpu_root(p), "shared buffers (dma-buf)") });
}

/*
 * A GPU ioctl of the workload that ended at this record: a slice on its
 * thread's track, where the "submit" instants (with their flows to the jobs)
 * of what it queued fall inside; its time split in the arguments.
 */
static void cpu_ioctl(struct perfetto_export *p)
{
	const struct cpu_ioctl_done *d = &p->cpu->last;
	char name[48], who[32];
	struct pf_arg args[6] = {
		{ .name = A_ON_CPU, .type = ARG_DOUBLE, .d = us(d->split.on_cpu_ns) },
		{ .name = A_RUNNABLE, .type = ARG_DOUBLE, .d = us(d->split.runnable_ns) },
		{ .name = A_SLEEPING, .type = ARG_DOUBLE, .d = us(d->split.sleeping_ns) },
		{ .name = A_UNINTERRUPTIBLE, .type = ARG_DOUBLE, .d = us(d->split.blocked_ns) },
		{ .name = A_IRQ, .type = ARG_DOUBLE, .d = us(d->split.irq_ns) },
		{ .name = A_PREEMPTED_BY, .type = ARG_STR, .s = who },
	};
	struct pf_event e = { .ts = d->enter, .type = PF_SLICE_BEGIN, .name = -1, .args = args,
			      .nr_args = d->preempted_by ? 6 : 5 };

	p->cpu_done_seq = p->cpu->done_seq;
	e.name_str = gpu_ioctl_name(d->cmd, p->cpu->driver, name, sizeof(name));
	snprintf(who, sizeof(who), "%.16s %d", d->preempted_comm, d->preempted_by);
	e.track = perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_THREAD, (uint64_t)d->pid, 0),
					       .name = analysis_comm(p->a, d->pid), .thread_pid = d->pid });
	perfetto_event(p, &e);
	perfetto_event(p, &(struct pf_event){ .ts = d->exit, .type = PF_SLICE_END, .name = -1,
					      .track = e.track });
}

int perfetto_export_record(struct analysis *a, struct tep_record *rec,
			   const struct gpu_event *ev, void *ctx)
{
	const struct hip_line *line = analysis_hip_line(a);
	struct perfetto_export *p = ctx;

	if (line)
		hip_line(p, rec, line);
	/* the record's own fields only where they are needed: its line may be on the other core */
	if (analysis_record_missed(a))
		lost_window(p, rec);
	if (ev && ev->kind == GEV_VBLANK)
		vblank(p, ev);
	if (ev && (ev->kind == GEV_VBLANK_QUEUED || ev->kind == GEV_VBLANK_DELIVERED))
		vblank_event(p, ev);
	if (ev && ev->kind == GEV_BO_MOVE)
		buffer_move(p, ev);
	if (ev && (ev->kind == GEV_VM_UPDATE_PTES || ev->kind == GEV_VM_FLUSH))
		page_tables(p, ev);
	if (ev && ev->kind == GEV_DMA_BUF)
		dma_buf(p, ev);
	if (p->nv && p->nv->done.kind != NVD_NONE)
		perfetto_nvidia(p);
	if (p->cpu && p->cpu->done_seq != p->cpu_done_seq)
		cpu_ioctl(p);
	if (ev)
		ring_counters(p, analysis_record_ts(a));
	return p->error ? -1 : 0;
}

static struct pf_lanes *kfd_lanes(struct perfetto_export *p, int pid)
{
	struct pf_lanes *l = keymap_get(&p->kfd_lanes, (uint64_t)pid + 1);

	if (l)
		return l;
	l = calloc(1, sizeof(*l));
	if (!l || keymap_put(&p->kfd_lanes, (uint64_t)pid + 1, l)) {
		free(l);
		perfetto_fail(p, ENOMEM);
		return NULL;
	}
	return l;
}

/* One KFD queue operation, its steps (function_graph durations) inside. */
static void kfd_op(struct perfetto_export *p, const struct kfd_op *op, uint64_t root)
{
	struct pf_arg arg = { .name = A_FUNCTION, .type = ARG_STR, .s = op->root };
	struct pf_lanes *lanes = kfd_lanes(p, op->pid);
	uint64_t end = op->start + (op->has_duration ? op->duration : 0);
	char name[64];
	int i, lane;
	struct pf_event e = { .ts = op->start, .name = -1, .name_str = kfd_op_name(op->type),
			      .args = &arg, .nr_args = 1 };

	if (!lanes)
		return;
	lane = perfetto_lane_take(lanes, op->start, end);
	if (lane < 0) {
		p->dropped++;
		return;
	}
	snprintf(name, sizeof(name), "%s %d%s%.0d", analysis_comm(p->a, op->pid), op->pid,
		 lane ? " #" : "", lane);
	e.track = perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_KFD, (uint64_t)op->pid,
							  (uint64_t)lane), .parent = root, .name = name });
	if (!op->has_duration) {
		e.type = PF_INSTANT;
		perfetto_event(p, &e);
		return;
	}
	e.type = PF_SLICE_BEGIN;
	perfetto_event(p, &e);
	for (i = 0; i < op->nr_steps; i++) {
		const struct kfd_step *s = &op->steps[i];
		struct pf_event step = { .ts = s->start, .track = e.track, .name = -1,
					 .name_str = s->func };

		if (!s->has_duration || s->start < op->start || s->start + s->duration > end)
			continue;
		perfetto_slice(p, &step, s->start + s->duration);
	}
	perfetto_event(p, &(struct pf_event){ .ts = end, .track = e.track, .type = PF_SLICE_END,
					   .name = -1 });
	p->slices++;
}

static uint64_t userq_track(struct perfetto_export *p, const struct user_queue *q, int index)
{
	uint64_t root = perfetto_named_track(p, T_USERQ_ROOT, 0, 0, "User queues (amdgpu)");
	const char *type = userq_type_name(q->type);
	char name[128];
	int n;

	n = snprintf(name, sizeof(name), "%s%s queue, doorbell 0x%llx", type ? type : "type ",
		     type ? "" : "?", (unsigned long long)q->doorbell);
	if (q->pid && n > 0 && (size_t)n < sizeof(name))
		snprintf(name + n, sizeof(name) - (size_t)n, " (%s %d)",
			 analysis_comm(p->a, q->pid), q->pid);
	return perfetto_named_track(p, T_USERQ, (uint64_t)index, root, name);
}

/*
 * amdgpu's user queues: under each, its states one after another, and its
 * fences from emit to signal on as many lanes as were in flight at once.
 */
void perfetto_user_queues(struct perfetto_export *p)
{
	const struct user_queues *u = user_queues_of(p->a);
	struct pf_lanes lanes = { 0 };
	uint64_t parent = 0;
	int i, cur = -1;

	for (i = 0; i < u->nr_spans; i++) {
		const struct userq_span *s = &u->spans[i];
		char label[32], fence[48];
		struct pf_arg arg = { .name = A_FENCE, .type = ARG_STR, .s = fence };
		struct pf_event e = { .ts = s->from, .name = -1 };
		int lane;

		if (s->q != cur) {
			cur = s->q;
			free(lanes.ends);
			lanes = (struct pf_lanes){ 0 };
			parent = userq_track(p, &u->queues[cur], cur);
		}
		if (s->kind == USERQ_SPAN_STATE) {
			e.track = perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_USERQ_LANE,
									  (uint64_t)cur, 0),
							       .parent = parent, .name = "state" });
			e.name_str = userq_state_name(s->state);
			perfetto_slice(p, &e, s->to);
			continue;
		}
		lane = perfetto_lane_take(&lanes, s->from, s->to);
		if (lane < 0) {
			p->dropped++;
			continue;
		}
		snprintf(label, sizeof(label), "fences %d", lane);
		snprintf(fence, sizeof(fence), "%llu:%llu", (unsigned long long)s->ctx,
			 (unsigned long long)s->seqno);
		e.track = perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_USERQ_LANE, (uint64_t)cur,
								  (uint64_t)lane + 1),
						       .parent = parent, .name = label });
		e.name_str = s->kind == USERQ_SPAN_FENCE ? "fence" : "fence, pending at the end";
		e.args = &arg;
		e.nr_args = 1;
		perfetto_slice(p, &e, s->to);
	}
	free(lanes.ends);
}

static const char *owner_name(struct perfetto_export *p, char *buf, size_t len, uint64_t owner)
{
	int pid = owner_switches_owner_pid(&p->tl->switches, owner);

	if (owner == OWNER_NONE)
		snprintf(buf, len, "kernel");
	else if (owner == OWNER_SHARED)
		snprintf(buf, len, "not isolated");
	else if (pid)
		snprintf(buf, len, "%s %d", analysis_comm(p->a, pid), pid);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)owner);
	return buf;
}

/*
 * Enforce isolation: on the ring of the job each switch was for, the switch
 * until that job ran (the previous owner's work draining), then the cleaner
 * shader as an instant.
 */
void perfetto_owner_switches(struct perfetto_export *p)
{
	const struct owner_switches *s = &p->tl->switches;
	size_t i;

	for (i = 0; i < s->nr; i++) {
		const struct owner_switch *sw = &s->list[i];
		char from[64], to[64], name[160], job[48], waited[48];
		struct pf_arg args[2] = { { .name = A_JOB, .type = ARG_STR, .s = job },
					  { .name = A_WAITED_FOR, .type = ARG_STR, .s = waited } };
		struct pf_event e = { .ts = sw->ts, .name = -1, .name_str = name, .args = args };

		if (sw->ring < 0 || !grow_rings(p, sw->ring + 1))
			continue;
		snprintf(name, sizeof(name), "owner switch: %s -> %s",
			 owner_name(p, from, sizeof(from), sw->prev), owner_name(p, to, sizeof(to), sw->next));
		if (sw->has_fence)
			snprintf(job, sizeof(job), "%llu:%llu", (unsigned long long)sw->ctx,
				 (unsigned long long)sw->seqno);
		else
			snprintf(job, sizeof(job), "id %llu", (unsigned long long)sw->id);
		e.nr_args = 1;
		if (sw->waited) {
			snprintf(waited, sizeof(waited), "%llu:%llu", (unsigned long long)sw->wait_ctx,
				 (unsigned long long)sw->wait_seqno);
			e.nr_args = 2;
		}
		e.track = ring_track(p, sw->ring, T_SWITCHES, 0);
		if (sw->t_run >= sw->ts && sw->t_run) {
			perfetto_slice(p, &e, sw->t_run);
		} else {
			e.type = PF_INSTANT;
			perfetto_event(p, &e);
		}
		if (sw->cleaner)
			perfetto_event(p, &(struct pf_event){ .ts = sw->cleaner_ts, .track = e.track,
							   .type = PF_INSTANT, .name = -1,
							   .name_str = "cleaner shader" });
	}
}

/*
 * The kernel's ring timeouts as instants on the ring (or, for a ring
 * without jobs in the file, on the GPU's), its GPU resets as slices.
 */
void perfetto_gpu_hangs(struct perfetto_export *p)
{
	const struct timeline *tl = p->tl;
	const struct gpu_hangs *h = gpu_hangs_of(p->a);
	size_t i;

	for (i = 0; i < h->nr_hangs; i++) {
		const struct gpu_hang *g = &h->hangs[i];
		/* xe's queue on the scheduler ring it named after it ("rcs5"), where the file has one */
		int ring = timeline_ring_find(tl, g->xe_ring[0] ? g->xe_ring : g->ring);
		bool counted = !g->is_xe || g->xe_ring[0];
		char name[96], blamed[80];
		struct pf_arg args[2] = { { .name = A_IN_FLIGHT, .type = ARG_UINT, .u = g->jobs_in_flight },
					  { .name = A_BLAMED, .type = ARG_STR, .s = blamed } };
		/* an xe queue without its ring: no count of jobs in flight */
		struct pf_event e = { .ts = g->ts, .type = PF_INSTANT, .name = -1, .name_str = name,
				      .args = counted ? args : args + 1,
				      .nr_args = counted + g->has_process };

		snprintf(name, sizeof(name), "%s%s timed out%s", g->is_xe ? "xe " : "", g->ring,
			 g->soft_recovered ? ", soft-recovered" : "");
		snprintf(blamed, sizeof(blamed), "%s %d", g->process, g->tgid);
		if (ring >= 0 && grow_rings(p, ring + 1))
			e.track = ring_track(p, ring, T_TIMEOUTS, 0);
		else
			e.track = perfetto_named_track(p, T_TIMEOUTS, UINT32_MAX, gpu_root(p), "ring timeouts");
		perfetto_event(p, &e);
	}
	for (i = 0; i < h->nr_resets; i++) {
		const struct gpu_reset *r = &h->resets[i];
		struct pf_arg args[2] = { { .name = A_RESULT, .type = ARG_STR,
					    .s = !r->end ? "no end in the file" : r->failed ? "failed" : "succeeded" },
					  { .name = A_COUNT, .type = ARG_UINT, .u = r->reg_dumps } };
		struct pf_event e = { .ts = r->begin, .name = -1, .name_str = "GPU reset", .args = args,
				      .nr_args = 2 };

		e.track = perfetto_named_track(p, T_RESETS, 0, gpu_root(p), "GPU resets");
		if (r->end > r->begin) {
			perfetto_slice(p, &e, r->end);
		} else {
			e.type = PF_INSTANT;
			perfetto_event(p, &e);
		}
	}
}

static void free_source(struct perfetto_export *p)
{
	uint64_t key;
	void *val;
	size_t i = 0;
	int r;

	while (keymap_next(&p->kfd_lanes, &i, &key, &val)) {
		free(((struct pf_lanes *)val)->ends);
		free(val);
	}
	keymap_free(&p->kfd_lanes);
	for (r = 0; r < p->nr_rings; r++)
		free(p->ring_lanes[r].ends);
	free(p->ring_lanes);
	free(p->ring_in_flight);
	free(p->ring_counters);
	free(p->ring_tracks);
	p->ring_lanes = NULL;
	p->ring_in_flight = NULL;
	p->ring_counters = NULL;
	p->ring_tracks = NULL;
	p->nr_rings = 0;
	p->in_flight_seen = 0;
	p->in_flight_rings = 0;
	p->submit_pid = 0;	/* the next source's tracks are its own */
}

void perfetto_export_begin(struct perfetto_export *p, FILE *out, struct analysis *a,
			   const struct perfetto_source *src)
{
	free_source(p);
	p->out = out;
	/* hundreds of MB: written on a second thread where there is a second CPU */
	if (!p->wb)
		p->wb = write_behind_start(out);
	p->a = a;
	p->tl = timeline_of(a);
	/* NULL: the file has no NVIDIA probe, nothing to ask of each record */
	p->nv = nvidia_calls_of(a)->nr_formats ? nvidia_calls_of(a) : NULL;
	p->cpu = cpu_side_of(a);
	p->cpu_done_seq = 0;
	p->source = src->index;
	p->offset = src->offset;
	p->root = 0;
	p->label = src->label;
	/*
	 * Perfetto reads each machine's packets with a sequence state of its
	 * own: another host's interned names start over, cleared
	 */
	if (src->machine != p->machine) {
		p->machine = src->machine;
		p->interned = false;
		keymap_free(&p->gpu_interned);
		p->gpu_context_pid = 0;
		p->gpu_queues = 0;
		p->gpu_stages = false;
	}
	if (!p->interned)
		perfetto_packet_intern(p, event_names, N_NR, arg_names, A_NR);
	if (src->label)
		p->root = perfetto_track(p, &(struct pf_track){ .uuid = perfetto_track_uuid(p, T_SOURCE, 0, 0),
						       .name = src->label,
						       .description = src->description });
}

void perfetto_kfd_ops(struct perfetto_export *p)
{
	const struct kfd_queues *kfd = kfd_queues_of(p->a);
	uint64_t root = 0;
	int i;

	for (i = 0; i < kfd->nr_ops; i++) {
		if (!root)
			root = perfetto_named_track(p, T_KFD_ROOT, 0, 0, "KFD queue operations");
		kfd_op(p, &kfd->ops[i], root);
	}
}

int perfetto_export_end(struct perfetto_export *p)
{
	rings_named_late(p);
	perfetto_gpu_counters_end(p, analysis_totals(p->a)->last_ts);
	perfetto_gpu_info(p);
	perfetto_packet_flush(p);
	return perfetto_export_stop(p);
}

int perfetto_export_stop(struct perfetto_export *p)
{
	int error = write_behind_finish(p->wb);

	p->wb = NULL;
	if (error)
		perfetto_fail(p, error);
	return p->error;
}

void perfetto_export_free(struct perfetto_export *p)
{
	perfetto_export_stop(p);
	free_source(p);
	keymap_free(&p->tracks);
	keymap_free(&p->gpu_interned);
	pb_free(&p->buf);
	memset(p, 0, sizeof(*p));
}
