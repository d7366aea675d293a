// SPDX-License-Identifier: GPL-2.0
/*
 * The user-queue section of the report, in each format: amdgpu's user-mode
 * queues as the kernel saw them (the user-queues join): each queue's life,
 * its states, the fences its work signaled and what that work waited on.
 */
#include <string.h>

#include "util/json-str.h"
#include "output/perfetto-export.h"
#include "output/report-formats.h"
#include "decode/kfd-names.h"
#include "analysis/user-queues.h"

static const char userq_note[] =
	"work reaches these queues through a doorbell, with no scheduler job: no event marks when the hardware picked it up; a fence's emit -> signaled is the time the kernel saw";

/* a create that failed: never a queue, only the failure is worth a line */
static bool failed(const struct user_queue *q)
{
	return q->has_result && q->result;
}

static const char *type_text(char *buf, size_t len, uint32_t type)
{
	const char *name = userq_type_name(type);

	if (name)
		return name;
	snprintf(buf, len, "type %u", type);
	return buf;
}

static void text_states(struct report *rep, const struct user_queue *q)
{
	char d[32];
	int s, n = 0;

	if (!q->state_known)
		return;
	fprintf(rep->stream, "    states:");
	for (s = 0; s < USERQ_NR_STATES; s++) {
		if (!q->state_ns[s] && !q->entered[s])
			continue;
		fprintf(rep->stream, "%s %s %s ms", n++ ? "," : "", userq_state_name((enum userq_state)s),
			report_us(d, sizeof(d), true, q->state_ns[s] / 1000));
		if (q->entered[s] > 1 || (q->entered[s] && s != USERQ_MAPPED))
			fprintf(rep->stream, " (%ux)", q->entered[s]);
	}
	fprintf(rep->stream, "; %s %s\n", q->destroyed ? "last" : "at the end",
		userq_state_name(q->state));
}

static uint64_t pct(const struct latency_stats *s, double p)
{
	/* the statistics are the report's own: reading a percentile changes nothing shown */
	return latency_stats_percentile((struct latency_stats *)s, p);
}

static void text_work(struct report *rep, const struct user_queue *q)
{
	char p50[32], p99[32], mx[32], d[32];

	fprintf(rep->stream, "    work: %llu fence%s emitted, %llu signaled",
		(unsigned long long)q->emits, report_plural(q->emits),
		(unsigned long long)q->signaled);
	if (q->emit_to_signal.count)
		fprintf(rep->stream, " (emit->signaled p50 %s, p99 %s, max %s us)",
			report_us(p50, sizeof(p50), true, pct(&q->emit_to_signal, 50)),
			report_us(p99, sizeof(p99), true, pct(&q->emit_to_signal, 99)),
			report_us(mx, sizeof(mx), true, q->emit_to_signal.max));
	if (q->pending)
		fprintf(rep->stream, ", %u pending at the end", q->pending);
	if (q->unmapped_pending_ns)
		fprintf(rep->stream, "; %s us not mapped while work was pending",
			report_us(d, sizeof(d), true, q->unmapped_pending_ns));
	fputc('\n', rep->stream);
	if (!q->dep_waits)
		return;
	fprintf(rep->stream, "    dependency waits: %llu", (unsigned long long)q->dep_waits);
	if (q->dep_wait.count)
		fprintf(rep->stream, " (p50 %s, max %s us)",
			report_us(p50, sizeof(p50), true, pct(&q->dep_wait, 50)),
			report_us(mx, sizeof(mx), true, q->dep_wait.max));
	if (q->deps_unresolved)
		fprintf(rep->stream, ", %llu not signaled in the file",
			(unsigned long long)q->deps_unresolved);
	fputc('\n', rep->stream);
}

