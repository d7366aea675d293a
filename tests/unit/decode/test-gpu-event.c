// SPDX-License-Identifier: GPL-2.0
/* Decoding by field name: the same event from three kernels' real formats. */
#include <event-parse.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <trace-seq.h>

#include "../../../lib/decode/event-print.h"
#include "../../../lib/decode/gpu-event.h"
#include "../../../lib/decode/gpu-plugin.h"
#include "../../../lib/decode/print-guard.h"
#include "../unit.h"

struct parsed {
	struct tep_handle *tep;
	struct tep_event *event;
};

static int parse(struct parsed *p, const char *kernel, const char *sys, const char *name)
{
	p->tep = tep_with_format(kernel, sys, name);
	p->event = p->tep ? tep_find_event_by_name(p->tep, sys, name) : NULL;
	return p->event ? 0 : -1;
}

static void put(struct tep_event *e, unsigned char *rec, const char *name, uint64_t v)
{
	struct tep_format_field *f = tep_find_field(e, name);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	memcpy(rec + f->offset, &v, (size_t)f->size);
}

static void put_str(struct tep_event *e, unsigned char *rec, const char *name,
		    const char *s, unsigned int at)
{
	struct tep_format_field *f = tep_find_field(e, name);
	uint32_t loc = at | (uint32_t)((strlen(s) + 1) << 16);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	memcpy(rec + f->offset, &loc, 4);
	strcpy((char *)rec + at, s);
}

static void test_sched_job_6_1(void)
{
	unsigned char rec[128] = { 0 };
	struct tep_record r = { .ts = 5, .data = rec, .size = 128 };
	struct gpu_event ev;
	struct parsed p;
	char line[256];

	CU_ASSERT_EQUAL_FATAL(parse(&p, "linux-6.1", "gpu_scheduler", "drm_sched_job"), 0);
	put(p.event, rec, "fence", 0xffff888012345678ULL);
	put(p.event, rec, "id", 77);
	put(p.event, rec, "job_count", 3);
	put(p.event, rec, "hw_job_count", 2);
	put_str(p.event, rec, "name", "gfx_0.0.0", 60);
	CU_ASSERT_EQUAL(gpu_event_decode_one(p.event, &r, &ev), GEV_QUEUE);
	CU_ASSERT_STRING_EQUAL(ev.ring, "gfx_0.0.0");
	CU_ASSERT_TRUE(ev.has_id);
	CU_ASSERT_EQUAL(ev.id, 77);
	CU_ASSERT_EQUAL(ev.fence_ptr, 0xffff888012345678ULL);
	CU_ASSERT_FALSE(ev.has_fence);
	CU_ASSERT_EQUAL(ev.job_count, 3);
	CU_ASSERT_EQUAL(ev.hw_job_count, 2);
	gpu_event_format(&ev, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "ring=gfx_0.0.0 job=77 fence=0xffff888012345678 queued (in queue 3, on hw 2)");
	tep_free(p.tep);
}

static void test_sched_job_queue_7_3(void)
{
	unsigned char rec[128] = { 0 };
	struct tep_record r = { .ts = 5, .data = rec, .size = 128 };
	struct gpu_event ev;
	struct parsed p;

	CU_ASSERT_EQUAL_FATAL(parse(&p, "linux-7.3", "gpu_scheduler", "drm_sched_job_queue"), 0);
	put(p.event, rec, "fence_context", 8442);
	put(p.event, rec, "fence_seqno", 145);
	put(p.event, rec, "client_id", 12);
	put_str(p.event, rec, "name", "gfx_0.0.0", 64);
	put_str(p.event, rec, "dev", "0000:0e:00.0", 80);
	CU_ASSERT_EQUAL(gpu_event_decode_one(p.event, &r, &ev), GEV_QUEUE);
	CU_ASSERT_TRUE(ev.has_fence);
	CU_ASSERT_EQUAL(ev.ctx, 8442);
	CU_ASSERT_EQUAL(ev.seqno, 145);
	CU_ASSERT_FALSE(ev.has_id);
	CU_ASSERT_TRUE(ev.has_client_id);
	CU_ASSERT_EQUAL(ev.client_id, 12);
	CU_ASSERT_STRING_EQUAL(ev.dev, "0000:0e:00.0");
	CU_ASSERT_STRING_EQUAL(ev.ring, "gfx_0.0.0");
	tep_free(p.tep);
}

