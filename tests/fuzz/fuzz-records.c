// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target below the file layer: synthetic records of any event of
 * the real 6.1, 6.12 and 7.3 formats (tests/fixtures/formats, with ftrace's
 * and sched's), with arbitrary field bytes, lengths, timestamps, CPUs and
 * lost-event marks, go straight into what report does with each record
 * (lib/analysis/analysis.c: the decoders, the job timeline, the KFD queue
 * tracker, the workload's pid tree) and the finish that hands out
 * unfinished jobs. No .dat is built, so it runs thousands of times faster
 * than fuzz-report.c, which fuzzes the file layer.
 *
 * Input: one byte picks the kernel, then records of
 *   u8 event, u8 cpu, u8 flags (1: lost before it, 2: count unknown,
 *   4: time goes back), u16 time step (ns), u8 length, length bytes
 * laid after the event's common_type; common_pid and every field are the
 * fuzzer's. KFD functions have addresses (0x1000 * n) for function records.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/analysis/analysis-private.h"

#define NR_KERNELS	3
#define MAX_EVENTS	512

static const char *const kernels[NR_KERNELS] = { "linux-6.1", "linux-6.12", "linux-7.3" };
static const char *const kfd_functions[] = {
	"kfd_ioctl_create_queue", "kfd_ioctl_update_queue", "kfd_ioctl_destroy_queue",
	"kfd_process_evict_queues", "kfd_process_restore_queues", "pqm_create_queue",
	"create_queue_cpsch", "allocate_doorbell", "allocate_mqd", "init_mqd",
	"map_queues_cpsch", "evict_process_queues_cpsch", "restore_process_queues_cpsch",
	"pqm_destroy_queue", "kfd_open",
};

struct kernel {
	struct tep_handle *tep;
	int ids[MAX_EVENTS];
	int nr;
};

static struct kernel tep_of[NR_KERNELS];

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf) {
			buf[n] = '\0';
			*len = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

static void load_system(struct kernel *k, const char *dir, const char *sys)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	while (dp && (d = readdir(dp))) {
		char path[4096];
		struct tep_event *ev;
		size_t len;
		char *fmt;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/format", dir, d->d_name);
		fmt = slurp(path, &len);
		if (fmt && !tep_parse_format(k->tep, &ev, fmt, len, sys) && k->nr < MAX_EVENTS)
			k->ids[k->nr++] = ev->id;
		free(fmt);
	}
	if (dp)
		closedir(dp);
}

static void load_kernel(struct kernel *k, const char *root, const char *name)
{
	static const char *const systems[] = {
		"gpu_scheduler", "amdgpu", "amdgpu_dm", "dma_fence", "drm", "virtio_gpu", "dma_buf",
		"gpu_trace_4242", "printk",	/* record --kfd-args's probes (6.1, 7.3) */
		"gpu_trace_nv_4242", "nvidia",	/* record --preset nvidia's (6.1, 7.3) */
	};
	char dir[4096];
	size_t i;

	k->tep = tep_alloc();
	tep_set_long_size(k->tep, 8);
	tep_set_page_size(k->tep, 4096);
	for (i = 0; i < sizeof(systems) / sizeof(systems[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/%s/%s", root, name, systems[i]);
		load_system(k, dir, systems[i]);
	}
	snprintf(dir, sizeof(dir), "%s/ftrace-6.18", root);
	load_system(k, dir, "ftrace");
	snprintf(dir, sizeof(dir), "%s/sched-6.18", root);
	load_system(k, dir, "sched");
	for (i = 0; i < sizeof(kfd_functions) / sizeof(kfd_functions[0]); i++)
		tep_register_function(k->tep, (char *)kfd_functions[i],
				      0x1000ULL * (i + 1), "amdgpu");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *root = getenv("GT_FIXTURES");
	char formats[512];
	int i;

	(void)argc;
	(void)argv;
	snprintf(formats, sizeof(formats), "%s/formats", root ? root : "tests/fixtures");
	for (i = 0; i < NR_KERNELS; i++)
		load_kernel(&tep_of[i], formats, kernels[i]);
	if (!tep_of[0].nr) {
		fprintf(stderr, "fuzz-records: no formats under %s (run from the source tree)\n", formats);
		exit(1);
	}
	return 0;
}

static void count_job(const struct job *j, void *ctx)
{
	(*(uint64_t *)ctx) += j->flags & JOB_UNFINISHED;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kernel *k;
	struct analysis a;
	struct gt_error err = { 0 };
	uint64_t unfinished = 0, ts = 1000000000ULL;
	size_t pos = 1;

	if (size < 1)
		return 0;
	k = &tep_of[data[0] % NR_KERNELS];
	if (analysis_init(&a, k->tep, &(struct analysis_hooks){ .on_job = count_job,
								 .ctx = &unfinished }, &err))
		return 0;
	while (pos + 6 <= size) {
		unsigned char buf[2 + 255 + 8] = { 0 };
		struct tep_record rec = { 0 };
		uint8_t flags = data[pos + 2], len = data[pos + 5];
		uint16_t step = (uint16_t)(data[pos + 3] | data[pos + 4] << 8);
		uint16_t id = (uint16_t)k->ids[data[pos] % k->nr];

		rec.cpu = data[pos + 1] % 4;
		pos += 6;
		if (len > size - pos)
			len = (uint8_t)(size - pos);
		memcpy(buf, &id, 2);
		memcpy(buf + 2, data + pos, len);
		pos += len;
		ts = flags & 4 && ts > step ? ts - step : ts + step;
		rec.ts = ts;
		rec.data = buf;
		rec.size = 2 + len;
		rec.record_size = rec.size;
		if (flags & 1)
			rec.missed_events = flags & 2 ? -1 : step;
		analysis_record(&a, &rec);
	}
	analysis_finish(&a);
	analysis_close(&a);
	return 0;
}