static void text_queue(struct report *rep, const struct user_queue *q)
{
	char at[32], d[32], t[32], err[32];

	fprintf(rep->stream, "  %s %s queue, doorbell 0x%llx", q->dev[0] ? q->dev : "?",
		type_text(t, sizeof(t), q->type), (unsigned long long)q->doorbell);
	if (q->has_client)
		fprintf(rep->stream, ", client %llu", (unsigned long long)q->client_id);
	if (q->pid)
		fprintf(rep->stream, ", %d %s", q->pid, analysis_comm(rep->analysis, q->pid));
	if (!q->has_create)
		fprintf(rep->stream, ": created before the file");
	else if (!q->has_result)
		fprintf(rep->stream, ": created at %s, no answer in the file", report_ts(at, sizeof(at), q->created));
	else if (q->result)
		fprintf(rep->stream, ": create at %s failed: %s", report_ts(at, sizeof(at), q->created),
			kfd_errno_name(q->result, err, sizeof(err)));
	else
		fprintf(rep->stream, ": created at %s (%s us)", report_ts(at, sizeof(at), q->created),
			report_us(d, sizeof(d), true, q->create_ns));
	if (q->destroyed && !failed(q))
		fprintf(rep->stream, ", destroyed at %s%s%s", report_ts(at, sizeof(at), q->destroyed_at),
			q->destroy_result ? ": " : "",
			q->destroy_result ? kfd_errno_name(q->destroy_result, err, sizeof(err)) : "");
	fputc('\n', rep->stream);
	if (failed(q))
		return;
	text_states(rep, q);
	text_work(rep, q);
}

static void text_userq(struct report *rep)
{
	const struct user_queues *u = user_queues_of(rep->analysis);
	int i;

	if (!u->records)
		return;
	fprintf(rep->stream, "\nUser queues (amdgpu, %d; %s)\n", u->nr, userq_note);
	for (i = 0; i < u->nr; i++)
		text_queue(rep, &u->queues[i]);
	if (u->dropped)
		fprintf(rep->stream, "  (%llu events past the bounds of %d queues and %d pending fences not followed)\n",
			(unsigned long long)u->dropped, USERQ_MAX_QUEUES, USERQ_MAX_PENDING);
	/* the totals above count them; the timeline and the hung list do not */
	if (u->spans_dropped)
		fprintf(rep->stream, "  (%llu state and fence intervals past %d not kept: counted above, not drawn in Perfetto or listed as hangs)\n",
			(unsigned long long)u->spans_dropped, USERQ_MAX_SPANS);
}

static void json_queue(struct report *rep, struct user_queue *q)
{
	FILE *f = rep->stream;
	const char *type = userq_type_name(q->type);
	int s;

	fprintf(f, "{\"dev\":");
	json_str(f, q->dev);
	fprintf(f, ",\"type\":");
	if (type)
		json_str(f, type);
	else
		fputs("null", f);
	fprintf(f, ",\"type_value\":%u,\"doorbell\":%llu,\"xcp_id\":%u,\"client_id\":", q->type,
		(unsigned long long)q->doorbell, q->xcp_id);
	report_json_u64(f, q->has_client, q->client_id);
	fprintf(f, ",\"pid\":%d,\"comm\":", q->pid);
	json_str(f, q->pid ? analysis_comm(rep->analysis, q->pid) : "");
	fprintf(f, ",\"created_ns\":");
	report_json_u64(f, q->has_create, q->created);
	fprintf(f, ",\"create_duration_ns\":");
	report_json_u64(f, q->has_result, q->create_ns);
	fprintf(f, ",\"result\":");
	if (q->has_result)
		fprintf(f, "%d", q->result);
	else
		fputs("null", f);
	fprintf(f, ",\"destroyed_ns\":");
	report_json_u64(f, q->destroyed && !failed(q), q->destroyed_at);
	fprintf(f, ",\"state_at_end\":");
	if (q->state_known)
		json_str(f, userq_state_key(q->state));
	else
		fputs("null", f);
	fprintf(f, ",\"states\":{");
	for (s = 0; s < USERQ_NR_STATES; s++)
		fprintf(f, "%s\"%s\":{\"ns\":%llu,\"entered\":%u}", s ? "," : "",
			userq_state_key((enum userq_state)s), (unsigned long long)q->state_ns[s],
			q->entered[s]);
	fprintf(f, "},\"fences_emitted\":%llu,\"fences_signaled\":%llu,\"pending_at_end\":%u,\"unmapped_pending_ns\":%llu",
		(unsigned long long)q->emits, (unsigned long long)q->signaled, q->pending,
		(unsigned long long)q->unmapped_pending_ns);
	report_json_latency(f, "emit_to_signaled", &q->emit_to_signal);
	fprintf(f, ",\"dependency_waits\":%llu,\"dependencies_unresolved\":%llu",
		(unsigned long long)q->dep_waits, (unsigned long long)q->deps_unresolved);
	report_json_latency(f, "dependency_wait", &q->dep_wait);
	fputc('}', f);
}

