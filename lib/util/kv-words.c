// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "util/kv-words.h"

bool kv_word(const char *line, const char *key, char *out, size_t len)
{
	size_t k = strlen(key), n;
	const char *p = line;

	out[0] = '\0';
	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[k] == '=') {
			p += k + 1;
			n = strcspn(p, " \n");
			if (n >= len)
				n = len - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			if (!strcmp(out, "-"))
				out[0] = '\0';
			return true;
		}
		p += k;
	}
	return false;
}

bool kv_u64(const char *line, const char *key, uint64_t *v)
{
	char word[24], *end;
	unsigned long long n;

	if (!kv_word(line, key, word, sizeof(word)) || !word[0] || word[0] == '-')
		return false;
	n = strtoull(word, &end, 10);
	if (*end)
		return false;
	*v = n;
	return true;
}
