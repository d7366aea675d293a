// SPDX-License-Identifier: GPL-2.0
#include <CUnit/Basic.h>
#include <stdio.h>

#include "unit.h"

int main(void)
{
	unsigned int failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	suite_buffer_ladder();
	suite_keymap();
	suite_protobuf();
	suite_event_select();
	suite_saved_files();
	suite_cpu_stats();
	suite_page_scan();
	suite_rb_read();
	suite_readers();
	suite_dat_writer();
	suite_dat_format();
	suite_dat_meta();
	suite_trace_analysis();
	suite_cgroup_scope();
	suite_cmdlines();
	suite_presets();
	suite_report_sections();
	suite_compare();
	suite_rank_test();
	suite_vm_activity();
	suite_dma_bufs();
	suite_partial_output();
	suite_user_queues();
	suite_owner_switches();
	suite_gpu_hangs();
	suite_buffer_moves();
	suite_devices();
	suite_drm_clients();
	suite_writeback_stream();
	suite_inflate_ahead();
	suite_file_io();
	suite_timeline();
	suite_timeline_fuzz();
	suite_timeline_skew();
	suite_workload_tree();
	suite_live_stats();
	suite_hip_log();
	suite_kfd_queue_table();
	suite_nvidia_calls();
	suite_kfd_mqd();
	suite_cpu_coverage();
	suite_record_field();
	suite_print_guard();
	suite_root_path();
	suite_utf8();
	suite_trace_session();
	suite_gpu_event();
	suite_html_job_rows();
	suite_gpu_event_bounds();
	suite_latency();
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
