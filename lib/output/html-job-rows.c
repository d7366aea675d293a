// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "output/html-job-rows.h"
#include "output/protobuf.h"

#define NO_TIME		0xffffffffu
#define IN_US		0x80000000u

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* one group of 3 bytes as 4 characters; of @used < 3 bytes, '=' over the places unused */
static void group(char *out, const unsigned char *in, int used)
{
	out[0] = b64[in[0] >> 2];
	out[1] = b64[((in[0] & 3) << 4) | (in[1] >> 4)];
	out[2] = used > 1 ? b64[((in[1] & 15) << 2) | (in[2] >> 6)] : '=';
	out[3] = used > 2 ? b64[in[2] & 63] : '=';
}

static void encode(struct html_job_rows *w, const unsigned char *in, size_t groups)
{
	char out[4 * 256];
	size_t g, n = 0;

	for (g = 0; g < groups; g++, in += 3) {
		group(out + n, in, 3);
		n += 4;
		if (n == sizeof(out) || g + 1 == groups) {
			if (fwrite(out, 1, n, w->out) != n)
				w->failed = true;
			n = 0;
		}
	}
}

static void put(struct html_job_rows *w, const unsigned char *p, size_t len)
{
	size_t whole;

	while (w->nr_carry && len) {
		w->carry[w->nr_carry++] = *p++;
		len--;
		if (w->nr_carry == 3) {
			encode(w, w->carry, 1);
			w->nr_carry = 0;
		}
	}
	whole = len / 3;
	if (whole)
		encode(w, p, whole);
	p += whole * 3;
	len -= whole * 3;
	memcpy(w->carry, p, len);
	w->nr_carry = (int)len;
}

bool html_job_rows_begin(struct html_job_rows *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->keys = tmpfile();
	return w->keys != NULL;
}

static void varint(struct html_job_rows *w, uint64_t v)
{
	uint8_t b[10];
	size_t n = pb_varint(b, v);

	if (fwrite(b, 1, n, w->keys) != n)
		w->failed = true;
}

/* after the first time: ns, us past 2.1 s (no one reads ns there), none */
static uint32_t after(uint64_t t, uint64_t base)
{
	uint64_t d;

	if (!t || t < base)
		return NO_TIME;
	d = t - base;
	if (d < IN_US)
		return (uint32_t)d;
	d /= 1000;
	return d < IN_US - 1 ? IN_US | (uint32_t)d : NO_TIME - 1;
}

static void u16(unsigned char *p, unsigned int v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
}

static void u32(unsigned char *p, uint32_t v)
{
	u16(p, v & 0xffff);
	u16(p + 2, v >> 16);
}


bool html_job_rows_add(struct html_job_rows *w, const struct job *j)
{
	unsigned char row[HTML_JOB_ROW] = { 0 };
	uint64_t t0 = job_first_time(j), bits;
	double first = (double)t0;
	unsigned int kind = j->has_id ? 1 : j->has_fence ? 2 : 0;

	if (j->ring < 0 || j->ring > HTML_JOB_MAX_RING) {
		w->left_out++;
		return false;
	}
	memcpy(&bits, &first, sizeof(bits));
	u32(row, (uint32_t)bits);
	u32(row + 4, (uint32_t)(bits >> 32));
	u16(row + 8, (unsigned int)j->ring);
	u16(row + 10, (j->flags & 0x3fff) | kind << 14);
	u32(row + 12, (uint32_t)j->pid);
	u32(row + 16, after(j->t_submit, t0));
	u32(row + 20, after(j->t_queue, t0));
	u32(row + 24, after(j->t_run, t0));
	u32(row + 28, after(j->t_hw_start, t0));
	u32(row + 32, after(j->t_done, t0));
	u32(row + 36, j->has_lat[LAT_DEP_WAIT] ? after(t0 + j->lat[LAT_DEP_WAIT], t0) : NO_TIME);
	u32(row + 40, j->has_lat[LAT_EXEC] && j->t_hw_start && j->t_done >= j->t_hw_start &&
		      j->lat[LAT_EXEC] < j->t_done - j->t_hw_start ?
		      after(t0 + j->lat[LAT_EXEC], t0) : NO_TIME);
	put(w, row, sizeof(row));
	if (kind == 1)
		varint(w, j->id);
	if (kind == 2) {
		varint(w, j->ctx);
		varint(w, j->seqno);
	}
	w->rows++;
	return true;
}

/* a duration as the rows' u32 times: ns, past 2.1 s us with bit 31 set */
static uint32_t span(uint64_t ns)
{
	if (ns < IN_US)
		return (uint32_t)ns;
	ns /= 1000;
	return ns < IN_US - 1 ? IN_US | (uint32_t)ns : NO_TIME - 1;
}

bool html_job_rows_ioctl(struct html_job_rows *w, const struct html_ioctl *io)
{
	unsigned char row[HTML_IOCTL_ROW] = { 0 };
	double enter = (double)io->enter;
	uint64_t bits;

	if (!w->rows)
		return true;
	if (!w->ioctls && !(w->ioctls = tmpfile()))
		return false;
	memcpy(&bits, &enter, sizeof(bits));
	u32(row, (uint32_t)bits);
	u32(row + 4, (uint32_t)(bits >> 32));
	u32(row + 8, (uint32_t)(w->rows - 1));
	u32(row + 12, span(io->to_queued_ns));
	u32(row + 16, span(io->on_cpu_ns));
	u32(row + 20, span(io->runnable_ns));
	u32(row + 24, span(io->sleeping_ns));
	u32(row + 28, span(io->blocked_ns));
	u32(row + 32, span(io->irq_ns));
	u32(row + 36, (uint32_t)io->tid);
	u16(row + 40, io->name);
	if (fwrite(row, 1, sizeof(row), w->ioctls) != sizeof(row))
		w->failed = true;
	w->nr_ioctls++;
	return true;
}

bool html_job_rows_end(struct html_job_rows *w)
{
	unsigned char last[3] = { 0 };
	char out[4];

	if (w->nr_carry) {
		memcpy(last, w->carry, (size_t)w->nr_carry);
		group(out, last, w->nr_carry);
		if (fwrite(out, 1, 4, w->out) != 4)
			w->failed = true;
		w->nr_carry = 0;
	}
	return !w->failed;
}

/* a temporary file's bytes, base64, onto the page; then the file is closed */
static bool stream(struct html_job_rows *w, FILE **tmp)
{
	unsigned char buf[3 * 4096];
	size_t n;

	if (fflush(*tmp) || fseek(*tmp, 0, SEEK_SET))
		w->failed = true;
	while (!w->failed && (n = fread(buf, 1, sizeof(buf), *tmp)) > 0)
		put(w, buf, n);
	if (ferror(*tmp))
		w->failed = true;
	fclose(*tmp);
	*tmp = NULL;
	return html_job_rows_end(w);
}

bool html_job_rows_keys(struct html_job_rows *w)
{
	if (!w->keys)
		return false;
	return stream(w, &w->keys);
}

bool html_job_rows_ioctls(struct html_job_rows *w)
{
	if (!w->ioctls)
		return !w->failed;
	return stream(w, &w->ioctls);
}

void html_job_rows_free(struct html_job_rows *w)
{
	if (w->keys)
		fclose(w->keys);
	if (w->ioctls)
		fclose(w->ioctls);
	w->keys = NULL;
	w->ioctls = NULL;
}