/* 6.1 wait_dep: "fence" and ctx/seqno describe the dependency, id the job */
static void test_wait_dep_6_1(void)
{
	unsigned char rec[128] = { 0 };
	struct tep_record r = { .ts = 5, .data = rec, .size = 128 };
	struct gpu_event ev;
	struct parsed p;

	CU_ASSERT_EQUAL_FATAL(parse(&p, "linux-6.1", "gpu_scheduler", "drm_sched_job_wait_dep"), 0);
	put(p.event, rec, "id", 9);
	put(p.event, rec, "fence", 0xffff8880aaaa0000ULL);
	put(p.event, rec, "ctx", 300);
	put(p.event, rec, "seqno", 4);
	put_str(p.event, rec, "name", "sdma0", 60);
	CU_ASSERT_EQUAL(gpu_event_decode_one(p.event, &r, &ev), GEV_DEP_WAIT);
	CU_ASSERT_EQUAL(ev.id, 9);
	CU_ASSERT_EQUAL(ev.fence_ptr, 0);
	CU_ASSERT_TRUE(ev.has_dep);
	CU_ASSERT_EQUAL(ev.dep_ctx, 300);
	CU_ASSERT_EQUAL(ev.dep_seqno, 4);
	CU_ASSERT_EQUAL(ev.dep_ptr, 0xffff8880aaaa0000ULL);
	tep_free(p.tep);
}

/* amdgpu_cs_ioctl: 32-bit context in 6.1, 64-bit in 7.3; same meaning */
static void test_cs_ioctl_both_layouts(void)
{
	static const char *const kernels[] = { "linux-6.1", "linux-7.3" };
	int i;

	for (i = 0; i < 2; i++) {
		unsigned char rec[128] = { 0 };
		struct tep_record r = { .ts = 5, .data = rec, .size = 128 };
		struct gpu_event ev;
		struct parsed p;

		CU_ASSERT_EQUAL_FATAL(parse(&p, kernels[i], "amdgpu", "amdgpu_cs_ioctl"), 0);
		put(p.event, rec, "context", 7914);
		put(p.event, rec, "seqno", 920);
		put_str(p.event, rec, "timeline", "gfx_0.0.0", 64);
		put_str(p.event, rec, "ring", "gfx_0.0.0", 80);
		CU_ASSERT_EQUAL(gpu_event_decode_one(p.event, &r, &ev), GEV_SUBMIT);
		CU_ASSERT_EQUAL(ev.ctx, 7914);
		CU_ASSERT_EQUAL(ev.seqno, 920);
		CU_ASSERT_EQUAL(ev.has_id, i == 0);
		CU_ASSERT_STRING_EQUAL(ev.ring, "gfx_0.0.0");
		tep_free(p.tep);
	}
}

/*
 * Every job event of every kernel whose formats we keep, every field filled:
 * each must give the join a key (a fence's context:seqno, its address, an
 * id, or for a dependency wait the dependency), and a ring name, unless its
 * kernel recorded the name as a pointer (5.10's scheduler, 4.11's): then the
 * fence address is what finds its job.
 */
