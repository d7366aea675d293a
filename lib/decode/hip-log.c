// SPDX-License-Identifier: GPL-2.0
/* The HIP runtime's log lines (hip-log.h), as every release has printed them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/hip-log.h"

static const char *const kind_names[HIP_NR_KINDS] = {
	[HIP_OTHER] = "log", [HIP_QUEUE_CREATE] = "queue", [HIP_QUEUE_ACQUIRE] = "acquire",
	[HIP_DISPATCH] = "dispatch", [HIP_SHADER_NAME] = "shader", [HIP_CMD_ENQUEUED] = "enqueued",
	[HIP_CMD_COMPLETE] = "complete", [HIP_COPY] = "copy",
};

const char *hip_kind_name(enum hip_kind kind)
{
	return kind < HIP_NR_KINDS ? kind_names[kind] : "?";
}

static const char *skip_spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A decimal number, at most 19 digits (no overflow); NULL if none. */
static const char *decimal(const char *p, uint64_t *v)
{
	int n = 0;

	*v = 0;
	for (; isdigit((unsigned char)*p) && n < 19; p++, n++)
		*v = *v * 10 + (uint64_t)(*p - '0');
	return n && !isdigit((unsigned char)*p) ? p : NULL;
}

/* "key" followed by a number (0x.. hex, else decimal, '-' allowed); false if absent */
static bool field(const char *msg, const char *key, uint64_t *v)
{
	const char *p = strstr(msg, key);
	char *end;
	int base = 10;

	if (!p)
		return false;
	p = skip_spaces(p + strlen(key));
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16;
	if (!isdigit((unsigned char)*p) && *p != '-')
		return false;
	*v = (uint64_t)strtoull(p, &end, base);
	if (*p == '-')
		*v = (uint64_t)strtoll(p, &end, 10);
	return end != p;
}

static int ifield(const char *msg, const char *key)
{
	uint64_t v = 0;

	field(msg, key, &v);
	return (int)(int64_t)v;
}

/* "key[a, b, c]" */
static void triple(const char *msg, const char *key, uint64_t out[3])
{
	const char *p = strstr(msg, key);
	unsigned long long a, b, c;

	if (p && sscanf(p + strlen(key), " [ %llu , %llu , %llu ]", &a, &b, &c) == 3) {
		out[0] = a;
		out[1] = b;
		out[2] = c;
	}
}

/* Up to the first of `stops` (or the end), without trailing blanks. */
static void copy_word(char *dst, size_t size, const char *src, const char *stops)
{
	size_t n = strcspn(src, stops);

	while (n && (src[n - 1] == ' ' || src[n - 1] == '\t'))
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Wall: a duration in us, or an absolute monotonic time in ns, the command's
 * start: past the line's own time in us (no duration since boot is that
 * long) and, read as ns, close to it (from half of it to a second past)
 */
static void wall(struct hip_line *l, uint64_t v)
{
	if (v <= l->ts_us || v / 1000 < l->ts_us / 2 || v / 1000 > l->ts_us + 1000000) {
		l->wall_us = v <= INT64_MAX ? (int64_t)v : INT64_MAX;
		l->has_wall = true;
		return;
	}
	l->wall_absolute = true;
	if (v / 1000 <= l->ts_us && l->ts_us - v / 1000 <= INT64_MAX) {
		l->wall_us = (int64_t)(l->ts_us - v / 1000);
		l->has_wall = true;
	}
}

