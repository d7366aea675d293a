// SPDX-License-Identifier: GPL-2.0
/* KFD's debugfs snapshots (record --kfd-snapshot) read back from print records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kfd-snapshots-private.h"
#include "analysis/analysis.h"

static struct kfd_snapshot *snapshot(struct kfd_snapshots_state *st, int seq, uint64_t ts)
{
	struct kfd_snapshots *k = &st->model;
	struct kfd_snapshot *s;

	if (k->nr && k->snaps[k->nr - 1].seq == seq)
		return &k->snaps[k->nr - 1];
	if (k->nr == k->cap) {
		int cap = k->cap ? k->cap * 2 : 8;
		struct kfd_snapshot *n = realloc(k->snaps, sizeof(*n) * (size_t)cap);

		if (!n)
			return NULL;
		k->snaps = n;
		k->cap = cap;
	}
	s = &k->snaps[k->nr++];
	memset(s, 0, sizeof(*s));
	s->seq = seq;
	s->ts = ts;
	st->cur_mqd = NULL;
	st->cur_hqd = NULL;
	st->cur_pid = 0;
	st->cur_gpu = 0;
	return s;
}

static void *grow(void *arr, int *cap, int nr, size_t size)
{
	int n;
	void *p;

	if (nr < *cap)
		return arr;
	n = *cap ? *cap * 2 : 8;
	p = realloc(arr, size * (size_t)n);
	if (p)
		*cap = n;
	return p;
}

/* "    00000020: 0000abcd 00001234 ...": the words after the offset */
static int hex_words(const char *line, uint32_t *addr, uint32_t *out, int max)
{
	char *end;
	int n = 0;

	*addr = (uint32_t)strtoul(line, &end, 16);
	if (end == line || *end != ':')
		return -1;
	for (line = end + 1; n < max; line = end) {
		unsigned long v = strtoul(line, &end, 16);

		if (end == line)
			break;
		out[n++] = (uint32_t)v;
	}
	return n;
}

static void mqds_line(struct kfd_snapshots_state *k, struct kfd_snapshot *s, const char *line)
{
	uint32_t words[16], addr, gpu;
	int pid, n;

	if (sscanf(line, "Process %d PASID", &pid) == 1) {
		k->cur_pid = pid;
		k->cur_mqd = NULL;
		if (s->nr_processes < (int)(sizeof(s->pids) / sizeof(s->pids[0])))
			s->pids[s->nr_processes] = pid;
		s->nr_processes++;
		return;
	}
	if (sscanf(line, " Compute queue on device %x", &gpu) == 1 ||
	    sscanf(line, " SDMA queue on device %x", &gpu) == 1) {
		struct kfd_mqd *m = grow(s->mqds, &s->cap_mqds, s->nr_mqds, sizeof(*m));

		if (!m)
			return;
		s->mqds = m;
		k->cur_mqd = &s->mqds[s->nr_mqds++];
		memset(k->cur_mqd, 0, sizeof(*k->cur_mqd));
		k->cur_mqd->pid = k->cur_pid;
		k->cur_mqd->gpu_id = gpu;
		k->cur_mqd->sdma = strstr(line, "SDMA") != NULL;
		return;
	}
	n = hex_words(line, &addr, words, 16);
	if (n <= 0 || !k->cur_mqd) {
		if (n < 0)
			k->cur_mqd = NULL;	/* DIQ, bad type: not a user queue's */
		return;
	}
	/* the dump's own offsets place each word: a line lost is a hole, not a shift */
	if (addr % 4 || addr / 4 + (uint32_t)n > KFD_MQD_MAX_WORDS)
		return;
	memcpy(k->cur_mqd->words + addr / 4, words, sizeof(uint32_t) * (size_t)n);
	if ((int)(addr / 4) + n > k->cur_mqd->nr_words)
		k->cur_mqd->nr_words = (int)(addr / 4) + n;
}

static void hqds_line(struct kfd_snapshots_state *k, struct kfd_snapshot *s, const char *line)
{
	uint32_t words[16], addr, gpu;
	int node, inst = 0, pipe, queue, n, i;
	const char *cp = strstr(line, "CP Pipe");

	if (sscanf(line, "Node %d, gpu_id %x", &node, &gpu) == 2) {
		k->cur_gpu = gpu;
		k->cur_hqd = NULL;
		return;
	}
	if (cp && sscanf(cp, "CP Pipe %d, Queue %d", &pipe, &queue) == 2) {
		struct kfd_hqd *h = grow(s->hqds, &s->cap_hqds, s->nr_hqds, sizeof(*h));

		if (!h)
			return;
		s->hqds = h;
		sscanf(line, " Inst %d", &inst);
		k->cur_hqd = &s->hqds[s->nr_hqds++];
		*k->cur_hqd = (struct kfd_hqd){ .gpu_id = k->cur_gpu, .inst = inst, .pipe = pipe,
						.queue = queue, .cp = true };
		return;
	}
	n = hex_words(line, &addr, words, 16);
	if (n < 0) {
		k->cur_hqd = NULL;	/* HIQ, SDMA: not followed */
		return;
	}
	if (!k->cur_hqd)
		return;
	if (!k->cur_hqd->nr_regs)
		k->cur_hqd->first_addr = addr;
	/* only the run from CP_MQD_BASE_ADDR on mirrors the MQD */
	if (addr != k->cur_hqd->first_addr + 4 * (uint32_t)k->cur_hqd->nr_regs)
		return;
	for (i = 0; i < n && k->cur_hqd->nr_regs < KFD_HQD_MAX_REGS; i++)
		k->cur_hqd->regs[k->cur_hqd->nr_regs++] = words[i];
}