static void test_every_kernels_job_events(void)
{
	static const char *const kernels[] = { "amdgpu-4.11", "linux-5.10", "linux-6.1",
					       "linux-6.12", "linux-7.3" };
	static const char *const events[][2] = {
		{ "gpu_scheduler", "drm_sched_job" }, { "gpu_scheduler", "drm_run_job" },
		{ "gpu_scheduler", "drm_sched_process_job" },
		{ "gpu_scheduler", "drm_sched_job_wait_dep" },
		{ "gpu_scheduler", "drm_sched_job_queue" }, { "gpu_scheduler", "drm_sched_job_run" },
		{ "gpu_scheduler", "drm_sched_job_done" }, { "gpu_scheduler", "drm_sched_job_add_dep" },
		{ "gpu_sched", "amd_sched_job" }, { "gpu_sched", "amd_sched_process_job" },
		{ "amdgpu", "amdgpu_cs_ioctl" }, { "amdgpu", "amdgpu_sched_run_job" },
		{ "dma_fence", "dma_fence_signaled" }, { "dma_fence", "dma_fence_init" },
	};
	size_t k, e;
	int seen = 0;

	for (k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		for (e = 0; e < sizeof(events) / sizeof(events[0]); e++) {
			unsigned char rec[512] = { 0 };
			struct tep_record r = { .ts = 5, .data = rec, .size = sizeof(rec) };
			struct tep_format_field *f;
			enum gpu_event_kind kind;
			unsigned int at = 256;
			struct gpu_event ev;
			struct parsed p;
			bool key, pointer_name = false;

			if (parse(&p, kernels[k], events[e][0], events[e][1]))
				continue;	/* not in that kernel */
			seen++;
			for (f = p.event->format.fields; f; f = f->next) {
				if (f->flags & TEP_FIELD_IS_DYNAMIC) {
					put_str(p.event, rec, f->name, "ring_x", at);
					at += 16;
				} else if (f->size <= 8) {
					put(p.event, rec, f->name, 0xffff888000000000ULL + (uint64_t)f->offset);
					if ((f->flags & TEP_FIELD_IS_POINTER) &&
					    (!strcmp(f->name, "name") || !strcmp(f->name, "ring_name")))
						pointer_name = true;
				}
			}
			kind = gpu_event_decode_one(p.event, &r, &ev);
			CU_ASSERT_NOT_EQUAL(kind, GEV_NONE);
			key = ev.has_fence || ev.fence_ptr || ev.has_id ||
			      (kind == GEV_DEP_WAIT && ev.has_dep);
			if (!key)
				fprintf(stderr, "%s %s: no job key\n", kernels[k], events[e][1]);
			CU_ASSERT_TRUE(key);
			if (kind != GEV_DONE && kind != GEV_DEP_WAIT && kind != GEV_DEP_ADD &&
			    !(kind >= GEV_FENCE_INIT && kind <= GEV_FENCE_DESTROY)) {
				bool ok = ev.ring[0] || (pointer_name && ev.fence_ptr);

				if (!ok)
					fprintf(stderr, "%s %s: no ring and no fence address\n",
						kernels[k], events[e][1]);
				CU_ASSERT_TRUE(ok);
			}
			tep_free(p.tep);
		}
	}
	/* 4.11: 5 events, 5.10..6.12: 6 each, 7.3: 6.17's 5 + amdgpu's and dma_fence's */
	CU_ASSERT(seen >= 30);
}

/*
 * amdgpu_vm_grab_id has two fields named ring, a string and a u32 (never set):
 * the ring's name is the string, whatever the u32 holds
 */
static void grab_id_reads_string_ring(struct tep_event *e, const char *what)
{
	unsigned char rec[128] = { 0 };
	struct tep_record r = { .ts = 5, .data = rec, .size = 128 };
	struct tep_format_field *f;
	struct gpu_event ev;
	uint32_t junk = 0x41414141, loc = 64 | (uint32_t)(sizeof("comp_1.0.0") << 16);

	strcpy((char *)rec + 64, "comp_1.0.0");
	for (f = e->format.fields; f; f = f->next)
		if (!strcmp(f->name, "ring"))
			memcpy(rec + f->offset, (f->flags & TEP_FIELD_IS_STRING) ? &loc : &junk, 4);
	put(e, rec, "vmid", 5);
	put(e, rec, "needs_flush", 1);
	CU_ASSERT_EQUAL(gpu_event_decode_one(e, &r, &ev), GEV_VM_GRAB_ID);
	if (strcmp(ev.ring, "comp_1.0.0"))
		fprintf(stderr, "%s: ring \"%s\"\n", what, ev.ring);
	CU_ASSERT_STRING_EQUAL(ev.ring, "comp_1.0.0");
	CU_ASSERT_EQUAL(ev.vmid, 5);
	CU_ASSERT_TRUE(ev.needs_flush);
}

