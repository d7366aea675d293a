// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../lib/capture/capture-setup.h"
#include "../../../lib/tracefs/event-select.h"
#include "../../../lib/tracefs/presets.h"
#include "../unit.h"

static void test_every_preset_parses(void)
{
	struct gt_error err = { 0 };
	int i, j, n = 0;

	for (i = 0; presets[i].name; i++, n++) {
		CU_ASSERT_PTR_EQUAL(preset_find(presets[i].name), &presets[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(preset_names(), presets[i].name));
		for (j = 0; presets[i].events[j]; j++) {
			struct event_spec sp;

			CU_ASSERT_EQUAL(event_spec_parse(presets[i].events[j], true, &sp, &err), 0);
			free(sp.system);
			free(sp.event);
		}
	}
	CU_ASSERT_EQUAL(n, 7);
	CU_ASSERT_PTR_NULL(preset_find("nouveau"));
}

/* NVIDIA's one tracepoint, recorded system-wide, and the probes; no other preset sets them */
static void test_nvidia_sets_probes(void)
{
	const struct preset *p = preset_find("nvidia");
	int i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_TRUE(p->nvidia_probes);
	CU_ASSERT_FALSE(p->kfd_probes);
	CU_ASSERT_PTR_NULL(p->tracer);
	CU_ASSERT_STRING_EQUAL(p->events[0], "nvidia:nvidia_dev_xid");
	CU_ASSERT_TRUE(is_system_wide_system("nvidia"));
	for (i = 0; presets[i].name; i++)
		CU_ASSERT_EQUAL(presets[i].nvidia_probes, p == &presets[i]);
}

static void test_amd_has_graph_under_amdgpu(void)
{
	const struct preset *p = preset_find("amd");

	CU_ASSERT_STRING_EQUAL(p->tracer, "function_graph");
	CU_ASSERT_STRING_EQUAL(p->function_filter, ":mod:amdgpu");
	CU_ASSERT_TRUE(p->kfd_probes);
	/* the default records every GPU system, not KFD's probes */
	CU_ASSERT_PTR_NOT_NULL_FATAL(preset_find(DEFAULT_PRESET));
	CU_ASSERT_FALSE(preset_find(DEFAULT_PRESET)->kfd_probes);
}

/* how many of @kernel's xe events the xe preset's patterns take; @name: one it takes */
static int xe_taken(const char *kernel, const char *name, bool *takes_name)
{
	const struct preset *p = preset_find("xe");
	struct dirent *d;
	char dir[128];
	DIR *dp;
	int n = 0, j;

	snprintf(dir, sizeof(dir), "tests/fixtures/formats/%s/xe", kernel);
	dp = opendir(dir);
	if (!dp)
		return -1;
	*takes_name = false;
	while ((d = readdir(dp))) {
		for (j = 0; p->events[j]; j++) {
			const char *colon = strchr(p->events[j], ':');

			if (!strncmp(p->events[j], "xe:", 3) && !fnmatch(colon + 1, d->d_name, 0))
				break;
		}
		if (!p->events[j])
			continue;
		n++;
		if (!strcmp(d->d_name, name))
			*takes_name = true;
	}
	closedir(dp);
	return n;
}

/*
 * The xe preset on 6.12's and 7.3's real event lists: the jobs and their
 * timeouts, exec queues, TLB invalidations under either kernel's name; not
 * the per-register, per-GuC-message or display events
 */
static void test_xe_takes_jobs_not_noise(void)
{
	static const char *const kernels[] = { "linux-6.12", "linux-7.3" };
	static const char *const wanted[] = {
		"xe_sched_job_run", "xe_sched_job_timedout", "xe_exec_queue_create", "xe_hw_fence_signal",
		"xe_bo_move", "xe_vma_bind",
	};
	static const char *const noise[] = {
		"xe_reg_rw", "xe_guc_ctb_h2g", "xe_guc_ct_g2h_flow_control", "xe_pm_runtime_get",
		"xe_hw_fence_try_signal", "intel_pipe_update_start", "xe_lrc_update_timestamp",
	};
	bool takes;
	size_t k, i;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
			CU_ASSERT(xe_taken(kernels[k], wanted[i], &takes) > 0);
			CU_ASSERT_TRUE(takes);
		}
		for (i = 0; i < sizeof(noise) / sizeof(noise[0]); i++) {
			CU_ASSERT(xe_taken(kernels[k], noise[i], &takes) > 0);
			CU_ASSERT_FALSE(takes);
		}
	}
	CU_ASSERT(xe_taken("linux-6.12", "xe_gt_tlb_invalidation_fence_send", &takes) > 0);
	CU_ASSERT_TRUE(takes);
	CU_ASSERT(xe_taken("linux-7.3", "xe_tlb_inval_fence_send", &takes) > 0);
	CU_ASSERT_TRUE(takes);
}

static bool selects_jobs(const char *const *systems, int nr, bool explicit_events)
{
	struct event_selection sel = { .systems = (char **)systems, .nr_systems = nr };

	return capture_selects_gpu_jobs(&sel, explicit_events);
}

/* record and top tell a kernel without a GPU driver the same way */
static void test_gpu_jobs_need_a_driver(void)
{
	static const char *const every_kernel[] = { "dma_fence", "drm", "dma_buf", "sched" };
	static const char *const with_driver[] = { "dma_fence", "gpu_scheduler" };
	static const char *const not_gpu[] = { "sched", "irq" };

	CU_ASSERT_FALSE(selects_jobs(every_kernel, 4, false));
	CU_ASSERT_TRUE(selects_jobs(with_driver, 2, false));
	CU_ASSERT_TRUE(selects_jobs(with_driver + 1, 1, false));
	/* -e dma_fence is what the user asked for: taken as asked */
	CU_ASSERT_TRUE(selects_jobs(every_kernel, 1, true));
	CU_ASSERT_FALSE(selects_jobs(not_gpu, 2, true));
	CU_ASSERT_FALSE(selects_jobs(NULL, 0, true));
}

void suite_presets(void)
{
	CU_pSuite s = CU_add_suite("presets", NULL, NULL);

	CU_add_test(s, "nvidia sets the probes and the Xid tracepoint", test_nvidia_sets_probes);
	CU_add_test(s, "every preset event parses", test_every_preset_parses);
	CU_add_test(s, "amd: function_graph under :mod:amdgpu", test_amd_has_graph_under_amdgpu);
	CU_add_test(s, "GPU jobs need a driver's or the scheduler's events", test_gpu_jobs_need_a_driver);
	CU_add_test(s, "xe: jobs and queues, not register or GuC-message events", test_xe_takes_jobs_not_noise);
}
