// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for hostile format text: a .dat carries its events'
 * formats, so a field's offset, size and type are whatever the file says.
 * Input: a system name line, one format (the text up to a NUL byte; its
 * name picks which decoder reads it: a scheduler, amdgpu, dma_fence, KFD
 * probe, sched fork or ftrace print event), then record bytes (the event id
 * is patched into common_type). The record goes through the GPU decoder,
 * the workload's pid tree and the KFD probe table; every field read must
 * stay inside the record (lib/decode/record-field.h). Then it is printed as
 * `report --events` prints it: a format outside a 4 KB page is refused (as
 * report refuses the file), else the record goes through print_guard_check()
 * and, where that lets it, libtraceevent's printer (our plugin's handlers
 * registered, as report does), else field by field.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-seq.h>

#include "../../lib/decode/gpu-event.h"
#include "../../lib/decode/gpu-plugin.h"
#include "../../lib/decode/print-guard.h"
#include "../../lib/analysis/kfd-queue-table-private.h"
#include "../../lib/analysis/workload-tree-private.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/*
 * libtraceevent 1.7.1 itself crashes parsing some formats (tests/fuzz/upstream):
 * as report parses a file's formats only in its probe child first, so does
 * this, and skips what crashes there.
 */
static bool parses_in_child(const char *fmt, const char *system)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (!pid) {
		struct tep_handle *tep = tep_alloc();

		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		_exit(tep && !tep_parse_event(tep, fmt, strlen(fmt), system) ? 0 : 1);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

/* report --events: the record printed only where the guard lets libtraceevent read it */
static void print_events(struct tep_handle *tep, struct tep_event *ev, struct tep_record *r)
{
	const struct tep_format_field *bad;
	struct print_guard *g;
	struct tep_record *safe;
	struct trace_seq s;
	char why[128];
	bool damaged;

	if (!print_guard_format_fits(ev, 4096, &bad))
		return;
	g = print_guard_new();
	if (!g)
		return;
	gpu_plugin_register(tep, NULL);
	trace_seq_init(&s);
	safe = print_guard_check(g, ev, r, why, sizeof(why), &damaged);
	if (safe)
		tep_print_event(tep, &s, safe, "%s", TEP_PRINT_INFO);
	else
		print_guard_fields(&s, ev, r);
	trace_seq_destroy(&s);
	gpu_plugin_unregister(tep, NULL);
	print_guard_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size, *nl, *nul, *rest;
	struct kfd_queue_table_state kq;
	struct tep_record r = { .ts = 1, .cpu = 0 };
	struct gpu_decoder *dec;
	struct workload_tree_state w;
	struct tep_handle *tep;
	struct gpu_event gev;
	struct tep_event *ev;
	char system[64], *fmt;
	unsigned char *rec;
	uint16_t id;
	size_t n;

	nl = memchr(data, '\n', size < sizeof(system) ? size : sizeof(system));
	if (!nl)
		return 0;
	memcpy(system, data, (size_t)(nl - data));
	system[nl - data] = '\0';
	nul = memchr(nl + 1, '\0', (size_t)(end - (nl + 1)));
	if (!nul)
		return 0;
	fmt = strndup((const char *)nl + 1, (size_t)(nul - (nl + 1)));
	if (!fmt || !parses_in_child(fmt, system)) {
		free(fmt);
		return 0;
	}
	tep = tep_alloc();
	if (!tep)
		goto out;
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	if (tep_parse_event(tep, fmt, strlen(fmt), system) || !(ev = tep_get_first_event(tep)))
		goto out;
	/* the record: what follows the format, its common_type the event's id */
	rest = nul + 1;
	n = (size_t)(end - rest);
	rec = calloc(1, n < 8 ? 8 : n);
	if (!rec)
		goto out;
	memcpy(rec, rest, n);
	id = (uint16_t)ev->id;
	memcpy(rec, &id, 2);
	r.data = rec;
	r.size = (int)n;
	dec = gpu_decoder_new(tep);
	if (dec) {
		gpu_decoder_decode(dec, &r, &gev);
		gpu_decoder_free(dec);
	}
	gpu_event_decode_one(ev, &r, &gev);
	workload_tree_init(&w, tep);
	workload_tree_add_marker(&w.model, "gpu-trace workload: pids=1 comm=x");
	workload_tree_add(&w, &r, ev->id);
	workload_tree_free(&w.model);
	kfd_queue_table_init(&kq, tep);
	if (kq.nr_formats)
		kfd_queue_table_record(&kq, tep, &r, ev->id);
	kfd_queue_table_free(&kq);
	print_events(tep, ev, &r);
	free(rec);
out:
	free(fmt);
	if (tep)
		tep_free(tep);
	return 0;
}
