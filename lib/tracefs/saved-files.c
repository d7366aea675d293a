// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracefs/saved-files.h"

char *saved_value_normalize(const char *name, const char *content)
{
	const char *base = strrchr(name, '/');
	char *out;

	base = base ? base + 1 : name;
	if (!strcmp(base, "trace_clock")) {
		const char *open = strchr(content, '[');
		const char *close = open ? strchr(open, ']') : NULL;

		if (open && close)
			return strndup(open + 1, (size_t)(close - open - 1));
	}
	if (!strcmp(base, "buffer_size_kb")) {
		/* "7 (expanded: 1408)": the size the kernel will really use */
		const char *exp = strstr(content, "expanded: ");

		return strndup(exp ? exp + 10 : content,
			       strspn(exp ? exp + 10 : content, "0123456789"));
	}
	if (!strcmp(base, "filter") && !strncmp(content, "none", 4))
		return strdup("0");
	/* "#### all functions enabled ####" and "no pid" mean empty */
	if (content[0] == '#' || !strncmp(content, "no pid", 6))
		return strdup("");
	out = strdup(content);
	if (out && !trace_file_is_list(base)) {
		size_t n = strlen(out);

		while (n && out[n - 1] == '\n')
			out[--n] = '\0';
	}
	return out;
}

int saved_files_remember(struct saved_files *sf, const char *tracing_dir,
			 const char *name, struct gt_error *err)
{
	struct saved_file *n;
	char *content, *value;
	int i;

	for (i = 0; i < sf->nr; i++)
		if (!strcmp(sf->files[i].name, name))
			return 0;
	content = trace_file_read(tracing_dir, name);
	if (!content)
		return gt_error_set(err, errno, "cannot read %s/%s to save it: %s",
				    tracing_dir, name, strerror(errno));
	value = saved_value_normalize(name, content);
	free(content);
	n = realloc(sf->files, sizeof(*n) * (size_t)(sf->nr + 1));
	if (!value || !n) {
		free(value);
		if (n)
			sf->files = n;
		return gt_error_set(err, ENOMEM, "out of memory saving %s", name);
	}
	sf->files = n;
	sf->files[sf->nr].name = strdup(name);
	sf->files[sf->nr].value = value;
	sf->nr++;
	return sf->journal ? saved_files_journal_write(sf, err) : 0;
}

/*
 * A ring buffer that still reads "7 (expanded: 1408)" was never resized: the
 * kernel's expansion is one way and any size written sets it. Writing the
 * saved 1408 would expand a buffer that nothing used, so such a file is
 * already as it was found.
 */
static bool still_unexpanded(const char *tracing_dir, const char *name)
{
	const char *base = strrchr(name, '/');
	char *now;
	bool yes;

	base = base ? base + 1 : name;
	if (strcmp(base, "buffer_size_kb"))
		return false;
	now = trace_file_read(tracing_dir, name);
	yes = now && strstr(now, "(expanded: ");
	free(now);
	return yes;
}

int saved_files_restore(struct saved_files *sf, const char *tracing_dir,
			struct gt_error *err)
{
	struct gt_error first = { 0 };
	int i, failed = 0;

	for (i = sf->nr - 1; i >= 0; i--) {
		if (still_unexpanded(tracing_dir, sf->files[i].name))
			continue;
		if (trace_file_write(tracing_dir, sf->files[i].name,
				       sf->files[i].value, &first) && !failed++)
			*err = first;
	}
	if (!failed && sf->journal)
		unlink(sf->journal);
	return failed ? -1 : 0;
}

void saved_files_free(struct saved_files *sf)
{
	int i;

	for (i = 0; i < sf->nr; i++) {
		free(sf->files[i].name);
		free(sf->files[i].value);
	}
	free(sf->files);
	free(sf->journal);
	memset(sf, 0, sizeof(*sf));
}

/*
 * Journal: "<name>\n<length>\n<value bytes>\n" per file. Written to a temp
 * name and renamed so a crash never leaves half a journal.
 */
int saved_files_journal_write(const struct saved_files *sf, struct gt_error *err)
{
	char tmp[4200];
	FILE *f;
	int fd, i;

	snprintf(tmp, sizeof(tmp), "%s.tmp", sf->journal);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return gt_error_set(err, errno, "cannot write restore journal %s: %s",
				    tmp, strerror(errno));
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return gt_error_set(err, errno, "cannot write restore journal %s", tmp);
	}
	for (i = 0; i < sf->nr; i++)
		fprintf(f, "%s\n%zu\n%s\n", sf->files[i].name,
			strlen(sf->files[i].value), sf->files[i].value);
	if (fflush(f) || fsync(fd) || fclose(f)) {
		unlink(tmp);
		return gt_error_set(err, errno, "cannot write restore journal %s: %s",
				    tmp, strerror(errno));
	}
	if (rename(tmp, sf->journal))
		return gt_error_set(err, errno, "cannot rename restore journal to %s: %s",
				    sf->journal, strerror(errno));
	return 0;
}

int saved_files_journal_load(struct saved_files *sf, const char *path,
			     struct gt_error *err)
{
	char name[512];
	size_t len;
	FILE *f;
	int fd;

	memset(sf, 0, sizeof(*sf));
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return gt_error_set(err, errno, "cannot read restore journal %s: %s",
				    path, strerror(errno));
	}
	while (fscanf(f, "%511[^\n]\n%zu", name, &len) == 2) {
		struct saved_file *n;
		char *value;

		if (fgetc(f) != '\n' || len > (1u << 24))
			break;
		value = malloc(len + 1);
		n = realloc(sf->files, sizeof(*n) * (size_t)(sf->nr + 1));
		if (!value || !n || fread(value, 1, len, f) != len || fgetc(f) != '\n') {
			free(value);
			if (n)
				sf->files = n;
			break;
		}
		value[len] = '\0';
		sf->files = n;
		sf->files[sf->nr].name = strdup(name);
		sf->files[sf->nr].value = value;
		sf->nr++;
	}
	fclose(f);
	sf->journal = strdup(path);
	return 0;
}