static void classify(struct hip_line *l)
{
	const char *m = l->msg, *p;

	if ((p = strstr(m, "Created SWq=")) && strstr(p, "HWq=")) {
		l->kind = HIP_QUEUE_CREATE;
		field(p, "SWq=", &l->swq);
		field(p, "HWq=", &l->hwq);
		l->queue_size = ifield(p, "with size");
		l->priority = ifield(p, "with priority");
		l->cooperative = ifield(p, "cooperative:");
	} else if ((p = strstr(m, "acquireQueue refCount:"))) {
		l->kind = HIP_QUEUE_ACQUIRE;
		field(p, "refCount:", &l->hwq);
		if ((p = strchr(p, '(')))
			l->refcount = atoi(p + 1);
	} else if (strstr(m, "Dispatch Header") && strstr(m, "HWq=")) {
		uint64_t v = 0;

		l->kind = HIP_DISPATCH;
		field(m, "SWq=", &l->swq);
		field(m, "HWq=", &l->hwq);
		field(m, "id=", &l->dispatch_id);
		if (field(m, "Dispatch Header =", &v))
			l->header = (unsigned int)v;
		triple(m, "grid=", l->grid);
		triple(m, "workgroup=", l->workgroup);
		field(m, "kernel_obj=", &l->kernel_obj);
		field(m, "correlation_id=", &l->correlation_id);
		field(m, "rptr=", &l->rptr);
		field(m, "wptr=", &l->wptr);
	} else if ((p = strstr(m, "ShaderName :"))) {
		l->kind = HIP_SHADER_NAME;
		copy_word(l->name, sizeof(l->name), skip_spaces(p + strlen("ShaderName :")), "");
	} else if ((p = strstr(m, "Command (")) && strstr(p, ") enqueued:")) {
		l->kind = HIP_CMD_ENQUEUED;
		copy_word(l->name, sizeof(l->name), p + strlen("Command ("), ")");
		field(p, ") enqueued:", &l->command);
		field(p, "to queue:", &l->to_queue);
	} else if ((p = strstr(m, "Command ")) && strstr(p, " complete (")) {
		uint64_t v = 0;

		l->kind = HIP_CMD_COMPLETE;
		field(p, "Command ", &l->command);
		if (field(p, "Wall:", &v))
			wall(l, v);
		if (field(p, "CPU:", &v) && v <= INT64_MAX) {
			l->cpu_us = (int64_t)v;
			l->has_cpu = true;
		}
		if (field(p, "GPU:", &v) && v <= INT64_MAX) {
			l->gpu_us = (int64_t)v;
			l->has_gpu = true;
		}
	} else if (strstr(m, "Copy") && strstr(m, "dst=") && strstr(m, "src=") &&
		   field(m, "size=", &l->copy_size)) {
		l->kind = HIP_COPY;
	}
}

/* "[pid:1 tid: 0x0abcd]", "[pid:1 tid:0x7f..]", "[tid:0x7f..]", "[7f..]" */
static const char *pid_tid(const char *p, struct hip_line *l)
{
	const char *close = strchr(p, ']'), *t;
	uint64_t v;
	char *end;

	if (*p != '[' || !close)
		return p;
	p++;
	if (!strncmp(p, "pid:", 4) && decimal(p + 4, &v)) {
		l->has_pid = true;
		l->pid = (int)v;
	}
	t = strstr(p, "tid:");
	t = t && t < close ? skip_spaces(t + 4) : p;
	if (t < close && isxdigit((unsigned char)*t)) {
		v = strtoull(t, &end, 16);
		if (end > t && end <= close) {
			l->has_tid = true;
			l->tid = v;
		}
	}
	return close + 1;
}

int hip_log_parse(const char *line, struct hip_line *out)
{
	const char *p = line, *colon;
	uint64_t v;
	int stray;

	memset(out, 0, sizeof(*out));
	if (*p++ != ':' || !(p = decimal(p, &v)) || *p++ != ':' || v > 9)
		return -1;
	out->level = (int)v;
	colon = strchr(p, ':');
	if (!colon)
		return -1;
	while (p < colon && *p == ' ')
		p++;
	copy_word(out->file, sizeof(out->file), p, ":");
	p = skip_spaces(colon + 1);
	if (!(p = decimal(p, &v)))
		return -1;
	out->src_line = (int)v;
	p = skip_spaces(p);
	if (*p++ != ':')
		return -1;
	p = skip_spaces(p);
	if (!(p = decimal(p, &out->ts_us)) || out->ts_us > HIP_LOG_TS_US_MAX)
		return -1;
	/* a stray character or two after the digits ("0476093991d us:") */
	for (stray = 0; *p && *p != ' ' && stray < 2; stray++)
		p++;
	p = skip_spaces(p);
	if (strncmp(p, "us:", 3))
		return -1;
	p = skip_spaces(p + 3);
	p = skip_spaces(pid_tid(p, out));
	out->msg = p;
	classify(out);
	return 0;
}