/*
 * The kernels' formats all list the string first, where a lookup by name
 * alone would find it too; this one lists the u32 first.
 */
static const char grab_id_u32_first[] =
	"name: amdgpu_vm_grab_id\n"
	"ID: 1643\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:u32 pasid;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 ring;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] ring;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 vmid;\toffset:20;\tsize:4;\tsigned:0;\n"
	"\tfield:u32 vm_hub;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 pd_addr;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:u32 needs_flush;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"pasid=%d, ring=%s, id=%u, hub=%u, pd_addr=%010Lx needs_flush=%u\", "
	"REC->pasid, __get_str(ring), REC->vmid, REC->vm_hub, REC->pd_addr, REC->needs_flush\n";

static void test_vm_grab_id_two_rings(void)
{
	static const char *const kernels[] = { "linux-6.1", "linux-6.12", "linux-7.3" };
	struct tep_handle *tep;
	struct tep_event *e;
	unsigned int k;

	for (k = 0; k < 3; k++) {
		struct parsed p;

		CU_ASSERT_EQUAL_FATAL(parse(&p, kernels[k], "amdgpu", "amdgpu_vm_grab_id"), 0);
		grab_id_reads_string_ring(p.event, kernels[k]);
		tep_free(p.tep);
	}
	tep = tep_alloc();
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep);
	tep_set_long_size(tep, 8);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(tep, grab_id_u32_first, strlen(grab_id_u32_first),
					      "amdgpu"), 0);
	e = tep_find_event_by_name(tep, "amdgpu", "amdgpu_vm_grab_id");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tep_find_field(e, "ring"));
	/* the format really lists the u32 first: a lookup by name meets it */
	CU_ASSERT_FALSE(tep_find_field(e, "ring")->flags & TEP_FIELD_IS_STRING);
	grab_id_reads_string_ring(e, "u32 first");
	tep_free(tep);
}

/* update_ptes names the process whose VM it is in a field, not as the writer */
static void test_vm_update_ptes(void)
{
	unsigned char rec[128] = { 0 };
	struct tep_record r = { .ts = 5, .data = rec, .size = 128 };
	struct gpu_event ev;
	struct parsed p;

	CU_ASSERT_EQUAL_FATAL(parse(&p, "linux-7.3", "amdgpu", "amdgpu_vm_update_ptes"), 0);
	memcpy(rec + 4, &(int){ 77 }, 4);	/* common_pid: the kworker writing them */
	put(p.event, rec, "pid", 4242);
	put(p.event, rec, "start", 0x100000);
	put(p.event, rec, "end", 0x100200);
	CU_ASSERT_EQUAL(gpu_event_decode_one(p.event, &r, &ev), GEV_VM_UPDATE_PTES);
	CU_ASSERT_EQUAL(ev.pid, 77);
	CU_ASSERT_EQUAL(ev.vm_pid, 4242);
	CU_ASSERT_EQUAL(ev.va_start, 0x100000);
	CU_ASSERT_EQUAL(ev.va_last, 0x100200);
	tep_free(p.tep);
}

static void test_kinds(void)
{
	CU_ASSERT_EQUAL(gpu_event_kind_of("gpu_scheduler", "drm_sched_job_done"), GEV_DONE);
	CU_ASSERT_EQUAL(gpu_event_kind_of("gpu_scheduler", "drm_sched_process_job"), GEV_DONE);
	CU_ASSERT_EQUAL(gpu_event_kind_of("amdgpu", "amdgpu_device_rreg"), GEV_NONE);
	CU_ASSERT_EQUAL(gpu_event_kind_of("amdgpu", "amdgpu_bo_move"), GEV_BO_MOVE);
	CU_ASSERT_EQUAL(gpu_event_kind_of("amdgpu", "amdgpu_vm_flush"), GEV_VM_FLUSH);
	CU_ASSERT_EQUAL(gpu_event_kind_of("amdgpu", "amdgpu_iv"), GEV_AMDGPU_OTHER);
	CU_ASSERT_EQUAL(gpu_event_kind_of("sched", "sched_switch"), GEV_NONE);
	CU_ASSERT_EQUAL(gpu_event_kind_of("i915", "i915_request_retire"), GEV_I915_REQUEST);
	CU_ASSERT_STRING_EQUAL(gpu_event_kind_name(GEV_RUN), "run");
}