static void topology_line(struct kfd_snapshot *s, const char *line)
{
	uint32_t gpu, version;

	if (sscanf(line, "gpu_id %x gfx_target_version %u", &gpu, &version) == 2 &&
	    s->nr_topology < (int)(sizeof(s->topology) / sizeof(s->topology[0]))) {
		s->topology[s->nr_topology].gpu_id = gpu;
		s->topology[s->nr_topology++].gfx_target_version = version;
	}
}

bool kfd_snapshots_line(struct kfd_snapshots_state *k, uint64_t ts, const char *text)
{
	struct kfd_snapshot *s;
	char file[16];
	int seq, at = 0;

	if (strncmp(text, KFD_DEBUGFS_PREFIX, strlen(KFD_DEBUGFS_PREFIX)))
		return false;
	if (sscanf(text + strlen(KFD_DEBUGFS_PREFIX), "%d %15[a-z]:%n", &seq, file, &at) != 2 || !at)
		return true;	/* ours, but not a line we know */
	k->model.lines++;
	s = snapshot(k, seq, ts);
	if (!s)
		return true;
	text += strlen(KFD_DEBUGFS_PREFIX) + (size_t)at;
	if (*text == ' ')
		text++;
	if (!strcmp(file, "snapshot"))
		snprintf(s->why, sizeof(s->why), "%s", text);
	else if (!strcmp(file, "error"))
		snprintf(s->error, sizeof(s->error), "%s", text);
	else if (!strcmp(file, "mqds"))
		mqds_line(k, s, text);
	else if (!strcmp(file, "hqds"))
		hqds_line(k, s, text);
	else if (!strcmp(file, "topology"))
		topology_line(s, text);
	return true;
}

static int generation_of(const struct kfd_snapshot *s, uint32_t gpu)
{
	int i;

	for (i = 0; i < s->nr_topology; i++)
		if (s->topology[i].gpu_id == gpu)
			return kfd_mqd_generation(s->topology[i].gfx_target_version);
	return 0;
}

/* The CP slot whose registers hold this MQD's ring. */
static void find_hqd(const struct kfd_snapshot *s, struct kfd_mqd *m)
{
	int i;

	for (i = 0; i < s->nr_hqds; i++) {
		const struct kfd_hqd *h = &s->hqds[i];
		uint64_t ring;

		if (!h->cp || (h->gpu_id && h->gpu_id != m->gpu_id))
			continue;
		ring = kfd_hqd_ring_base(h->regs, h->nr_regs);
		if (ring && ring == m->ring) {
			m->on_hqd = true;
			m->inst = h->inst;
			m->pipe = h->pipe;
			m->queue = h->queue;
			return;
		}
	}
}

void kfd_snapshots_finish(struct kfd_snapshots_state *st)
{
	struct kfd_snapshots *k = &st->model;
	int i, j;

	for (i = 0; i < k->nr; i++) {
		struct kfd_snapshot *s = &k->snaps[i];

		for (j = 0; j < s->nr_mqds; j++) {
			struct kfd_mqd *m = &s->mqds[j];

			m->generation = generation_of(s, m->gpu_id);
			if (kfd_mqd_decode(m) && !m->sdma)
				find_hqd(s, m);
		}
	}
}

const struct kfd_mqd *kfd_snapshots_find_ring(const struct kfd_snapshots *k, uint64_t ring)
{
	int i, j;

	for (i = k->nr - 1; i >= 0; i--)
		for (j = 0; j < k->snaps[i].nr_mqds; j++)
			if (k->snaps[i].mqds[j].decoded && k->snaps[i].mqds[j].ring == ring)
				return &k->snaps[i].mqds[j];
	return NULL;
}

void kfd_snapshots_free(struct kfd_snapshots_state *st)
{
	struct kfd_snapshots *k = &st->model;
	int i;

	for (i = 0; i < k->nr; i++) {
		free(k->snaps[i].mqds);
		free(k->snaps[i].hqds);
	}
	free(k->snaps);
	memset(st, 0, sizeof(*st));
}

/* The join (analysis-joins.h): record's KFD debugfs snapshots, as print lines */
const struct kfd_snapshots *kfd_snapshots_of(const struct analysis *a)
{
	const struct kfd_snapshots_state *k = analysis_state(a, JOIN_KFD_SNAPSHOTS);

	return k ? &k->model : NULL;
}

static void join_record(void *state, struct analysis *a, struct join_record *r)
{
	(void)a;
	if (!r->taken && r->print && kfd_snapshots_line(state, r->ts, r->print))
		r->taken = true;
}

static void join_finish(void *state, struct analysis *a)
{
	(void)a;
	kfd_snapshots_finish(state);
}

static void join_free(void *state)
{
	kfd_snapshots_free(state);
}

/* ftrace's print lines, when the file has their format */
static uint64_t join_kinds(const void *state, const struct analysis *a)
{
	(void)state;
	return analysis_print_kinds(a);
}

const struct analysis_join kfd_snapshots_join = {
	.name = "KFD debugfs snapshots",
	.state_size = sizeof(struct kfd_snapshots_state),
	.record = join_record,
	.finish = join_finish,
	.free = join_free,
	.kinds = join_kinds,
};
