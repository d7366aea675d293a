// SPDX-License-Identifier: GPL-2.0
/*
 * The unit tests, one suite per lib/ file, in folders by layer (tests/unit/LAYER/), from
 * the bottom layer up: a broken util shows before everything built on it.
 *   unit-tests [LAYER...]    only those layers' suites
 */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <string.h>

#include "unit.h"

static const struct {
	const char *layer;
	void (*add)(void);
} suites[] = {
	{ "util", suite_keymap },
	{ "util", suite_writeback_stream },
	{ "util", suite_file_io },
	{ "util", suite_root_path },
	{ "util", suite_utf8 },
	{ "util", suite_kv_words },
	{ "util", suite_outfile },
	{ "util", suite_pid_ns },
	{ "util", suite_time_ns },
	{ "util", suite_text_buf },
	{ "util", suite_write_behind },
	{ "tracefs", suite_buffer_ladder },
	{ "tracefs", suite_event_select },
	{ "tracefs", suite_saved_files },
	{ "tracefs", suite_presets },
	{ "tracefs", suite_trace_session },
	{ "dat", suite_cpu_stats },
	{ "dat", suite_page_scan },
	{ "dat", suite_rb_read },
	{ "dat", suite_dat_format },
	{ "dat", suite_dat_meta },
	{ "dat", suite_inflate_ahead },
	{ "dat", suite_cpu_coverage },
	{ "decode", suite_hip_log },
	{ "decode", suite_kfd_mqd },
	{ "decode", suite_record_field },
	{ "decode", suite_print_guard },
	{ "decode", suite_format_print },
	{ "decode", suite_gpu_event },
	{ "decode", suite_gpu_event_bounds },
	{ "capture", suite_dat_writer },
	{ "capture", suite_cgroup_scope },
	{ "capture", suite_cmdlines },
	{ "capture", suite_proc_tree },
	{ "capture", suite_partial_output },
	{ "capture", suite_flight_ring },
	{ "analysis", suite_readers },
	{ "analysis", suite_trace_analysis },
	{ "analysis", suite_compare },
	{ "analysis", suite_rank_test },
	{ "analysis", suite_fleet_stats },
	{ "analysis", suite_vm_activity },
	{ "analysis", suite_dma_bufs },
	{ "analysis", suite_user_queues },
	{ "analysis", suite_owner_switches },
	{ "analysis", suite_cpu_side },
	{ "analysis", suite_vblanks },
	{ "analysis", suite_gpu_hangs },
	{ "analysis", suite_buffer_moves },
	{ "analysis", suite_field_misses },
	{ "analysis", suite_devices },
	{ "analysis", suite_drm_clients },
	{ "analysis", suite_fence_signals },
	{ "analysis", suite_timeline },
	{ "analysis", suite_timeline_fuzz },
	{ "analysis", suite_timeline_skew },
	{ "analysis", suite_workload_tree },
	{ "analysis", suite_live_stats },
	{ "analysis", suite_kfd_queue_table },
	{ "analysis", suite_nvidia_calls },
	{ "analysis", suite_latency },
	{ "analysis", suite_flight_rules },
	{ "analysis", suite_kallsyms_defer },
	{ "output", suite_protobuf },
	{ "output", suite_parquet_writer },
	{ "output", suite_report_sections },
	{ "output", suite_html_job_rows },
};

static int wanted(const char *layer, int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], layer))
			return 1;
	return argc < 2;
}

int main(int argc, char **argv)
{
	unsigned int failed;
	size_t i;
	int known, j;

	for (j = 1; j < argc; j++) {
		for (i = 0, known = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
			known |= !strcmp(suites[i].layer, argv[j]);
		if (!known) {
			fprintf(stderr, "unit-tests: no layer %s (util, tracefs, dat, decode, capture, analysis, output)\n",
				argv[j]);
			return 2;
		}
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		if (wanted(suites[i].layer, argc, argv))
			suites[i].add();
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