/* the one predicate top's capture and the timeline both follow */
static void test_fence_events_joined(void)
{
	char *fences[] = { "dma_fence", "virtio_gpu" };
	char *sched[] = { "dma_fence", "gpu_scheduler" };
	char *amd[] = { "amdgpu", "dma_fence" };

	CU_ASSERT(gpu_jobs_from_fences(fences, 2));
	CU_ASSERT(!gpu_jobs_from_fences(sched, 2));
	CU_ASSERT(!gpu_jobs_from_fences(amd, 2));
	CU_ASSERT(gpu_jobs_from_fences(NULL, 0));
	/* with a scheduler: the signals, and virtio-gpu's emits */
	CU_ASSERT(gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_signaled"), false, false));
	CU_ASSERT(!gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_emit"), false, false));
	CU_ASSERT(gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_emit"), false, true));
	CU_ASSERT(!gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_init"), false, false));
	CU_ASSERT(!gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_destroy"), false, true));
	/* jobs from the fences: their whole life, never the waits */
	CU_ASSERT(gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_init"), true, false));
	CU_ASSERT(gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_destroy"), true, false));
	CU_ASSERT(!gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_wait_start"), true, false));
	CU_ASSERT(!gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_enable_signal"), true, true));
	CU_ASSERT(!gpu_fence_kind_joined(gpu_event_kind_of("dma_fence", "dma_fence_made_up"), true, true));
}

void suite_gpu_event(void)
{
	CU_pSuite s = CU_add_suite("gpu-event", NULL, NULL);

	CU_add_test(s, "drm_sched_job, 6.1 layout", test_sched_job_6_1);
	CU_add_test(s, "drm_sched_job_queue, 7.3 layout", test_sched_job_queue_7_3);
	CU_add_test(s, "drm_sched_job_wait_dep, 6.1", test_wait_dep_6_1);
	CU_add_test(s, "amdgpu_cs_ioctl, 6.1 and 7.3", test_cs_ioctl_both_layouts);
	CU_add_test(s, "event kinds by name", test_kinds);
	CU_add_test(s, "amdgpu_vm_grab_id: the string ring of two", test_vm_grab_id_two_rings);
	CU_add_test(s, "amdgpu_vm_update_ptes: the VM's process", test_vm_update_ptes);
	CU_add_test(s, "which fence events the job join reads, capture and file alike",
		    test_fence_events_joined);
	CU_add_test(s, "every kernel's job events give a key and a ring", test_every_kernels_job_events);
}

/* A __string() whose location points past the record, or has no NUL: bounded. */
static void test_string_out_of_bounds(void)
{
	unsigned char rec[32] = { 0 };
	struct tep_record r = { .ts = 5, .data = rec, .size = 32 };
	struct tep_format_field *f;
	struct gpu_event ev;
	struct parsed p;
	uint32_t loc;

	CU_ASSERT_EQUAL_FATAL(parse(&p, "linux-6.12", "dma_fence", "dma_fence_signaled"), 0);
	f = tep_find_field(p.event, "driver");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	loc = 4000 | (10u << 16);		/* far past the 32-byte record */
	memcpy(rec + f->offset, &loc, 4);
	f = tep_find_field(p.event, "timeline");
	loc = 24 | (200u << 16);		/* runs off the end, no NUL */
	memcpy(rec + f->offset, &loc, 4);
	memset(rec + 24, 'x', 8);
	CU_ASSERT_EQUAL(gpu_event_decode_one(p.event, &r, &ev), GEV_FENCE_SIGNALED);
	CU_ASSERT_STRING_EQUAL(ev.driver, "");
	CU_ASSERT_STRING_EQUAL(ev.timeline, "xxxxxxxx");
	tep_free(p.tep);
}

static bool gpu_format(const char *sys, const char *name)
{
	return gpu_event_kind_of(sys, name) != GEV_NONE;
}

struct prepared_check {
	struct gpu_decoder *dec;
	struct tep_event *e;
	unsigned long compared, missed;
};

static void prepared_record(struct tep_record *r, void *ctx)
{
	struct prepared_check *c = ctx;
	struct gpu_event a, b;
	int type, pid;

	/* the same garbage in both: only what decoding writes may differ */
	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	CU_ASSERT_EQUAL(gpu_decoder_decode(c->dec, r, &a), gpu_event_decode_one(c->e, r, &b));
	b.pid = a.pid;	/* read by each from the common field alike */
	if (memcmp(&a, &b, sizeof(a)))
		fprintf(stderr, "\n  %s:%s differs\n", c->e->system, c->e->name);
	CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof(a)), 0);
	/* what a record no one reads costs: its kind and misses, nothing decoded */
	gpu_decoder_common(c->dec, r, &type, &pid);
	CU_ASSERT_EQUAL(gpu_decoder_kind(c->dec, type), a.kind);
	CU_ASSERT_EQUAL(gpu_decoder_missing(c->dec, r, type), a.missing);
	c->missed += a.missing != 0;
	c->compared++;
}

static void prepared_format(struct tep_handle *tep, struct tep_event *e, void *ctx)
{
	struct prepared_check *c = ctx;

	c->dec = gpu_decoder_new(tep);
	c->e = e;
	CU_ASSERT_PTR_NOT_NULL_FATAL(c->dec);
	fixture_random_records(e, 200, prepared_record, c);
	gpu_decoder_free(c->dec);
}

/*
 * The decoder a pass uses (fields prepared once per event as one list, one
 * bounds check per record) against the reference one (field by field,
 * each checked): every GPU event format of every kernel in the fixtures,
 * random records whole and cut short, the same event out of both; and the
 * same kind and misses as the two from the table alone (gpu_decoder_missing).
 */
static void test_prepared_decoder_is_the_reference(void)
{
	struct prepared_check c = { 0 };

	/* the formats were found: dozens of GPU events over five kernels */
	CU_ASSERT(fixture_formats_each(gpu_format, prepared_format, &c) > 60);
	CU_ASSERT(c.compared > 12000);
	CU_ASSERT(c.missed > 1000 && c.missed < c.compared);
}

struct printer_check {
	struct tep_handle *tep;
	struct tep_event *e;
	struct gpu_decoder *dec;
	struct event_print *p;
	struct print_guard *guard;
	unsigned long compared, damaged;
};

/* what report --events printed before event-print.c: the guard, then libtraceevent or the fields */
static void reference_info(struct printer_check *c, struct tep_record *r, struct trace_seq *s)
{
	struct tep_record *safe;
	char why[128];
	bool damaged;

	safe = print_guard_check(c->guard, c->e, r, why, sizeof(why), &damaged);
	if (safe) {
		tep_print_event(c->tep, s, safe, "%s", TEP_PRINT_INFO);
		return;
	}
	if (damaged)
		trace_seq_printf(s, "[damaged: %s] ", why);
	print_guard_fields(s, c->e, r);
}

static void printer_record(struct tep_record *r, void *ctx)
{
	struct printer_check *c = ctx;
	struct text_buf out = { 0 };
	struct trace_seq s;
	struct gpu_event ev, *gev = NULL;
	char why[128], line[GPU_PLUGIN_LINE], cut[GPU_PLUGIN_LINE];
	size_t len, n;

	trace_seq_init(&s);
	reference_info(c, r, &s);
	/* with what the pass decoded (as analysis_take() hands it on), and without */
	if (c->compared % 2 && gpu_decoder_decode(c->dec, r, &ev) != GEV_NONE && !ev.missing)
		gev = &ev;
	c->damaged += event_print_info(c->p, c->e, r, gev, &out, why, sizeof(why));
	CU_ASSERT_EQUAL(out.len, s.len);
	CU_ASSERT(out.len == s.len && !memcmp(out.buf, s.buffer, s.len));
	if (out.len != s.len || memcmp(out.buf, s.buffer, s.len))
		fprintf(stderr, "\n  %s:%s: '%.*s' != '%.*s'\n", c->e->system, c->e->name,
			(int)out.len, out.buf, (int)s.len, s.buffer);
	/* the line cut at every length as vsnprintf() cuts it */
	if (gpu_plugin_line(c->dec, c->e, r, line, &n)) {
		gpu_event_decode_one(c->e, r, &ev);
		for (len = 1; len <= n + 1; len++) {
			CU_ASSERT_EQUAL(gpu_event_format(&ev, cut, len), len - 1 < n ? len - 1 : n);
			CU_ASSERT(!strncmp(cut, line, len - 1) && strlen(cut) == (len - 1 < n ? len - 1 : n));
		}
	}
	c->compared++;
	text_buf_free(&out);
	trace_seq_destroy(&s);
}

static void printer_format(struct tep_handle *tep, struct tep_event *e, void *ctx)
{
	struct printer_check *c = ctx;

	gpu_plugin_register(tep, NULL);
	c->tep = tep;
	c->e = e;
	c->dec = gpu_decoder_new(tep);
	c->p = event_print_new(tep, c->dec);
	c->guard = print_guard_new();
	CU_ASSERT_FATAL(c->dec && c->p && c->guard);
	fixture_random_records(e, 100, printer_record, c);
	print_guard_free(c->guard);
	event_print_free(c->p);
	gpu_decoder_free(c->dec);
}

/*
 * report --events' printer (event-print.c: our line straight, the decoded
 * event reused) against libtraceevent's print through our plugin, as it
 * printed every record before: byte for byte, damaged records too
 */
static void test_printer_is_the_plugin(void)
{
	struct printer_check c = { 0 };

	CU_ASSERT(fixture_formats_each(gpu_format, printer_format, &c) > 60);
	CU_ASSERT(c.compared > 6000);
	/* the random records reach the field-by-field printing too */
	CU_ASSERT(c.damaged > 0);
}

/* the line's numbers at their extremes, as printf() writes them */
static void test_format_numbers(void)
{
	struct gpu_event ev;
	char line[GPU_PLUGIN_LINE], want[GPU_PLUGIN_LINE];

	memset(&ev, 0, sizeof(ev));
	ev.kind = GEV_QUEUE;
	ev.name = "drm_sched_job_queue";
	snprintf(ev.ring, sizeof(ev.ring), "gfx_0.0.0");
	snprintf(ev.dev, sizeof(ev.dev), "0000:03:00.0");
	ev.has_id = ev.has_fence = ev.has_client_id = true;
	ev.id = ULLONG_MAX;
	ev.ctx = 0;
	ev.seqno = 1000000007ULL;
	ev.job_count = LLONG_MIN;
	ev.hw_job_count = -1;
	ev.client_id = 9;
	gpu_event_format(&ev, line, sizeof(line));
	snprintf(want, sizeof(want), "ring=%s job=%llu fence=%llu:%llu queued (in queue %lld, on hw %lld, client %llu, dev %s)",
		 ev.ring, ev.id, ev.ctx, ev.seqno, ev.job_count, ev.hw_job_count, ev.client_id, ev.dev);
	CU_ASSERT_STRING_EQUAL(line, want);
	memset(&ev, 0, sizeof(ev));
	ev.kind = GEV_BO_CREATE;
	ev.bo = 0xffff8881deadbeefULL;
	ev.bo_bytes = 0;
	ev.placement_to = 0xffffffffu;
	gpu_event_format(&ev, line, sizeof(line));
	snprintf(want, sizeof(want), "bo=0x%llx created, %llu bytes, prefers domain 0x%x", ev.bo, ev.bo_bytes,
		 ev.placement_to);
	CU_ASSERT_STRING_EQUAL(line, want);
}

void suite_gpu_event_bounds(void)
{
	CU_pSuite s = CU_add_suite("gpu-event-bounds", NULL, NULL);

	CU_add_test(s, "strings past the record or unterminated", test_string_out_of_bounds);
	CU_add_test(s, "the prepared decoder decodes as the reference", test_prepared_decoder_is_the_reference);
	CU_add_test(s, "report --events prints as the plugin through libtraceevent", test_printer_is_the_plugin);
	CU_add_test(s, "the line's numbers as printf writes them", test_format_numbers);
}
