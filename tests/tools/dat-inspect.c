// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: what a .dat holds, read independently of gpu-trace's writer.
 * Records and comms come from the public libtracecmd API; the options block
 * (clock, our buffer size) is walked by hand from the documented v6 layout.
 *
 *   dat-inspect FILE   prints: records N / clock C / buffer_kb N / cpus N /
 *                      missed N / comm PID NAME (for every pid with records)
 */
#include <event-parse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

struct reader {
	FILE *f;
	int ok;
};

static uint64_t rd(struct reader *r, size_t n)
{
	uint64_t v = 0;

	if (fread(&v, 1, n, r->f) != n)
		r->ok = 0;
	return v;
}

static void skip(struct reader *r, uint64_t n)
{
	if (fseek(r->f, (long)n, SEEK_CUR))
		r->ok = 0;
}

static void skip_str(struct reader *r)
{
	int c;

	while ((c = fgetc(r->f)) > 0)
		;
	if (c < 0)
		r->ok = 0;
}

static void skip_formats(struct reader *r)
{
	uint32_t n = (uint32_t)rd(r, 4), i;

	for (i = 0; i < n && r->ok; i++)
		skip(r, rd(r, 8));
}

/* Walks to the options of a v6 file and prints the ones tests check. */
static int print_options(const char *path)
{
	struct reader r = { fopen(path, "rb"), 1 };
	char tag[12];
	uint32_t nsys, i;

	if (!r.f)
		return -1;
	skip(&r, 10);
	skip_str(&r);		/* version */
	skip(&r, 2 + 4);	/* endian, long size, page size */
	skip_str(&r);		/* "header_page" */
	skip(&r, rd(&r, 8));
	skip_str(&r);		/* "header_event" */
	skip(&r, rd(&r, 8));
	skip_formats(&r);
	nsys = (uint32_t)rd(&r, 4);
	for (i = 0; i < nsys && r.ok; i++) {
		skip_str(&r);
		skip_formats(&r);
	}
	skip(&r, rd(&r, 4));	/* kallsyms */
	skip(&r, rd(&r, 4));	/* printk */
	skip(&r, rd(&r, 8));	/* cmdlines */
	printf("cpus %u\n", (uint32_t)rd(&r, 4));
	if (fread(tag, 1, 10, r.f) != 10 || strcmp(tag, "options  ")) {
		fclose(r.f);
		return r.ok ? 0 : -1;
	}
	while (r.ok) {
		uint16_t id = (uint16_t)rd(&r, 2);
		uint32_t size;
		char *data;

		if (!id)
			break;
		size = (uint32_t)rd(&r, 4);
		data = calloc(1, size + 1);
		if (!data || fread(data, 1, size, r.f) != size)
			r.ok = 0;
		else if (id == 4 && strchr(data, '['))
			printf("clock %.*s\n", (int)strcspn(strchr(data, '[') + 1, "]"),
			       strchr(data, '[') + 1);
		else if (id == 2 && !strncmp(data, "CPU: 0\n", 7) && strstr(data, "buffer_size_kb: "))
			printf("buffer_kb %s", strstr(data, "buffer_size_kb: ") + 16);
		free(data);
	}
	fclose(r.f);
	return r.ok ? 0 : -1;
}

static int pid_seen(int *pids, int nr, int pid)
{
	int i;

	for (i = 0; i < nr; i++)
		if (pids[i] == pid)
			return 1;
	return 0;
}

struct totals {
	unsigned long long records;
	long long missed;
	int pids[4096], nr_pids;
};

/* Every record of one buffer (the top one or an instance), CPU by CPU. */
static unsigned long long count_buffer(struct tracecmd_input *h, struct totals *t)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	unsigned long long n = 0;
	int cpu;

	for (cpu = 0; cpu < tep_get_cpus(tep); cpu++) {
		struct tep_record *rec;

		for (rec = tracecmd_read_cpu_first(h, cpu); rec;
		     rec = tracecmd_read_data(h, cpu)) {
			int pid = tep_data_pid(tep, rec);

			n++;
			if (rec->missed_events > 0)
				t->missed += rec->missed_events;
			if (t->nr_pids < 4096 && !pid_seen(t->pids, t->nr_pids, pid))
				t->pids[t->nr_pids++] = pid;
			tracecmd_free_record(rec);
		}
	}
	t->records += n;
	return n;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct tep_handle *tep;
	struct totals t = { 0 };
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: dat-inspect FILE\n");
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "dat-inspect: libtracecmd cannot open %s\n", argv[1]);
		return 1;
	}
	tep = tracecmd_get_tep(h);
	count_buffer(h, &t);
	/* instance buffers (record's "workload" buffer): counted in, and each named */
	for (i = 0; i < tracecmd_buffer_instances(h); i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);
		unsigned long long n;

		if (!b) {
			fprintf(stderr, "dat-inspect: %s: buffer %d unreadable\n", argv[1], i);
			return 1;
		}
		n = count_buffer(b, &t);
		printf("buffer %s %llu\n", tracecmd_buffer_instance_name(h, i), n);
		tracecmd_close(b);
	}
	printf("records %llu\nmissed %lld\n", t.records, t.missed);
	for (i = 0; i < t.nr_pids; i++)
		printf("comm %d %s\n", t.pids[i], tep_data_comm_from_pid(tep, t.pids[i]));
	tracecmd_close(h);
	if (print_options(argv[1])) {
		fprintf(stderr, "dat-inspect: %s: malformed v6 header\n", argv[1]);
		return 1;
	}
	return 0;
}
