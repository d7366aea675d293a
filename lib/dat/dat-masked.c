// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dat/dat-format.h"
#include "dat/dat-masked.h"

static int copy_all(int in, int out, uint64_t size)
{
	off_t at = 0;

	while ((uint64_t)at < size) {
		ssize_t n = sendfile(out, in, &at, (size_t)(size - (uint64_t)at) > (1u << 30) ?
						     (1u << 30) : (size_t)(size - (uint64_t)at));

		if (n <= 0)
			return n ? -1 : (errno = EIO, -1);
	}
	return 0;
}

int dat_masked_copy(int in, const char *path, const struct dat_meta *m, struct gt_error *err)
{
	const uint16_t masked = DAT_OPT_MASKED;
	int out, i, e;
	struct stat st;

	out = memfd_create("gpu-trace-masked", MFD_CLOEXEC);
	if (out < 0 || fstat(in, &st) || copy_all(in, out, (uint64_t)st.st_size))
		goto fail;
	for (i = 0; i < m->nr_skipped; i++)
		if (m->skipped[i].at == UINT64_MAX) {
			close(out);
			return gt_error_set(err, ENOTSUP, "%s has an option %u that does not fit its id inside a compressed options section, which cannot be masked: libtracecmd would misread it",
					    path, m->skipped[i].id);
		}
	for (i = 0; i < m->nr_skipped; i++)
		if (m->skipped[i].at + 2 > (uint64_t)st.st_size ||
		    pwrite(out, &masked, 2, (off_t)m->skipped[i].at) != 2)
			goto fail;
	return out;
fail:
	e = errno ? errno : EIO;
	if (out >= 0)
		close(out);
	return gt_error_set(err, e, "cannot make a copy of %s without its misfit options: %s; is memory short?",
			    path, strerror(e));
}
