/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_UNIT_H
#define GT_UNIT_H

#include <CUnit/CUnit.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Each tests/unit/LAYER/test-<lib-file>.c registers one suite named after it, a row of
 * main.c's table.
 */
void suite_buffer_ladder(void);
void suite_keymap(void);
void suite_kallsyms_defer(void);
void suite_protobuf(void);
void suite_parquet_writer(void);
void suite_event_select(void);
void suite_saved_files(void);
void suite_cpu_stats(void);
void suite_page_scan(void);
void suite_rb_read(void);
void suite_readers(void);
void suite_dat_writer(void);
void suite_dat_format(void);
void suite_dat_meta(void);
void suite_trace_analysis(void);
void suite_cgroup_scope(void);
void suite_cmdlines(void);
void suite_proc_tree(void);
void suite_presets(void);
void suite_fence_signals(void);
void suite_timeline(void);
void suite_timeline_fuzz(void);
void suite_timeline_skew(void);
void suite_gpu_event(void);
void suite_html_job_rows(void);
void suite_gpu_event_bounds(void);
void suite_latency(void);
void suite_workload_tree(void);
void suite_live_stats(void);
void suite_hip_log(void);
void suite_kfd_queue_table(void);
void suite_nvidia_calls(void);
void suite_kfd_mqd(void);
void suite_cpu_coverage(void);
void suite_record_field(void);
void suite_print_guard(void);
void suite_format_print(void);
void suite_root_path(void);
void suite_utf8(void);
void suite_text_buf(void);
void suite_write_behind(void);
void suite_trace_session(void);
void suite_report_sections(void);
void suite_compare(void);
void suite_rank_test(void);
void suite_fleet_stats(void);
void suite_vm_activity(void);
void suite_dma_bufs(void);
void suite_partial_output(void);
void suite_user_queues(void);
void suite_owner_switches(void);
void suite_cpu_side(void);
void suite_vblanks(void);
void suite_flight_rules(void);
void suite_flight_ring(void);
void suite_kv_words(void);
void suite_outfile(void);
void suite_pid_ns(void);
void suite_time_ns(void);
void suite_gpu_hangs(void);
void suite_buffer_moves(void);
void suite_field_misses(void);
void suite_devices(void);
void suite_drm_clients(void);
void suite_writeback_stream(void);
void suite_inflate_ahead(void);
void suite_file_io(void);

/* Raw ring-buffer pages as the kernel hands them out (64-bit, little endian). */
struct raw_page {
	unsigned char data[4096];
	size_t used;		/* bytes of event data after the 16-byte header */
};

void raw_page_init(struct raw_page *p, unsigned long long timestamp);
/* Appends one event record; payload is padded to 4 bytes. */
int raw_page_add(struct raw_page *p, unsigned int time_delta, const void *payload,
		 size_t len);
/* Sets the "events were lost before this page" flag, with the count stored. */
void raw_page_set_missed(struct raw_page *p, unsigned long missed);

/* A scenario of tests/fixture written to a new /tmp file (path filled). */
int scenario_tmpfile(const char *scenario, char *path, size_t len);
/* Text of a fixture file under tests/fixtures, or NULL (caller frees). */
char *fixture_read(const char *relpath);

/* The jobs an analysis hands out (its on_job hook: kept_job, ctx the kept_jobs), the first 8 */
struct job;
struct kept_jobs {
	struct job *list;
	int nr;
};
void kept_job(const struct job *j, void *ctx);
/* the kept job with this fence context (any seqno), or NULL */
const struct job *kept_by_ctx(const struct kept_jobs *k, unsigned long long ctx, unsigned long long seqno);
void kept_jobs_free(struct kept_jobs *k);

struct tep_handle;
/* One event of a kernel's real format files (tests/fixtures/formats/KERNEL), 64-bit LE. */
struct tep_handle *tep_with_format(const char *kernel, const char *sys, const char *name);

struct tep_event;
struct tep_record;
/* a pseudo-random number, the same sequence every run */
uint32_t fixture_rnd(void);
/*
 * Every event format of every kernel in tests/fixtures/formats that @want takes: @fn with a tep
 * holding that one format; the number of formats
 */
unsigned long fixture_formats_each(bool (*want)(const char *sys, const char *name),
				   void (*fn)(struct tep_handle *tep, struct tep_event *e, void *ctx),
				   void *ctx);
/* @n random records of @e (their __data_loc mostly inside), whole or cut short: @fn with each */
void fixture_random_records(struct tep_event *e, int n,
			    void (*fn)(struct tep_record *r, void *ctx), void *ctx);

#endif
