// SPDX-License-Identifier: GPL-2.0
/*
 * record --kfd-args's probe events (group gpu_trace_<pid>, a different one per
 * recording, so matched by event name in any group whose name says it is ours)
 * as one readable line each: queue type, GPU, ring, priority, and errno names
 * for the answers. The kfd_probes plugin prints them so for trace-cmd report,
 * and report --events through the same handler on its own tep.
 */
#include <event-parse.h>
#include <string.h>

#include "decode/kfd-names.h"
#include "decode/kfd-probe-print.h"
#include "decode/record-field.h"

static const char *const events[] = {
	"kfd_create_queue", "kfd_create_queue_ret", "kfd_destroy_queue", "kfd_destroy_queue_ret",
	"kfd_update_queue", "kfd_update_queue_ret", "kfd_evict_queues", "kfd_evict_queues_ret",
	"kfd_restore_queues", "kfd_restore_queues_ret", NULL
};

static unsigned long long val(struct tep_record *rec, struct tep_event *ev, const char *name,
			      bool *has)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v = 0;

	*has = record_field_num(f, rec, &v);
	return v;
}

#define V(name)	val(rec, ev, name, &has)

static void answer(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev)
{
	char buf[32];
	bool has;
	int ret = (int)(unsigned int)V("ret");
	unsigned long long id = V("queue_id");
	bool has_id = has;

	if (ret) {
		trace_seq_printf(s, "failed: %s", kfd_errno_name(ret, buf, sizeof(buf)));
		return;
	}
	trace_seq_puts(s, "ok");
	if (has_id && strstr(ev->name, "create"))
		trace_seq_printf(s, ": queue %llu doorbell 0x%llx", id, V("doorbell_offset"));
}

int kfd_probe_print(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
		    void *context)
{
	const char *type;
	bool has;

	(void)context;
	/* another tracer's event of the same name: its fields as they are */
	if (strncmp(ev->system, "gpu_trace_", 10)) {
		tep_print_fields(s, rec->data, rec->size, ev);
		return 0;
	}
	if (strstr(ev->name, "_ret")) {
		answer(s, rec, ev);
		return 0;
	}
	if (!strcmp(ev->name, "kfd_create_queue")) {
		type = kfd_queue_type_name((unsigned int)V("type"));
		trace_seq_printf(s, "%s queue on gpu 0x%llx: ring 0x%llx size %llu priority %llu percentage %llu",
				 type ? type : "unknown-type", V("gpu_id"), V("ring"), V("ring_size"),
				 V("priority"), V("percentage"));
	} else if (!strcmp(ev->name, "kfd_update_queue")) {
		trace_seq_printf(s, "queue %llu: ring 0x%llx size %llu priority %llu percentage %llu",
				 V("queue_id"), V("ring"), V("ring_size"), V("priority"), V("percentage"));
	} else if (!strcmp(ev->name, "kfd_destroy_queue")) {
		trace_seq_printf(s, "queue %llu", V("queue_id"));
	} else if (!strcmp(ev->name, "kfd_evict_queues")) {
		trace_seq_printf(s, "process 0x%llx (%s)", V("process"),
				 kfd_trigger_name((unsigned int)V("trigger")));
	} else {
		trace_seq_printf(s, "process 0x%llx", V("process"));
	}
	return 0;
}

bool kfd_probe_prints(const struct tep_event *ev)
{
	int i;

	if (!ev->system || !ev->name || strncmp(ev->system, "gpu_trace_", 10))
		return false;
	for (i = 0; events[i]; i++)
		if (!strcmp(ev->name, events[i]))
			return true;
	return false;
}

void kfd_probe_register(struct tep_handle *tep)
{
	int i;

	for (i = 0; events[i]; i++)
		tep_register_event_handler(tep, -1, NULL, events[i], kfd_probe_print, NULL);
}

void kfd_probe_unregister(struct tep_handle *tep)
{
	int i;

	for (i = 0; events[i]; i++)
		tep_unregister_event_handler(tep, -1, NULL, events[i], kfd_probe_print, NULL);
}
