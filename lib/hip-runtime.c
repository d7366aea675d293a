// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hip-runtime.h"

static struct hip_proc *proc(struct hip_runtime *h, int pid)
{
	struct hip_proc *p;
	int i;

	for (i = h->nr_procs - 1; i >= 0; i--)
		if (h->procs[i].pid == pid)
			return &h->procs[i];
	p = realloc(h->procs, sizeof(*p) * (size_t)(h->nr_procs + 1));
	if (!p)
		return NULL;
	h->procs = p;
	p = &h->procs[h->nr_procs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	return p;
}

static int add_queue(struct hip_proc *p, const struct hip_line *l, uint64_t ts)
{
	struct hip_queue *q = realloc(p->queues, sizeof(*q) * (size_t)(p->nr_queues + 1));

	if (!q)
		return -1;
	p->queues = q;
	p->queues[p->nr_queues++] = (struct hip_queue){
		.swq = l->swq, .hwq = l->hwq, .size = l->queue_size, .priority = l->priority,
		.cooperative = l->cooperative, .ts = ts,
	};
	return 0;
}

static int add_dispatch(struct hip_proc *p, const struct hip_line *l, uint64_t ts)
{
	struct hip_kernel *k;
	char name[sizeof(k->name)];
	int i;

	if (p->next_name[0])
		snprintf(name, sizeof(name), "%s", p->next_name);
	else
		snprintf(name, sizeof(name), "kernel_obj 0x%llx", (unsigned long long)l->kernel_obj);
	p->next_name[0] = '\0';
	for (i = 0; i < p->nr_kernels; i++)
		if (!strcmp(p->kernels[i].name, name))
			break;
	if (i == p->nr_kernels) {
		k = realloc(p->kernels, sizeof(*k) * (size_t)(p->nr_kernels + 1));
		if (!k)
			return -1;
		p->kernels = k;
		memset(&k[i], 0, sizeof(k[i]));
		snprintf(k[i].name, sizeof(k[i].name), "%s", name);
		k[i].first_ts = ts;
		p->nr_kernels++;
	}
	p->kernels[i].dispatches++;
	p->kernels[i].last_ts = ts;
	return 0;
}

int hip_runtime_add(struct hip_runtime *h, int pid, uint64_t ts, const char *text,
		    struct hip_line *l)
{
	struct hip_proc *p;
	int ret = 0;

	if (text[0] != ':' || hip_log_parse(text, l))
		return 0;
	h->lines++;
	if (h->failed || !(p = proc(h, pid))) {
		h->failed = 1;
		return 1;
	}
	if (!p->lines++)
		p->first_ts = ts;
	p->last_ts = ts;
	p->by_kind[l->kind]++;
	switch (l->kind) {
	case HIP_QUEUE_CREATE:
		ret = add_queue(p, l, ts);
		break;
	case HIP_SHADER_NAME:
		snprintf(p->next_name, sizeof(p->next_name), "%s", l->name);
		break;
	case HIP_DISPATCH:
		ret = add_dispatch(p, l, ts);
		break;
	case HIP_CMD_COMPLETE:
		p->commands_complete++;
		p->gpu_us += l->gpu_us;
		p->wall_us += l->wall_us;
		break;
	case HIP_COPY:
		p->copy_bytes += l->copy_size;
		break;
	default:
		break;
	}
	if (ret)
		h->failed = 1;
	return 1;
}

void hip_runtime_free(struct hip_runtime *h)
{
	int i;

	for (i = 0; i < h->nr_procs; i++) {
		free(h->procs[i].queues);
		free(h->procs[i].kernels);
	}
	free(h->procs);
	memset(h, 0, sizeof(*h));
}
