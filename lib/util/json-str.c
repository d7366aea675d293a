// SPDX-License-Identifier: GPL-2.0
/* The one JSON string writer of every --json / --format json output. */
#include "util/json-str.h"

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		/* C1 controls (UTF-8 C2 80..9F) act on some terminals: escaped too */
		else if (c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] <= 0x9f)
			fprintf(f, "\\u%04x", (unsigned char)*++s);
		else
			fputc(c, f);
	}
	fputc('"', f);
}
