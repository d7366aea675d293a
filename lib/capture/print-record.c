// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "capture/print-record.h"

/* common fields (type, flags, preempt count, pid), ip, the text */
size_t print_record(const struct print_record_format *fmt, int pid, const char *text,
		    size_t len, unsigned char *rec)
{
	uint16_t type = (uint16_t)fmt->event_id;
	int32_t pid32 = pid;
	size_t at = 8 + (size_t)fmt->long_size;

	memset(rec, 0, at);
	memcpy(rec, &type, 2);
	memcpy(rec + 4, &pid32, 4);
	memcpy(rec + 8, &fmt->ip, (size_t)fmt->long_size);
	memcpy(rec + at, text, len);
	rec[at + len] = '\0';
	return at + len + 1;
}

int print_record_event_id(const char *text)
{
	const char *p = text ? strstr(text, "\nID:") : NULL;

	return p ? atoi(p + 4) : -1;
}

uint64_t print_record_ip(const char *kallsyms)
{
	const char *p = kallsyms;
	size_t n = strlen(" tracing_mark_write\n");

	while (p && (p = strstr(p, " tracing_mark_write")) != NULL) {
		const char *bol = p;

		if (!strncmp(p, " tracing_mark_write\n", n) || !strncmp(p, " tracing_mark_write\t", n)) {
			while (bol > kallsyms && bol[-1] != '\n')
				bol--;
			return strtoull(bol, NULL, 16);
		}
		p++;
	}
	return 0;
}