static void json_userq(struct report *rep)
{
	struct user_queues *u = user_queues_of(rep->analysis);
	int i;

	fprintf(rep->stream, ",\"user_queues\":");
	if (!user_queues_present(u)) {
		fputs("null", rep->stream);
		return;
	}
	fprintf(rep->stream, "{\"records\":%llu,\"dropped\":%llu,\"spans_dropped\":%llu,\"note\":",
		(unsigned long long)u->records, (unsigned long long)u->dropped,
		(unsigned long long)u->spans_dropped);
	json_str(rep->stream, userq_note);
	fprintf(rep->stream, ",\"queues\":[");
	for (i = 0; i < u->nr; i++) {
		if (i)
			fputc(',', rep->stream);
		json_queue(rep, &u->queues[i]);
	}
	fprintf(rep->stream, "]}");
}

static void csv_userq(struct report *rep)
{
	struct user_queues *u = user_queues_of(rep->analysis);
	FILE *f = rep->stream;
	int i, s;

	if (!u->records)
		return;
	fprintf(f, "\n# user queues\ndev,type,doorbell,client_id,pid,comm,created_ns,result,destroyed_ns,state_at_end");
	for (s = 0; s < USERQ_NR_STATES; s++)
		fprintf(f, ",%s_ns", userq_state_key((enum userq_state)s));
	fprintf(f, ",fences_emitted,fences_signaled,pending_at_end,unmapped_pending_ns,emit_to_signaled_p50_ns,emit_to_signaled_p99_ns,dependency_waits,dependency_wait_max_ns\n");
	for (i = 0; i < u->nr; i++) {
		struct user_queue *q = &u->queues[i];
		char t[32];

		report_csv_text(f, q->dev);
		fputc(',', f);
		report_csv_text(f, type_text(t, sizeof(t), q->type));
		fprintf(f, ",%llu", (unsigned long long)q->doorbell);
		report_csv_u64(f, q->has_client, q->client_id);
		fprintf(f, ",%d,", q->pid);
		report_csv_text(f, q->pid ? analysis_comm(rep->analysis, q->pid) : "");
		report_csv_u64(f, q->has_create, q->created);
		fputc(',', f);
		if (q->has_result)
			fprintf(f, "%d", q->result);
		report_csv_u64(f, q->destroyed && !failed(q), q->destroyed_at);
		fprintf(f, ",%s", q->state_known ? userq_state_key(q->state) : "");
		for (s = 0; s < USERQ_NR_STATES; s++)
			fprintf(f, ",%llu", (unsigned long long)q->state_ns[s]);
		fprintf(f, ",%llu,%llu,%u,%llu", (unsigned long long)q->emits,
			(unsigned long long)q->signaled, q->pending,
			(unsigned long long)q->unmapped_pending_ns);
		report_csv_u64(f, q->emit_to_signal.count, latency_stats_percentile(&q->emit_to_signal, 50));
		report_csv_u64(f, q->emit_to_signal.count, latency_stats_percentile(&q->emit_to_signal, 99));
		fprintf(f, ",%llu", (unsigned long long)q->dep_waits);
		report_csv_u64(f, q->dep_wait.count, q->dep_wait.max);
		fputc('\n', f);
	}
}

const struct report_section report_section_user_queues = {
	.name = "user queues",
	.with_queues = true,
	.write = {
		[REPORT_SECTION_TEXT] = text_userq,
		[REPORT_SECTION_JSON] = json_userq,
		[REPORT_SECTION_CSV] = csv_userq,
	},
	.perfetto = perfetto_user_queues,
	.perfetto_order = 2,
};
