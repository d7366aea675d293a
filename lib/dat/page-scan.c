// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <kbuffer.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dat/page-scan.h"

static void note_pid(struct page_scan *ps, int pid)
{
	int lo = 0, hi = ps->nr_pids;

	/* sorted, so the file's cmdlines can be looked up per pid */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (ps->pids[mid] == pid)
			return;
		if (ps->pids[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (ps->nr_pids == ps->pid_cap) {
		int cap = ps->pid_cap ? ps->pid_cap * 2 : 64;
		int *n = realloc(ps->pids, sizeof(*n) * (size_t)cap);

		if (!n)
			return;
		ps->pids = n;
		ps->pid_cap = cap;
	}
	memmove(ps->pids + lo + 1, ps->pids + lo, sizeof(int) * (size_t)(ps->nr_pids - lo));
	ps->pids[lo] = pid;
	ps->nr_pids++;
}

int page_scan_fd(int fd, int page_size, int long_size, int pid_offset,
		 struct page_scan *ps)
{
	struct kbuffer *kb;
	char *page;
	off_t off = 0;
	int last_pid = -1;

	kb = kbuffer_alloc(long_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
			   KBUFFER_ENDIAN_SAME_AS_HOST);
	page = malloc((size_t)page_size);
	if (!kb || !page) {
		kbuffer_free(kb);
		free(page);
		return -ENOMEM;
	}
	for (;;) {
		unsigned long long ts;
		ssize_t r = pread(fd, page, (size_t)page_size, off);
		void *data;
		int missed;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			kbuffer_free(kb);
			free(page);
			return -e;
		}
		if (r < page_size)
			break;
		off += page_size;
		ps->pages++;
		if (kbuffer_load_subbuffer(kb, page) < 0)
			continue;
		missed = kbuffer_missed_events(kb);
		if (missed > 0)
			ps->missed += (unsigned long long)missed;
		else if (missed < 0)
			ps->missed_unknown = true;
		for (data = kbuffer_read_event(kb, &ts); data;
		     data = kbuffer_next_event(kb, &ts)) {
			ps->events++;
			if (pid_offset >= 0 && kbuffer_event_size(kb) >= pid_offset + 4) {
				int pid;

				memcpy(&pid, (char *)data + pid_offset, sizeof(pid));
				if (pid != last_pid)
					note_pid(ps, pid);
				last_pid = pid;
			}
		}
	}
	kbuffer_free(kb);
	free(page);
	return 0;
}

void page_scan_free(struct page_scan *ps)
{
	free(ps->pids);
	memset(ps, 0, sizeof(*ps));
}

static long field_attr(const char *line_start, const char *attr)
{
	const char *p = strstr(line_start, attr);
	const char *eol = strchr(line_start, '\n');

	if (!p || (eol && p > eol))
		return -1;
	return strtol(p + strlen(attr), NULL, 10);
}

int page_scan_long_size(const char *header_page)
{
	const char *p = header_page ? strstr(header_page, "commit;") : NULL;
	long size;

	if (!p)
		return (int)sizeof(long);
	size = field_attr(p, "size:");
	return size == 4 ? 4 : 8;
}

int page_scan_pid_offset(const char *format)
{
	const char *p = format ? strstr(format, "common_pid;") : NULL;

	return p ? (int)field_attr(p, "offset:") : -1;
}
