// SPDX-License-Identifier: GPL-2.0
#include <event-parse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>
#include <unistd.h>

#include "../../../lib/capture/dat-writer.h"
#include "../../../lib/util/file-io.h"
#include "../unit.h"

#define FMT_DIR "formats/linux-6.12/"

/* dma_fence_signaled laid out exactly as the 6.12 format file says */
static void add_signaled(struct raw_page *p, int id, int pid, unsigned int context,
			 unsigned int seqno)
{
	unsigned char ev[32] = { 0 };
	uint16_t type = (uint16_t)id;
	uint32_t driver_loc = 24 | (4u << 16), timeline_loc = 28 | (3u << 16);

	memcpy(ev, &type, 2);
	memcpy(ev + 4, &pid, 4);
	memcpy(ev + 8, &driver_loc, 4);
	memcpy(ev + 12, &timeline_loc, 4);
	memcpy(ev + 16, &context, 4);
	memcpy(ev + 20, &seqno, 4);
	memcpy(ev + 24, "drv", 4);
	memcpy(ev + 28, "tl", 3);
	CU_ASSERT_EQUAL(raw_page_add(p, 1000, ev, sizeof(ev)), 0);
}

static int load_fixture_system(struct dat_event_system *sys, const char *name,
			       const char *const *events)
{
	char path[256];
	int i;

	sys->name = strdup(name);
	for (i = 0; events[i]; i++)
		;
	sys->formats = calloc((size_t)i, sizeof(char *));
	for (i = 0; events[i]; i++) {
		snprintf(path, sizeof(path), FMT_DIR "%s/%s/format", name, events[i]);
		sys->formats[i] = fixture_read(path);
		if (!sys->formats[i])
			return -1;
		sys->nr_formats++;
	}
	return 0;
}

static int format_id(const char *fmt)
{
	const char *p = strstr(fmt, "\nID: ");

	return p ? atoi(p + 5) : -1;
}

struct counts {
	int records, signaled, seqno_sum;
	long long missed;
};

static void count_cpu(struct tracecmd_input *h, int cpu, struct counts *c)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_record *rec;

	for (rec = tracecmd_read_cpu_first(h, cpu); rec; rec = tracecmd_read_data(h, cpu)) {
		struct tep_event *ev = tep_find_event_by_record(tep, rec);
		unsigned long long seqno;

		c->records++;
		if (rec->missed_events > 0)
			c->missed += rec->missed_events;
		if (ev && !strcmp(ev->name, "dma_fence_signaled")) {
			c->signaled++;
			if (!tep_get_field_val(NULL, ev, "seqno", rec, &seqno, 0))
				c->seqno_sum += (int)seqno;
		}
		tracecmd_free_record(rec);
	}
}

static void test_libtracecmd_reads_what_we_write(void)
{
	static const char *const fence_events[] = {
		"dma_fence_signaled", "dma_fence_init", "dma_fence_destroy", NULL
	};
	struct dat_event_system fence = { 0 };
	struct raw_page cpu0, cpu1;
	struct gt_error err = { 0 };
	char *hp = fixture_read(FMT_DIR "header_page");
	char *he = fixture_read(FMT_DIR "header_event");
	char path[] = "/tmp/gt-unit-dat-XXXXXX";
	char *stats[2] = { "entries: 0\noverrun: 0\n", "entries: 0\noverrun: 5\n" };
	struct tracecmd_input *h;
	struct counts c = { 0 };
	int fds[2], out, id;
	off_t sizes[2] = { 4096, 4096 };
	const char *comm;
	struct dat_input in;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hp);
	CU_ASSERT_PTR_NOT_NULL_FATAL(he);
	CU_ASSERT_EQUAL_FATAL(load_fixture_system(&fence, "dma_fence", fence_events), 0);
	id = format_id(fence.formats[0]);
	CU_ASSERT_EQUAL(id, 1289);

	raw_page_init(&cpu0, 1000000);
	add_signaled(&cpu0, id, 1234, 7, 1);
	add_signaled(&cpu0, id, 1234, 7, 2);
	raw_page_init(&cpu1, 2000000);
	add_signaled(&cpu1, id, 99, 8, 40);
	raw_page_set_missed(&cpu1, 5);
	fds[0] = temp_file_in("/tmp");
	fds[1] = temp_file_in("/tmp");
	CU_ASSERT_EQUAL(write(fds[0], cpu0.data, 4096), 4096);
	CU_ASSERT_EQUAL(write(fds[1], cpu1.data, 4096), 4096);

	in = (struct dat_input){
		.header_page = hp, .header_event = he,
		.systems = &fence, .nr_systems = 1,
		.printk_formats = "", .cmdlines = "1234 kworker/0:1\n",
		.trace_clock = "local global [mono] mono_raw\n",
		.uname = "Linux host 6.12.0 x86_64", .version = "gpu-trace test",
		.cpu_stats = stats, .nr_cpus = 2, .page_size = 4096,
		.cpu_fds = fds, .cpu_sizes = sizes,
		/* the same pages again as a buffer instance, as record's "workload" */
		.instances = &(struct dat_buffer){ "workload", stats, fds, sizes },
		.nr_instances = 1,
	};
	out = mkstemp(path);
	CU_ASSERT_EQUAL_FATAL(dat_write_v6(out, &in, &err), 0);
	close(out);

	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	count_cpu(h, 0, &c);
	count_cpu(h, 1, &c);
	CU_ASSERT_EQUAL(c.records, 3);
	CU_ASSERT_EQUAL(c.signaled, 3);
	CU_ASSERT_EQUAL(c.seqno_sum, 43);
	CU_ASSERT_EQUAL(c.missed, 5);
	comm = tep_data_comm_from_pid(tracecmd_get_tep(h), 1234);
	CU_ASSERT_STRING_EQUAL(comm, "kworker/0:1");
	CU_ASSERT_EQUAL(tracecmd_get_first_ts(h), 1000000 + 1000);
	CU_ASSERT_EQUAL_FATAL(tracecmd_buffer_instances(h), 1);
	CU_ASSERT_STRING_EQUAL(tracecmd_buffer_instance_name(h, 0), "workload");
	{
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, 0);
		struct counts ci = { 0 };

		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		count_cpu(b, 0, &ci);
		count_cpu(b, 1, &ci);
		CU_ASSERT_EQUAL(ci.records, 3);
		CU_ASSERT_EQUAL(ci.seqno_sum, 43);
		tracecmd_close(b);
	}
	tracecmd_close(h);

	unlink(path);
	close(fds[0]);
	close(fds[1]);
	dat_event_system_free(&fence);
	free(hp);
	free(he);
}

static void test_clock_name(void)
{
	char *c = dat_clock_name("local global [mono] mono_raw\n");

	CU_ASSERT_STRING_EQUAL(c, "mono");
	free(c);
	CU_ASSERT_PTR_NULL(dat_clock_name("local global"));
}

void suite_dat_writer(void)
{
	CU_pSuite s = CU_add_suite("dat-writer", NULL, NULL);

	CU_add_test(s, "libtracecmd reads a v6 file we write", test_libtracecmd_reads_what_we_write);
	CU_add_test(s, "clock name from trace_clock", test_clock_name);
}
