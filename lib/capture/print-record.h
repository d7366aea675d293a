/* SPDX-License-Identifier: GPL-2.0 */
#ifndef GT_PRINT_RECORD_H
#define GT_PRINT_RECORD_H

#include <stddef.h>
#include <stdint.h>

/*
 * ftrace's print records, as record writes its own lines into the file beside
 * the kernel's (the HIP runtime's log, KFD debugfs and DRM fdinfo snapshots):
 * report reads them back as any trace_marker write.
 */

/* What a print record looks like in this kernel's format. */
struct print_record_format {
	int event_id;			/* events/ftrace/print/format's ID */
	int long_size;			/* the ip field's size */
	uint64_t ip;			/* tracing_mark_write's address, or 0 */
};

/**
 * print_record - one print record's payload (common fields, ip, the text and its NUL) in
 * @rec, which has room for the text + 16 + long_size; returns its length.
 */
size_t print_record(const struct print_record_format *fmt, int pid, const char *text,
		    size_t len, unsigned char *rec);

/** print_record_event_id - the "ID: N" of ftrace print's format text; -1 if absent */
int print_record_event_id(const char *format_text);
/** print_record_ip - tracing_mark_write's address in /proc/kallsyms text; 0 if absent */
uint64_t print_record_ip(const char *kallsyms);

#endif
