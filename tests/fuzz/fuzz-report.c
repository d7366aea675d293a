// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for everything `gpu-trace report` does with a file: the
 * header check (dat-meta), libtracecmd's reader, the decoders, the timeline
 * and the KFD tracker. Built by `make fuzz` with clang. Inputs of odd length
 * have their zstd chunks decompressed on the thread report starts with a
 * third CPU, whatever CPUs the fuzzing machine has (the zstd mutator keeps a
 * file's length, so a seed's mutants mostly keep its way).
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../lib/dat/dat-meta.h"
#include "../../lib/analysis/analysis-private.h"
#include "memory-cap.h"

static struct dat_meta meta;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gt_error err = { 0 };
	struct analysis a;
	char path[64];
	int fd = memfd_create("fuzz.dat", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		/* report only hands files that pass the header check to libtracecmd */
		if (!analysis_open_dat(&a, path, &meta, NULL, &err)) {
			if (a.stream && size % 2)
				dat_stream_inflate_ahead(a.stream);
			analysis_run(&a, &err);
			analysis_close(&a);
		}
	}
	close(fd);
	fuzz_children_within_cap();
	return 0;
}
