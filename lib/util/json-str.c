// SPDX-License-Identifier: GPL-2.0
/* The one JSON string writer of every --json / --format json output. */
#include <string.h>

#include "util/json-str.h"
#include "util/utf8.h"

void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)p);

	fputc('"', f);
	while (left) {
		unsigned char c = *p;
		int len = utf8_seq_len(p, left);

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else if (len <= 0)
			/* not UTF-8: JSON text must be; U+FFFD as every strict decoder has it */
			fputs("\\ufffd", f);
		/* C1 controls (UTF-8 C2 80..9F) act on some terminals: escaped too */
		else if (len == 2 && c == 0xc2 && p[1] <= 0x9f)
			fprintf(f, "\\u%04x", p[1]);
		else
			fwrite(p, 1, (size_t)len, f);
		len = len > 0 ? len : (int)utf8_bad_len(p, left);
		p += len;
		left -= (size_t)len;
	}
	fputc('"', f);
}
